import {
  builtinRuleSources,
  type CleaningRule,
  type CleaningRuleDefinition,
  CleaningRuleError,
  type CleaningRuleSource,
  type CompiledRule,
  type cleaningRuleInput,
  compileRule,
  type Locale,
} from '@crdp/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditSwitched } from '../audit/audit.js';
import { appRowOf, appRows } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { cleaningRules } from '../db/schema/index.js';
import { clashAs } from '../db/unique.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, forbiddenFunction, invalidField } from '../http/errors.js';

/**
 * Cleaning rules: the built-in ones of @crdp/core (every app has them, read-only) and the app's
 * own (cleaning_rules). Lists, tests and tasks name a rule by its ref: `builtin:<key>` or
 * `rule:<id>`.
 */

type Row = typeof cleaningRules.$inferSelect;
type RuleInput = z.output<typeof cleaningRuleInput>;

/** The functions that read rules: any screen of the area that shows or runs them. */
export const RULE_READERS = [
  'DataCleanRulesConfiguration.query',
  'DataCleanSyntacticRules.query',
  'DataCleanRegText.query',
  'DataCleanSentenceTest.query',
  'DataCleanManySentenceTest.query',
  'DataCleanParagraphClean.query',
  'DataCleanManyTest.query',
  'DataCleanCleaningTasks.add',
  'DataCleanTasksList.query',
] as const;

/** Who writes rules of a kind: the rules page, or the kind's own editor page. */
export const ruleWriters = (kind: string, action: 'add' | 'edit' | 'delete') => [
  `DataCleanRulesConfiguration.${action}`,
  kind === 'regex' ? `DataCleanRegText.query` : `DataCleanSyntacticRules.${action}`,
];

/** The caller holds one of the functions, else 403 naming the first. */
export function needAny(ctx: SignedIn, apiIds: readonly string[]) {
  if (!apiIds.some((id) => ctx.apiIds.has(id))) throw forbiddenFunction(apiIds[0]!);
}

const view = (r: Row): CleaningRule => ({
  ref: `rule:${r.id}`,
  id: r.id,
  builtinKey: '',
  name: r.name,
  description: r.description,
  enabled: r.enabled,
  definition: r.definition as CleaningRuleDefinition,
  updatedAt: r.updatedAt.toISOString(),
});

export function builtinRules(locale: Locale): CleaningRule[] {
  return builtinRuleSources(locale).map((b) => ({
    ref: b.ref,
    id: null,
    builtinKey: b.key,
    name: b.name,
    description: b.description,
    enabled: true,
    definition: b.definition,
    updatedAt: null,
  }));
}

export async function listRules(db: Db, appId: number, locale: Locale) {
  const rows = await appRows(db, cleaningRules, appId, asc(cleaningRules.id));
  return { items: [...builtinRules(locale), ...rows.map(view)] };
}

export const ruleRow = appRowOf(cleaningRules, 'cleaning_rule');

export const ownedRuleIds = async (db: Db, appId: number) =>
  (
    await db.select({ ruleId: cleaningRules.id }).from(cleaningRules).where(eq(cleaningRules.appId, appId))
  ).map((r) => ({ ruleId: r.ruleId }));

/** Compiles a definition or answers 400 naming the field inside it. */
export function compileChecked(source: CleaningRuleSource, field: string): CompiledRule {
  try {
    return compileRule(source);
  } catch (e) {
    if (e instanceof CleaningRuleError) throw invalidField(`${field}.${e.field}`, e.zh, e.message);
    throw e;
  }
}

const nameTaken = (name: string) =>
  new AppError(409, 'request.conflict', {
    detail: bilingual(`已有名为“${name}”的清洗规则`, `a cleaning rule named “${name}” already exists`),
  });

export async function createRule(ctx: SignedIn, input: RuleInput) {
  needAny(ctx, ruleWriters(input.definition.kind, 'add'));
  compileChecked({ ref: 'rule:0', name: input.name, definition: input.definition }, 'body.definition');
  return ctx.db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(cleaningRules)
        .values({
          appId: ctx.appId,
          name: input.name,
          description: input.description,
          kind: input.definition.kind,
          definition: input.definition,
          createdBy: ctx.userId,
        })
        .returning();
      await audit(tx, ctx, {
        action: 'create',
        entity: 'cleaning_rule',
        entityId: row!.id,
        after: view(row!),
      });
      return view(row!);
    })
    .catch(clashAs(() => nameTaken(input.name)));
}

