import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { jsonValue, timestamp, timestampOrNull } from './common.js';
import { jobView } from './jobs.js';

/**
 * The clinical data repository (CDR, server: apps/server/src/clinical): patient 360 and the
 * personal view (`/api/v0.1/360...`), manual entry, the CDR browser and overview
 * (`/api/v0.1/cdr/...`), imports (`/api/v0.1/imports...`) and the multi-condition search
 * (`/api/v0.1/fulltext/...`).
 *
 * Coded columns of clinical rows (visit kind, diagnosis kind, order category, abnormal flag…)
 * are plain strings here: rows arrive from hospital systems, files and FHIR bundles, and a
 * value the web does not know yet must still be shown, not refused.
 */

const int = z.number().int();

/** The kinds of rows a patient has (the personal view's tabs and their badges). */
export const CDR_CHILD_KINDS = [
  'visits',
  'diagnoses',
  'allergies',
  'orders',
  'labResults',
  'examReports',
  'operations',
  'physicalExams',
  'vitalSigns',
  'documents',
] as const;
export type CdrChildKind = (typeof CDR_CHILD_KINDS)[number];
/** outpatient, inpatient or emergency. */
export const CDR_VISIT_KINDS = ['outpatient', 'inpatient', 'emergency'] as const;
export const CDR_IMPORT_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'partial',
  'failed',
  'cancelled',
] as const;
export type CdrImportStatus = (typeof CDR_IMPORT_STATUSES)[number];
export const CDR_IMPORT_FORMATS = ['fhir', 'csv'] as const;

// ---- Rows ------------------------------------------------------------------------------------

export const cdrContact = z.looseObject({
  name: z.string().optional(),
  relation: z.string().optional(),
  phone: z.string().optional(),
});

/** A patient as lists and the person view show it; national ID and phones masked unless the reader may see identity. */
export const cdrPatient = z.object({
  id: int,
  /** Medical record number (病案号). */
  mrn: z.string(),
  name: z.string(),
  /** Gender code of spec 001: 0 unknown, 1 male, 2 female, 3 other. */
  gender: int,
  /** YYYY-MM-DD. */
  birthDate: z.string().nullable(),
  nationalId: z.string(),
  phone: z.string(),
  address: z.string(),
  contacts: z.array(cdrContact),
  source: z.string(),
  createdAt: timestamp,
  /** True when national ID and phones are masked for this reader. */
  identityMasked: z.boolean(),
});
export type CdrPatient = z.infer<typeof cdrPatient>;

/** Columns every child row has: where it came from and whose it is. */
const child = {
  id: int,
  patientId: int,
  source: z.string(),
  sourceId: z.string(),
};
const visitId = int.nullable();

export const cdrVisit = z.object({
  ...child,
  /** outpatient, inpatient or emergency. */
  kind: z.string(),
  department: z.string(),
  /** The doctor in charge ('' unknown). */
  doctor: z.string(),
  admitAt: timestamp,
  dischargeAt: timestampOrNull,
});
export type CdrVisit = z.infer<typeof cdrVisit>;

/** A coding as stored with a row (see cdrCoding of cdr-input.ts). */
export const storedCoding = z.object({ system: z.string(), code: z.string(), display: z.string() });
export type StoredCoding = z.infer<typeof storedCoding>;

export const cdrDiagnosis = z.object({
  ...child,
  visitId,
  icd10: z.string(),
  name: z.string(),
  /** Every coding the source gave (FHIR: SNOMED CT, ICD-10...); [] for rows entered by hand. */
  codings: z.array(storedCoding),
  /** main, secondary, admission, discharge, outpatient. */
  kind: z.string(),
  diagnosedAt: timestamp,
});
export type CdrDiagnosis = z.infer<typeof cdrDiagnosis>;

export const cdrAllergy = z.object({
  ...child,
  substance: z.string(),
  reaction: z.string(),
  severity: z.string(),
  recordedAt: timestamp,
});
export type CdrAllergy = z.infer<typeof cdrAllergy>;

