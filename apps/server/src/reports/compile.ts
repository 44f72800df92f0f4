import {
  checkReportValues,
  type ReportDateRange,
  type ReportDefinition,
  type ReportFieldKind,
  type ReportSource,
  type ReportValue,
  reportFieldKind,
} from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import { criteriaSql } from '../cohort/compile.js';
import { escapeLike } from '../db/like.js';
import { badRequest, bilingual } from '../http/errors.js';

/**
 * A report definition (ReportDefinition of @crdp/core, checked before it gets here) compiled to
 * SQL over the CDR. Every name in the SQL comes from the tables below, never from the request;
 * every value is a bound parameter. The rows are always the one app's: the source table and the
 * patient are both filtered on `app_id` (and the caller runs it inside the app's RLS scope).
 */

/** Each source table's SQL name. */
const TABLES: Record<ReportSource, string> = {
  patients: 'patients',
  visits: 'visits',
  diagnoses: 'diagnoses',
  labResults: 'lab_results',
  orders: 'orders',
  operations: 'operations',
  examReports: 'exam_reports',
};

/** A date-kind field that is a point in time (timestamptz) is read as a Beijing date; a date column as it is. */
const DATE_ONLY = new Set(['patients.birthDate']);

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The SQL of a field: `p` is the patient, `r` the source row. */
function fieldSql(source: ReportSource, ref: string): { expr: SQL; kind: ReportFieldKind; instant: boolean } {
  const kind = reportFieldKind(source, ref);
  if (!kind) throw new Error(`report: unchecked field ${ref}`);
  const [table, field] = ref.split('.') as [ReportSource, string];
  const alias = table === 'patients' ? 'p' : 'r';
  const expr =
    ref === 'patients.age'
      ? sql`extract(year from age(current_date, p.birth_date))::int`
      : sql.raw(`${alias}."${snake(field)}"`);
  return { expr, kind, instant: kind === 'date' && !DATE_ONLY.has(ref) };
}

/** A point in time as the Beijing calendar day's timestamp, to compare with dates. */
const local = (f: { expr: SQL; instant: boolean }) =>
  f.instant ? sql`(${f.expr} at time zone 'Asia/Shanghai')` : sql`${f.expr}`;

/** What a cell shows: dates as text (Beijing time), numbers as numbers, codes as they are. */
function cellSql(f: { expr: SQL; kind: ReportFieldKind; instant: boolean }): SQL {
  if (f.kind === 'date')
    return f.instant
      ? sql`to_char(${local(f)}, 'YYYY-MM-DD HH24:MI')`
      : sql`to_char(${f.expr}, 'YYYY-MM-DD')`;
  if (f.kind === 'number') return sql`${f.expr}::float8`;
  if (f.kind === 'gender') return sql`${f.expr}::int`;
  return sql`${f.expr}`;
}

/** "Holds something": not null, and for text not empty. */
function filledSql(f: { expr: SQL; kind: ReportFieldKind }): SQL {
  return f.kind === 'text' ? sql`coalesce(${f.expr}, '') <> ''` : sql`${f.expr} is not null`;
}

function filterSql(source: ReportSource, field: string, op: string, v: ReportValue): SQL | null {
  const f = fieldSql(source, field);
  const day = (d: string) => sql`${d}::date`;
  switch (op) {
    case 'eq':
      return f.kind === 'text' ? sql`${f.expr} = ${String(v)}` : sql`${f.expr} = ${Number(v)}`;
    case 'prefix':
      return sql`${f.expr} ilike ${`${escapeLike(String(v))}%`}`;
    case 'contains':
      return sql`${f.expr} ilike ${`%${escapeLike(String(v))}%`}`;
    case 'gte':
      return f.kind === 'date' ? sql`${local(f)} >= ${day(String(v))}` : sql`${f.expr} >= ${Number(v)}`;
    case 'lte':
      return f.kind === 'date' ? sql`${local(f)} < ${day(String(v))} + 1` : sql`${f.expr} <= ${Number(v)}`;
    case 'between': {
      const r = v as ReportDateRange;
      const parts: SQL[] = [];
      if (r.from) parts.push(sql`${local(f)} >= ${day(r.from)}`);
      if (r.to) parts.push(sql`${local(f)} < ${day(r.to)} + 1`);
      return parts.length ? sql.join(parts, sql` and `) : null;
    }
  }
  return null;
}

const isEmpty = (v: ReportValue | undefined) =>
  v === undefined || v === '' || (typeof v === 'object' && !v.from && !v.to);

/** The values checked against the report's parameters; a bad one is a 400 naming it. */
export function checkValues(d: ReportDefinition, values: Record<string, ReportValue>) {
  const [issue] = checkReportValues(d.params, values);
  if (issue)
    throw badRequest(bilingual(`${issue.path}: ${issue.zh}`, `${issue.path}: ${issue.en}`), issue.path);
}

export interface CompiledReport {
  /** `from … where …` of the rows (aliases `r` and `p`). */
  from: SQL;
  columns: Array<{ ref: string; kind: ReportFieldKind; cell: SQL; filled: SQL }>;
  orderBy: SQL;
}

/** The report's rows for one app and a set of parameter values (checked by `checkValues`). */
export function compileReport(
  appId: number,
  d: ReportDefinition,
  values: Record<string, ReportValue>,
): CompiledReport {
  const where: SQL[] = [];
  const base =
    d.source === 'patients'
      ? sql`from patients p where p.app_id = ${appId}`
      : sql`from ${sql.raw(TABLES[d.source])} r join patients p on p.id = r.patient_id and p.app_id = ${appId} where r.app_id = ${appId}`;
  if (d.criteria.inclusion.length || d.criteria.exclusion.length) where.push(criteriaSql(d.criteria));
  for (const f of d.filters) {
    const v = f.param !== undefined ? values[f.param] : f.value;
    if (isEmpty(v)) continue;
    const s = filterSql(d.source, f.field, f.op, v!);
    if (s) where.push(s);
  }
  const columns = d.columns.map((ref) => {
    const f = fieldSql(d.source, ref);
    return { ref, kind: f.kind, cell: cellSql(f), filled: filledSql(f) };
  });
  const id = d.source === 'patients' ? sql`p.id` : sql`r.id`;
  const orderBy = d.sort
    ? sql`${fieldSql(d.source, d.sort.column).expr} ${sql.raw(d.sort.desc ? 'desc nulls last' : 'asc nulls last')}, ${id}`
    : id;
  return {
    from: where.length ? sql`${base} and ${sql.join(where, sql` and `)}` : base,
    columns,
    orderBy,
  };
}
