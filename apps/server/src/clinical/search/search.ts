import {
  cdrSearchConditions,
  type cdrSearchHit,
  cdrSearchLab,
  type cdrSearchResult,
  SEARCH_COUNT_CAP,
} from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { rowsOf } from '../../db/rows.js';
import { csvText } from '../../files/csv.js';
import { schemaMessage } from '../../http/validation-messages.js';
import { highlight, termsOf, tsqueryOf } from '../bigrams.js';
import { type PatientRow, patientView } from '../patient360.js';

/**
 * The conditions of the multi-condition search (`/data-lake/full-text-retrieval`); all must hold.
 * The fields are the contract's (@crdp/core); the checks across fields are the server's.
 */
export const searchInput = cdrSearchConditions
  .extend({
    labs: z
      .array(
        cdrSearchLab.refine((l) => l.min === undefined || l.max === undefined || l.min <= l.max, {
          message: schemaMessage('min 不能大于 max', 'min must not exceed max'),
          path: ['min'],
        }),
      )
      .max(5)
      .optional(),
  })
  .refine((q) => q.ageMin === undefined || q.ageMax === undefined || q.ageMin <= q.ageMax, {
    message: schemaMessage('ageMin 不能大于 ageMax', 'ageMin must not exceed ageMax'),
    path: ['ageMin'],
  })
  .refine((q) => !q.dateFrom || !q.dateTo || q.dateFrom <= q.dateTo, {
    message: schemaMessage('dateFrom 不能晚于 dateTo', 'dateFrom must not be after dateTo'),
    path: ['dateFrom'],
  })
  .refine((q) => !q.text || termsOf(q.text).length > 0, {
    message: schemaMessage('没有可检索的词', 'no searchable term'),
    path: ['text'],
  })
  .refine(
    (q) =>
      q.diagnosis !== undefined ||
      (q.labs?.length ?? 0) > 0 ||
      q.gender !== undefined ||
      q.ageMin !== undefined ||
      q.ageMax !== undefined ||
      !!q.text ||
      !!q.dateFrom ||
      !!q.dateTo,
    { message: schemaMessage('请至少给出一个条件', 'give at least one condition'), path: ['diagnosis'] },
  );
export type SearchInput = z.infer<typeof searchInput>;

const like = containsPattern;

function range(col: SQL, q: SearchInput): SQL {
  const parts: SQL[] = [];
  if (q.dateFrom) parts.push(sql`${col} >= ${q.dateFrom}::date`);
  if (q.dateTo) parts.push(sql`${col} < ${q.dateTo}::date + 1`);
  return parts.length ? sql` and ${sql.join(parts, sql` and `)}` : sql``;
}

