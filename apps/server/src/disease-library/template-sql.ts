import { type Anchor, type Condition, type IndicatorRule, resultKind, SOURCES } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/**
 * Compiles an indicator rule to one set-based query: for every patient of a base set `lp`
 * (patient_id, filing_date) it answers at most one row (patient_id, v, row_id, at). Table and
 * column names come from the fixed SOURCES map, never from the template; values are parameters.
 */
export interface ComputedValue {
  patientId: number;
  value: string | number | null;
  /** The source row the value was read from (null for counts and patient fields). */
  rowId: number | null;
  at: string | null;
}

const esc = (s: string) => s.replace(/[%_\\]/g, '\\$&');

function conditionSql(source: string, c: Condition): SQL {
  const def = SOURCES[source]!.fields[c.field]!;
  const col = sql.raw(`t.${def.column}`);
  if (c.op === 'starts') return sql`${col} ilike ${`${esc(String(c.value))}%`}`;
  if (c.op === 'contains') return sql`${col} ilike ${`%${esc(String(c.value))}%`}`;
  const op = sql.raw(c.op === '!=' ? '<>' : c.op);
  if (def.kind === 'date') return sql`${col}::date ${op} ${String(c.value)}::date`;
  return sql`${col} ${op} ${c.value}`;
}

function refSql(a: Anchor): SQL {
  if (typeof a.ref === 'object')
    return 't0' in a.ref
      ? // The patient's T0 of the event (null without one: the patient gets no value).
        sql`(select z.t0 from t0_patients z where z.patient_id = lp.patient_id and z.event_id = ${a.ref.t0})`
      : sql`${a.ref.date}::date`;
  switch (a.ref) {
    case 'first_visit':
      return sql`(select min(v0.admit_at) from visits v0 where v0.patient_id = lp.patient_id and v0.app_id = ${sql.raw('t.app_id')})`;
    case 'first_admission':
      return sql`(select min(v0.admit_at) from visits v0 where v0.patient_id = lp.patient_id and v0.app_id = ${sql.raw('t.app_id')} and v0.kind = 'inpatient')`;
    case 'filing_date':
      return sql`lp.filing_date`;
  }
}

function anchorSql(source: string, a: Anchor): SQL {
  const date = sql.raw(`t.${SOURCES[source]!.fields[SOURCES[source]!.dateField]!.column}`);
  const ref = refSql(a);
  // A date reference covers its whole day; a moment (first visit) is compared as it is.
  const isDay = (typeof a.ref === 'object' && 'date' in a.ref) || a.ref === 'filing_date';
  const parts: SQL[] = [];
  if (a.side === 'before') {
    parts.push(isDay ? sql`${date}::date <= ${ref}` : sql`${date} <= ${ref}`);
    if (a.withinDays !== undefined) parts.push(sql`${date}::date >= (${ref})::date - ${a.withinDays}::int`);
  } else {
    parts.push(isDay ? sql`${date}::date >= ${ref}` : sql`${date} >= ${ref}`);
    if (a.withinDays !== undefined) parts.push(sql`${date}::date <= (${ref})::date + ${a.withinDays}::int`);
  }
  return sql.join(parts, sql` and `);
}

function valueSql(rule: IndicatorRule, column: SQL): SQL {
  const kind = resultKind(rule);
  if (kind === 'date') return sql`to_char(${column}, 'YYYY-MM-DD')`;
  return column;
}

/** The query of a rule over the base set, given as SQL selecting (patient_id, filing_date). */
export function ruleSql(rule: IndicatorRule, appId: number, base: SQL): SQL {
  if (rule.source === 'patient') {
    const expr: Record<string, SQL> = {
      age: sql`case when p.birth_date is null then null else extract(year from age(lp.filing_date, p.birth_date))::int end`,
      gender: sql`p.gender::int`,
      birth_date: sql`to_char(p.birth_date, 'YYYY-MM-DD')`,
      name: sql`p.name`,
      mrn: sql`p.mrn`,
    };
    return sql`select lp.patient_id, ${expr[rule.field!]!} as v, p.id as row_id, null::text as at
      from (${base}) lp join patients p on p.id = lp.patient_id and p.app_id = ${appId}`;
  }
  const def = SOURCES[rule.source]!;
  const table = sql.raw(def.table);
  const dateCol = sql.raw(`t.${def.fields[def.dateField]!.column}`);
  const filters: SQL[] = [sql`t.patient_id = lp.patient_id`, sql`t.app_id = ${appId}`];
  if (def.rowFilter) filters.push(sql.raw(def.rowFilter));
  for (const c of rule.where) filters.push(conditionSql(rule.source, c));
  if (rule.anchor) filters.push(anchorSql(rule.source, rule.anchor));
  const on = sql.join(filters, sql` and `);

  if (rule.agg === 'count' || rule.agg === 'exists') {
    const v = rule.agg === 'count' ? sql`count(t.id)::int` : sql`(count(t.id) > 0)::int`;
    return sql`select lp.patient_id, ${v} as v, null::bigint as row_id, null::text as at
      from (${base}) lp left join ${table} t on ${on} group by lp.patient_id`;
  }
  const col = sql.raw(`t.${def.fields[rule.field!]!.column}`);
  if (rule.agg === 'avg')
    return sql`select lp.patient_id, avg(${col})::float8 as v, null::bigint as row_id, null::text as at
      from (${base}) lp join ${table} t on ${on} where ${col} is not null group by lp.patient_id`;
  const order =
    rule.agg === 'first'
      ? sql`${dateCol} asc, t.id asc`
      : rule.agg === 'latest'
        ? sql`${dateCol} desc, t.id desc`
        : rule.agg === 'min'
          ? sql`${col} asc, ${dateCol} asc, t.id asc`
          : sql`${col} desc, ${dateCol} asc, t.id asc`;
  return sql`select distinct on (lp.patient_id) lp.patient_id, ${valueSql(rule, col)} as v, t.id as row_id,
      to_char(${dateCol}, 'YYYY-MM-DD"T"HH24:MI:SS') as at
    from (${base}) lp join ${table} t on ${on}
    where ${col} is not null ${def.fields[rule.field!]!.kind === 'text' ? sql`and ${col} <> ''` : sql``}
    order by lp.patient_id, ${order}`;
}

/** Runs a rule over a base set and answers one value per patient that has one. */
export async function computeRule(db: Tx, rule: IndicatorRule, appId: number, base: SQL) {
  const rows = rowsOf<{
    patient_id: number | string;
    v: unknown;
    row_id: number | string | null;
    at: string | null;
  }>(await db.execute(ruleSql(rule, appId, base)));
  const kind = resultKind(rule);
  return rows.map(
    (r): ComputedValue => ({
      patientId: Number(r.patient_id),
      value: r.v === null || r.v === undefined ? null : kind === 'number' ? Number(r.v) : String(r.v),
      rowId: r.row_id === null ? null : Number(r.row_id),
      at: r.at,
    }),
  );
}

/** The base set of a library: its patients (optionally some of them) with their filing dates. */
export function libraryBase(libraryId: number, patientIds?: number[]): SQL {
  const some = patientIds?.length
    ? sql` and patient_id in (${sql.join(
        patientIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  return sql`select patient_id, filing_date from disease_library_patients where library_id = ${libraryId}${some}`;
}

/** Patients of the app outside any library, filed today: the template editor's try-out. */
export function patientsBase(appId: number, patientIds: number[]): SQL {
  return sql`select id as patient_id, current_date as filing_date from patients where app_id = ${appId}
    and id in (${sql.join(
      patientIds.map((id) => sql`${id}`),
      sql`, `,
    )})`;
}
