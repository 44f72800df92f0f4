import type { DataModelTable, SdtmExportPreview } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { csvLines } from '../files/csv.js';
import type { ZipEntry } from '../files/zip.js';
import { invalidField, notFound } from '../http/errors.js';
import { type DefineDataset, defineXml } from './define-xml.js';
import { modelTables } from './models.js';
import { standardModel } from './standards.js';

/*
 * A research subject's data as SDTM datasets: one CSV per domain that has rows for the subject's
 * recruited patients, and a define.xml (Define-XML 2.0) describing exactly those datasets, their
 * variables and the codelists their values come from. The domains come from the CDR the subject's
 * patients have (DM from patients and recruitment, MH from diagnoses, LB from lab results, VS from
 * vital signs and physical exams, CM from drug orders); codes come from the coding area's mappings
 * at read time. Patients appear by CRDP id (SUBJID), never by name, MRN or national id.
 *
 * SAS transport (XPT v5): no maintained npm library writes it (xport-js only reads), so only CSV
 * is written; see README.
 */

type Cell = string | number | null;
type Row = Record<string, Cell>;

/** The domains the export fills, in the order they are written. */
const FILLED = ['DM', 'MH', 'LB', 'VS', 'CM'] as const;
type Filled = (typeof FILLED)[number];

const PATIENT_BATCH = 500;

interface Subject {
  id: number;
  name: string;
  studyId: string;
  patientIds: number[];
}

async function subjectOf(db: Db, appId: number, subjectId: number): Promise<Subject> {
  const [s] = rowsOf<{ id: number; name: string }>(
    await db.execute(
      sql`select id, name from research_subjects where id = ${subjectId} and app_id = ${appId}`,
    ),
  );
  if (!s) throw notFound('research_subject');
  const ids = rowsOf<{ patient_id: number }>(
    await db.execute(sql`select patient_id from research_enrolments
      where subject_id = ${subjectId} and app_id = ${appId} order by patient_id`),
  );
  return {
    id: Number(s.id),
    name: s.name,
    studyId: `CRDP${Number(s.id)}`,
    patientIds: ids.map((r) => Number(r.patient_id)),
  };
}

/** The model to export by: one of the app's models copied from SDTMIG, or SDTMIG itself. */
async function exportModel(db: Db, appId: number, modelId: number | undefined) {
  const std = standardModel('sdtmig');
  if (modelId === undefined)
    return { name: `${std.standard} ${std.version}`, version: std.version, tables: std.tables };
  const [m] = rowsOf<{
    id: number;
    name: string;
    version: number;
    standard: string;
    standard_version: string;
  }>(
    await db.execute(
      sql`select id, name, version, standard, standard_version from data_models where id = ${modelId} and app_id = ${appId}`,
    ),
  );
  if (!m) throw notFound('data_model');
  if (m.standard !== 'SDTMIG')
    throw invalidField(
      'query.modelId',
      `${m.name} 不是由 SDTMIG 复制的模型，不能导出为 SDTM`,
      `${m.name} was not copied from SDTMIG and cannot be exported as SDTM`,
    );
  return {
    name: `${m.name} v${m.version}`,
    version: m.standard_version,
    tables: await modelTables(db, Number(m.id)),
  };
}

const iso = (v: string | Date | null | undefined) =>
  v ? (v instanceof Date ? v : new Date(v)).toISOString().slice(0, 19) : '';
const day = (v: string | Date | null | undefined) => (v ? iso(v).slice(0, 10) : '');

function ageAt(birth: string | null, at: string | Date): number | null {
  if (!birth) return null;
  const b = new Date(birth);
  const d = new Date(at);
  let age = d.getUTCFullYear() - b.getUTCFullYear();
  if (
    d.getUTCMonth() < b.getUTCMonth() ||
    (d.getUTCMonth() === b.getUTCMonth() && d.getUTCDate() < b.getUTCDate())
  )
    age -= 1;
  return age;
}

const SEX: Record<number, string> = { 1: 'M', 2: 'F', 0: 'U', 3: 'U' };

