import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import yazl from 'yazl';
import type { Db } from '../db/client.js';
import { omopMappings } from '../db/schema/index.js';
import { csvLines } from '../files/csv.js';
import type { JobContext } from '../jobs/runner.js';
import {
  BUILTIN_MAPPINGS,
  CDM_COLUMNS,
  CDM_TABLES,
  CDM_VERSION,
  type CdmTable,
  CONDITION_STATUS,
  type MappingKind,
  TYPE_EHR,
} from './cdm.js';

/**
 * The export job: the app's clinical data as OMOP CDM v5.4, one CSV per CDM table (header of the
 * v5.4 column names in DDL order, RFC 4180, UTF-8, empty cell = NULL) in one ZIP under
 * DATA_DIR/exports/app-<id>/omop-<job>.zip. Rows are read in id order, 5,000 at a time, and
 * written straight into the ZIP stream (yazl), so memory stays flat at any size.
 */
export const EXPORT_KIND = 'omop.export';
/** Wall-clock dates and times of the CDM are the hospital's local time. */
export const CLINICAL_TIME_ZONE = 'Asia/Shanghai';
const BATCH = 5000;
const TOP_UNMAPPED = 50;

export const zipPath = (dataDir: string, appId: number, jobId: number) =>
  path.join(dataDir, 'exports', `app-${appId}`, `omop-${jobId}.zip`);

type Row = Record<string, unknown>;
const rowsOf = <T = Row>(res: unknown) => (res as { rows: T[] }).rows;

/** CSV lines for a database loader: NULL is an empty cell, values exact (no spreadsheet guard). */
const lines = (table: CdmTable, rows: Row[]) =>
  csvLines(
    rows.map((r) => CDM_COLUMNS[table].map((c) => r[c])),
    { formulaGuard: false },
  );

const tz = sql.raw(`'${CLINICAL_TIME_ZONE}'`);
const day = (col: SQL) => sql`to_char(${col} at time zone ${tz}, 'YYYY-MM-DD')`;
const stamp = (col: SQL) => sql`to_char(${col} at time zone ${tz}, 'YYYY-MM-DD HH24:MI:SS')`;

/** Gender and visit maps: built in, overridden by the app's own rows. */
async function closedMaps(db: Db, appId: number) {
  const maps: Record<'gender' | 'visit', Map<string, number>> = { gender: new Map(), visit: new Map() };
  for (const b of BUILTIN_MAPPINGS)
    if (b.kind === 'gender' || b.kind === 'visit') maps[b.kind].set(b.sourceCode, b.conceptId);
  const own = await db
    .select()
    .from(omopMappings)
    .where(and(eq(omopMappings.appId, appId), inArray(omopMappings.kind, ['gender', 'visit'])));
  for (const o of own) maps[o.kind as 'gender' | 'visit'].set(o.sourceCode, o.conceptId);
  return maps;
}

type Maps = Awaited<ReturnType<typeof closedMaps>>;

/** Persons are patients with a birth date (year_of_birth is required); their events go with them. */
const personJoin = (appId: number, alias: SQL) =>
  sql`join patients p on p.id = ${alias}.patient_id and p.app_id = ${appId} and p.birth_date is not null`;

const mapJoin = (appId: number, alias: string, kind: MappingKind, code: SQL) =>
  sql`left join omop_mappings ${sql.raw(alias)} on ${sql.raw(alias)}.app_id = ${appId} and ${sql.raw(alias)}.kind = ${kind} and ${sql.raw(alias)}.source_code = ${code}`;

/**
 * A diagnosis's source code, as the condition maps match it: its ICD-10 code, else the code of the
 * first coding it came with (SNOMED CT for Synthea's FHIR conditions), '' when it has neither.
 */
const conditionCode = sql`coalesce(nullif(upper(trim(x.icd10)), ''), upper(trim(coalesce(x.codings->0->>'code', ''))))`;

