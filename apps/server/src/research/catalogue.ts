import type { ResearchCatalogueItem } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { containsPattern } from '../db/like.js';
import { rowsOf } from '../db/rows.js';

export interface CatalogueQuery {
  kind: 'lab' | 'diagnosis' | 't0';
  q: string;
  limit: number;
}

/**
 * Candidate variables of a research subject from the app's own clinical data, most frequent
 * first: lab items by code (name and unit as the data most often has them), or diagnosis
 * categories (the first three characters of ICD-10, named by their most frequent name). A search
 * matches part of the code or of the name.
 */
export async function variableCatalogue(
  db: Db,
  appId: number,
  query: CatalogueQuery,
): Promise<ResearchCatalogueItem[]> {
  const q = query.q.trim();
  const like = containsPattern(q);
  if (query.kind === 't0') {
    // The calculated T0 events (code: the event id), by how many patients have a T0.
    const t0 = await db.execute(sql`
      select id::text as code, name, '' as unit, patients
        from t0_events
       where app_id = ${appId} and materialized_at is not null and (${q} = '' or name ilike ${like})
       order by patients desc, id
       limit ${query.limit}`);
    return rowsOf<Omit<ResearchCatalogueItem, 'kind'>>(t0).map((r) => ({
      kind: 't0' as const,
      code: String(r.code),
      name: String(r.name ?? ''),
      unit: '',
      patients: Number(r.patients),
    }));
  }
  const res =
    query.kind === 'lab'
      ? await db.execute(sql`
          select item_code as code,
                 mode() within group (order by item_name) as name,
                 mode() within group (order by unit) as unit,
                 count(distinct patient_id)::int as patients
            from lab_results
           where app_id = ${appId}
             and (${q} = '' or item_code ilike ${like} or item_name ilike ${like})
           group by item_code
           order by patients desc, item_code
           limit ${query.limit}`)
      : await db.execute(sql`
          select upper(left(icd10, 3)) as code,
                 mode() within group (order by name) as name,
                 '' as unit,
                 count(distinct patient_id)::int as patients
            from diagnoses
           where app_id = ${appId} and icd10 <> ''
             and (${q} = '' or icd10 ilike ${like} or name ilike ${like})
           group by upper(left(icd10, 3))
           order by patients desc, code
           limit ${query.limit}`);
  return rowsOf<Omit<ResearchCatalogueItem, 'kind'>>(res).map((r) => ({
    kind: query.kind,
    code: String(r.code),
    name: String(r.name ?? ''),
    unit: String(r.unit ?? ''),
    patients: Number(r.patients),
  }));
}
