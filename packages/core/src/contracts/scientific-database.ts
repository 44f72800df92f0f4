import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, pageQueryFields, patchOf, stamps, timestamp, timestampOrNull } from './common.js';
import { VARIABLE_DERIVATION_KINDS, VARIABLE_TYPES, variableValue } from './variables.js';

/**
 * The scientific database (科研数据库, `/api/v0.1/scientific-database`): a research subject's
 * analysis-ready dataset. A transform task (转换任务) names a research subject, a cohort (the
 * subject's recruited patients or a disease library's patients) and variables of the variable
 * library (a variable group or a list); each run (数据转换任务) builds a new version of its
 * snapshot: one wide row per patient, frozen with the variables' definitions, so an analysis
 * reads the same numbers later. Server: apps/server/src/scientific-database; web:
 * apps/web/src/pages/scientific-database.
 */

const id = z.number().int().positive().max(2_147_483_647);

export const SCI_COHORTS = ['subject', 'library'] as const;
export type SciCohort = (typeof SCI_COHORTS)[number];

export const SCI_SNAPSHOT_STATUSES = ['building', 'ready', 'failed'] as const;
export type SciSnapshotStatus = (typeof SCI_SNAPSHOT_STATUSES)[number];

export const SCI_EXPORT_FORMATS = ['csv', 'xlsx', 'parquet'] as const;
export type SciExportFormat = (typeof SCI_EXPORT_FORMATS)[number];

/** At most this many variables make one snapshot. */
export const SCI_MAX_VARIABLES = 500;

/** The first column of every snapshot: the row's study number (S00001), never the patient's identity. */
export const SCI_STUDY_NO = 'study_no';

const taskFields = z.object({
  name: safeText(100, { min: 1, required: 'must not be blank' }),
  description: safeText(500, { multiline: true }).default(''),
  subjectId: id,
  cohort: z.enum(SCI_COHORTS),
  /** The disease library whose patients make the cohort, when `cohort` is `library`. */
  libraryId: id.nullable().default(null),
  /** The variables: a variable group's (in its order), or `variableIds` when no group is named. */
  variableGroupId: id.nullable().default(null),
  variableIds: z.array(id).max(SCI_MAX_VARIABLES).default([]),
});

export const sciTaskCreate = taskFields;
export type SciTaskCreate = z.input<typeof sciTaskCreate>;
export const sciTaskPatch = patchOf(taskFields);
export type SciTaskPatch = z.input<typeof sciTaskPatch>;
export const sciIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const sciTask = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  subjectId: z.number().int(),
  subjectName: z.string(),
  cohort: z.enum(SCI_COHORTS),
  libraryId: z.number().int().nullable(),
  libraryName: z.string().nullable(),
  variableGroupId: z.number().int().nullable(),
  variableGroupName: z.string().nullable(),
  variableIds: z.array(z.number().int()),
  /** How many variables a run takes now. */
  variableCount: z.number().int(),
  /** The newest snapshot, if any was built. */
  latest: z
    .object({
      id: z.number().int(),
      version: z.number().int(),
      status: z.enum(SCI_SNAPSHOT_STATUSES),
      rowCount: z.number().int(),
      builtAt: timestampOrNull,
    })
    .nullable(),
  ...stamps,
});
export type SciTask = z.infer<typeof sciTask>;
export const sciTaskList = itemList(sciTask);
export type SciTaskList = z.infer<typeof sciTaskList>;

export const sciRunQueued = z.object({
  snapshotId: z.number().int(),
  version: z.number().int(),
  jobId: z.number().int(),
});
export type SciRunQueued = z.infer<typeof sciRunQueued>;

/** A column of a snapshot: the variable as it was defined when the snapshot was built. */
export const sciColumn = z.object({
  key: z.string(),
  variableId: z.number().int(),
  labelZh: z.string(),
  labelEn: z.string(),
  type: z.enum(VARIABLE_TYPES),
  unit: z.string(),
  valueSet: z.array(variableValue),
  derivationKind: z.enum(VARIABLE_DERIVATION_KINDS),
  /** The derivation as one template line (a CRF item: `crf <form> <item>`). */
  ruleText: z.string(),
});
export type SciColumn = z.infer<typeof sciColumn>;

/** A column's values in a snapshot, worked out when it was built. */
export const sciColumnStats = z.object({
  key: z.string(),
  present: z.number().int(),
  missing: z.number().int(),
  /** Numbers; dates as YYYY-MM-DD (min, median, max). */
  min: z.union([z.number(), z.string()]).nullable(),
  median: z.union([z.number(), z.string()]).nullable(),
  max: z.union([z.number(), z.string()]).nullable(),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  /** Numbers: ten bins of equal width between min and max. */
  histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number().int() })),
  /** Categories and text: the most frequent values (at most 20); text held by one patient only is left out. */
  categories: z.array(z.object({ value: z.string(), count: z.number().int() })),
  /** Distinct values. */
  distinct: z.number().int(),
});
export type SciColumnStats = z.infer<typeof sciColumnStats>;

