import { z } from 'zod';
import { cohortCriteriaSchema } from '../cohort/index.js';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema, isRealIsoDate } from '../helpers/iso-date.js';
import { itemList, pageQueryFields, patchOf, stamps, timestamp } from './common.js';

/**
 * Report query (报表查询, `/api/v0.1/reports`, DataLakeSouthWest): saved parameterised reports
 * over the CDR. No SQL travels: a report is data — the rows it lists (one CDR table, its
 * "source"), the patients it keeps (the shared cohort criteria), the columns it shows (fields of
 * the source and of the patient, from the catalogue below), row filters whose values are fixed
 * or named parameters, and the parameters a person fills at run time (a date range, a
 * department, an ICD-10 prefix). The server compiles it (apps/server/src/reports); the web
 * builds it (apps/web/src/pages/data-lake/Reports.tsx).
 */

/** The tables a report lists rows of, by the labelling layer's table keys (`cdrTable`). */
export const REPORT_SOURCES = [
  'patients',
  'visits',
  'diagnoses',
  'labResults',
  'orders',
  'operations',
  'examReports',
] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

/** How a field is filtered and shown: `gender` is the spec's gender code, `age` whole years today. */
export const REPORT_FIELD_KINDS = ['text', 'number', 'date', 'gender'] as const;
export type ReportFieldKind = (typeof REPORT_FIELD_KINDS)[number];

/**
 * The fields a report may show and filter on, per table (labels: `cdrField`). Identifying fields
 * (a patient's name, national id, phone, address) and free text (documents, exam findings) are
 * not offered: a report leaves the system as a file. The MRN is the hospital's own key.
 */
export const REPORT_FIELDS = {
  patients: { mrn: 'text', gender: 'gender', birthDate: 'date', age: 'number', source: 'text' },
  visits: { kind: 'text', department: 'text', admitAt: 'date', dischargeAt: 'date' },
  diagnoses: { icd10: 'text', name: 'text', kind: 'text', diagnosedAt: 'date' },
  labResults: {
    itemCode: 'text',
    itemName: 'text',
    valueNum: 'number',
    valueText: 'text',
    unit: 'text',
    refLow: 'number',
    refHigh: 'number',
    abnormalFlag: 'text',
    collectedAt: 'date',
  },
  orders: {
    category: 'text',
    code: 'text',
    name: 'text',
    dose: 'text',
    doseUnit: 'text',
    route: 'text',
    frequency: 'text',
    startAt: 'date',
    stopAt: 'date',
  },
  operations: { code: 'text', name: 'text', operatedAt: 'date', anaesthesia: 'text' },
  examReports: { modality: 'text', bodyPart: 'text', examAt: 'date' },
} as const satisfies Record<ReportSource, Record<string, ReportFieldKind>>;

/** A field as `table.field` (patients.mrn, diagnoses.icd10). */
export type ReportFieldRef = string;

/** The tables whose fields a report of a source may use: its own and the patient's. */
export const reportTablesOf = (source: ReportSource): ReportSource[] =>
  source === 'patients' ? ['patients'] : [source, 'patients'];

/** The kind of a `table.field` a report of `source` may use, or null when it may not. */
export function reportFieldKind(source: ReportSource, ref: string): ReportFieldKind | null {
  const [table, field, more] = ref.split('.');
  if (more !== undefined || !table || !field) return null;
  if (!reportTablesOf(source).includes(table as ReportSource)) return null;
  const fields = REPORT_FIELDS[table as ReportSource] as Record<string, ReportFieldKind>;
  return Object.hasOwn(fields, field) ? fields[field]! : null;
}

/** Every field a report of `source` may use, its own table first. */
export const reportFieldsOf = (source: ReportSource) =>
  reportTablesOf(source).flatMap((table) =>
    Object.entries(REPORT_FIELDS[table] as Record<string, ReportFieldKind>).map(([field, kind]) => ({
      ref: `${table}.${field}`,
      table,
      field,
      kind,
    })),
  );

/** Filter operators (labels: `reportOp`). `between` takes a date range; the rest one value. */
export const REPORT_OPS = ['eq', 'prefix', 'contains', 'gte', 'lte', 'between'] as const;
export type ReportOp = (typeof REPORT_OPS)[number];

/** Which operators each kind of field takes. */
export const REPORT_OPS_BY_KIND: Record<ReportFieldKind, readonly ReportOp[]> = {
  text: ['eq', 'prefix', 'contains'],
  number: ['eq', 'gte', 'lte'],
  date: ['between', 'gte', 'lte'],
  gender: ['eq'],
};

/** Parameter types (labels: `reportParamType`): what a person fills in when the report runs. */
export const REPORT_PARAM_TYPES = ['text', 'number', 'date', 'dateRange'] as const;
export type ReportParamType = (typeof REPORT_PARAM_TYPES)[number];

/** The value type an operator on a field kind wants. */
export function valueTypeOf(kind: ReportFieldKind, op: ReportOp): ReportParamType {
  if (op === 'between') return 'dateRange';
  if (kind === 'date') return 'date';
  if (kind === 'number' || kind === 'gender') return 'number';
  return 'text';
}

