import type {
  LibraryComparison,
  LibraryMissingOverview,
  LibraryRdrStatistics,
  LibrarySearchResult,
  LibraryStorageRow,
  LibraryWorkbenchStatistics,
  libraryDashboardData,
  libraryStatisticsResult,
  LibrarySearchInput as SearchInput,
} from '@crdp/core';
import { formatMessage, type Locale } from '@crdp/core';
import { answerItems, type Form, itemValueKind } from '@crdp/crf';
import { chiSquareTest, describe, mannWhitney, StatsError, welchTTest } from '@crdp/stats';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { invalid, libraryDetail, libraryOf } from './libraries.js';

/**
 * Reading a library as data: missing indicators, search on indicator values, the data grid,
 * statistics (describe, two-group comparison), the dashboard and storage sizes. Values are the
 * answers of the patients' CRF records.
 */
const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && !v.length);

async function itemKeysOf(db: Tx, appId: number, libraryId: number) {
  const d = await libraryDetail(db, appId, libraryId);
  return { detail: d, keys: new Map(d.items.map((i) => [i.key, i])) };
}

function checkKeys(keys: Map<string, unknown>, wanted: string[], field: string) {
  const i = wanted.findIndex((k) => !keys.has(k));
  if (i >= 0)
    throw invalid(
      `${field}.${i}`,
      `专病库的表单中没有键为 ${wanted[i]} 的题目`,
      `no item of the library's form has the key ${wanted[i]}`,
    );
}

/** Answers of every patient of a library (id order), with the marks of unobtainable items. */
async function libraryValues(db: Tx, libraryId: number) {
  return rowsOf<{
    patient_id: string;
    answers: Record<string, unknown> | null;
    unobtainable: Record<string, string>;
  }>(
    await db.execute(sql`select lp.patient_id, r.answers, lp.unobtainable from disease_library_patients lp
      left join crf_records r on r.id = lp.record_id and r.deleted_at is null where lp.library_id = ${libraryId} order by lp.id`),
  );
}

/** Per item: how many patients lack it, how many of those are marked not obtainable. */
export async function missingOverview(
  db: Tx,
  appId: number,
  libraryId: number,
  itemKey?: string,
): Promise<LibraryMissingOverview> {
  const { detail, keys } = await itemKeysOf(db, appId, libraryId);
  if (itemKey) checkKeys(keys, [itemKey], 'query.itemKey');
  const rows = await libraryValues(db, libraryId);
  const items = detail.items.map((it) => {
    let missing = 0;
    let unobtainable = 0;
    for (const r of rows) {
      if (present(r.answers?.[it.key])) continue;
      missing++;
      if (r.unobtainable?.[it.key] !== undefined) unobtainable++;
    }
    return {
      key: it.key,
      title: it.title,
      hasRule: it.key in (detail.sourceRules as Record<string, string>),
      total: rows.length,
      missing,
      unobtainable,
      missingRate: rows.length ? missing / rows.length : 0,
    };
  });
  let patients: Array<{ patientId: number; name: string; unobtainable: string | null }> = [];
  if (itemKey) {
    const ids = rows.filter((r) => !present(r.answers?.[itemKey])).map((r) => Number(r.patient_id));
    const names = ids.length
      ? rowsOf<{ id: string; name: string }>(
          await db.execute(
            sql`select id, name from patients where app_id = ${appId} and id in (${sql.join(
              ids.slice(0, 500).map((i) => sql`${i}`),
              sql`, `,
            )})`,
          ),
        )
      : [];
    const byId = new Map(names.map((n) => [Number(n.id), n.name]));
    const marks = new Map(rows.map((r) => [Number(r.patient_id), r.unobtainable?.[itemKey] ?? null]));
    patients = ids
      .slice(0, 500)
      .map((id) => ({ patientId: id, name: byId.get(id) ?? '', unobtainable: marks.get(id) ?? null }));
  }
  return { items, patients };
}

