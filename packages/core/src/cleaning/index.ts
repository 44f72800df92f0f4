import { type CleaningRuleDefinition, cleaningRuleDefinition } from '../contracts/cleaning.js';
import type { Locale } from '../messages.js';
import { BUILTIN_CLEANING_RULES } from './builtins.js';

export * from './builtins.js';
export * from './engine.js';
export * from './numbers.js';
export * from './qualifiers.js';
export * from './regex-guard.js';
export * from './sections.js';
export * from './units.js';

/** A built-in rule's reference, as tasks and tests name it. */
export const builtinRef = (key: string) => `builtin:${key}`;

/** The built-in rules with their definitions completed (defaults filled in), named in a language. */
export function builtinRuleSources(locale: Locale = 'zh-CN') {
  return BUILTIN_CLEANING_RULES.map((b) => ({
    ref: builtinRef(b.key),
    key: b.key,
    name: b.name[locale],
    description: b.description[locale],
    definition: cleaningRuleDefinition.parse(b.definition) as CleaningRuleDefinition,
  }));
}
