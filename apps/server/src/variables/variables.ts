import {
  type IndicatorRule,
  parseTemplate,
  ruleText,
  TemplateError,
  type Variable,
  type VariableAggregate,
  type VariableDerivation,
  type VariableDistribution,
  type VariableList,
  type variableCreate,
  variableDerivation,
  type variablePatch,
  type variableQuery,
  variableValue,
} from '@crdp/core';
import { and, asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf, deleteAppRow, nameTaken, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import { crfForms, variables } from '../db/schema/index.js';
import { ruleSql } from '../disease-library/template-sql.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { checkT0Events } from '../t0/refs.js';

type Row = typeof variables.$inferSelect;
type Create = z.output<typeof variableCreate>;
type Patch = z.output<typeof variablePatch>;

export const variableRow = appRowOf(variables, 'variable');
export const ownedVariableIds = ownedIds(variables);
const trail = auditTrail('variable', 'variable');

/** The template language's aggregate for the library's words (last = latest, mean = avg). */
const AGG: Record<VariableAggregate, string> = {
  first: 'first',
  last: 'latest',
  min: 'min',
  max: 'max',
  mean: 'avg',
  count: 'count',
};

/**
 * A derivation as one line of the disease library's indicator template language, with its
 * parameters (item codes travel as parameters, never spliced into the text); null for a CRF item.
 */
function templateOf(d: VariableDerivation): { text: string; params: Record<string, string> } | null {
  switch (d.kind) {
    case 'field':
      return { text: d.rule, params: {} };
    case 'lab': {
      const what = d.aggregate === 'count' ? 'count lab' : `${AGG[d.aggregate]} lab.value`;
      const ref = d.anchor === 't0' ? `t0 ${d.t0EventId ?? 0}` : 'first_visit';
      return {
        text: `${what} where code = {{item}} after ${ref} within ${d.withinDays} days`,
        params: { item: d.itemCode },
      };
    }
    case 'cleaned': {
      const what = d.aggregate === 'count' ? 'count cleaned' : `${AGG[d.aggregate]} cleaned.value`;
      return { text: `${what} where name = {{name}}`, params: { name: d.name } };
    }
    case 'crf':
      return null;
  }
}

/** The indicator rule of a derivation, or a 400 naming the input at fault. */
export function ruleOf(d: VariableDerivation, field = 'body.derivation'): IndicatorRule | null {
  const t = templateOf(d);
  if (!t) return null;
  try {
    return parseTemplate(t.text, t.params);
  } catch (e) {
    if (e instanceof TemplateError)
      throw invalidField(`${field}.${d.kind === 'field' ? 'rule' : 'kind'}`, e.zh, e.message);
    throw e;
  }
}

export const variableView = (r: Row): Variable => {
  const derivation = variableDerivation.parse(r.derivation);
  const rule = ruleOf(derivation);
  return {
    id: r.id,
    code: r.code,
    labelZh: r.labelZh,
    labelEn: r.labelEn,
    type: r.type as Variable['type'],
    unit: r.unit,
    valueSet: z.array(variableValue).parse(r.valueSet),
    description: r.description,
    derivation,
    ruleText: rule ? ruleText(rule) : '',
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
};

export async function listVariables(db: Db, appId: number, q: z.output<typeof variableQuery>) {
  const where: SQL[] = [eq(variables.appId, appId)];
  if (q.q) {
    const like = `%${escapeLike(q.q)}%`;
    where.push(
      or(ilike(variables.code, like), ilike(variables.labelZh, like), ilike(variables.labelEn, like))!,
    );
  }
  if (q.type) where.push(eq(variables.type, q.type));
  const rows = await db
    .select()
    .from(variables)
    .where(and(...where))
    .orderBy(asc(variables.code));
  return { items: rows.map(variableView) } satisfies VariableList;
}

/** Checks what a variable names (its T0 event, its CRF form) belongs to the app, and its code is free. */
async function checkVariable(tx: Tx, appId: number, v: Create, id: number | null) {
  const d = v.derivation;
  if (d.kind === 'lab' && d.anchor === 't0') {
    if (d.t0EventId === null)
      throw invalidField('body.derivation.t0EventId', '请选择 T0 事件', 'choose a T0 event');
    await checkT0Events(tx, appId, [d.t0EventId], 'body.derivation.t0EventId');
  }
  ruleOf(d);
  if (d.kind === 'field') {
    const rule = ruleOf(d)!;
    // A research variable is not who the patient is.
    if (rule.source === 'patient' && (rule.field === 'name' || rule.field === 'mrn'))
      throw invalidField(
        'body.derivation.rule',
        '姓名与病案号不能作为科研变量',
        'the name and the medical record number are not research variables',
      );
    const ref = rule.anchor?.ref;
    if (ref && typeof ref === 'object' && 't0' in ref)
      await checkT0Events(tx, appId, [ref.t0], 'body.derivation.rule');
  }
  if (d.kind === 'crf') {
    const [form] = await tx
      .select({ id: crfForms.id })
      .from(crfForms)
      .where(and(eq(crfForms.appId, appId), eq(crfForms.id, d.formId)));
    if (!form)
      throw invalidField(
        'body.derivation.formId',
        `没有编号为 ${d.formId} 的 CRF 表单`,
        `no CRF form ${d.formId}`,
      );
  }
  if (v.type !== 'category' && v.valueSet.length)
    throw invalidField('body.valueSet', '只有分类变量有值集', 'only a category variable has a value set');
  if (await nameTaken(tx, variables, appId, v.code, id, variables.code))
    throw invalidField('body.code', `变量名 ${v.code} 已存在`, `variable code ${v.code} is taken`);
}

/** Checks, inserts and audits one variable inside the caller's transaction (templates make many). */
export async function insertVariable(tx: Tx, ctx: SignedIn, input: Create): Promise<Variable> {
  await checkVariable(tx, ctx.appId, input, null);
  const [row] = await tx
    .insert(variables)
    .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
    .returning();
  const after = variableView(row!);
  return trail.added(tx, ctx, after.id, after);
}

export async function addVariable(ctx: SignedIn, input: Create): Promise<Variable> {
  return ctx.db.transaction((tx) => insertVariable(tx, ctx, input));
}

export async function editVariable(ctx: SignedIn, id: number, input: Patch): Promise<Variable> {
  return ctx.db.transaction(async (tx) => {
    const before = variableView(await variableRow(tx, ctx.appId, id));
    const next: Create = {
      code: input.code ?? before.code,
      labelZh: input.labelZh ?? before.labelZh,
      labelEn: input.labelEn ?? before.labelEn,
      type: input.type ?? before.type,
      unit: input.unit ?? before.unit,
      valueSet: input.valueSet ?? before.valueSet,
      description: input.description ?? before.description,
      derivation: input.derivation ?? before.derivation,
    };
    await checkVariable(tx, ctx.appId, next, id);
    const row = await updateAppRow(tx, variables, ctx.appId, id, { ...next, updatedAt: new Date() });
    const after = variableView(row!);
    return trail.edited(tx, ctx, id, before, after);
  });
}

export async function deleteVariable(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = variableView(await variableRow(tx, ctx.appId, id));
    await deleteAppRow(tx, variables, ctx.appId, id);
    await trail.deleted(tx, ctx, id, before);
    return true as const;
  });
}