export const sciSnapshot = z.object({
  id: z.number().int(),
  taskId: z.number().int(),
  taskName: z.string(),
  subjectId: z.number().int(),
  subjectName: z.string(),
  version: z.number().int(),
  status: z.enum(SCI_SNAPSHOT_STATUSES),
  jobId: z.number().int().nullable(),
  /** The job's progress while building (0-100). */
  progress: z.number(),
  cohort: z.enum(SCI_COHORTS),
  cohortName: z.string(),
  rowCount: z.number().int(),
  columnCount: z.number().int(),
  /** The stored Parquet file: its size and SHA-256, to cite in an analysis. */
  sizeBytes: z.number().int(),
  sha256: z.string(),
  buildMs: z.number().int(),
  /** Why a build failed (a message key of the catalogue or the database's text). */
  error: z.string(),
  createdByName: z.string(),
  createdAt: timestamp,
  builtAt: timestampOrNull,
});
export type SciSnapshot = z.infer<typeof sciSnapshot>;
export const sciSnapshotQuery = z.object({
  taskId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  status: z.enum(SCI_SNAPSHOT_STATUSES).optional(),
});
export type SciSnapshotQuery = z.input<typeof sciSnapshotQuery>;
export const sciSnapshotList = itemList(sciSnapshot);
export type SciSnapshotList = z.infer<typeof sciSnapshotList>;

export const sciSnapshotDetail = sciSnapshot.extend({
  columns: z.array(sciColumn),
  stats: z.array(sciColumnStats),
});
export type SciSnapshotDetail = z.infer<typeof sciSnapshotDetail>;

export const sciRowsQuery = z.object({ ...pageQueryFields(200, 20) });
export type SciRowsQuery = z.input<typeof sciRowsQuery>;
export const sciCell = z.union([z.number(), z.string()]).nullable();
export const sciRows = z.object({
  total: z.number().int(),
  /** Each row: `study_no` and one value per column key. */
  items: z.array(z.record(z.string(), sciCell)),
});
export type SciRows = z.infer<typeof sciRows>;

export const sciExportQuery = z.object({ format: z.enum(SCI_EXPORT_FORMATS) });
export type SciExportQuery = z.input<typeof sciExportQuery>;

/** A snapshot handed to the research analyses as a dataset of its subject. */
export const sciDatasetBody = z.object({ name: safeText(100, { min: 1, required: 'must not be blank' }) });
export type SciDatasetBody = z.input<typeof sciDatasetBody>;
export const sciDatasetMade = z.object({
  datasetId: z.number().int(),
  /** Number and category columns taken; text and date columns are not analysed. */
  columns: z.number().int(),
  skipped: z.array(z.string()),
});
export type SciDatasetMade = z.infer<typeof sciDatasetMade>;

/** The scientific data dashboard (科研数据看板): the app's snapshots at a glance. */
export const sciOverview = z.object({
  tasks: z.number().int(),
  snapshots: z.number().int(),
  ready: z.number().int(),
  building: z.number().int(),
  failed: z.number().int(),
  /** Rows of the newest ready snapshot of each task, added up. */
  rows: z.number().int(),
  /** Distinct variables in the newest ready snapshots. */
  variables: z.number().int(),
  bytes: z.number().int(),
  bySubject: z.array(
    z.object({
      subjectId: z.number().int(),
      subjectName: z.string(),
      snapshots: z.number().int(),
      rows: z.number().int(),
    }),
  ),
  /** Builds per day over the last 30 days. */
  byDay: z.array(z.object({ day: z.string(), ready: z.number().int(), failed: z.number().int() })),
  recent: z.array(sciSnapshot),
});
export type SciOverview = z.infer<typeof sciOverview>;

/** What a transform task may name: the app's subjects, disease libraries, variable groups and variables. */
export const sciTaskChoices = z.object({
  subjects: z.array(z.object({ id: z.number().int(), name: z.string(), status: z.string() })),
  libraries: z.array(z.object({ id: z.number().int(), name: z.string() })),
  groups: z.array(z.object({ id: z.number().int(), name: z.string(), variables: z.number().int() })),
  variables: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      labelZh: z.string(),
      labelEn: z.string(),
      type: z.enum(VARIABLE_TYPES),
    }),
  ),
});
export type SciTaskChoices = z.infer<typeof sciTaskChoices>;