/** The WHERE clause over `patients p`, shared by the search, its export and the benchmark's reference. */
export function searchWhere(appId: number, q: SearchInput): SQL {
  const conds: SQL[] = [sql`p.app_id = ${appId}`];
  if (q.gender !== undefined) conds.push(sql`p.gender = ${q.gender}`);
  if (q.ageMin !== undefined)
    conds.push(sql`p.birth_date <= (current_date - make_interval(years => ${q.ageMin}))`);
  if (q.ageMax !== undefined)
    conds.push(sql`p.birth_date > (current_date - make_interval(years => ${q.ageMax + 1}))`);
  if (q.diagnosis) {
    const d = q.diagnosis;
    const byCode = /^[A-Za-z]\d{1,2}(\.\d*)?$/.test(d);
    const match = byCode ? sql`d.icd10 like ${`${d.toUpperCase()}%`}` : sql`d.name like ${like(d)}`;
    conds.push(
      sql`exists (select 1 from diagnoses d where d.patient_id = p.id and d.app_id = ${appId} and ${match}${range(sql`d.diagnosed_at`, q)})`,
    );
  }
  for (const l of q.labs ?? []) {
    const bounds: SQL[] = [];
    if (l.min !== undefined) bounds.push(sql` and l.value_num >= ${l.min}`);
    if (l.max !== undefined) bounds.push(sql` and l.value_num <= ${l.max}`);
    conds.push(
      sql`exists (select 1 from lab_results l where l.patient_id = p.id and l.app_id = ${appId} and l.item_code = ${l.itemCode}${sql.join(bounds, sql``)}${range(sql`l.collected_at`, q)})`,
    );
  }
  if (q.text) {
    const terms = termsOf(q.text);
    const tsq = terms.map((t) => tsqueryOf(t)!).join(' & ');
    const substr = terms.map(
      (t) => sql` and strpos(lower(doc.body || ' ' || doc.title), ${t.toLowerCase()}) > 0`,
    );
    conds.push(
      sql`exists (select 1 from documents doc where doc.patient_id = p.id and doc.app_id = ${appId}
        and to_tsvector('simple'::regconfig, doc.search_text) @@ to_tsquery('simple'::regconfig, ${tsq})${sql.join(substr, sql``)}${range(sql`doc.written_at`, q)})`,
    );
  } else if (!q.diagnosis && !q.labs?.length && (q.dateFrom || q.dateTo)) {
    conds.push(
      sql`exists (select 1 from visits v where v.patient_id = p.id and v.app_id = ${appId}${range(sql`v.admit_at`, q)})`,
    );
  }
  return sql.join(conds, sql` and `);
}

/** A patient meeting every condition, as the API answers it (the `cdrSearchHit` contract). */
type Found = z.input<typeof cdrSearchHit>;

const patientFromSql = (r: Record<string, unknown>): PatientRow => ({
  id: Number(r.id),
  appId: Number(r.app_id),
  mrn: String(r.mrn),
  name: String(r.name),
  gender: Number(r.gender),
  birthDate: r.birth_date ? String(r.birth_date).slice(0, 10) : null,
  nationalId: String(r.national_id ?? ''),
  phone: String(r.phone ?? ''),
  address: String(r.address ?? ''),
  contacts: r.contacts ?? [],
  source: String(r.source),
  sourceId: String(r.source_id),
  createdAt: new Date(String(r.created_at)),
  updatedAt: new Date(String(r.updated_at)),
});

/** The patients meeting every condition, newest first, keyset paged: the search's one SQL statement. */
export async function matchingPatients(db: Tx, appId: number, q: SearchInput, limit: number) {
  const res = await db.execute(sql`
    select p.* from patients p
    where ${searchWhere(appId, q)}${q.cursor ? sql` and p.id < ${q.cursor}` : sql``}
    order by p.id desc limit ${limit}`);
  return rowsOf<Record<string, unknown>>(res);
}

