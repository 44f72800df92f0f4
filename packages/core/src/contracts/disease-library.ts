import { z } from 'zod';
import { cohortCriteriaSchema } from '../cohort/index.js';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema } from '../helpers/iso-date.js';
import { jsonValue, page, pageQueryFields, patchOf, stamps, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';

/**
 * Disease libraries (专病库, `/api/v0.1/diseaselibrary/...`; server: apps/server/src/disease-library,
 * screens: pages/disease-library). A library names its CRF form and, per item, a source rule in the
 * indicator template language; its patients are found by the shared cohort criteria, pushed in
 * and filled by jobs. A form definition travels as JSON here (core does not know the CRF model);
 * the web reads it as a `@crdp/crf` Form.
 */

// ---- Limits shared by the server's schema and the web's form rules ---------------------------

export const LIBRARY_NAME_MAX = 100;
export const LIBRARY_DESCRIPTION_MAX = 1000;
/** A source rule (indicator template) of one item. */
export const LIBRARY_RULE_MAX = 500;
export const LIBRARY_SEARCH_FIELDS_MAX = 200;
/** Hours between scheduled pushes: 0 (none) to 90 days. */
export const LIBRARY_PUSH_EVERY_HOURS_MAX = 24 * 90;
export const LIBRARY_KEYWORD_MAX = 100;
/** The reason given when a submitted record changes. */
export const LIBRARY_CHANGE_REASON_MAX = 1000;
/** Why an item cannot be obtained. */
export const LIBRARY_UNOBTAINABLE_REASON_MAX = 500;
export const LIBRARY_SEARCH_CONDITIONS_MAX = 20;
export const LIBRARY_SEARCH_VALUE_MAX = 200;
export const LIBRARY_EXPORT_ITEMS_MAX = 500;
export const LIBRARY_STATISTICS_ITEMS_MAX = 50;
/** A CRF item key a rule, a search or an export names. */
export const LIBRARY_ITEM_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,79}$/;

/** How a pushed patient's filing date is set: the day of the push, the first visit, the first diagnosis. */
export const LIBRARY_FILING_RULES = ['push', 'firstVisit', 'firstDiagnosis'] as const;
export type LibraryFilingRule = (typeof LIBRARY_FILING_RULES)[number];
export const LIBRARY_STATUSES = ['enabled', 'disabled'] as const;
export type LibraryStatus = (typeof LIBRARY_STATUSES)[number];
/** What a fill did with one patient's item. */
export const LIBRARY_FILL_OUTCOMES = [
  'filled',
  'unchanged',
  'keptManual',
  'noData',
  'unobtainable',
  'invalid',
] as const;
export type LibraryFillOutcome = (typeof LIBRARY_FILL_OUTCOMES)[number];
export const LIBRARY_SEARCH_OPS = ['=', '!=', '>', '>=', '<', '<=', 'contains', 'empty', 'notEmpty'] as const;
export type LibrarySearchOp = (typeof LIBRARY_SEARCH_OPS)[number];
export const LIBRARY_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type LibraryExportFormat = (typeof LIBRARY_EXPORT_FORMATS)[number];

// ---- Requests --------------------------------------------------------------------------------

const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const bigId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const libraryItemKey = z.string().regex(LIBRARY_ITEM_KEY_PATTERN, 'an item key of the CRF');
const name = safeText(LIBRARY_NAME_MAX, { min: 1 });
const description = safeText(LIBRARY_DESCRIPTION_MAX, { multiline: true });
const pageFields = pageQueryFields(200);

export const libraryParams = z.object({ id: serialId });
export const libraryPatientParams = z.object({ id: serialId, patientId: bigId });
export const libraryTemplateParams = z.object({ templateId: serialId });
export const libraryExportParams = z.object({ jobId: bigId });

/** Source rules by item key: `{ [itemKey]: template }`. */
export const librarySourceRules = z.record(libraryItemKey, z.string().trim().min(1).max(LIBRARY_RULE_MAX));