/** CDR vital-sign and physical-exam items → VSTESTCD, VSTEST, standard unit. */
const VS_ITEMS: Record<string, [string, string, string]> = {
  体温: ['TEMP', 'Temperature', 'C'],
  脉搏: ['PULSE', 'Pulse Rate', 'beats/min'],
  心率: ['HR', 'Heart Rate', 'beats/min'],
  呼吸: ['RESP', 'Respiratory Rate', 'breaths/min'],
  血氧饱和度: ['OXYSAT', 'Oxygen Saturation', '%'],
  身高: ['HEIGHT', 'Height', 'cm'],
  体重: ['WEIGHT', 'Weight', 'kg'],
};

const ROUTES: Record<string, string> = {
  口服: 'ORAL',
  静脉注射: 'INTRAVENOUS',
  静脉滴注: 'INTRAVENOUS',
  静滴: 'INTRAVENOUS',
  皮下注射: 'SUBCUTANEOUS',
  肌肉注射: 'INTRAMUSCULAR',
  肌注: 'INTRAMUSCULAR',
  外用: 'TOPICAL',
  吸入: 'RESPIRATORY (INHALATION)',
};
const NRIND: Record<string, string> = { H: 'HIGH', L: 'LOW', N: 'NORMAL', HH: 'HIGH', LL: 'LOW' };

const testCode = (code: string) =>
  code
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^(\d)/, 'X$1')
    .slice(0, 8) || 'UNKNOWN';
const num = (v: string) => (/^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : null);