export const cdrOrder = z.object({
  ...child,
  visitId,
  /** drug or other. */
  category: z.string(),
  code: z.string(),
  name: z.string(),
  codings: z.array(storedCoding),
  dose: z.string(),
  doseUnit: z.string(),
  route: z.string(),
  frequency: z.string(),
  startAt: timestamp,
  stopAt: timestampOrNull,
});
export type CdrOrder = z.infer<typeof cdrOrder>;

export const cdrLabResult = z.object({
  ...child,
  visitId,
  itemCode: z.string(),
  itemName: z.string(),
  codings: z.array(storedCoding),
  valueNum: z.number().nullable(),
  valueText: z.string(),
  unit: z.string(),
  refLow: z.number().nullable(),
  refHigh: z.number().nullable(),
  /** H high, L low, N normal, A abnormal text, '' unknown. */
  abnormalFlag: z.string(),
  collectedAt: timestamp,
});
export type CdrLabResult = z.infer<typeof cdrLabResult>;

export const cdrExamReport = z.object({
  ...child,
  visitId,
  modality: z.string(),
  bodyPart: z.string(),
  findings: z.string(),
  conclusion: z.string(),
  examAt: timestamp,
});
export type CdrExamReport = z.infer<typeof cdrExamReport>;

export const cdrOperation = z.object({
  ...child,
  visitId,
  code: z.string(),
  name: z.string(),
  codings: z.array(storedCoding),
  operatedAt: timestamp,
  surgeon: z.string(),
  anaesthesia: z.string(),
});
export type CdrOperation = z.infer<typeof cdrOperation>;

export const cdrPhysicalExam = z.object({
  ...child,
  visitId,
  item: z.string(),
  value: z.string(),
  unit: z.string(),
  recordedAt: timestamp,
});
export type CdrPhysicalExam = z.infer<typeof cdrPhysicalExam>;

export const cdrVitalSign = z.object({
  ...child,
  visitId,
  itemName: z.string(),
  value: z.string(),
  itemUnit: z.string(),
  recordDt: timestamp,
});
export type CdrVitalSign = z.infer<typeof cdrVitalSign>;

export const cdrDocument = z.object({
  ...child,
  visitId,
  /** admission, progress, discharge, operation, other. */
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** The doctor who wrote it ('' unknown). */
  author: z.string(),
  writtenAt: timestamp,
});
export type CdrDocument = z.infer<typeof cdrDocument>;

/** The row schema of each kind of a patient's rows. */
export const cdrChildRows = {
  visits: cdrVisit,
  diagnoses: cdrDiagnosis,
  allergies: cdrAllergy,
  orders: cdrOrder,
  labResults: cdrLabResult,
  examReports: cdrExamReport,
  operations: cdrOperation,
  physicalExams: cdrPhysicalExam,
  vitalSigns: cdrVitalSign,
  documents: cdrDocument,
} as const satisfies Record<CdrChildKind, z.ZodType>;
/** A patient's row of one kind. */
export type CdrChildRow<K extends CdrChildKind> = z.infer<(typeof cdrChildRows)[K]>;

// ---- Patient 360 -----------------------------------------------------------------------------

/** Keyset page of a list: pass `nextCursor` back as `cursor` for the next page; null at the end. */
export const cdrKeysetPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const cdrPatientSearch = cdrKeysetPage(cdrPatient);
export type CdrPatientSearch = z.infer<typeof cdrPatientSearch>;

/** One page of a patient's rows of one kind, with the total. */
export const cdrChildPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: int, page: int, size: int });
export type CdrChildPage<T> = { items: T[]; total: number; page: number; size: number };

/** How many rows of each kind a patient has. */
export const cdrCounts = z.object(
  Object.fromEntries(CDR_CHILD_KINDS.map((k) => [k, int])) as Record<CdrChildKind, typeof int>,
);
export type CdrCounts = z.infer<typeof cdrCounts>;