const pushEveryHours = z.number().int().min(0).max(LIBRARY_PUSH_EVERY_HOURS_MAX);

export const libraryInput = z.object({
  name,
  description: description.default(''),
  diseaseId: serialId.nullable().optional(),
  /** An existing form, or a common template whose form and rules the library starts from. */
  crfFormId: serialId.optional(),
  templateId: serialId.optional(),
  criteria: cohortCriteriaSchema.default({ match: 'all', inclusion: [], exclusion: [] }),
  sourceRules: librarySourceRules.default({}),
  searchFields: z.array(libraryItemKey).max(LIBRARY_SEARCH_FIELDS_MAX).default([]),
  filingRule: z.enum(LIBRARY_FILING_RULES).default('push'),
  pushEveryHours: pushEveryHours.default(0),
});
/** A new library as the server reads it (defaults filled in). */
export type LibraryInput = z.infer<typeof libraryInput>;
/** A new library as the web sends it. */
export type LibraryCreateBody = z.input<typeof libraryInput>;

export const libraryPatch = z
  .object({
    name,
    description,
    diseaseId: serialId.nullable(),
    criteria: cohortCriteriaSchema,
    sourceRules: librarySourceRules,
    searchFields: z.array(libraryItemKey).max(LIBRARY_SEARCH_FIELDS_MAX),
    filingRule: z.enum(LIBRARY_FILING_RULES),
    pushEveryHours,
    status: z.enum(LIBRARY_STATUSES),
  })
  .partial();
export type LibraryPatch = z.infer<typeof libraryPatch>;
export type LibraryPatchBody = z.input<typeof libraryPatch>;

export const libraryListQuery = z.object({
  ...pageFields,
  keyword: z.string().trim().max(LIBRARY_KEYWORD_MAX).optional(),
});
export type LibraryListQuery = z.input<typeof libraryListQuery>;

/** The patient-list call of spec 000/001: the previous list request (page, size, filters). */
export const libraryPatientListInput = z.object({
  library_id: serialId,
  page: z.number().int().min(1).max(100_000).default(1),
  size: z.number().int().min(1).max(200).default(20),
  filters: z
    .object({
      name: z.string().trim().max(100).optional(),
      mrn: z.string().trim().max(100).optional(),
      gender: z.number().int().min(0).max(3).optional(),
      filingFrom: isoDateSchema().optional(),
      filingTo: isoDateSchema().optional(),
    })
    .default({}),
});
export type LibraryPatientListInput = z.infer<typeof libraryPatientListInput>;
export type LibraryPatientListBody = z.input<typeof libraryPatientListInput>;

/** The computed-indicator template call: template_str and template_params. */
export const libraryComputeInput = z.object({
  template_str: z.string().min(1).max(LIBRARY_RULE_MAX),
  template_params: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.union([z.string().max(200), z.number()]))
    .default({}),
  library_id: serialId.optional(),
  patient_ids: z.array(bigId).max(50).optional(),
});
export type LibraryComputeInput = z.infer<typeof libraryComputeInput>;
export type LibraryComputeBody = z.input<typeof libraryComputeInput>;

export const libraryRecordSaveInput = z.object({
  answers: z.record(libraryItemKey, z.unknown()),
  revision: z.number().int().min(1),
  submit: z.boolean().default(false),
  reason: safeText(LIBRARY_CHANGE_REASON_MAX, { multiline: true }).optional(),
});
export type LibraryRecordSaveBody = z.input<typeof libraryRecordSaveInput>;

export const libraryUnobtainableInput = z.object({
  itemKey: libraryItemKey,
  /** false clears the mark. */
  unobtainable: z.boolean().default(true),
  reason: safeText(LIBRARY_UNOBTAINABLE_REASON_MAX, { multiline: true }).default(''),
});
export type LibraryUnobtainableBody = z.input<typeof libraryUnobtainableInput>;

