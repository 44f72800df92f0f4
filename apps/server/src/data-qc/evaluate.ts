import type { QcSeverity } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { columnOf, type QcColumn, type QcKind, tableOf } from './catalogue.js';
import { rowsOf } from './inputs.js';
import type { RuleParams } from './rule-check.js';

/** A rule as a task runs it (and keeps a copy of it). */
export interface RunRule {
  name: string;
  tableKey: string;
  kind: QcKind;
  columnKey: string;
  params: RuleParams;
  severity: QcSeverity;
}

/** At most this many faulty rows are kept per rule of a task; the true count is kept too. */
export const FAULT_CAP = 1000;

/** A column's value as text for the fault list: dates as ISO dates, instants in UTC. */
function textOf(col: QcColumn, ref: SQL): SQL {
  switch (col.type) {
    case 'number':
      return sql`${ref}::text`;
    case 'date':
      return sql`to_char(${ref}, 'YYYY-MM-DD')`;
    case 'datetime':
      return sql`to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
    default:
      return ref;
  }
}

const notEmpty = (col: QcColumn, ref: SQL) =>
  col.type === 'text' ? sql`${ref} is not null and btrim(${ref}) <> ''` : sql`${ref} is not null`;

/**
 * Runs one rule over the app's rows as one statement: it counts the rows the rule checks and
 * those at fault, and stores the first `cap` faulty rows (by row id) for the task's report.
 * Table and column names come only from the catalogue; every value is a bound parameter.
 */
export async function evaluateRule(
  tx: Tx,
  at: { appId: number; taskId: number; taskRuleId: number },
  rule: RunRule,
  cap = FAULT_CAP,
) {
  const table = tableOf(rule.tableKey);
  const column = table && columnOf(table, rule.columnKey);
  if (!table || !column) throw new Error(`rule names an unknown column ${rule.tableKey}.${rule.columnKey}`);
  const ref = sql.raw(`t.${column.sql}`);
  const p = rule.params;
  let checked: SQL = sql`true`;
  let fault: SQL;
  let other: SQL = sql`null::text`;
  switch (rule.kind) {
    case 'required':
      fault = column.type === 'text' ? sql`(${ref} is null or btrim(${ref}) = '')` : sql`${ref} is null`;
      break;
    case 'range': {
      checked = sql`${ref} is not null`;
      const parts: SQL[] = [];
      if (p.min !== undefined) parts.push(sql`${ref} < ${p.min}::float8`);
      if (p.max !== undefined) parts.push(sql`${ref} > ${p.max}::float8`);
      fault = parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
      break;
    }
    case 'pattern':
      checked = notEmpty(column, ref);
      fault = sql`not (${ref} ~ ${p.pattern ?? ''})`;
      break;
    case 'allowed': {
      checked = notEmpty(column, ref);
      const values = p.values ?? [];
      const list =
        column.type === 'number'
          ? sql.join(
              values.map((v) => sql`${Number(v)}::float8`),
              sql`, `,
            )
          : sql.join(
              values.map((v) => sql`${v}`),
              sql`, `,
            );
      fault = values.length
        ? column.type === 'number'
          ? sql`${ref}::float8 not in (${list})`
          : sql`btrim(${ref}) not in (${list})`
        : sql`true`;
      break;
    }
    case 'date_order': {
      const second = columnOf(table, p.otherColumn ?? '');
      if (!second) throw new Error(`rule names an unknown column ${rule.tableKey}.${p.otherColumn}`);
      const ref2 = sql.raw(`t.${second.sql}`);
      checked = sql`${ref} is not null and ${ref2} is not null`;
      fault = sql`${ref} > ${ref2}`;
      other = textOf(second, ref2);
      break;
    }
    case 'future_date':
      checked = sql`${ref} is not null`;
      fault = column.type === 'date' ? sql`${ref} > current_date` : sql`${ref} > now()`;
      break;
    default:
      throw new Error(`unknown rule kind ${rule.kind as string}`);
  }
  let filter: SQL = sql``;
  if (p.filterColumn) {
    const fcol = columnOf(table, p.filterColumn);
    if (!fcol) throw new Error(`rule names an unknown filter column ${p.filterColumn}`);
    filter = sql` and ${sql.raw(`t.${fcol.sql}`)} = ${p.filterValue ?? ''}`;
  }
  const from = sql.raw(`${table.sql} t`);
  const patient = sql.raw(`t.${table.patientSql}`);
  const [r] = rowsOf<{ checked: number | string; faults: number | string; stored: number | string }>(
    await tx.execute(sql`with c as (
        select t.id as row_id, ${patient} as patient_id, ${textOf(column, ref)} as value, ${other} as other_value,
          coalesce(${fault}, false) as bad
        from ${from}
        where t.app_id = ${at.appId}${filter} and (${checked})
      ), ins as (
        insert into qc_faults (app_id, task_id, task_rule_id, table_key, row_id, patient_id, value, other_value)
        select ${at.appId}, ${at.taskId}, ${at.taskRuleId}, ${table.key}, row_id, patient_id, value, other_value
        from c where bad order by row_id limit ${cap}
        returning 1
      )
      select (select count(*) from c)::int as checked, (select count(*) from c where bad)::int as faults,
        (select count(*) from ins)::int as stored`),
  );
  return { checked: Number(r?.checked ?? 0), faults: Number(r?.faults ?? 0), stored: Number(r?.stored ?? 0) };
}