function conditionSql(c: SearchInput['conditions'][number], i: number): SQL {
  const v = sql`(r.answers->>${c.itemKey})`;
  const isNum = typeof c.value === 'number';
  if (c.op === 'empty') return sql`coalesce(${v}, '') = ''`;
  if (c.op === 'notEmpty') return sql`coalesce(${v}, '') <> ''`;
  if (c.value === undefined)
    throw invalid(`body.conditions.${i}.value`, '该运算符需要一个值', 'this operator needs a value');
  if (c.op === 'contains') return sql`${v} ilike ${`%${String(c.value).replace(/[%_\\]/g, '\\$&')}%`}`;
  const op = sql.raw(c.op === '!=' ? '<>' : c.op);
  if (isNum) return sql`(case when ${v} ~ '^-?[0-9]+(\\.[0-9]+)?$' then ${v}::float8 end) ${op} ${c.value}`;
  return sql`${v} ${op} ${String(c.value)}`;
}

/** Patients whose indicator values meet the conditions, with the values of the library's items. */
export async function searchLibrary(
  db: Tx,
  appId: number,
  libraryId: number,
  input: SearchInput,
): Promise<LibrarySearchResult> {
  const { detail, keys } = await itemKeysOf(db, appId, libraryId);
  checkKeys(
    keys,
    input.conditions.map((c) => c.itemKey),
    'body.conditions',
  );
  const allowed = detail.searchFields as string[];
  const outside = input.conditions.findIndex((c) => allowed.length > 0 && !allowed.includes(c.itemKey));
  if (outside >= 0)
    throw invalid(
      `body.conditions.${outside}.itemKey`,
      '该题目在本专病库中不可检索',
      'this item is not searchable in this library',
    );
  const conds = input.conditions.map(conditionSql);
  const match = conds.length ? sql.join(conds, input.match === 'any' ? sql` or ` : sql` and `) : sql`true`;
  const from = sql`from disease_library_patients lp join patients p on p.id = lp.patient_id and p.app_id = ${appId}
    left join crf_records r on r.id = lp.record_id and r.deleted_at is null where lp.library_id = ${libraryId} and (${match})`;
  const [total] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n ${from}`));
  const rows = rowsOf<{
    patient_id: string;
    name: string;
    mrn: string;
    filing_date: string;
    answers: Record<string, unknown> | null;
  }>(
    await db.execute(sql`select lp.patient_id, p.name, p.mrn, to_char(lp.filing_date, 'YYYY-MM-DD') as filing_date, r.answers ${from}
      order by lp.filing_date, lp.id limit ${input.size} offset ${(input.page - 1) * input.size}`),
  );
  return {
    total: Number(total?.n ?? 0),
    columns: detail.items,
    items: rows.map((r) => ({
      patientId: Number(r.patient_id),
      name: r.name,
      mrn: r.mrn,
      filingDate: r.filing_date,
      values: r.answers ?? {},
    })),
  };
}

const toNumber = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;

/** Single-choice items of the library's form: code → option name, so their answers are categories in words. */
function choiceNames(definition: unknown) {
  const out = new Map<string, Map<string, string>>();
  for (const { item } of answerItems(definition as Form))
    if (itemValueKind(item) === 'choice')
      out.set(item.key, new Map((item.options ?? []).map((o) => [String(o.code), o.name])));
  return out;
}

/** Why a test could not run, in the reader's language (a StatsError keeps its catalogue key). */
const testFailure = (e: unknown, locale: Locale) =>
  e instanceof StatsError ? formatMessage(e.key, locale, e.values) : (e as Error).message;

/** Per item: summary; with `compare`, the two groups side by side with a test. */
export async function libraryStatistics(
  db: Tx,
  appId: number,
  libraryId: number,
  input: {
    itemKeys: string[];
    compare?: { itemKey: string; a: string | number; b: string | number } | undefined;
  },
  locale: Locale = 'zh-CN',
): Promise<z.input<typeof libraryStatisticsResult>> {
  const { detail, keys } = await itemKeysOf(db, appId, libraryId);
  const choices = choiceNames(detail.definition);
  // A single choice is a category shown by its option's name (not its code 0/1/3, nor a mean).
  const cellValue = (key: string, v: unknown) => {
    const names = choices.get(key);
    if (!names || v === undefined || v === null || v === '') return names ? null : toNumber(v);
    return names.get(String(v)) ?? String(v);
  };
  checkKeys(keys, input.itemKeys, 'body.itemKeys');
  if (input.compare) checkKeys(keys, [input.compare.itemKey], 'body.compare.itemKey');
  const rows = await libraryValues(db, libraryId);
  const col = (key: string, subset = rows) => subset.map((r) => cellValue(key, r.answers?.[key]));
  const items = input.itemKeys.map((key) => ({
    key,
    title: (keys.get(key) as { title: string }).title,
    summary: describe(col(key)),
  }));
  if (!input.compare) return { patients: rows.length, items };
  const c = input.compare;
  const inGroup = (g: string | number) =>
    rows.filter((r) => String(r.answers?.[c.itemKey] ?? '') === String(g));
  const ga = inGroup(c.a);
  const gb = inGroup(c.b);
  const comparisons = input.itemKeys.map((key) => {
    const xa = col(key, ga).filter(present);
    const xb = col(key, gb).filter(present);
    const numeric = [...xa, ...xb].every((v) => typeof v === 'number');
    const out: LibraryComparison = {
      key,
      groupA: describe(col(key, ga)),
      groupB: describe(col(key, gb)),
    };
    try {
      if (numeric) {
        out.tTest = welchTTest(xa as number[], xb as number[]);
        out.mannWhitney = mannWhitney(xa as number[], xb as number[]);
      } else {
        const levels = [...new Set([...xa, ...xb].map(String))].sort();
        const table = [xa, xb].map((g) => levels.map((l) => g.filter((v) => String(v) === l).length));
        out.chiSquare = { levels, table, ...chiSquareTest(table) };
      }
    } catch (e) {
      out.error = testFailure(e, locale);
    }
    return out;
  });
  return { patients: rows.length, items, groups: { a: ga.length, b: gb.length }, comparisons };
}

/** Enrolment over time, age and gender, completeness per item (zhuanbing-dashboard). */
export async function libraryDashboard(
  db: Tx,
  appId: number,
  libraryId: number,
): Promise<z.input<typeof libraryDashboardData>> {
  const { detail } = await itemKeysOf(db, appId, libraryId);
  const byMonth = rowsOf<{ month: string; n: number }>(
    await db.execute(sql`select to_char(filing_date, 'YYYY-MM') as month, count(*)::int as n from disease_library_patients
      where library_id = ${libraryId} group by 1 order by 1`),
  );
  const demo = rowsOf<{ gender: number; age: number | null }>(
    await db.execute(sql`select p.gender, extract(year from age(lp.filing_date, p.birth_date))::int as age
      from disease_library_patients lp join patients p on p.id = lp.patient_id where lp.library_id = ${libraryId}`),
  );
  const bands = ['<20', '20-39', '40-59', '60-79', '≥80'];
  const band = (a: number) => (a < 20 ? 0 : a < 40 ? 1 : a < 60 ? 2 : a < 80 ? 3 : 4);
  const ageBands = bands.map((b) => ({ band: b, count: 0 }));
  for (const d of demo) if (d.age !== null) ageBands[band(Number(d.age))]!.count++;
  const gender = [0, 1, 2, 3].map((g) => ({
    gender: g,
    count: demo.filter((d) => Number(d.gender) === g).length,
  }));
  const { items } = await missingOverview(db, appId, libraryId);
  return {
    library: {
      id: detail.id,
      name: detail.name,
      patients: detail.patients,
      lastPushAt: detail.lastPushAt,
      lastFillAt: detail.lastFillAt,
    },
    enrolment: byMonth.map((r) => ({ month: r.month, count: Number(r.n) })),
    ageBands,
    gender,
    completeness: items.map((i) => ({
      key: i.key,
      title: i.title,
      completeness: i.total ? 1 - i.missing / i.total : 0,
    })),
  };
}

/** Sizes per library (data-storage): patients, filled values, log rows. */
export async function storageSizes(db: Tx, appId: number): Promise<LibraryStorageRow[]> {
  const rows = rowsOf<{ id: number; name: string; patients: number; values: number; logs: number }>(
    await db.execute(sql`select l.id, l.name,
        (select count(*)::int from disease_library_patients lp where lp.library_id = l.id) as patients,
        (select coalesce(sum((select count(*) from jsonb_object_keys(r.answers))), 0)::int from disease_library_patients lp
           join crf_records r on r.id = lp.record_id and r.deleted_at is null where lp.library_id = l.id) as values,
        (select count(*)::int from disease_library_fill_log g where g.library_id = l.id) as logs
      from disease_libraries l where l.app_id = ${appId} and l.deleted_at is null order by l.id`),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    patients: Number(r.patients),
    values: Number(r.values),
    logs: Number(r.logs),
  }));
}

/** Rows (aliased `lp`) of a library that is not deleted: deleted libraries keep their rows but leave the counts. */
const live = sql`exists (select 1 from disease_libraries dl where dl.id = lp.library_id and dl.deleted_at is null)`;

/** The workbench call `diseaselibrary/disease_library_statistics`. */
export async function diseaseLibraryStatistics(db: Tx, appId: number): Promise<LibraryWorkbenchStatistics> {
  const [t] = rowsOf<{
    libraries: number;
    enabled: number;
    patients: number;
    distinct_patients: number;
    this_month: number;
  }>(
    await db.execute(sql`select
        (select count(*)::int from disease_libraries where app_id = ${appId} and deleted_at is null) as libraries,
        (select count(*)::int from disease_libraries where app_id = ${appId} and deleted_at is null and status = 'enabled') as enabled,
        (select count(*)::int from disease_library_patients lp where lp.app_id = ${appId} and ${live}) as patients,
        (select count(distinct lp.patient_id)::int from disease_library_patients lp where lp.app_id = ${appId} and ${live}) as distinct_patients,
        (select count(*)::int from disease_library_patients lp where lp.app_id = ${appId} and ${live} and lp.added_at >= date_trunc('month', now())) as this_month`),
  );
  const byLibrary = rowsOf<{ id: number; name: string; disease: string | null; n: number }>(
    await db.execute(sql`select l.id, l.name, d.name as disease, (select count(*)::int from disease_library_patients lp where lp.library_id = l.id) as n
      from disease_libraries l left join diseases d on d.disease_id = l.disease_id where l.app_id = ${appId} and l.deleted_at is null order by n desc, l.id limit 20`),
  );
  return {
    libraries: Number(t?.libraries ?? 0),
    enabled: Number(t?.enabled ?? 0),
    patients: Number(t?.patients ?? 0),
    distinctPatients: Number(t?.distinct_patients ?? 0),
    addedThisMonth: Number(t?.this_month ?? 0),
    byLibrary: byLibrary.map((r) => ({ id: r.id, name: r.name, disease: r.disease, patients: Number(r.n) })),
  };
}

/** The workbench call `diseaselibrary/rdr_statistics`: the research data repository behind the libraries. */
export async function rdrStatistics(db: Tx, appId: number): Promise<LibraryRdrStatistics> {
  const [t] = rowsOf<Record<string, number>>(
    await db.execute(sql`select
        (select count(*)::int from patients where app_id = ${appId}) as patients,
        (select count(*)::int from visits where app_id = ${appId}) as visits,
        (select count(*)::int from diagnoses where app_id = ${appId}) as diagnoses,
        (select count(*)::int from lab_results where app_id = ${appId}) as lab_results,
        (select count(*)::int from documents where app_id = ${appId}) as documents,
        (select count(*)::int from crf_records r where r.app_id = ${appId} and r.deleted_at is null
           and exists (select 1 from disease_library_patients lp where lp.record_id = r.id and ${live})) as library_records,
        (select count(*)::int from disease_library_fill_log lp where lp.app_id = ${appId} and lp.outcome = 'filled' and ${live}) as machine_values`),
  );
  return {
    patients: Number(t?.patients ?? 0),
    visits: Number(t?.visits ?? 0),
    diagnoses: Number(t?.diagnoses ?? 0),
    labResults: Number(t?.lab_results ?? 0),
    documents: Number(t?.documents ?? 0),
    libraryRecords: Number(t?.library_records ?? 0),
    machineValues: Number(t?.machine_values ?? 0),
  };
}

export { libraryOf };