export const REPORT_NAME_MAX = 60;
export const REPORT_DESCRIPTION_MAX = 300;
const PARAM_KEY = /^[a-z][a-zA-Z0-9_]{0,29}$/;

const isoDate = isoDateSchema();
export const reportDateRange = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .strict()
  .refine((r) => !r.from || !r.to || r.from <= r.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type ReportDateRange = z.infer<typeof reportDateRange>;

/** A value a filter compares with, or a parameter fills. */
export const reportValue = z.union([safeText(200), z.number().finite(), reportDateRange]);
export type ReportValue = z.infer<typeof reportValue>;

export const reportParam = z
  .object({
    key: z.string().regex(PARAM_KEY, 'a letter, then letters, digits or _ (at most 30)'),
    label: safeText(40, { min: 1, required: 'must not be blank' }),
    type: z.enum(REPORT_PARAM_TYPES),
    required: z.boolean().default(false),
  })
  .strict();
export type ReportParam = z.infer<typeof reportParam>;

export const reportFilter = z
  .object({
    field: z.string().max(60),
    op: z.enum(REPORT_OPS),
    /** A fixed value, or … */
    value: reportValue.optional(),
    /** … the key of a parameter filled at run time (a filter whose parameter is left empty is skipped). */
    param: z.string().max(30).optional(),
  })
  .strict();
export type ReportFilter = z.infer<typeof reportFilter>;

export const reportDefinition = z
  .object({
    source: z.enum(REPORT_SOURCES),
    criteria: cohortCriteriaSchema.default({ match: 'all', inclusion: [], exclusion: [] }),
    columns: z.array(z.string().max(60)).min(1).max(30),
    filters: z.array(reportFilter).max(20).default([]),
    params: z.array(reportParam).max(10).default([]),
    /** The column rows are sorted by (a shown one), and the direction; rows tie by their id. */
    sort: z
      .object({ column: z.string().max(60), desc: z.boolean().default(false) })
      .strict()
      .optional(),
  })
  .strict();
export type ReportDefinition = z.infer<typeof reportDefinition>;
export type ReportDefinitionBody = z.input<typeof reportDefinition>;

/** A problem with a definition: where (a path below the body) and what, in both languages. */
export interface ReportIssue {
  path: string;
  zh: string;
  en: string;
}

const typeOfValue = (v: ReportValue): ReportParamType =>
  typeof v === 'number' ? 'number' : typeof v === 'object' ? 'dateRange' : 'text';

/**
 * Everything a definition must hold beyond its shape: known fields of the source, operators the
 * field's kind takes, values and parameters of the type the operator wants, parameters that are
 * used, unique and defined. The first problems, each naming where (`definition.filters.0.op`).
 */
export function checkReportDefinition(d: ReportDefinition, at = 'definition'): ReportIssue[] {
  const issues: ReportIssue[] = [];
  const params = new Map<string, ReportParam>();
  d.params.forEach((p, i) => {
    if (params.has(p.key))
      issues.push({
        path: `${at}.params.${i}.key`,
        zh: `参数“${p.key}”重复`,
        en: `the parameter "${p.key}" appears twice`,
      });
    params.set(p.key, p);
  });
  const seen = new Set<string>();
  d.columns.forEach((c, i) => {
    if (!reportFieldKind(d.source, c))
      issues.push({
        path: `${at}.columns.${i}`,
        zh: `报表不能显示字段“${c}”`,
        en: `the report cannot show the field "${c}"`,
      });
    else if (seen.has(c))
      issues.push({ path: `${at}.columns.${i}`, zh: `字段“${c}”重复`, en: `the field "${c}" appears twice` });
    seen.add(c);
  });
  const used = new Set<string>();
  d.filters.forEach((f, i) => {
    const where = `${at}.filters.${i}`;
    const kind = reportFieldKind(d.source, f.field);
    if (!kind) {
      issues.push({
        path: `${where}.field`,
        zh: `不能按字段“${f.field}”筛选`,
        en: `cannot filter on the field "${f.field}"`,
      });
      return;
    }
    if (!REPORT_OPS_BY_KIND[kind].includes(f.op)) {
      issues.push({
        path: `${where}.op`,
        zh: `字段“${f.field}”不能用运算“${f.op}”`,
        en: `the field "${f.field}" does not take the operator "${f.op}"`,
      });
      return;
    }
    const want = valueTypeOf(kind, f.op);
    if ((f.value === undefined) === (f.param === undefined)) {
      issues.push({
        path: `${where}.value`,
        zh: '应给出一个固定值或一个参数（二者取一）',
        en: 'give either a fixed value or a parameter (one of them)',
      });
      return;
    }
    if (f.param !== undefined) {
      const p = params.get(f.param);
      used.add(f.param);
      if (!p)
        issues.push({
          path: `${where}.param`,
          zh: `没有参数“${f.param}”`,
          en: `there is no parameter "${f.param}"`,
        });
      else if (p.type !== want)
        issues.push({
          path: `${where}.param`,
          zh: `参数“${p.key}”的类型应为 ${want}`,
          en: `the parameter "${p.key}" should be of type ${want}`,
        });
      return;
    }
    const v = f.value!;
    const got = typeOfValue(v);
    const fits = got === want || (want === 'date' && got === 'text' && isRealIsoDate(String(v)));
    if (!fits)
      issues.push({
        path: `${where}.value`,
        zh: want === 'date' ? '应为日期 YYYY-MM-DD' : `应为 ${want} 类型的值`,
        en: want === 'date' ? 'expected a date YYYY-MM-DD' : `expected a value of type ${want}`,
      });
  });
  d.params.forEach((p, i) => {
    if (!used.has(p.key))
      issues.push({
        path: `${at}.params.${i}.key`,
        zh: `参数“${p.key}”没有被任何筛选条件使用`,
        en: `no filter uses the parameter "${p.key}"`,
      });
  });
  if (d.sort && !seen.has(d.sort.column))
    issues.push({
      path: `${at}.sort.column`,
      zh: '排序列应是报表显示的列之一',
      en: 'the sort column must be one of the columns shown',
    });
  return issues;
}

/**
 * The values of a run checked against the parameters: each of its type, required ones given,
 * none unknown. An empty text or range counts as not given.
 */
export function checkReportValues(params: readonly ReportParam[], values: Record<string, ReportValue>) {
  const issues: ReportIssue[] = [];
  const byKey = new Map(params.map((p) => [p.key, p]));
  for (const k of Object.keys(values))
    if (!byKey.has(k))
      issues.push({
        path: `params.${k}`,
        zh: `报表没有参数“${k}”`,
        en: `the report has no parameter "${k}"`,
      });
  for (const p of params) {
    const v = values[p.key];
    const empty =
      v === undefined || v === '' || (typeof v === 'object' && v.from === undefined && v.to === undefined);
    if (empty) {
      if (p.required)
        issues.push({
          path: `params.${p.key}`,
          zh: `请填写参数“${p.label}”`,
          en: `fill in the parameter "${p.label}"`,
        });
      continue;
    }
    const got = typeOfValue(v);
    const fits = got === p.type || (p.type === 'date' && got === 'text' && isRealIsoDate(String(v)));
    if (!fits)
      issues.push({
        path: `params.${p.key}`,
        zh: p.type === 'date' ? `参数“${p.label}”应为日期 YYYY-MM-DD` : `参数“${p.label}”应为 ${p.type} 类型`,
        en:
          p.type === 'date'
            ? `the parameter "${p.label}" should be a date YYYY-MM-DD`
            : `the parameter "${p.label}" should be of type ${p.type}`,
      });
  }
  return issues;
}

export const reportParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const reportCreate = z
  .object({
    name: safeText(REPORT_NAME_MAX, { min: 1, required: 'must not be blank' }),
    description: safeText(REPORT_DESCRIPTION_MAX).default(''),
    definition: reportDefinition,
  })
  .strict();
export type ReportCreate = z.input<typeof reportCreate>;
export const reportPatch = patchOf(reportCreate);
export type ReportPatch = z.input<typeof reportPatch>;

/** What a run found the last time it ran (the data-factory directory shows it). */
export const reportLastRun = z.object({
  at: timestamp,
  rows: z.number().int(),
  patients: z.number().int(),
  /** Rows with something in each column, by column. */
  filled: z.record(z.string(), z.number().int()),
});
export type ReportLastRun = z.infer<typeof reportLastRun>;

export const report = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  definition: reportDefinition,
  createdBy: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  ...stamps,
  lastRun: reportLastRun.nullable(),
});
export type Report = z.infer<typeof report>;
export const reportList = itemList(report);
export type ReportList = z.infer<typeof reportList>;