/** The rows of one domain for a batch of patients, without STUDYID/DOMAIN/USUBJID/--SEQ. */
async function domainRows(db: Db, appId: number, d: Filled, ids: number[], enrolled: Map<number, string>) {
  const list = sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  );
  const out: Array<{ patientId: number; row: Row }> = [];
  if (d === 'DM') {
    const rows = rowsOf<{ id: number; gender: number; birth_date: string | null }>(
      await db.execute(
        sql`select id, gender, birth_date from patients where app_id = ${appId} and id in (${list}) order by id`,
      ),
    );
    for (const p of rows) {
      const start = enrolled.get(Number(p.id)) ?? '';
      out.push({
        patientId: Number(p.id),
        row: {
          SUBJID: String(p.id),
          SITEID: String(appId),
          RFSTDTC: day(start),
          RFICDTC: day(start),
          BRTHDTC: p.birth_date ? day(p.birth_date) : '',
          AGE: start ? ageAt(p.birth_date, start) : null,
          AGEU: p.birth_date ? 'YEARS' : '',
          SEX: SEX[Number(p.gender)] ?? 'U',
          COUNTRY: 'CHN',
        },
      });
    }
  } else if (d === 'MH') {
    const rows = rowsOf<{
      patient_id: number;
      original_text: string;
      code: string | null;
      display_zh: string | null;
      kind: string;
      diagnosed_at: string;
    }>(
      await db.execute(sql`select c.patient_id, c.original_text, c.code, c.display_zh, d.kind, d.diagnosed_at
        from cdr_coded_diagnoses c join diagnoses d on d.id = c.id
        where c.app_id = ${appId} and c.patient_id in (${list}) order by c.patient_id, d.diagnosed_at, c.id`),
    );
    for (const r of rows)
      out.push({
        patientId: Number(r.patient_id),
        row: {
          MHTERM: r.original_text,
          MHDECOD: r.code ? r.display_zh || r.code : '',
          MHCAT: 'DIAGNOSIS',
          MHSTDTC: day(r.diagnosed_at),
        },
      });
  } else if (d === 'LB') {
    const rows = rowsOf<{
      patient_id: number;
      item_code: string;
      item_name: string;
      code: string | null;
      value_num: number | null;
      value_text: string;
      unit: string;
      ref_low: number | null;
      ref_high: number | null;
      abnormal_flag: string;
      collected_at: string;
    }>(
      await db.execute(sql`select l.patient_id, l.item_code, l.item_name, c.code, l.value_num, l.value_text, l.unit,
          l.ref_low, l.ref_high, l.abnormal_flag, l.collected_at
        from lab_results l join cdr_coded_lab_results c on c.id = l.id
        where l.app_id = ${appId} and l.patient_id in (${list}) order by l.patient_id, l.collected_at, l.id`),
    );
    for (const r of rows) {
      const value = r.value_num === null ? r.value_text : String(Number(r.value_num));
      out.push({
        patientId: Number(r.patient_id),
        row: {
          LBTESTCD: testCode(r.item_code),
          LBTEST: r.item_name.slice(0, 40),
          LBORRES: value,
          LBORRESU: r.unit,
          LBORNRLO: r.ref_low === null ? '' : String(Number(r.ref_low)),
          LBORNRHI: r.ref_high === null ? '' : String(Number(r.ref_high)),
          LBSTRESC: value,
          LBSTRESN: r.value_num === null ? null : Number(r.value_num),
          LBSTRESU: r.unit,
          LBNRIND: NRIND[r.abnormal_flag.trim().toUpperCase()] ?? '',
          LBLOINC: r.code ?? '',
          LBDTC: iso(r.collected_at),
        },
      });
    }
  } else if (d === 'VS') {
    const rows = rowsOf<{ patient_id: number; item: string; value: string; unit: string; at: string }>(
      await db.execute(sql`select patient_id, item_name as item, value, item_unit as unit, record_dt as at
          from vital_signs where app_id = ${appId} and patient_id in (${list})
        union all
        select patient_id, item, value, unit, recorded_at as at
          from physical_exams where app_id = ${appId} and patient_id in (${list})
        order by 1, 5`),
    );
    for (const r of rows) {
      const item = r.item.trim();
      const tests: Array<[string, string, string, string]> = [];
      if (item === '血压') {
        const m = /^(\d+)\s*\/\s*(\d+)$/.exec(r.value.trim());
        if (m) {
          tests.push(['SYSBP', 'Systolic Blood Pressure', m[1]!, 'mmHg']);
          tests.push(['DIABP', 'Diastolic Blood Pressure', m[2]!, 'mmHg']);
        }
      } else if (VS_ITEMS[item]) {
        const [code, name, unit] = VS_ITEMS[item];
        tests.push([code, name, r.value.trim(), unit]);
      }
      for (const [code, name, value, unit] of tests)
        out.push({
          patientId: Number(r.patient_id),
          row: {
            VSTESTCD: code,
            VSTEST: name,
            VSORRES: value,
            VSORRESU: r.unit && item !== '血压' ? r.unit : unit,
            VSSTRESC: value,
            VSSTRESN: num(value),
            VSSTRESU: unit,
            VSDTC: iso(r.at),
          },
        });
    }
  } else {
    const rows = rowsOf<{
      patient_id: number;
      original_text: string;
      code: string | null;
      display_zh: string | null;
      dose: string;
      dose_unit: string;
      route: string;
      frequency: string;
      start_at: string;
      stop_at: string | null;
    }>(
      await db.execute(sql`select o.patient_id, c.original_text, c.code, c.display_zh, o.dose, o.dose_unit, o.route,
          o.frequency, o.start_at, o.stop_at
        from orders o join cdr_coded_drug_orders c on c.id = o.id
        where o.app_id = ${appId} and o.patient_id in (${list}) order by o.patient_id, o.start_at, o.id`),
    );
    for (const r of rows)
      out.push({
        patientId: Number(r.patient_id),
        row: {
          CMTRT: r.original_text,
          CMDECOD: r.code ? r.display_zh || r.code : '',
          CMDOSE: num(r.dose),
          CMDOSTXT: num(r.dose) === null ? r.dose : '',
          CMDOSU: r.dose_unit,
          CMDOSFRQ: r.frequency.toUpperCase(),
          CMROUTE: ROUTES[r.route.trim()] ?? r.route,
          CMSTDTC: iso(r.start_at),
          CMENDTC: iso(r.stop_at),
        },
      });
  }
  return out;
}

/** The variables written for a domain: Req and Exp ones, those the export fills, and the model's own. */
function columnsOf(table: DataModelTable, filled: Set<string>) {
  return table.variables.filter(
    (v) => v.core === 'Req' || v.core === 'Exp' || v.core === '' || filled.has(v.name),
  );
}