export const libraryFillLogQuery = z.object({
  ...pageFields,
  patientId: bigId.optional(),
  itemKey: libraryItemKey.optional(),
  outcome: z.enum(LIBRARY_FILL_OUTCOMES).optional(),
});
export type LibraryFillLogQuery = z.input<typeof libraryFillLogQuery>;

export const libraryMissingQuery = z.object({ itemKey: z.string().max(80).optional() });

export const librarySearchCondition = z.object({
  itemKey: libraryItemKey,
  op: z.enum(LIBRARY_SEARCH_OPS),
  value: z.union([z.string().max(LIBRARY_SEARCH_VALUE_MAX), z.number()]).optional(),
});
export type LibrarySearchCondition = z.infer<typeof librarySearchCondition>;
export const librarySearchInput = z.object({
  conditions: z.array(librarySearchCondition).max(LIBRARY_SEARCH_CONDITIONS_MAX).default([]),
  match: z.enum(['all', 'any']).default('all'),
  page: z.number().int().min(1).max(100_000).default(1),
  size: z.number().int().min(1).max(200).default(20),
});
export type LibrarySearchInput = z.infer<typeof librarySearchInput>;
export type LibrarySearchBody = z.input<typeof librarySearchInput>;

export const libraryStatisticsInput = z.object({
  itemKeys: z.array(libraryItemKey).min(1).max(LIBRARY_STATISTICS_ITEMS_MAX),
  /** Compare two groups: the patients whose item equals `a` against those whose item equals `b`. */
  compare: z
    .object({
      itemKey: libraryItemKey,
      a: z.union([z.string(), z.number()]),
      b: z.union([z.string(), z.number()]),
    })
    .optional(),
});
export type LibraryStatisticsInput = z.infer<typeof libraryStatisticsInput>;

export const libraryExportInput = z.object({
  itemKeys: z.array(libraryItemKey).min(1).max(LIBRARY_EXPORT_ITEMS_MAX),
  format: z.enum(LIBRARY_EXPORT_FORMATS).default('csv'),
});
export type LibraryExportInput = z.infer<typeof libraryExportInput>;
export type LibraryExportBody = z.input<typeof libraryExportInput>;
export const libraryExportDownloadQuery = z.object({ dictionary: z.enum(['0', '1']).optional() });

export const libraryTemplateInput = z.object({
  name,
  description: description.default(''),
  crfFormId: serialId,
  sourceRules: librarySourceRules.default({}),
});
export type LibraryTemplateInput = z.infer<typeof libraryTemplateInput>;
export type LibraryTemplateBody = z.input<typeof libraryTemplateInput>;
export const libraryTemplatePatch = patchOf(libraryTemplateInput);
export type LibraryTemplatePatchBody = z.input<typeof libraryTemplatePatch>;

// ---- Answers ---------------------------------------------------------------------------------

const int = z.number().int();
const stringMap = z.record(z.string(), z.string());

/** A library as stored (create and change answer it). */
export const librarySaved = z.object({
  id: int,
  appId: int,
  name: z.string(),
  description: z.string(),
  diseaseId: int.nullable(),
  crfFormId: int,
  criteria: cohortCriteriaSchema,
  sourceRules: stringMap,
  searchFields: z.array(z.string()),
  filingRule: z.enum(LIBRARY_FILING_RULES),
  status: z.enum(LIBRARY_STATUSES),
  pushEveryHours: int,
  nextPushAt: timestampOrNull,
  lastPushAt: timestampOrNull,
  lastFillAt: timestampOrNull,
  createdBy: int.nullable(),
  ...stamps,
  deletedAt: timestampOrNull,
  deletedBy: int.nullable(),
});
export type LibrarySaved = z.infer<typeof librarySaved>;

/** A library in the list. */
export const libraryListItem = z.object({
  id: int,
  name: z.string(),
  description: z.string(),
  diseaseId: int.nullable(),
  diseaseName: z.string().nullable(),
  crfFormId: int,
  crfFormName: z.string().nullable(),
  filingRule: z.enum(LIBRARY_FILING_RULES),
  status: z.enum(LIBRARY_STATUSES),
  pushEveryHours: int,
  lastPushAt: timestampOrNull,
  lastFillAt: timestampOrNull,
  createdAt: timestamp,
  patients: int,
});
export type LibraryListItem = z.infer<typeof libraryListItem>;
export const libraryPage = page(libraryListItem);
export type LibraryPage = z.infer<typeof libraryPage>;

