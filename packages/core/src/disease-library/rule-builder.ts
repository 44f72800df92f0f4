import {
  type Aggregate,
  type FieldKind,
  type Operator,
  PATIENT_FIELDS,
  parseTemplate,
  ruleText,
  SOURCES,
  TemplateError,
} from './template.js';

/**
 * The indicator rule as a person builds it from lists (source, field, aggregate, conditions,
 * window) instead of typing the template text. `choiceToTemplate` writes the text that is saved
 * (the saved format stays one template string per CRF item); `choiceFromTemplate` reads a saved
 * text back into choices when the builder can show it, and says why not otherwise (the screen
 * then keeps the text as it is, in text mode).
 */
export type RuleSource = keyof typeof SOURCES | 'patient';
export const RULE_SOURCES = [
  'lab',
  'diagnosis',
  'visit',
  'order',
  'exam',
  'operation',
  'document',
  'vital',
  'cleaned',
  'patient',
] as const satisfies readonly RuleSource[];

/** `t0`: the patient's T0 of a T0 event (`t0EventId`), the zero point of the library's indicators. */
export type RuleAnchorRef = 'first_visit' | 'first_admission' | 'filing_date' | 't0';
export const RULE_ANCHOR_REFS = ['first_visit', 'first_admission', 'filing_date', 't0'] as const;

export interface RuleChoiceCondition {
  field: string;
  op: Operator;
  /** null while the person has not picked or typed a value yet. */
  value: string | number | null;
}
export interface RuleChoiceAnchor {
  side: 'before' | 'after';
  ref: RuleAnchorRef;
  /** Only within this many days of the reference (null: any time on that side). */
  withinDays: number | null;
  /** The T0 event when `ref` is `t0` (null until one is picked). */
  t0EventId?: number | null;
}
export interface RuleChoice {
  source: RuleSource;
  agg: Aggregate;
  /** null for count and exists, which count rows. */
  field: string | null;
  where: RuleChoiceCondition[];
  /** null: any time. */
  anchor: RuleChoiceAnchor | null;
}

const ORDERED_AGGS: readonly Aggregate[] = ['latest', 'first', 'min', 'max', 'avg', 'count', 'exists'];
const TEXT_OPS: readonly Operator[] = ['=', '!=', 'starts', 'contains'];
const ORDER_OPS: readonly Operator[] = ['=', '!=', '>', '>=', '<', '<='];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const RULE_WITHIN_DAYS_MAX = 36_500;

/** The aggregates a source offers, in the order a person reads them. */
export function aggregatesOf(source: RuleSource): Aggregate[] {
  if (source === 'patient') return ['value'];
  const hasNumber = Object.values(SOURCES[source]!.fields).some((f) => f.kind === 'number');
  return ORDERED_AGGS.filter((a) => a !== 'avg' || hasNumber);
}

/** The fields an aggregate may read from a source (none for count and exists). */
export function fieldsOf(source: RuleSource, agg: Aggregate): string[] {
  if (source === 'patient') return [...PATIENT_FIELDS];
  if (agg === 'count' || agg === 'exists') return [];
  const fields = Object.entries(SOURCES[source]!.fields);
  return fields.filter(([, f]) => agg !== 'avg' || f.kind === 'number').map(([name]) => name);
}

/** The fields a condition may test (every field of the source; patient has none). */
export function conditionFieldsOf(source: RuleSource): string[] {
  return source === 'patient' ? [] : Object.keys(SOURCES[source]!.fields);
}

export function fieldKindOf(source: RuleSource, field: string): FieldKind {
  if (source === 'patient') return field === 'age' ? 'number' : field === 'birth_date' ? 'date' : 'text';
  return SOURCES[source]?.fields[field]?.kind ?? 'text';
}

/** The operators a condition on a field of this kind may use. */
export const operatorsOf = (kind: FieldKind): Operator[] => [...(kind === 'text' ? TEXT_OPS : ORDER_OPS)];

/** A new rule on a source: what a person most often means by it. */
export function defaultChoice(source: RuleSource): RuleChoice {
  switch (source) {
    case 'patient':
      return { source, agg: 'value', field: 'age', where: [], anchor: null };
    case 'lab':
      return {
        source,
        agg: 'latest',
        field: 'value',
        where: [{ field: 'code', op: '=', value: null }],
        anchor: null,
      };
    case 'cleaned':
      return {
        source,
        agg: 'latest',
        field: 'value',
        where: [{ field: 'name', op: '=', value: null }],
        anchor: null,
      };
    case 'diagnosis':
      return {
        source,
        agg: 'exists',
        field: null,
        where: [{ field: 'code', op: 'starts', value: null }],
        anchor: null,
      };
    case 'visit':
      return {
        source,
        agg: 'count',
        field: null,
        where: [{ field: 'kind', op: '=', value: 'inpatient' }],
        anchor: null,
      };
    default:
      return { source, agg: 'latest', field: SOURCES[source]!.defaultField, where: [], anchor: null };
  }
}

/** The rule with another source: that source's default, keeping the window when it still applies. */
export function withSource(choice: RuleChoice, source: RuleSource): RuleChoice {
  const next = defaultChoice(source);
  return source === 'patient' ? next : { ...next, anchor: choice.anchor };
}