interface Built {
  table: DataModelTable;
  columns: DataModelTable['variables'];
  rows: number;
  /** Values seen per variable with a codelist (for define.xml's codelists). */
  seen: Map<string, Set<string>>;
  lengths: Map<string, number>;
}

async function* domainCsv(
  db: Db,
  appId: number,
  subject: Subject,
  domain: Filled,
  table: DataModelTable,
  enrolled: Map<number, string>,
  built: Built,
): AsyncGenerator<string> {
  const seq = new Map<number, number>();
  let header = false;
  for (let i = 0; i < subject.patientIds.length; i += PATIENT_BATCH) {
    const ids = subject.patientIds.slice(i, i + PATIENT_BATCH);
    const rows = await domainRows(db, appId, domain, ids, enrolled);
    if (!header) {
      const filled = new Set([
        'STUDYID',
        'DOMAIN',
        'USUBJID',
        `${domain}SEQ`,
        ...Object.keys(rows[0]?.row ?? {}),
      ]);
      for (const name of Object.keys(FILLED_NAMES[domain])) filled.add(name);
      built.columns = columnsOf(table, filled);
      yield `\ufeff${csvLines([built.columns.map((c) => c.name)], { formulaGuard: false })}`;
      header = true;
    }
    const lines: Cell[][] = [];
    for (const { patientId, row } of rows) {
      const n = (seq.get(patientId) ?? 0) + 1;
      seq.set(patientId, n);
      const full: Row = {
        ...row,
        STUDYID: subject.studyId,
        DOMAIN: domain,
        USUBJID: `${subject.studyId}-${patientId}`,
        [`${domain}SEQ`]: domain === 'DM' ? null : n,
      };
      const line = built.columns.map((c) => {
        const v = full[c.name] ?? (c.type === 'Num' ? null : '');
        const text = v === null ? '' : String(v);
        if (text.length > (built.lengths.get(c.name) ?? 0)) built.lengths.set(c.name, text.length);
        if (c.codelist && text) {
          const s = built.seen.get(c.name) ?? new Set<string>();
          s.add(text);
          built.seen.set(c.name, s);
        }
        return v;
      });
      lines.push(line);
    }
    built.rows += lines.length;
    if (lines.length) yield csvLines(lines, { formulaGuard: false });
  }
}

/** Variables each domain fills (so Perm ones among them are written even when a batch has no row). */
const FILLED_NAMES: Record<Filled, Record<string, true>> = {
  DM: {
    SUBJID: true,
    SITEID: true,
    RFSTDTC: true,
    RFICDTC: true,
    BRTHDTC: true,
    AGE: true,
    AGEU: true,
    SEX: true,
    COUNTRY: true,
  },
  MH: { MHTERM: true, MHDECOD: true, MHCAT: true, MHSTDTC: true },
  LB: {
    LBTESTCD: true,
    LBTEST: true,
    LBORRES: true,
    LBORRESU: true,
    LBORNRLO: true,
    LBORNRHI: true,
    LBSTRESC: true,
    LBSTRESN: true,
    LBSTRESU: true,
    LBNRIND: true,
    LBLOINC: true,
    LBDTC: true,
  },
  VS: {
    VSTESTCD: true,
    VSTEST: true,
    VSORRES: true,
    VSORRESU: true,
    VSSTRESC: true,
    VSSTRESN: true,
    VSSTRESU: true,
    VSDTC: true,
  },
  CM: {
    CMTRT: true,
    CMDECOD: true,
    CMDOSE: true,
    CMDOSTXT: true,
    CMDOSU: true,
    CMDOSFRQ: true,
    CMROUTE: true,
    CMSTDTC: true,
    CMENDTC: true,
  },
};