/** The id-ordered page query of each table, after the id `last`. */
function pageQuery(table: CdmTable, appId: number, last: number): SQL {
  switch (table) {
    case 'person':
      return sql`select p.id as person_id, p.gender,
          extract(year from p.birth_date)::int as year_of_birth,
          extract(month from p.birth_date)::int as month_of_birth,
          extract(day from p.birth_date)::int as day_of_birth,
          to_char(p.birth_date, 'YYYY-MM-DD') || ' 00:00:00' as birth_datetime
        from patients p
        where p.app_id = ${appId} and p.birth_date is not null and p.id > ${last}
        order by p.id limit ${BATCH}`;
    case 'observation_period':
      return sql`select p.id as observation_period_id, p.id as person_id,
          ${day(sql`min(e.t)`)} as observation_period_start_date,
          ${day(sql`max(e.t)`)} as observation_period_end_date
        from patients p
        join lateral (
          select v.admit_at as t from visits v where v.patient_id = p.id and v.app_id = ${appId}
          union all select coalesce(v.discharge_at, v.admit_at) from visits v where v.patient_id = p.id and v.app_id = ${appId}
          union all select d.diagnosed_at from diagnoses d where d.patient_id = p.id and d.app_id = ${appId}
          union all select l.collected_at from lab_results l where l.patient_id = p.id and l.app_id = ${appId}
          union all select o.start_at from orders o where o.patient_id = p.id and o.app_id = ${appId} and o.category = 'drug'
          union all select coalesce(o.stop_at, o.start_at) from orders o where o.patient_id = p.id and o.app_id = ${appId} and o.category = 'drug'
        ) e on true
        where p.app_id = ${appId} and p.birth_date is not null and p.id > ${last}
        group by p.id order by p.id limit ${BATCH}`;
    case 'visit_occurrence':
      return sql`select x.id as visit_occurrence_id, x.patient_id as person_id, x.kind,
          ${day(sql`x.admit_at`)} as visit_start_date, ${stamp(sql`x.admit_at`)} as visit_start_datetime,
          ${day(sql`coalesce(x.discharge_at, x.admit_at)`)} as visit_end_date,
          ${stamp(sql`coalesce(x.discharge_at, x.admit_at)`)} as visit_end_datetime,
          left(x.kind, 50) as visit_source_value
        from visits x ${personJoin(appId, sql`x`)}
        where x.app_id = ${appId} and x.id > ${last}
        order by x.id limit ${BATCH}`;
    case 'condition_occurrence':
      return sql`select x.id as condition_occurrence_id, x.patient_id as person_id,
          coalesce(m.concept_id, 0) as condition_concept_id,
          ${day(sql`x.diagnosed_at`)} as condition_start_date, ${stamp(sql`x.diagnosed_at`)} as condition_start_datetime,
          x.kind, v.id as visit_occurrence_id,
          left(coalesce(nullif(${conditionCode}, ''), x.name), 50) as condition_source_value,
          0 as condition_source_concept_id,
          left(x.kind, 50) as condition_status_source_value
        from diagnoses x ${personJoin(appId, sql`x`)}
        ${mapJoin(appId, 'm', 'condition', conditionCode)}
        left join visits v on v.id = x.visit_id and v.app_id = ${appId}
        where x.app_id = ${appId} and x.id > ${last}
        order by x.id limit ${BATCH}`;
    case 'drug_exposure':
      return sql`select x.id as drug_exposure_id, x.patient_id as person_id,
          coalesce(m.concept_id, 0) as drug_concept_id,
          ${day(sql`x.start_at`)} as drug_exposure_start_date, ${stamp(sql`x.start_at`)} as drug_exposure_start_datetime,
          ${day(sql`coalesce(x.stop_at, x.start_at)`)} as drug_exposure_end_date,
          ${stamp(sql`coalesce(x.stop_at, x.start_at)`)} as drug_exposure_end_datetime,
          case when x.stop_at is not null then ${day(sql`x.stop_at`)} end as verbatim_end_date,
          nullif(concat_ws(' ', nullif(x.dose, ''), nullif(x.dose_unit, ''), nullif(x.route, ''), nullif(x.frequency, '')), '') as sig,
          v.id as visit_occurrence_id,
          left(coalesce(nullif(trim(x.code), ''), x.name), 50) as drug_source_value,
          0 as drug_source_concept_id,
          nullif(left(x.route, 50), '') as route_source_value,
          nullif(left(x.dose_unit, 50), '') as dose_unit_source_value
        from orders x ${personJoin(appId, sql`x`)}
        ${mapJoin(appId, 'm', 'drug', sql`trim(x.code)`)}
        left join visits v on v.id = x.visit_id and v.app_id = ${appId}
        where x.app_id = ${appId} and x.category = 'drug' and x.id > ${last}
        order by x.id limit ${BATCH}`;
    case 'measurement':
      return sql`select x.id as measurement_id, x.patient_id as person_id,
          coalesce(m.concept_id, 0) as measurement_concept_id,
          ${day(sql`x.collected_at`)} as measurement_date, ${stamp(sql`x.collected_at`)} as measurement_datetime,
          to_char(x.collected_at at time zone ${tz}, 'HH24:MI') as measurement_time,
          x.value_num as value_as_number,
          case when trim(x.unit) = '' then null else coalesce(u.concept_id, 0) end as unit_concept_id,
          x.ref_low as range_low, x.ref_high as range_high,
          v.id as visit_occurrence_id,
          left(trim(x.item_code), 50) as measurement_source_value,
          0 as measurement_source_concept_id,
          nullif(left(trim(x.unit), 50), '') as unit_source_value,
          left(coalesce(nullif(x.value_text, ''), x.value_num::text), 50) as value_source_value
        from lab_results x ${personJoin(appId, sql`x`)}
        ${mapJoin(appId, 'm', 'measurement', sql`trim(x.item_code)`)}
        ${mapJoin(appId, 'u', 'unit', sql`trim(x.unit)`)}
        left join visits v on v.id = x.visit_id and v.app_id = ${appId}
        where x.app_id = ${appId} and x.id > ${last}
        order by x.id limit ${BATCH}`;
  }
}