/** The person view: the patient, recent visits, diagnoses and allergies, and counts per kind. */
export const cdrPerson = z.object({
  patient: cdrPatient,
  visits: z.array(cdrVisit),
  diagnoses: z.array(cdrDiagnosis),
  allergies: z.array(cdrAllergy),
  counts: cdrCounts,
});
export type CdrPerson = z.infer<typeof cdrPerson>;

/** A lab item the patient has: how many results, how many abnormal, the reference range. */
export const cdrLabItem = z.object({
  itemCode: z.string(),
  itemName: z.string(),
  unit: z.string(),
  n: int,
  abnormal: int,
  refLow: z.number().nullable(),
  refHigh: z.number().nullable(),
});
export type CdrLabItem = z.infer<typeof cdrLabItem>;

export const cdrLabPage = cdrChildPage(cdrLabResult).extend({ labItems: z.array(cdrLabItem) });
export type CdrLabPage = z.infer<typeof cdrLabPage>;

/** A point of the vital-sign chart (spec 001 section 3: its field names). */
export const cdrVitalPoint = z.object({
  _id: int,
  Item_name: z.string(),
  value: z.string(),
  Item_unit: z.string(),
  Record_dt: timestamp,
});
export type CdrVitalPoint = z.infer<typeof cdrVitalPoint>;

/** The vital signs of one inpatient visit (the latest when none was named). */
export const cdrVitals = z.object({ visit: cdrVisit.nullable(), points: z.array(cdrVitalPoint) });
export type CdrVitals = z.infer<typeof cdrVitals>;

// ---- Manual entry, browser, overview ---------------------------------------------------------

export const cdrRecordCreated = z.object({ id: int });

/** A repository table with its label in both languages and its columns (the browser's header). */
export const cdrTableInfo = z.object({
  key: z.string(),
  label: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }),
  columns: z.array(z.string()),
});
export type CdrTableInfo = z.infer<typeof cdrTableInfo>;

/** A row of any repository table, as the browser lists it (its columns are the table's). */
export const cdrBrowserRow = z.record(z.string(), jsonValue);
export type CdrBrowserRow = z.infer<typeof cdrBrowserRow>;
export const cdrBrowserPage = cdrKeysetPage(cdrBrowserRow);
export type CdrBrowserPage = z.infer<typeof cdrBrowserPage>;

export const cdrOverview = z.object({
  bySource: z.array(z.object({ table: z.string(), source: z.string(), n: int })),
  /** YYYY-MM, the last 24 months. */
  byMonth: z.array(z.object({ table: z.string(), month: z.string(), n: int })),
});
export type CdrOverview = z.infer<typeof cdrOverview>;

// ---- Directory (目录浏览) --------------------------------------------------------------------

/** How the directory profiles a field: ids and identifying fields show no values. */
export const CDR_FIELD_KINDS = ['id', 'text', 'number', 'date', 'boolean', 'json'] as const;
export type CdrFieldKind = (typeof CDR_FIELD_KINDS)[number];

/** A field of a repository table: how many of the app's rows fill it. */
export const cdrDirectoryField = z.object({
  key: z.string(),
  kind: z.enum(CDR_FIELD_KINDS),
  filled: int,
  /** Names, ID numbers, phones, addresses, source ids, free text: counted, never listed. */
  identifying: z.boolean(),
});
export type CdrDirectoryField = z.infer<typeof cdrDirectoryField>;

export const cdrDirectoryTable = z.object({ key: z.string(), rows: int, fields: z.array(cdrDirectoryField) });
export type CdrDirectoryTable = z.infer<typeof cdrDirectoryTable>;

export const cdrDirectory = z.object({ tables: z.array(cdrDirectoryTable) });
export type CdrDirectory = z.infer<typeof cdrDirectory>;