/** The rule with another aggregate: the field follows (none for counts, a number for the average). */
export function withAggregate(choice: RuleChoice, agg: Aggregate): RuleChoice {
  const allowed = fieldsOf(choice.source, agg);
  let field: string | null = null;
  if (allowed.length) {
    const def = choice.source === 'patient' ? 'age' : SOURCES[choice.source]!.defaultField;
    field =
      choice.field && allowed.includes(choice.field)
        ? choice.field
        : allowed.includes(def)
          ? def
          : allowed[0]!;
  }
  return { ...choice, agg, field };
}

/** A condition on another field: an operator that fits it and no value yet. */
export function withConditionField(c: RuleChoiceCondition, source: RuleSource, field: string) {
  const ops = operatorsOf(fieldKindOf(source, field));
  return { field, op: ops.includes(c.op) ? c.op : ops[0]!, value: null } satisfies RuleChoiceCondition;
}

export type RuleProblemCode =
  | 'fieldRequired'
  | 'valueRequired'
  | 'numberRequired'
  | 'dateRequired'
  | 'operatorInvalid'
  | 'daysInvalid'
  | 't0Required';
/** What is missing or wrong, and which input shows it: `field`, `where.<i>`, `withinDays` or `t0EventId`. */
export interface RuleProblem {
  at: 'field' | `where.${number}` | 'withinDays' | 't0EventId';
  code: RuleProblemCode;
}

/** The problems of a rule being built; none means `choiceToTemplate` gives a text that parses. */
export function choiceProblems(choice: RuleChoice): RuleProblem[] {
  const out: RuleProblem[] = [];
  const allowed = fieldsOf(choice.source, choice.agg);
  if (allowed.length && (!choice.field || !allowed.includes(choice.field)))
    out.push({ at: 'field', code: 'fieldRequired' });
  choice.where.forEach((c, i) => {
    const at = `where.${i}` as const;
    const kind = fieldKindOf(choice.source, c.field);
    if (!operatorsOf(kind).includes(c.op)) out.push({ at, code: 'operatorInvalid' });
    else if (c.value === null || c.value === '') out.push({ at, code: 'valueRequired' });
    else if (kind === 'number' && (typeof c.value !== 'number' || !Number.isFinite(c.value)))
      out.push({ at, code: 'numberRequired' });
    else if (kind === 'date' && (typeof c.value !== 'string' || !ISO_DATE.test(c.value)))
      out.push({ at, code: 'dateRequired' });
  });
  const days = choice.anchor?.withinDays;
  if (
    days !== null &&
    days !== undefined &&
    (!Number.isInteger(days) || days < 0 || days > RULE_WITHIN_DAYS_MAX)
  )
    out.push({ at: 'withinDays', code: 'daysInvalid' });
  if (choice.anchor?.ref === 't0' && !choice.anchor.t0EventId)
    out.push({ at: 't0EventId', code: 't0Required' });
  return out;
}

/** The template text of a rule (an empty value shows as ""; check `choiceProblems` before saving). */
export function choiceToTemplate(choice: RuleChoice): string {
  return ruleText({
    agg: choice.agg,
    source: choice.source,
    field: choice.field,
    where: choice.where.map((c) => ({ field: c.field, op: c.op, value: c.value ?? '' })),
    anchor: choice.anchor
      ? {
          side: choice.anchor.side,
          // An event not picked yet writes `t0 0`, which does not parse (choiceProblems says why).
          ref: choice.anchor.ref === 't0' ? { t0: choice.anchor.t0EventId ?? 0 } : choice.anchor.ref,
          ...(choice.anchor.withinDays !== null ? { withinDays: choice.anchor.withinDays } : {}),
        }
      : null,
  });
}

export type ReadRule =
  | { ok: true; choice: RuleChoice }
  /** `invalid`: the text does not parse (message in both languages); `params`: it uses
   * {{parameters}}; `dateAnchor`: its window is a fixed date. The builder cannot show it. */
  | { ok: false; reason: 'invalid' | 'params' | 'dateAnchor'; zh?: string; en?: string };

/** Reads a saved template into builder choices when the builder can express it. */
export function choiceFromTemplate(text: string): ReadRule {
  if (/\{\{/.test(text)) return { ok: false, reason: 'params' };
  let rule: ReturnType<typeof parseTemplate>;
  try {
    rule = parseTemplate(text);
  } catch (e) {
    if (e instanceof TemplateError) return { ok: false, reason: 'invalid', zh: e.zh, en: e.message };
    throw e;
  }
  const ref = rule.anchor?.ref;
  if (ref && typeof ref === 'object' && 'date' in ref) return { ok: false, reason: 'dateAnchor' };
  return {
    ok: true,
    choice: {
      source: rule.source as RuleSource,
      agg: rule.agg,
      field: rule.field,
      where: rule.where.map((c) => ({ field: c.field, op: c.op, value: c.value })),
      anchor: rule.anchor
        ? {
            side: rule.anchor.side,
            ref: typeof ref === 'object' ? 't0' : (ref as RuleAnchorRef),
            withinDays: rule.anchor.withinDays ?? null,
            ...(typeof ref === 'object' && 't0' in ref ? { t0EventId: ref.t0 } : {}),
          }
        : null,
    },
  };
}