export async function updateRule(ctx: SignedIn, id: number, input: RuleInput) {
  compileChecked({ ref: `rule:${id}`, name: input.name, definition: input.definition }, 'body.definition');
  return ctx.db
    .transaction(async (tx) => {
      const before = await ruleRow(tx, ctx.appId, id);
      needAny(ctx, ruleWriters(before.kind, 'edit'));
      if (before.kind !== input.definition.kind)
        throw invalidField(
          'body.definition.kind',
          '规则类型不能更改，请新建一条规则',
          'the kind of a rule cannot change; add a new rule instead',
        );
      const [row] = await tx
        .update(cleaningRules)
        .set({
          name: input.name,
          description: input.description,
          definition: input.definition,
          updatedAt: new Date(),
        })
        .where(eq(cleaningRules.id, id))
        .returning();
      await audit(tx, ctx, {
        action: 'update',
        entity: 'cleaning_rule',
        entityId: id,
        before: view(before),
        after: view(row!),
      });
      return view(row!);
    })
    .catch(clashAs(() => nameTaken(input.name)));
}

export async function setRuleEnabled(ctx: SignedIn, id: number, enabled: boolean) {
  return ctx.db.transaction(async (tx) => {
    const before = await ruleRow(tx, ctx.appId, id);
    const [row] = await tx
      .update(cleaningRules)
      .set({ enabled, updatedAt: new Date() })
      .where(eq(cleaningRules.id, id))
      .returning();
    await auditSwitched(tx, ctx, 'cleaning_rule', id, before.enabled, enabled);
    return view(row!);
  });
}

export async function deleteRule(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await ruleRow(tx, ctx.appId, id);
    needAny(ctx, ruleWriters(before.kind, 'delete'));
    await tx.delete(cleaningRules).where(eq(cleaningRules.id, id));
    await audit(tx, ctx, { action: 'delete', entity: 'cleaning_rule', entityId: id, before: view(before) });
    return { id };
  });
}

/**
 * The rules a test or task names, as sources in the order named (a draft last), compiled.
 * An unknown ref is a 400 on `field`; a disabled rule of the app may still be tried out.
 */
export async function resolveRules(
  db: Tx,
  appId: number,
  locale: Locale,
  refs: readonly string[],
  field: string,
  draft: RuleInput | null = null,
): Promise<{ sources: CleaningRuleSource[]; compiled: CompiledRule[] }> {
  const builtins = new Map(builtinRuleSources(locale).map((b) => [b.ref, b]));
  const ids = refs.filter((r) => r.startsWith('rule:')).map((r) => Number(r.slice(5)));
  const rows = ids.length
    ? await db
        .select()
        .from(cleaningRules)
        .where(and(eq(cleaningRules.appId, appId), inArray(cleaningRules.id, ids)))
    : [];
  const byRef = new Map(rows.map((r) => [`rule:${r.id}`, r]));
  const sources: CleaningRuleSource[] = [];
  const seen = new Set<string>();
  refs.forEach((ref, i) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    const b = builtins.get(ref);
    const r = byRef.get(ref);
    if (b) sources.push({ ref, name: b.name, definition: b.definition });
    else if (r) sources.push({ ref, name: r.name, definition: r.definition as CleaningRuleDefinition });
    else throw invalidField(`${field}.${i}`, `没有清洗规则 ${ref}`, `there is no cleaning rule ${ref}`);
  });
  if (draft) sources.push({ ref: 'draft', name: draft.name, definition: draft.definition });
  const compiled = sources.map((s) =>
    compileChecked(s, s.ref === 'draft' ? 'body.draft.definition' : `${field}.${sources.indexOf(s)}`),
  );
  return { sources, compiled };
}

/** The app's enabled rules and every built-in one: what a test runs when it names none. */
export async function defaultRefs(db: Tx, appId: number) {
  const rows = await db
    .select({ id: cleaningRules.id })
    .from(cleaningRules)
    .where(and(eq(cleaningRules.appId, appId), eq(cleaningRules.enabled, true)))
    .orderBy(asc(cleaningRules.id));
  return [...builtinRuleSources().map((b) => b.ref), ...rows.map((r) => `rule:${r.id}`)];
}
