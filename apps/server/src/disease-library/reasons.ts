import { type Locale, type ReasonNames, reasonCodes, wordReason } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

/**
 * The inclusion reasons of library patients in the reader's language, with the names the app
 * gives the codes: a diagnosis code's name from the app's disease dictionary (病种), else the
 * name its diagnoses use most; a lab item's name from its results.
 */
export async function wordReasons(
  db: Tx,
  appId: number,
  lists: string[][],
  locale: Locale,
): Promise<string[][]> {
  const codes = reasonCodes(lists.flat());
  const names: Required<ReasonNames> = { diagnosis: new Map(), lab: new Map() };
  if (codes.diagnosis.length) {
    // A condition's code matches its subcodes (B18 matches B18.1): the dictionary's name wins,
    // then the name the app's diagnoses of exactly that code use most, then of its subcodes.
    const rows = rowsOf<{ code: string; name: string }>(
      await db.execute(sql`select code, name from (
          select c.code, d.name, 2 as rank, 0 as n from diseases d join (values ${sql.join(
            codes.diagnosis.map((c) => sql`(${c})`),
            sql`, `,
          )}) c(code) on d.icd10 = c.code where d.app_id = ${appId} and d.enabled
          union all
          select c.code, g.name, case when g.icd10 = c.code then 1 else 0 end, count(*)::int
            from diagnoses g join (values ${sql.join(
              codes.diagnosis.map((c) => sql`(${c})`),
              sql`, `,
            )}) c(code) on g.icd10 = c.code or g.icd10 like c.code || '.%'
            where g.app_id = ${appId} group by 1, 2, 3
        ) x order by rank, n`),
    );
    for (const r of rows) (names.diagnosis as Map<string, string>).set(r.code, r.name);
  }
  if (codes.lab.length) {
    const rows = rowsOf<{ code: string; name: string }>(
      await db.execute(sql`select distinct on (item_code) item_code as code, item_name as name from lab_results
        where app_id = ${appId} and item_code in (${sql.join(
          codes.lab.map((c) => sql`${c}`),
          sql`, `,
        )}) order by item_code, id desc`),
    );
    for (const r of rows) (names.lab as Map<string, string>).set(r.code, r.name);
  }
  return lists.map((l) => l.map((r) => wordReason(r, locale, names)));
}