/** One page of patients meeting every condition, newest first, with what matched in each. */
export async function searchPatientsByConditions(
  db: Tx,
  appId: number,
  q: SearchInput,
  full: boolean,
  countCap = SEARCH_COUNT_CAP,
): Promise<z.input<typeof cdrSearchResult> & { items: Found[] }> {
  const [rows, counted] = await Promise.all([
    matchingPatients(db, appId, q, q.size + 1),
    // The first page says how many patients match, up to the cap (one more is read to know that
    // more match); later pages keep that number.
    q.cursor
      ? Promise.resolve(null)
      : db.execute(sql`select count(*)::int as n from (
          select 1 from patients p where ${searchWhere(appId, q)} limit ${countCap + 1}) matched`),
  ]);
  const counting = counted ? Number(rowsOf<{ n: number }>(counted)[0]?.n ?? 0) : null;
  const total = counting === null ? null : Math.min(counting, countCap);
  const totalCapped = counting !== null && counting > countCap;
  const more = rows.length > q.size;
  const page = (more ? rows.slice(0, q.size) : rows).map(patientFromSql);
  const items: Found[] = page.map((p) => ({
    ...patientView(p, full),
    documents: [],
    diagnoses: [],
    labs: [],
  }));
  if (page.length) {
    const ids = sql.join(
      page.map((p) => sql`${p.id}`),
      sql`, `,
    );
    const byId = new Map(items.map((i) => [i.id, i]));
    const terms = q.text ? termsOf(q.text) : [];
    const jobs: Array<Promise<void>> = [];
    if (terms.length) {
      const tsq = terms.map((t) => tsqueryOf(t)!).join(' & ');
      jobs.push(
        db
          .execute(sql`
            select id, patient_id, kind, title, body, written_at from (
              select doc.*, row_number() over (partition by doc.patient_id order by doc.written_at desc) as n
              from documents doc
              where doc.app_id = ${appId} and doc.patient_id in (${ids})
                and to_tsvector('simple'::regconfig, doc.search_text) @@ to_tsquery('simple'::regconfig, ${tsq})
            ) x where n <= 3`)
          .then((r) => {
            for (const d of rowsOf<Record<string, unknown>>(r)) {
              const text = `${String(d.body)}`;
              if (!terms.every((t) => `${text} ${String(d.title)}`.toLowerCase().includes(t.toLowerCase())))
                continue;
              byId.get(Number(d.patient_id))?.documents.push({
                documentId: Number(d.id),
                kind: String(d.kind),
                title: String(d.title),
                writtenAt: new Date(String(d.written_at)).toISOString(),
                snippet: highlight(text, terms),
              });
            }
          }),
      );
    }
    if (q.diagnosis) {
      jobs.push(
        db
          .execute(
            sql`select distinct patient_id, name from diagnoses where app_id = ${appId} and patient_id in (${ids})`,
          )
          .then((r) => {
            for (const d of rowsOf<Record<string, unknown>>(r))
              byId.get(Number(d.patient_id))?.diagnoses.push(String(d.name));
          }),
      );
    }
    for (const l of q.labs ?? []) {
      jobs.push(
        db
          .execute(sql`
            select distinct on (patient_id) patient_id, item_code, item_name, value_num, unit, collected_at
            from lab_results where app_id = ${appId} and patient_id in (${ids}) and item_code = ${l.itemCode}
              ${l.min !== undefined ? sql`and value_num >= ${l.min}` : sql``}
              ${l.max !== undefined ? sql`and value_num <= ${l.max}` : sql``}
            order by patient_id, collected_at desc`)
          .then((r) => {
            for (const x of rowsOf<Record<string, unknown>>(r)) {
              byId.get(Number(x.patient_id))?.labs.push({
                itemCode: String(x.item_code),
                itemName: String(x.item_name),
                valueNum: Number(x.value_num),
                unit: String(x.unit),
                collectedAt: new Date(String(x.collected_at)).toISOString(),
              });
            }
          }),
      );
    }
    await Promise.all(jobs);
  }
  return {
    items,
    total,
    totalCapped,
    nextCursor: more ? String(page[page.length - 1]!.id) : null,
    terms: q.text ? termsOf(q.text) : [],
  };
}

/** The whole result (up to 10,000 patients) as CSV with a BOM, for spreadsheet programs. */
export async function exportSearch(db: Tx, appId: number, q: SearchInput, full: boolean) {
  const header = ['病案号', '姓名', '性别', '出生日期', '身份证号', '匹配诊断', '匹配文书'];
  const lines: unknown[][] = [header];
  let cursor: number | undefined;
  let n = 0;
  do {
    const page = await searchPatientsByConditions(db, appId, { ...q, cursor, size: 100 }, full);
    for (const p of page.items) {
      lines.push([
        p.mrn,
        p.name,
        p.gender,
        p.birthDate ?? '',
        p.nationalId,
        p.diagnoses.join('；'),
        p.documents.map((d) => d.title).join('；'),
      ]);
      n++;
    }
    cursor = page.nextCursor ? Number(page.nextCursor) : undefined;
  } while (cursor && n < 10_000);
  return { csv: csvText(lines, { formulaGuard: true }), rows: n };
}