/** Fills the columns that come from code (type concepts, closed maps) and drops the helpers. */
function complete(table: CdmTable, r: Row, maps: Maps): Row {
  switch (table) {
    case 'person':
      return {
        ...r,
        gender_concept_id: maps.gender.get(String(r.gender)) ?? 0,
        race_concept_id: 0,
        ethnicity_concept_id: 0,
        // Privacy: the CRDP patient id, never the name, national ID or MRN (see README).
        person_source_value: String(r.person_id),
        gender_source_value: String(r.gender),
      };
    case 'observation_period':
      return { ...r, period_type_concept_id: TYPE_EHR };
    case 'visit_occurrence':
      return {
        ...r,
        visit_concept_id: maps.visit.get(String(r.kind)) ?? 0,
        visit_type_concept_id: TYPE_EHR,
      };
    case 'condition_occurrence':
      return {
        ...r,
        condition_type_concept_id: TYPE_EHR,
        condition_status_concept_id: CONDITION_STATUS[String(r.kind)] ?? 0,
      };
    case 'drug_exposure':
      return { ...r, drug_type_concept_id: TYPE_EHR };
    case 'measurement':
      return { ...r, measurement_type_concept_id: TYPE_EHR };
  }
}

/** The id column a table pages by. */
const idColumn = (table: CdmTable) => CDM_COLUMNS[table][0]!;

/** CSV text of one table, a page at a time; `counted` receives the rows written. */
async function* tableCsv(
  db: Db,
  appId: number,
  table: CdmTable,
  maps: Maps,
  counted: (n: number) => Promise<void>,
): AsyncGenerator<string> {
  yield csvLines([CDM_COLUMNS[table]], { formulaGuard: false });
  let last = 0;
  for (;;) {
    const rows = rowsOf(await db.execute(pageQuery(table, appId, last)));
    if (!rows.length) return;
    last = Number(rows[rows.length - 1]![idColumn(table)]);
    yield lines(
      table,
      rows.map((r) => complete(table, r, maps)),
    );
    await counted(rows.length);
    if (rows.length < BATCH) return;
  }
}

export interface UnmappedSummary {
  /** Rows that carry concept 0 for this kind. */
  rows: number;
  /** Distinct source codes without a concept. */
  codes: number;
  /** The most frequent unmapped codes, most rows first: what a data manager maps next. */
  top: Array<{ code: string; example: string; count: number }>;
}

async function unmappedOf(
  db: Db,
  appId: number,
  from: SQL,
  kind: MappingKind,
  code: SQL,
  example: SQL,
): Promise<UnmappedSummary> {
  const base = sql`from ${from}
    where ${code} <> ''
      and not exists (select 1 from omop_mappings m where m.app_id = ${appId} and m.kind = ${kind} and m.source_code = ${code})`;
  const [t] = rowsOf<{ rows: number; codes: number }>(
    await db.execute(sql`select count(*)::int as rows, count(distinct ${code})::int as codes ${base}`),
  );
  const top = rowsOf<{ code: string; example: string; count: number }>(
    await db.execute(
      sql`select ${code} as code, min(${example}) as example, count(*)::int as count ${base}
        group by 1 order by 3 desc, 1 limit ${TOP_UNMAPPED}`,
    ),
  );
  return {
    rows: Number(t?.rows ?? 0),
    codes: Number(t?.codes ?? 0),
    top: top.map((r) => ({ code: r.code, example: r.example ?? '', count: Number(r.count) })),
  };
}

/** Unmapped codes of a closed kind (gender, visit), counted in the database and mapped here. */
async function unmappedClosed(db: Db, query: SQL, map: Map<string, number>): Promise<UnmappedSummary> {
  const rows = rowsOf<{ code: string; count: number }>(await db.execute(query));
  const un = rows.filter((r) => !map.has(String(r.code)));
  return {
    rows: un.reduce((s, r) => s + Number(r.count), 0),
    codes: un.length,
    top: un
      .map((r) => ({ code: String(r.code), example: '', count: Number(r.count) }))
      .sort((a, b) => b.count - a.count),
  };
}