/** An item of the library's form. */
export const libraryItem = z.object({ key: z.string(), title: z.string(), type: z.string() });
export type LibraryItem = z.infer<typeof libraryItem>;

/** A library with its form (the latest published version), its items and patient count. */
export const libraryDetailView = librarySaved.extend({
  crfFormName: z.string(),
  /** The `@crdp/crf` Form of the latest published version. */
  definition: jsonValue,
  items: z.array(libraryItem),
  patients: int,
});
export type LibraryDetail = z.infer<typeof libraryDetailView>;

export const libraryCount = z.object({ count: int });
export type LibraryCount = z.infer<typeof libraryCount>;
/** A push, fill or export was queued: follow it at `GET /jobs/:id`. */
export const libraryJobQueued = z.object({ jobId: int });
export type LibraryJobQueued = z.infer<typeof libraryJobQueued>;

/** A push, fill or export job of a library. */
export const libraryJob = z.object({
  id: int,
  /** The job's status. */
  status: jobStatus,
  progress: int,
  result: jsonValue,
  error: z.string().nullable(),
  /** Queued by the library's schedule, not by a person. */
  scheduled: z.boolean(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type LibraryJob = z.infer<typeof libraryJob>;

/**
 * The rule and the source row a value came from; with the reason of a not-obtainable mark, the
 * machine's value next to a kept manual one, or the form's message for a refused value.
 */
export const libraryFillSource = z.looseObject({
  rule: z.string().optional(),
  table: z.string().optional(),
  rowId: int.nullable().optional(),
  at: z.string().nullable().optional(),
  reason: z.string().optional(),
  machineValue: jsonValue.optional(),
  message: z.string().optional(),
});
export type LibraryFillSource = z.infer<typeof libraryFillSource>;

/** Where a value came from, per patient and item. */
export const libraryFillLogEntry = z.object({
  id: int,
  jobId: int.nullable(),
  patientId: int,
  patientName: z.string().nullable(),
  itemKey: z.string(),
  outcome: z.enum(LIBRARY_FILL_OUTCOMES),
  value: jsonValue,
  source: libraryFillSource,
  createdAt: timestamp,
});
export type LibraryFillLogEntry = z.infer<typeof libraryFillLogEntry>;
export const libraryFillLogPage = page(libraryFillLogEntry);
export type LibraryFillLogPage = z.infer<typeof libraryFillLogPage>;

/** A parsed indicator template. */
export const libraryIndicatorRule = z.object({
  agg: z.enum(['first', 'latest', 'min', 'max', 'avg', 'count', 'exists', 'value']),
  source: z.string(),
  field: z.string().nullable(),
  where: z.array(
    z.object({
      field: z.string(),
      op: z.enum(['=', '!=', '>', '>=', '<', '<=', 'starts', 'contains']),
      value: z.union([z.string(), z.number()]),
    }),
  ),
  anchor: z
    .object({
      side: z.enum(['before', 'after']),
      ref: z.union([
        z.enum(['first_visit', 'first_admission', 'filing_date']),
        z.object({ date: z.string() }),
        z.object({ t0: int }),
      ]),
      withinDays: z.number().optional(),
    })
    .nullable(),
});
export type LibraryIndicatorRule = z.infer<typeof libraryIndicatorRule>;
/** The template parsed, in words, the kind of value it yields and, given patients, their values. */
export const libraryComputed = z.object({
  rule: libraryIndicatorRule,
  text: z.string(),
  kind: z.enum(['text', 'number', 'date']),
  values: z.array(
    z.object({
      patientId: int,
      value: z.union([z.string(), z.number(), z.null()]),
      rowId: int.nullable(),
      at: z.string().nullable(),
    }),
  ),
});
export type LibraryComputed = z.infer<typeof libraryComputed>;

/** A patient of the list call (spec field names `Patient_name`, `Filing_date`). */
export const libraryPatientEntry = z.object({
  id: int,
  patient_id: int,
  record_id: int.nullable(),
  Patient_name: z.string(),
  Filing_date: z.string(),
  mrn: z.string(),
  gender: int,
  birth_date: z.string().nullable(),
  first_visit: z.string().nullable(),
  /** The inclusion conditions the patient met, in words. */
  reason: z.array(z.string()),
  /** Share of the items with a source rule that hold a value; null without rules. */
  completeness: z.number().nullable(),
});
export type LibraryPatientEntry = z.infer<typeof libraryPatientEntry>;
export const libraryPatientPage = z.object({
  total: int,
  page: int,
  size: int,
  items: z.array(libraryPatientEntry),
});
export type LibraryPatientPage = z.infer<typeof libraryPatientPage>;

/** One patient of a library with its record and the form to show it in. */
export const libraryPatientView = z.object({
  libraryId: int,
  libraryName: z.string(),
  patient: z.object({
    id: int,
    name: z.string(),
    mrn: z.string(),
    gender: int,
    birthDate: z.string().nullable(),
  }),
  firstVisit: z.string().nullable(),
  filingDate: z.string(),
  reason: z.array(z.string()),
  /** Per item: machine or manual. */
  itemMethods: stringMap,
  /** Items marked not obtainable, with the reason. */
  unobtainable: stringMap,
  sourceRules: stringMap,
  record: z
    .object({
      id: int,
      status: z.string(),
      revision: int,
      answers: z.record(z.string(), jsonValue),
      methods: stringMap,
      updatedAt: timestamp,
    })
    .nullable(),
  /** The `@crdp/crf` Form of the record's version. */
  definition: jsonValue,
});
export type LibraryPatient = z.infer<typeof libraryPatientView>;

export const libraryRecordSaved = z.object({
  record: z.object({ id: int, revision: int, status: z.string() }),
  /** Items whose value changed: they are manual now, and no fill overwrites them. */
  manual: z.array(z.string()),
});
export type LibraryRecordSaved = z.infer<typeof libraryRecordSaved>;
export const libraryUnobtainableMarks = z.object({ unobtainable: stringMap });
export type LibraryUnobtainableMarks = z.infer<typeof libraryUnobtainableMarks>;

/** The workbench call `diseaselibrary/disease_library_statistics`. */
export const libraryWorkbenchStatistics = z.object({
  libraries: int,
  enabled: int,
  patients: int,
  distinctPatients: int,
  addedThisMonth: int,
  byLibrary: z.array(z.object({ id: int, name: z.string(), disease: z.string().nullable(), patients: int })),
});
export type LibraryWorkbenchStatistics = z.infer<typeof libraryWorkbenchStatistics>;
/** The workbench call `diseaselibrary/rdr_statistics`: the research data repository. */
export const libraryRdrStatistics = z.object({
  patients: int,
  visits: int,
  diagnoses: int,
  labResults: int,
  documents: int,
  libraryRecords: int,
  machineValues: int,
});
export type LibraryRdrStatistics = z.infer<typeof libraryRdrStatistics>;
/** Sizes of a library: patients, filled values, log rows. */
export const libraryStorageRow = z.object({
  id: int,
  name: z.string(),
  patients: int,
  values: int,
  logs: int,
});
export type LibraryStorageRow = z.infer<typeof libraryStorageRow>;

export const libraryMissingItem = z.object({
  key: z.string(),
  title: z.string(),
  hasRule: z.boolean(),
  total: int,
  missing: int,
  unobtainable: int,
  missingRate: z.number(),
});
export type LibraryMissingItem = z.infer<typeof libraryMissingItem>;
/** Missing rate per item; with an item asked for, the patients missing it (at most 500). */
export const libraryMissingOverview = z.object({
  items: z.array(libraryMissingItem),
  patients: z.array(z.object({ patientId: int, name: z.string(), unobtainable: z.string().nullable() })),
});
export type LibraryMissingOverview = z.infer<typeof libraryMissingOverview>;

export const librarySearchRow = z.object({
  patientId: int,
  name: z.string(),
  mrn: z.string(),
  filingDate: z.string(),
  /** The record's answers by item key. */
  values: z.record(z.string(), jsonValue),
});
export type LibrarySearchRow = z.infer<typeof librarySearchRow>;
export const librarySearchResult = z.object({
  total: int,
  columns: z.array(libraryItem),
  items: z.array(librarySearchRow),
});
export type LibrarySearchResult = z.infer<typeof librarySearchResult>;

/** A summary of one item's values: numbers, or counts per level. */
export const libraryValueSummary = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('numeric'),
    n: int,
    missing: int,
    mean: z.number().nullable(),
    sd: z.number().nullable(),
    median: z.number().nullable(),
    q1: z.number().nullable(),
    q3: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  }),
  z.object({
    kind: z.literal('categorical'),
    n: int,
    missing: int,
    levels: z.array(z.object({ value: z.string(), count: int, percent: z.number() })),
  }),
]);
export type LibraryValueSummary = z.infer<typeof libraryValueSummary>;

