import {
  type CohortCondition,
  describeCondition,
  type FieldKind,
  type IndicatorRule,
  type Locale,
  parseTemplate,
  type RuleCondition,
  type RuleOp,
  type RuleWhen,
  type RuleWindow,
  resultKind,
  ruleText,
  SOURCES,
  TemplateError,
  wordReason,
} from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import { conditionSql as criterionSql } from '../cohort/compile.js';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import { ruleSql } from '../disease-library/template-sql.js';
import { invalidField } from '../http/errors.js';
import { checkT0Events } from '../t0/refs.js';

/**
 * The rule engine's one evaluator. A condition on an attribute is an indicator template, so its
 * value for every patient of a base set comes from the disease library's compiler
 * (`disease-library/template-sql.ts`, one set-based query); a cohort criterion comes from the
 * cohort compiler (`cohort/compile.ts`). This file only compares those values and combines the
 * outcomes (all/any, groups) in one statement over the whole base set: no loop per patient.
 */

/** A condition after the checks: what to read and how to compare it. */
export type PlannedCondition =
  | {
      path: string;
      kind: 'attribute';
      /** The attribute as the sample values name it (the text as written). */
      key: string;
      rule: IndicatorRule;
      valueKind: FieldKind;
      op: RuleOp;
      value: string | number | null;
    }
  | { path: string; kind: 'criterion'; criterion: CohortCondition };