async function counts(db: Db, appId: number, ids: number[]): Promise<Record<Filled, number>> {
  if (!ids.length) return { DM: 0, MH: 0, LB: 0, VS: 0, CM: 0 };
  const arr = `{${ids.join(',')}}`;
  const [r] = rowsOf<{ dm: number; mh: number; lb: number; vs: number; cm: number }>(
    await db.execute(sql`select
      (select count(*)::int from patients where app_id = ${appId} and id = any(${arr}::bigint[])) as dm,
      (select count(*)::int from diagnoses where app_id = ${appId} and patient_id = any(${arr}::bigint[])) as mh,
      (select count(*)::int from lab_results where app_id = ${appId} and patient_id = any(${arr}::bigint[])) as lb,
      (select count(*)::int from vital_signs where app_id = ${appId} and patient_id = any(${arr}::bigint[])
        and btrim(item_name) in ('体温', '脉搏', '心率', '呼吸', '血氧饱和度'))
        + (select coalesce(sum(case when btrim(item) = '血压' then 2 else 1 end), 0)::int from physical_exams
        where app_id = ${appId} and patient_id = any(${arr}::bigint[]) and btrim(item) in ('身高', '体重', '血压')) as vs,
      (select count(*)::int from orders where app_id = ${appId} and category = 'drug' and patient_id = any(${arr}::bigint[])) as cm`),
  );
  return { DM: Number(r!.dm), MH: Number(r!.mh), LB: Number(r!.lb), VS: Number(r!.vs), CM: Number(r!.cm) };
}

function tablesToWrite(tables: DataModelTable[], n: Record<Filled, number>) {
  return FILLED.flatMap((d) => {
    const t = tables.find((x) => x.name === d);
    return t && n[d] > 0 ? [{ domain: d, table: t }] : [];
  });
}

/** What the export would hold: rows per dataset (a blood pressure is two VS records, systolic and diastolic). */
export async function previewSdtm(
  db: Db,
  appId: number,
  q: { subjectId: number; modelId?: number | undefined },
): Promise<SdtmExportPreview> {
  const subject = await subjectOf(db, appId, q.subjectId);
  const model = await exportModel(db, appId, q.modelId);
  const n = await counts(db, appId, subject.patientIds);
  return {
    subjectName: subject.name,
    studyId: subject.studyId,
    modelName: model.name,
    patients: subject.patientIds.length,
    datasets: tablesToWrite(model.tables, n).map(({ domain, table }) => ({
      name: domain,
      label: table.label,
      rows: n[domain],
      variables: table.variables.length,
    })),
  };
}

/** The ZIP entries of the export: the datasets' CSV files, then define.xml describing them. */
export async function sdtmExportEntries(
  db: Db,
  appId: number,
  q: { subjectId: number; modelId?: number | undefined },
): Promise<{ entries: ZipEntry[]; fileName: string; subject: Subject; datasets: string[] }> {
  const subject = await subjectOf(db, appId, q.subjectId);
  const model = await exportModel(db, appId, q.modelId);
  const n = await counts(db, appId, subject.patientIds);
  const enrolledRows = rowsOf<{ patient_id: number; enrolled_at: string }>(
    await db.execute(sql`select patient_id, enrolled_at from research_enrolments
      where subject_id = ${subject.id} and app_id = ${appId}`),
  );
  const enrolled = new Map(
    enrolledRows.map((r) => [Number(r.patient_id), new Date(r.enrolled_at).toISOString()]),
  );
  const write = tablesToWrite(model.tables, n);
  const built: Built[] = [];
  const entries: ZipEntry[] = write.map(({ domain, table }) => {
    const b: Built = { table, columns: [], rows: 0, seen: new Map(), lengths: new Map() };
    built.push(b);
    return {
      name: `${domain.toLowerCase()}.csv`,
      content: domainCsv(db, appId, subject, domain, table, enrolled, b),
    };
  });
  entries.push({
    name: 'define.xml',
    // Runs after the CSV entries (the ZIP writes entries in order), so it describes what they held.
    content: (async function* () {
      const datasets: DefineDataset[] = built
        .filter((b) => b.rows > 0)
        .map((b) => ({
          table: b.table,
          columns: b.columns,
          file: `${b.table.name.toLowerCase()}.csv`,
          seen: b.seen,
          lengths: b.lengths,
        }));
      yield defineXml({
        studyId: subject.studyId,
        studyName: subject.name,
        modelName: model.name,
        standardVersion: model.version,
        datasets,
        createdAt: new Date(),
      });
    })(),
  });
  return {
    entries,
    fileName: `sdtm-${subject.studyId}.zip`,
    subject,
    datasets: write.map((w) => w.domain),
  };
}