/** Two groups of one item side by side, with the test that suits the values. */
export const libraryComparison = z.object({
  key: z.string(),
  groupA: libraryValueSummary,
  groupB: libraryValueSummary,
  tTest: z
    .object({
      method: z.literal('welch-t'),
      meanX: z.number(),
      meanY: z.number(),
      difference: z.number(),
      t: z.number(),
      df: z.number(),
      p: z.number(),
      ci95: z.tuple([z.number(), z.number()]),
    })
    .optional(),
  mannWhitney: z
    .object({ method: z.literal('mann-whitney'), W: z.number(), z: z.number(), p: z.number() })
    .optional(),
  chiSquare: z
    .object({
      levels: z.array(z.string()),
      table: z.array(z.array(int)),
      method: z.literal('chi-square'),
      chi2: z.number(),
      df: int,
      p: z.number(),
      expected: z.array(z.array(z.number())),
      smallExpected: z.boolean(),
    })
    .optional(),
  /** Why no test could be made (a key of the statistics messages). */
  error: z.string().optional(),
});
export type LibraryComparison = z.infer<typeof libraryComparison>;
export const libraryStatisticsResult = z.object({
  patients: int,
  items: z.array(z.object({ key: z.string(), title: z.string(), summary: libraryValueSummary })),
  groups: z.object({ a: int, b: int }).optional(),
  comparisons: z.array(libraryComparison).optional(),
});
export type LibraryStatistics = z.infer<typeof libraryStatisticsResult>;

/** Enrolment over time, age, gender and completeness per item. */
export const libraryDashboardData = z.object({
  library: z.object({
    id: int,
    name: z.string(),
    patients: int,
    lastPushAt: timestampOrNull,
    lastFillAt: timestampOrNull,
  }),
  enrolment: z.array(z.object({ month: z.string(), count: int })),
  ageBands: z.array(z.object({ band: z.string(), count: int })),
  gender: z.array(z.object({ gender: int, count: int })),
  completeness: z.array(z.object({ key: z.string(), title: z.string(), completeness: z.number() })),
});
export type LibraryDashboard = z.infer<typeof libraryDashboardData>;

/** A common template: a published CRF with its source rules. */
export const libraryTemplateRow = z.object({
  id: int,
  appId: int,
  name: z.string(),
  description: z.string(),
  crfFormId: int,
  sourceRules: stringMap,
  createdBy: int.nullable(),
  createdAt: timestamp,
});
export const libraryTemplate = z.object({
  id: int,
  name: z.string(),
  description: z.string(),
  crfFormId: int,
  crfFormName: z.string().nullable(),
  sourceRules: stringMap,
  createdAt: timestamp,
});
export type LibraryTemplate = z.infer<typeof libraryTemplate>;