export async function unmappedCodes(db: Db, appId: number, tables: CdmTable[], maps: Maps) {
  const out: Partial<Record<MappingKind, UnmappedSummary>> = {};
  const on = new Set(tables);
  const pj = (alias: string) => personJoin(appId, sql.raw(alias));
  if (on.has('person'))
    out.gender = await unmappedClosed(
      db,
      sql`select p.gender::text as code, count(*)::int as count from patients p
        where p.app_id = ${appId} and p.birth_date is not null group by 1`,
      maps.gender,
    );
  if (on.has('visit_occurrence'))
    out.visit = await unmappedClosed(
      db,
      sql`select x.kind as code, count(*)::int as count from visits x ${pj('x')} where x.app_id = ${appId} group by 1`,
      maps.visit,
    );
  if (on.has('condition_occurrence'))
    out.condition = await unmappedOf(
      db,
      appId,
      sql`diagnoses x ${pj('x')} and x.app_id = ${appId}`,
      'condition',
      conditionCode,
      sql`x.name`,
    );
  if (on.has('drug_exposure'))
    out.drug = await unmappedOf(
      db,
      appId,
      sql`orders x ${pj('x')} and x.category = 'drug' and x.app_id = ${appId}`,
      'drug',
      sql`trim(x.code)`,
      sql`x.name`,
    );
  if (on.has('measurement')) {
    // Lab results carry two kinds: the item (measurement) and its unit.
    const labs = sql`lab_results x ${pj('x')} and x.app_id = ${appId}`;
    out.measurement = await unmappedOf(
      db,
      appId,
      labs,
      'measurement',
      sql`trim(x.item_code)`,
      sql`x.item_name`,
    );
    out.unit = await unmappedOf(db, appId, labs, 'unit', sql`trim(x.unit)`, sql`x.item_name`);
  }
  return out;
}

export interface ExportResult {
  cdmVersion: string;
  fileName: string;
  bytes: number;
  tables: CdmTable[];
  counts: Partial<Record<CdmTable, number>>;
  /** Patients left out because they have no birth date (year_of_birth is required). */
  personsWithoutBirthDate: number;
  unmapped: Partial<Record<MappingKind, UnmappedSummary>>;
}

/** Writes the ZIP of an app's CDM to `file` (through a temporary name) and returns what it wrote. */
export async function writeCdmZip(
  db: Db,
  appId: number,
  tables: CdmTable[],
  file: string,
  progress: (p: number) => Promise<void> = async () => {},
): Promise<Omit<ExportResult, 'fileName'>> {
  const chosen = CDM_TABLES.filter((t) => tables.includes(t));
  const maps = await closedMaps(db, appId);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.part`;
  const zip = new yazl.ZipFile();
  const streams = chosen.map((t) => {
    const s = new PassThrough();
    zip.addReadStream(s, `${t}.csv`, { mtime: new Date() });
    return s;
  });
  zip.end();
  const written = pipeline(zip.outputStream, createWriteStream(tmp));
  const counts: Partial<Record<CdmTable, number>> = {};
  const write = async (s: PassThrough, text: string) => {
    if (s.write(text, 'utf8')) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        s.off('drain', done);
        s.off('error', fail);
        resolve();
      };
      const fail = (e: Error) => {
        s.off('drain', done);
        reject(e);
      };
      s.on('drain', done);
      s.once('error', fail);
    });
  };
  try {
    for (const [i, t] of chosen.entries()) {
      counts[t] = 0;
      const s = streams[i]!;
      for await (const chunk of tableCsv(db, appId, t, maps, async (n) => {
        counts[t]! += n;
        await progress((i / chosen.length) * 90);
      }))
        await write(s, chunk);
      s.end();
      await progress(((i + 1) / chosen.length) * 90);
    }
    await written;
  } catch (e) {
    for (const s of streams) s.destroy();
    (zip.outputStream as unknown as Readable).destroy();
    await written.catch(() => {});
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, file);
  const unmapped = await unmappedCodes(db, appId, chosen, maps);
  const [no] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from patients where app_id = ${appId} and birth_date is null`,
    ),
  );
  return {
    cdmVersion: CDM_VERSION,
    bytes: (await stat(file)).size,
    tables: chosen,
    counts,
    personsWithoutBirthDate: Number(no?.n ?? 0),
    unmapped,
  };
}

/** The job handler: params { taskId, tables } (the enabled rules' CDM tables when the task started). */
export function exportJob(dataDir: string) {
  return async ({ db, job, progress }: JobContext): Promise<ExportResult> => {
    const p = job.params as { taskId: number; tables: CdmTable[] };
    const file = zipPath(dataDir, job.appId, job.id);
    const r = await writeCdmZip(db, job.appId, p.tables, file, progress);
    return { ...r, fileName: `omop-cdm-${CDM_VERSION}-${job.id}.zip` };
  };
}