/** The app's patients as the base set of a rule (filed today: a `filing_date` anchor means today). */
const appPatients = (appId: number) =>
  sql`select id as patient_id, current_date as filing_date from patients where app_id = ${appId}`;

/** (patient_id, v) of every app patient with a value: the rule's query, or the latest CRF record's answer. */
export function valuesSql(v: Variable, appId: number): SQL {
  const rule = ruleOf(v.derivation);
  if (rule) return sql`select patient_id, v::text as v from (${ruleSql(rule, appId, appPatients(appId))}) rs`;
  const d = v.derivation as Extract<VariableDerivation, { kind: 'crf' }>;
  return sql`select distinct on (r.patient_id) r.patient_id, r.answers ->> ${d.item} as v
    from crf_records r
    where r.app_id = ${appId} and r.form_id = ${d.formId} and r.patient_id is not null and r.deleted_at is null
    order by r.patient_id, r.updated_at desc, r.id desc`;
}

const NUMBER = `'^\\s*-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?\\s*$'`;
const DATE = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}'`;

/**
 * A variable's values over the app's patients, in one statement each: how many have a value,
 * and min/median/max/mean (numbers, dates) or the most frequent values (categories, text).
 */
export async function variableDistribution(
  db: Tx,
  appId: number,
  id: number,
  locale: 'zh-CN' | 'en-US',
): Promise<VariableDistribution> {
  const v = variableView(await variableRow(db, appId, id));
  const vals = valuesSql(v, appId);
  const [head] = rowsOf<{ patients: number | string; present: number | string }>(
    await db.execute(sql`select (select count(*) from patients where app_id = ${appId}) as patients,
      (select count(*) from (${vals}) x where x.v is not null and x.v <> '') as present`),
  );
  const patients = Number(head!.patients);
  const present = Number(head!.present);
  const out: VariableDistribution = {
    patients,
    present,
    missing: patients - present,
    min: null,
    median: null,
    max: null,
    mean: null,
    categories: [],
    notNumbers: 0,
  };
  if (v.type === 'number') {
    const num = sql.raw(`case when x.v ~ ${NUMBER} then x.v::float8 end`);
    const [r] = rowsOf<Record<string, number | string | null>>(
      await db.execute(sql`select min(${num}) as min, max(${num}) as max, avg(${num}) as mean,
        percentile_cont(0.5) within group (order by ${num}) as median,
        count(*) filter (where x.v is not null and x.v <> '' and ${num} is null) as not_numbers
        from (${vals}) x`),
    );
    const n = (x: unknown) => (x === null || x === undefined ? null : Number(x));
    Object.assign(out, { min: n(r!.min), max: n(r!.max), mean: n(r!.mean), median: n(r!.median) });
    out.notNumbers = Number(r!.not_numbers ?? 0);
  } else if (v.type === 'date') {
    const day = sql.raw(`case when x.v ~ ${DATE} then left(x.v, 10)::date end`);
    const [r] = rowsOf<Record<string, string | null>>(
      await db.execute(sql`select to_char(min(${day}), 'YYYY-MM-DD') as min, to_char(max(${day}), 'YYYY-MM-DD') as max,
        to_char(percentile_disc(0.5) within group (order by ${day}), 'YYYY-MM-DD') as median
        from (${vals}) x`),
    );
    Object.assign(out, { min: r!.min ?? null, max: r!.max ?? null, median: r!.median ?? null });
  } else {
    const rows = rowsOf<{ v: string; n: number | string }>(
      // A free-text value one patient alone holds is not listed (it may say who that patient is).
      await db.execute(sql`select x.v, count(*) as n from (${vals}) x where x.v is not null and x.v <> ''
        group by x.v ${v.type === 'text' ? sql`having count(*) > 1` : sql``}
        order by count(*) desc, x.v limit 50`),
    );
    const labels = new Map(
      v.valueSet.map((c) => [c.code, (locale === 'en-US' ? c.labelEn : c.labelZh) || c.labelZh || c.code]),
    );
    out.categories = rows.map((r) => ({ value: r.v, label: labels.get(r.v) ?? r.v, count: Number(r.n) }));
  }
  return out;
}