/** One field's values in the app: the most frequent, a number's spread, a date's years. */
export const cdrFieldProfile = z.object({
  table: z.string(),
  field: z.string(),
  kind: z.enum(CDR_FIELD_KINDS),
  identifying: z.boolean(),
  rows: int,
  filled: int,
  /** Distinct filled values; null for identifying fields (not even counted apart). */
  distinct: int.nullable(),
  /** Text, boolean: the ten most frequent values, most rows first. */
  top: z.array(z.object({ value: z.string(), n: int })),
  numeric: z
    .object({
      min: z.number(),
      max: z.number(),
      mean: z.number(),
      p25: z.number(),
      p50: z.number(),
      p75: z.number(),
    })
    .nullable(),
  /** Numbers: ten equal-width bins from min to max. */
  histogram: z.array(z.object({ from: z.number(), to: z.number(), n: int })),
  /** Dates: rows per year, oldest first. */
  byYear: z.array(z.object({ year: z.string(), n: int })),
});
export type CdrFieldProfile = z.infer<typeof cdrFieldProfile>;

// ---- Imports ---------------------------------------------------------------------------------

/** A row an import refused, and why (in the reader's language; older rows keep their English). */
export const cdrImportError = z.object({
  /** From 1: the CSV line after the header, or the bundle entry; 0 for the file as a whole. */
  row: int,
  field: z.string(),
  message: z.string(),
  /** e.g. Observation/123, for FHIR. */
  ref: z.string().optional(),
});
export type CdrImportError = z.infer<typeof cdrImportError>;

