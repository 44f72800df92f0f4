import type { CohortCondition, CohortCriteria } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/**
 * Compiles the shared condition builder (CohortCriteria of @crdp/core) to SQL over the CDR.
 * Every condition is an EXISTS (or a predicate) on `p`, a row of `patients`; the query is always
 * scoped to one app, so a criteria set can never reach another hospital's patients.
 */
function window(column: SQL, c: { from?: string | undefined; to?: string | undefined }) {
  const parts: SQL[] = [];
  if (c.from) parts.push(sql`${column} >= ${c.from}::date`);
  if (c.to) parts.push(sql`${column} < (${c.to}::date + 1)`);
  return parts.length ? sql` and ${sql.join(parts, sql` and `)}` : sql``;
}

export function conditionSql(c: CohortCondition): SQL {
  switch (c.kind) {
    case 'diagnosis': {
      const codes = sql.join(
        c.codes.map((code) => sql`d.icd10 ilike ${`${code.replace(/[%_\\]/g, '\\$&')}%`}`),
        sql` or `,
      );
      return sql`exists (select 1 from diagnoses d where d.patient_id = p.id and d.app_id = p.app_id
        and (${codes})${window(sql`d.diagnosed_at`, c)})`;
    }
    case 'lab': {
      const bounds: SQL[] = [sql`l.value_num is not null`];
      if (c.min !== undefined) bounds.push(sql`l.value_num >= ${c.min}`);
      if (c.max !== undefined) bounds.push(sql`l.value_num <= ${c.max}`);
      return sql`exists (select 1 from lab_results l where l.patient_id = p.id and l.app_id = p.app_id
        and l.item_code = ${c.itemCode} and ${sql.join(bounds, sql` and `)}${window(sql`l.collected_at`, c)})`;
    }
    case 'age': {
      const age = sql`extract(year from age(current_date, p.birth_date))`;
      const parts: SQL[] = [sql`p.birth_date is not null`];
      if (c.min !== undefined) parts.push(sql`${age} >= ${c.min}`);
      if (c.max !== undefined) parts.push(sql`${age} <= ${c.max}`);
      return sql`(${sql.join(parts, sql` and `)})`;
    }
    case 'gender':
      return sql`p.gender in (${sql.join(
        c.codes.map((g) => sql`${g}`),
        sql`, `,
      )})`;
    case 'visit':
      return sql`exists (select 1 from visits v where v.patient_id = p.id and v.app_id = p.app_id
        and v.kind in (${sql.join(
          c.visitKinds.map((k) => sql`${k}`),
          sql`, `,
        )})${window(sql`v.admit_at`, c)})`;
    case 'documentText':
      return sql`exists (select 1 from documents doc where doc.patient_id = p.id and doc.app_id = p.app_id
        and (doc.body ilike ${`%${c.text.replace(/[%_\\]/g, '\\$&')}%`}
          or doc.title ilike ${`%${c.text.replace(/[%_\\]/g, '\\$&')}%`})${window(sql`doc.written_at`, c)})`;
  }
}

/** The WHERE predicate over `patients p` for a criteria set (inclusion, then exclusion). */
export function criteriaSql(criteria: CohortCriteria): SQL {
  const parts: SQL[] = [];
  if (criteria.inclusion.length) {
    const joiner = criteria.match === 'any' ? sql` or ` : sql` and `;
    parts.push(sql`(${sql.join(criteria.inclusion.map(conditionSql), joiner)})`);
  }
  for (const c of criteria.exclusion) parts.push(sql`not ${conditionSql(c)}`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** Ids of the app's patients meeting the criteria, in id order, at most `limit`. */
export async function matchPatients(db: Tx, appId: number, criteria: CohortCriteria, limit = 10_000) {
  const res = await db.execute(
    sql`select p.id from patients p where p.app_id = ${appId} and ${criteriaSql(criteria)} order by p.id limit ${limit}`,
  );
  return rowsOf<{ id: number | string }>(res).map((r) => Number(r.id));
}

/** How many of the app's patients meet the criteria (the builder's live preview). */
export async function countPatients(db: Tx, appId: number, criteria: CohortCriteria) {
  const res = await db.execute(
    sql`select count(*)::int as n from patients p where p.app_id = ${appId} and ${criteriaSql(criteria)}`,
  );
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}