export interface RulePlan {
  match: 'all' | 'any';
  /** Paths of the top-level conditions. */
  top: string[];
  groups: { path: string; match: 'all' | 'any'; paths: string[] }[];
  conditions: PlannedCondition[];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one: the database's ::date would fail). */
const isDay = (v: unknown) =>
  typeof v === 'string' &&
  ISO_DATE.test(v) &&
  !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
  new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
const ORDER_OPS: RuleOp[] = ['=', '!=', '>', '>=', '<', '<='];

function withWindow(rule: IndicatorRule, w: RuleWindow | null, field: string): IndicatorRule {
  if (!w) return rule;
  if (rule.source === 'patient')
    throw invalidField(
      field,
      '患者字段没有日期，不能限定时间窗',
      'a patient field has no date and takes no time window',
    );
  return {
    ...rule,
    anchor: {
      side: w.side,
      ref: w.ref === 't0' ? { t0: w.t0EventId! } : w.ref,
      ...(w.withinDays !== null ? { withinDays: w.withinDays } : {}),
    },
  };
}

function checkValue(c: Extract<RuleCondition, { kind: 'attribute' }>, kind: FieldKind, field: string) {
  if (c.op === 'exists' || c.op === 'missing') return null;
  const v = c.value;
  if (v === null || v === '')
    throw invalidField(`${field}.value`, '请填写比较的值', 'a value to compare with is required');
  if ((c.op === 'contains' || c.op === 'starts') && kind !== 'text')
    throw invalidField(`${field}.op`, `'${c.op}' 只用于文本属性`, `'${c.op}' works on text attributes only`);
  if (!ORDER_OPS.includes(c.op) && kind !== 'text')
    throw invalidField(`${field}.op`, '运算符不适用于该属性', 'the operator does not fit the attribute');
  if (kind === 'number' && typeof v !== 'number')
    throw invalidField(
      `${field}.value`,
      '该属性是数值，请填写数字',
      'the attribute is a number; give a number',
    );
  if (kind === 'date' && !isDay(v))
    throw invalidField(
      `${field}.value`,
      '该属性是日期，请写成 YYYY-MM-DD',
      'the attribute is a date; write YYYY-MM-DD',
    );
  return kind === 'text' ? String(v) : v;
}

function planCondition(c: RuleCondition, path: string, field: string, t0Ids: number[]): PlannedCondition {
  if (c.kind === 'criterion') return { path, kind: 'criterion', criterion: c.criterion };
  let rule: IndicatorRule;
  try {
    rule = parseTemplate(c.attribute);
  } catch (e) {
    if (e instanceof TemplateError) throw invalidField(`${field}.attribute`, e.zh, e.message);
    throw e;
  }
  const dates = [
    ...rule.where.filter((w) => SOURCES[rule.source]?.fields[w.field]?.kind === 'date').map((w) => w.value),
    ...(rule.anchor && typeof rule.anchor.ref === 'object' && 'date' in rule.anchor.ref
      ? [rule.anchor.ref.date]
      : []),
  ];
  if (dates.some((d) => !isDay(d)))
    throw invalidField(
      `${field}.attribute`,
      '模板中的日期不存在',
      'a date in the template is not a real day',
    );
  rule = withWindow(rule, c.window, `${field}.window`);
  const ref = rule.anchor?.ref;
  if (ref && typeof ref === 'object' && 't0' in ref) t0Ids.push(ref.t0);
  const valueKind = resultKind(rule);
  const value = checkValue(c, valueKind, field);
  return { path, kind: 'attribute', key: c.attribute, rule, valueKind, op: c.op, value };
}

/**
 * Checks a rule's conditions (400 naming the field: `body.when.conditions.0.value`) and plans
 * them. T0 events a window names must be the app's own.
 */
export async function planRule(
  db: Tx,
  appId: number,
  when: RuleWhen,
  field = 'body.when',
): Promise<RulePlan> {
  if (!when.conditions.length && !when.groups.length)
    throw invalidField(`${field}.conditions`, '规则至少需要一个条件', 'a rule needs at least one condition');
  const t0Ids: number[] = [];
  const conditions: PlannedCondition[] = [];
  const top = when.conditions.map((c, i) => {
    conditions.push(planCondition(c, `c${i}`, `${field}.conditions.${i}`, t0Ids));
    return `c${i}`;
  });
  const groups = when.groups.map((g, gi) => ({
    path: `g${gi}`,
    match: g.match,
    paths: g.conditions.map((c, i) => {
      const path = `g${gi}.c${i}`;
      conditions.push(planCondition(c, path, `${field}.groups.${gi}.conditions.${i}`, t0Ids));
      return path;
    }),
  }));
  await checkT0Events(db, appId, t0Ids, field);
  return { match: when.match, top, groups, conditions };
}

const col = (i: number, prefix: string) => sql.raw(`${prefix}${i}`);

/** The comparison of condition i's value `c<i>.v` (null compares as not holding). */
function predicate(c: Extract<PlannedCondition, { kind: 'attribute' }>, i: number): SQL {
  const v = sql.raw(`c${i}.v`);
  const counts = c.rule.agg === 'count' || c.rule.agg === 'exists';
  if (c.op === 'exists') return counts ? sql`coalesce(${v}, 0) > 0` : sql`${v} is not null`;
  if (c.op === 'missing') return counts ? sql`coalesce(${v}, 0) = 0` : sql`${v} is null`;
  if (c.op === 'contains') return sql`${v}::text ilike ${`%${escapeLike(String(c.value))}%`}`;
  if (c.op === 'starts') return sql`${v}::text ilike ${`${escapeLike(String(c.value))}%`}`;
  // The operator is one of the contract's six words, never text from the request.
  const op = sql.raw(c.op === '!=' ? '<>' : c.op);
  if (c.valueKind === 'number') return sql`${v}::float8 ${op} ${c.value}::float8`;
  if (c.valueKind === 'date') return sql`${v}::date ${op} ${c.value}::date`;
  return sql`${v}::text ${op} ${c.value}::text`;
}

/** The literal value of a hand-made sample, typed like the attribute's computed value. */
function sampleValue(
  c: Extract<PlannedCondition, { kind: 'attribute' }>,
  values: Record<string, unknown>,
): SQL {
  const raw = values[c.key] ?? values[ruleText(c.rule)] ?? null;
  if (raw === null || raw === undefined || raw === '') return sql`null::text`;
  if (c.valueKind === 'number') {
    const n = Number(raw);
    return Number.isFinite(n) ? sql`${n}::float8` : sql`null::float8`;
  }
  if (c.valueKind === 'date' && !isDay(raw))
    throw invalidField(
      `body.attributes.${c.key}`,
      '该属性是日期，请写成 YYYY-MM-DD',
      'the attribute is a date; write YYYY-MM-DD',
    );
  return sql`${String(raw)}::text`;
}

const combine = (match: 'all' | 'any', parts: SQL[]) =>
  parts.length ? sql`(${sql.join(parts, match === 'all' ? sql` and ` : sql` or `)})` : sql`true`;

/**
 * One statement answering, for every patient of `base` (SQL selecting patient_id, filing_date),
 * each condition's value `v<i>` and outcome `k<i>`, each group's outcome `g<i>` and `fired`.
 * With `sample` the base is one hand-made row (patient 0) whose values are the sample's.
 */
export function evaluationSql(
  plan: RulePlan,
  appId: number,
  base: SQL,
  sample?: Record<string, unknown>,
): SQL {
  const ctes: SQL[] = [sql`lp as (${base})`];
  const joins: SQL[] = [];
  const cols: SQL[] = [];
  plan.conditions.forEach((c, i) => {
    if (c.kind === 'criterion') {
      cols.push(sql`null::text as ${col(i, 'v')}`);
      // A hand-made sample has no clinical record to look a criterion up in.
      cols.push(
        sample
          ? sql`false as ${col(i, 'k')}`
          : sql`coalesce(${criterionSql(c.criterion)}, false) as ${col(i, 'k')}`,
      );
      return;
    }
    const name = sql.raw(`c${i}`);
    ctes.push(
      sample
        ? sql`${name} as (select 0 as patient_id, ${sampleValue(c, sample)} as v)`
        : sql`${name} as (${ruleSql(c.rule, appId, sql`select patient_id, filing_date from lp`)})`,
    );
    joins.push(sql`left join ${name} on ${name}.patient_id = lp.patient_id`);
    cols.push(sql`${name}.v::text as ${col(i, 'v')}`);
    cols.push(sql`coalesce(${predicate(c, i)}, false) as ${col(i, 'k')}`);
  });
  const k = (path: string) =>
    col(
      plan.conditions.findIndex((c) => c.path === path),
      'k',
    );
  const groupExpr = plan.groups.map((g) => combine(g.match, g.paths.map(k)));
  const fired = combine(plan.match, [...plan.top.map(k), ...groupExpr]);
  const patientJoin = sample ? sql`` : sql`join patients p on p.id = lp.patient_id and p.app_id = ${appId}`;
  const inner = sql`select lp.patient_id, ${sql.join(cols, sql`, `)} from lp ${patientJoin} ${sql.join(joins, sql` `)}`;
  const groupCols = groupExpr.map((g, i) => sql`${g} as ${col(i, 'g')}`);
  return sql`with ${sql.join(ctes, sql`, `)}
    select e.*, ${groupCols.length ? sql`${sql.join(groupCols, sql`, `)}, ` : sql``}${fired} as fired from (${inner}) e`;
}

/** The conditions in words, for the sample panel's explanation. */
export function conditionText(c: PlannedCondition, locale: Locale): string {
  if (c.kind === 'criterion') return wordReason(describeCondition(c.criterion), locale);
  const v =
    c.op === 'exists' || c.op === 'missing'
      ? ''
      : ` ${typeof c.value === 'number' ? c.value : JSON.stringify(c.value)}`;
  return `${ruleText(c.rule)} ${c.op}${v}`;
}

export interface Evaluated {
  patientId: number;
  values: (string | null)[];
  holds: boolean[];
  groups: boolean[];
  fired: boolean;
}

/** Runs the evaluation and reads it back row by row (the sample panel: one row). */
export async function evaluate(
  db: Tx,
  plan: RulePlan,
  appId: number,
  base: SQL,
  sample?: Record<string, unknown>,
): Promise<Evaluated[]> {
  const rows = rowsOf<Record<string, unknown>>(await db.execute(evaluationSql(plan, appId, base, sample)));
  return rows.map((r) => ({
    patientId: Number(r.patient_id),
    values: plan.conditions.map((_, i) => (r[`v${i}`] === null ? null : String(r[`v${i}`]))),
    holds: plan.conditions.map((_, i) => r[`k${i}`] === true),
    groups: plan.groups.map((_, i) => r[`g${i}`] === true),
    fired: r.fired === true,
  }));
}

/** How many patients of the base set a rule fires on, in one statement (a preview; the benchmark). */
export async function countFired(db: Tx, plan: RulePlan, appId: number, base: SQL): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from (${evaluationSql(plan, appId, base)}) e where e.fired`,
    ),
  );
  return Number(row?.n ?? 0);
}