/** An import as the list shows it (`errorCount`) or as one is read (`errors`, `progress`, `jobError`). */
export const cdrImport = z.object({
  id: int,
  jobId: int.nullable(),
  format: z.enum(CDR_IMPORT_FORMATS),
  fileName: z.string(),
  status: z.enum(CDR_IMPORT_STATUSES),
  total: int,
  succeeded: int,
  failed: int,
  /** Rows written per table: { patients: 1, visits: 12, … }. */
  counts: z.record(z.string(), z.number()),
  errorCount: int.optional(),
  errors: z.array(cdrImportError).optional(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type CdrImport = z.infer<typeof cdrImport>;

export const cdrImportDetail = cdrImport.extend({
  /** The job's progress, 0 to 100. */
  progress: z.number(),
  /** Why the job failed, in the reader's language. */
  jobError: z.string().nullable(),
});
export type CdrImportDetail = z.infer<typeof cdrImportDetail>;

export const cdrImportPage = cdrChildPage(cdrImport);
export type CdrImportPage = z.infer<typeof cdrImportPage>;

/** The fields a CSV column may be mapped to, per target table. */
export const cdrCsvFields = z.record(z.string(), z.array(z.string()));
export type CdrCsvFields = z.infer<typeof cdrCsvFields>;

// ---- Multi-condition search ------------------------------------------------------------------

/** A lab condition: a result of the item with a numeric value in [min, max] (the server checks min ≤ max). */
export const cdrSearchLab = z.object({
  itemCode: safeText(40, { min: 1 }),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
});

/**
 * The conditions of the multi-condition search (`POST /fulltext/search` and `/fulltext/export`);
 * all must hold. The server adds the checks across fields (at least one condition, ranges in order).
 */
export const cdrSearchConditions = z.object({
  /** ICD-10 code prefix (K74) or words of the diagnosis name (肝硬化). */
  diagnosis: safeText(60, { min: 1 }).optional(),
  labs: z.array(cdrSearchLab).max(5).optional(),
  dateFrom: z.iso.date().optional(),
  dateTo: z.iso.date().optional(),
  gender: z.number().int().min(0).max(3).optional(),
  ageMin: z.number().int().min(0).max(150).optional(),
  ageMax: z.number().int().min(0).max(150).optional(),
  /** Free text over clinical documents: every term (split by blanks) must occur. */
  text: safeText(200).optional(),
  /** The previous page's `nextCursor`. */
  cursor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  size: z.number().int().min(1).max(100).default(20),
});
export type CdrSearchConditions = z.input<typeof cdrSearchConditions>;

/** A piece of a highlighted extract: plain, or a match of a search term. */
export const cdrTextSegment = z.object({ text: z.string(), hit: z.boolean() });
export type CdrTextSegment = z.infer<typeof cdrTextSegment>;

/** A patient meeting every condition, with what matched. */
export const cdrSearchHit = cdrPatient.extend({
  documents: z.array(
    z.object({
      documentId: int,
      kind: z.string(),
      title: z.string(),
      writtenAt: timestamp,
      snippet: z.array(cdrTextSegment),
    }),
  ),
  diagnoses: z.array(z.string()),
  labs: z.array(
    z.object({
      itemCode: z.string(),
      itemName: z.string(),
      valueNum: z.number(),
      unit: z.string(),
      collectedAt: timestamp,
    }),
  ),
});
export type CdrSearchHit = z.infer<typeof cdrSearchHit>;

/**
 * A search counts its matching patients up to this many: counting every match of a common word
 * over a million patients takes most of a minute, and past a thousand nobody pages to the end.
 */
export const SEARCH_COUNT_CAP = 1000;

export const cdrSearchResult = cdrKeysetPage(cdrSearchHit).extend({
  /**
   * How many patients match in all, on the first page only (null on later pages); at most
   * SEARCH_COUNT_CAP, and `totalCapped` says when more match than that.
   */
  total: int.nullable(),
  /** More patients match than `total` says (the count stopped at SEARCH_COUNT_CAP); first page only. */
  totalCapped: z.boolean(),
  /** The search terms the text was split into (the page marks them). */
  terms: z.array(z.string()),
});
export type CdrSearchResult = z.infer<typeof cdrSearchResult>;

// ---- Synthetic patients ----------------------------------------------------------------------

/** A synthetic-patients request: how many patients, from which seed (same seed, same patients). */
export const cdrSyntheticBody = z.object({
  patients: z.number().int().min(1).max(5000),
  seed: z.number().int().min(0).max(2_147_483_647),
});
export type CdrSyntheticBody = z.infer<typeof cdrSyntheticBody>;

/** One synthetic-patients job of the app, for the import list: the job and what was asked. */
export const cdrSyntheticRun = jobView.extend({ patients: z.number().int(), seed: z.number().int() });
export type CdrSyntheticRun = z.infer<typeof cdrSyntheticRun>;

// ---- Hospital forecast (医院预测浏览) -------------------------------------------------------

export const CDR_FORECAST_KINDS = ['inpatient', 'outpatient', 'emergency'] as const;
export const cdrForecastQuery = z.object({
  kind: z.enum(CDR_FORECAST_KINDS).default('inpatient'),
  /** Days of history the forecast learns from (ending at the latest visit of the kind). */
  history: z.coerce.number().int().min(28).max(730).default(180),
});
export type CdrForecastQuery = z.input<typeof cdrForecastQuery>;

/**
 * Visits of one kind per day (admissions for inpatients) and a seasonal naive forecast of the
 * next 30 days with 80 % and 95 % intervals (`@crdp/stats` seasonalNaive, a weekly season).
 */
export const cdrForecast = z.object({
  kind: z.enum(CDR_FORECAST_KINDS),
  /** The last day with data (Beijing time), or null when the app has no visits of the kind. */
  asOf: z.string().nullable(),
  period: int,
  sigma: z.number().nullable(),
  history: z.array(z.object({ date: z.string(), n: int })),
  forecast: z.array(
    z.object({
      date: z.string(),
      mean: z.number(),
      lo80: z.number(),
      hi80: z.number(),
      lo95: z.number(),
      hi95: z.number(),
    }),
  ),
  /** Why there is no forecast (too little data), in the reader's language; null when there is one. */
  notice: z.string().nullable(),
});
export type CdrForecast = z.infer<typeof cdrForecast>;