export const reportValues = z.record(z.string().max(30), reportValue).default({});

/** Run a saved report: its parameters' values and the page wanted. */
export const reportRunBody = z.object({ params: reportValues, ...pageQueryFields(200, 20) }).strict();
export type ReportRunBody = z.input<typeof reportRunBody>;

/** Run a report being written, before it is saved. */
export const reportPreviewBody = z
  .object({ definition: reportDefinition, params: reportValues, ...pageQueryFields(200, 20) })
  .strict();
export type ReportPreviewBody = z.input<typeof reportPreviewBody>;

export const REPORT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const reportExportBody = z
  .object({ params: reportValues, format: z.enum(REPORT_EXPORT_FORMATS).default('csv') })
  .strict();
export type ReportExportBody = z.input<typeof reportExportBody>;
/** The most rows one export writes; a run pages through any number. */
export const REPORT_EXPORT_MAX_ROWS = 100_000;

export const reportCell = z.union([z.string(), z.number(), z.null()]);
export type ReportCell = z.infer<typeof reportCell>;

export const reportResult = z.object({
  columns: z.array(z.object({ ref: z.string(), kind: z.enum(REPORT_FIELD_KINDS) })),
  rows: z.array(z.array(reportCell)),
  total: z.number().int(),
  patients: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type ReportResult = z.infer<typeof reportResult>;

/** The list's search: a word of the name or description. */
export const reportListQuery = z.object({ keyword: safeText(60).optional() });
export type ReportListQuery = z.input<typeof reportListQuery>;
