import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { CDR_CHILD_KINDS } from './clinical.js';
import { itemList, page, pageQueryFields, patchOf, stamps, timestamp, timestampOrNull } from './common.js';

/**
 * Data collection (数据采集, `/api/v0.1/collection/*`): sources (a hospital system's database, an
 * HL7 v2 listener), templates that map a source table onto a CDR table, tasks that run templates
 * incrementally as jobs, runs with their rejected rows and changes. Server:
 * apps/server/src/collection (README there); web: apps/web/src/pages/data-lake/collection/.
 */

/** Databases read by query, an HL7 listener, and folders of CSV files or FHIR R4 bundles on the server. */
export const COLLECTION_SOURCE_KINDS = ['postgresql', 'mysql', 'hl7', 'csv', 'fhir'] as const;
/** Sources whose rows come from files in a folder under the server's COLLECTION_FILES_ROOT. */
export const FILE_SOURCE_KINDS = ['csv', 'fhir'] as const;
export type CollectionSourceKind = (typeof COLLECTION_SOURCE_KINDS)[number];
/** The CDR tables a template may write. */
export const COLLECTION_TARGETS = ['patients', ...CDR_CHILD_KINDS] as const;
export type CollectionTarget = (typeof COLLECTION_TARGETS)[number];
export const COLLECTION_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type CollectionRunStatus = (typeof COLLECTION_RUN_STATUSES)[number];
export const COLLECTION_TRIGGERS = ['manual', 'schedule'] as const;
export const COLLECTION_CHANGE_OPS = ['insert', 'update'] as const;
export type CollectionChangeOp = (typeof COLLECTION_CHANGE_OPS)[number];
export const HL7_MESSAGE_STATUSES = ['stored', 'processed', 'rejected'] as const;
export type Hl7MessageStatus = (typeof HL7_MESSAGE_STATUSES)[number];
/** The date layouts a `date` transform reads (a value without a zone is Beijing time). */
export const COLLECTION_DATE_FORMATS = [
  'iso',
  'yyyy-MM-dd',
  'yyyy-MM-dd HH:mm:ss',
  'yyyy/MM/dd',
  'yyyy/MM/dd HH:mm:ss',
  'yyyyMMdd',
  'yyyyMMddHHmmss',
] as const;
export type CollectionDateFormat = (typeof COLLECTION_DATE_FORMATS)[number];

export const COLLECTION_NAME_MAX = 60;
export const COLLECTION_BATCH_MAX = 10_000;

const name = safeText(COLLECTION_NAME_MAX, { min: 1, required: 'must not be blank' });
/** A column or table name of the source: letters, digits and _, optionally `schema.table`. */
export const sourceIdentifier = z
  .string()
  .max(63)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and _ only, starting with a letter or _');
const tableName = z
  .string()
  .max(127)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/,
    'a table name (schema.table allowed): letters, digits and _ only',
  );
const id = z.number().int().positive().max(2_147_483_647);
export const collectionIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

// ---------------------------------------------------------------- sources

export const collectionSourceConfig = z.object({
  host: safeText(200).default(''),
  port: z.number().int().min(0).max(65_535).default(0),
  database: safeText(100).default(''),
  user: safeText(100).default(''),
  /** PostgreSQL: require TLS. */
  ssl: z.boolean().default(false),
  /** HL7: the TCP port the listener takes (0: none). */
  listenPort: z.number().int().min(0).max(65_535).default(0),
  /** CSV, FHIR: the folder inside the server's COLLECTION_FILES_ROOT (a relative path, no '..'). */
  folder: z
    .string()
    .max(200)
    .regex(
      /^(?!.*(^|\/)\.\.?(\/|$))[\p{L}\p{N}_\-./ ]*$/u,
      'a folder path inside the collection files folder: no "..", no leading "/"',
    )
    .refine((v) => !v.startsWith('/'), 'a relative path: no leading "/"')
    .default(''),
});
export type CollectionSourceConfig = z.infer<typeof collectionSourceConfig>;

export const collectionSourceCreate = z
  .object({
    name,
    kind: z.enum(COLLECTION_SOURCE_KINDS),
    config: collectionSourceConfig,
    /** Write-only: stored encrypted, never returned, never logged. Empty keeps the stored one. */
    password: z.string().max(200).default(''),
    enabled: z.boolean().default(true),
  })
  .superRefine((s, ctx) => {
    if (s.kind === 'csv' || s.kind === 'fhir') {
      if (!s.config.folder)
        ctx.addIssue({ code: 'custom', path: ['config', 'folder'], message: 'must not be blank' });
    } else if (s.kind !== 'hl7') {
      if (!s.config.host)
        ctx.addIssue({ code: 'custom', path: ['config', 'host'], message: 'must not be blank' });
      if (!s.config.database)
        ctx.addIssue({ code: 'custom', path: ['config', 'database'], message: 'must not be blank' });
      if (!s.config.user)
        ctx.addIssue({ code: 'custom', path: ['config', 'user'], message: 'must not be blank' });
    }
  });
export type CollectionSourceCreate = z.input<typeof collectionSourceCreate>;
export const collectionSourcePatch = z.object({
  name: name.optional(),
  config: collectionSourceConfig.partial().optional(),
  password: z.string().max(200).optional(),
  enabled: z.boolean().optional(),
});
export type CollectionSourcePatch = z.input<typeof collectionSourcePatch>;

export const collectionSource = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(COLLECTION_SOURCE_KINDS),
  config: collectionSourceConfig,
  /** Whether a password is stored (never the password). */
  hasPassword: z.boolean(),
  enabled: z.boolean(),
  ...stamps,
});
export type CollectionSource = z.infer<typeof collectionSource>;
export const collectionSourceList = itemList(collectionSource);
export type CollectionSourceList = z.infer<typeof collectionSourceList>;

/** What a connection test found: the source's tables and their columns. */
export const collectionSourceProbe = z.object({
  ok: z.literal(true),
  version: z.string(),
  tables: z.array(
    z.object({ name: z.string(), columns: z.array(z.object({ name: z.string(), type: z.string() })) }),
  ),
});
export type CollectionSourceProbe = z.infer<typeof collectionSourceProbe>;

// ---------------------------------------------------------------- templates

export const collectionTransform = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('trim') }),
  /** The value is always this. */
  z.object({ kind: z.literal('constant'), value: safeText(200) }),
  /** Source code → CDR code, listed in the template (M → 1). An unlisted code is kept. */
  z.object({
    kind: z.literal('map'),
    pairs: z.array(z.object({ from: safeText(100), to: safeText(200) })).max(500),
  }),
  /** Source code → an entry of one of the app's dictionaries: its standard code or its name. */
  z.object({
    kind: z.literal('lookup'),
    dictionary: safeText(40, { min: 1, required: 'must not be blank' }),
    to: z.enum(['standardCode', 'name']),
  }),
  /** A date or time written in one layout → ISO 8601 (Beijing time when it names no zone). */
  z.object({ kind: z.literal('date'), format: z.enum(COLLECTION_DATE_FORMATS) }),
  /** A number multiplied by `factor` (creatinine mg/dL → μmol/L: 88.4). */
  z.object({ kind: z.literal('unit'), factor: z.number().finite().positive() }),
]);
export type CollectionTransform = z.infer<typeof collectionTransform>;
export type CollectionTransformKind = CollectionTransform['kind'];
export const COLLECTION_TRANSFORM_KINDS = ['trim', 'constant', 'map', 'lookup', 'date', 'unit'] as const;

export const collectionFieldMapping = z.object({
  /** The CDR field (a field of the target's entry form, e.g. `itemCode`). */
  field: sourceIdentifier,
  /** The source column ('' with a constant). */
  column: z.union([sourceIdentifier, z.literal('')]).default(''),
  transforms: z.array(collectionTransform).max(10).default([]),
});
export type CollectionFieldMapping = z.infer<typeof collectionFieldMapping>;

export const collectionTemplateSpec = z.object({
  /** The source table (or view) read. */
  table: tableName,
  /** Its key: becomes the CDR row's source id, so a rerun updates instead of adding. */
  keyColumn: sourceIdentifier,
  /** A column that only grows (a change time or an id): each run reads from where the last ended. '' reads all. */
  watermarkColumn: z.union([sourceIdentifier, z.literal('')]).default(''),
  /** Rows of other tables than patients: the column that names their patient, and how. */
  patientColumn: z.union([sourceIdentifier, z.literal('')]).default(''),
  patientBy: z.enum(['sourceId', 'mrn']).default('sourceId'),
  /** The column that names the row's visit (a visit collected from the same source), or ''. */
  visitColumn: z.union([sourceIdentifier, z.literal('')]).default(''),
  fields: z.array(collectionFieldMapping).min(1).max(60),
});
export type CollectionTemplateSpec = z.infer<typeof collectionTemplateSpec>;
export type CollectionTemplateSpecBody = z.input<typeof collectionTemplateSpec>;

export const collectionTemplateCreate = z.object({
  name,
  sourceId: id,
  target: z.enum(COLLECTION_TARGETS),
  spec: collectionTemplateSpec,
  enabled: z.boolean().default(true),
});
export type CollectionTemplateCreate = z.input<typeof collectionTemplateCreate>;
export const collectionTemplatePatch = patchOf(
  collectionTemplateCreate.omit({ sourceId: true, target: true }),
);
export type CollectionTemplatePatch = z.input<typeof collectionTemplatePatch>;

export const collectionTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  sourceId: z.number().int(),
  sourceName: z.string(),
  target: z.enum(COLLECTION_TARGETS),
  spec: collectionTemplateSpec,
  /** Grows by one with each change of the mapping; every version is kept. */
  version: z.number().int(),
  enabled: z.boolean(),
  ...stamps,
});
export type CollectionTemplate = z.infer<typeof collectionTemplate>;
export const collectionTemplateList = itemList(collectionTemplate);
export type CollectionTemplateList = z.infer<typeof collectionTemplateList>;
export const collectionTemplateVersions = z.object({
  items: z.array(
    z.object({
      version: z.number().int(),
      spec: collectionTemplateSpec,
      changedBy: z.string(),
      changedAt: timestamp,
    }),
  ),
});
export type CollectionTemplateVersions = z.infer<typeof collectionTemplateVersions>;

/** The first rows of a template's source table, to pick the rows a unit test maps (选择测试). */
export const collectionSampleQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export const collectionSample = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  /** Each row's key (the template's key column, as text). */
  keys: z.array(z.string()),
});
export type CollectionSample = z.infer<typeof collectionSample>;

export const collectionUnitTestBody = z.object({
  /** How many rows to read from the start of the table (ignored with `keys`). */
  limit: z.number().int().min(1).max(500).default(20),
  /** The rows chosen by key. */
  keys: z.array(z.string().max(200)).max(500).optional(),
  /** An edited mapping tried before it is saved (the stored one otherwise). */
  spec: collectionTemplateSpec.optional(),
});
export type CollectionUnitTestBody = z.input<typeof collectionUnitTestBody>;

export const collectionReject = z.object({
  key: z.string(),
  field: z.string(),
  message: z.string(),
  /** The source row as read. */
  row: z.record(z.string(), z.unknown()),
});
export type CollectionReject = z.infer<typeof collectionReject>;

/** What a template makes of some source rows, without writing anything. */
export const collectionUnitTest = z.object({
  read: z.number().int(),
  mapped: z.array(z.object({ key: z.string(), values: z.record(z.string(), z.unknown()) })),
  rejected: z.array(collectionReject),
});
export type CollectionUnitTest = z.infer<typeof collectionUnitTest>;

/** The fields a template may fill per CDR table (the mapping editor's choices); required ones first. */
export const collectionTargets = z.object({
  items: z.array(
    z.object({
      target: z.enum(COLLECTION_TARGETS),
      fields: z.array(z.object({ name: z.string(), required: z.boolean() })),
    }),
  ),
});
export type CollectionTargets = z.infer<typeof collectionTargets>;

// ---------------------------------------------------------------- tasks and runs

export const collectionTaskCreate = z.object({
  name,
  templateIds: z.array(id).min(1).max(30),
  batchSize: z.number().int().min(1).max(COLLECTION_BATCH_MAX).default(1000),
  enabled: z.boolean().default(true),
});
export type CollectionTaskCreate = z.input<typeof collectionTaskCreate>;
export const collectionTaskPatch = patchOf(collectionTaskCreate);
export type CollectionTaskPatch = z.input<typeof collectionTaskPatch>;

export const collectionRun = z.object({
  id: z.number().int(),
  taskId: z.number().int(),
  taskName: z.string(),
  jobId: z.number().int().nullable(),
  status: z.enum(COLLECTION_RUN_STATUSES),
  trigger: z.enum(COLLECTION_TRIGGERS),
  /** 0–100 while it runs. */
  progress: z.number().int(),
  rowsRead: z.number().int(),
  rowsInserted: z.number().int(),
  rowsUpdated: z.number().int(),
  rowsUnchanged: z.number().int(),
  rowsRejected: z.number().int(),
  /** Per template: rows read, written, rejected, and the watermark reached. */
  templates: z.array(
    z.object({
      templateId: z.number().int(),
      name: z.string(),
      target: z.enum(COLLECTION_TARGETS),
      read: z.number().int(),
      inserted: z.number().int(),
      updated: z.number().int(),
      rejected: z.number().int(),
      watermark: z.string().nullable(),
    }),
  ),
  /** Why it failed, in the reader's language. */
  error: z.string(),
  startedAt: timestampOrNull,
  finishedAt: timestampOrNull,
  createdAt: timestamp,
});
export type CollectionRun = z.infer<typeof collectionRun>;
export const collectionRunPage = page(collectionRun);
export type CollectionRunPage = z.infer<typeof collectionRunPage>;
export const collectionRunQuery = z.object({
  ...pageQueryFields(100, 20),
  taskId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  status: z.enum(COLLECTION_RUN_STATUSES).optional(),
});

export const collectionTask = z.object({
  id: z.number().int(),
  name: z.string(),
  templateIds: z.array(z.number().int()),
  templates: z.array(
    z.object({ id: z.number().int(), name: z.string(), target: z.enum(COLLECTION_TARGETS) }),
  ),
  batchSize: z.number().int(),
  enabled: z.boolean(),
  /** Per template id: the watermark the next run starts after (null: from the start). */
  watermarks: z.record(z.string(), z.string().nullable()),
  lastRun: collectionRun.nullable(),
  ...stamps,
});
export type CollectionTask = z.infer<typeof collectionTask>;
export const collectionTaskList = itemList(collectionTask);
export type CollectionTaskList = z.infer<typeof collectionTaskList>;
export const collectionRunStarted = z.object({ runId: z.number().int(), jobId: z.number().int() });
export type CollectionRunStarted = z.infer<typeof collectionRunStarted>;

/** 任务测试: the whole task dry-run over at most `limit` rows per template. */
export const collectionTaskTestBody = z.object({ limit: z.number().int().min(1).max(5000).default(500) });
export const collectionTaskTest = z.object({
  templates: z.array(
    z.object({
      templateId: z.number().int(),
      name: z.string(),
      target: z.enum(COLLECTION_TARGETS),
      read: z.number().int(),
      mapped: z.number().int(),
      rejected: z.array(collectionReject),
      /** Rows after the task's watermark that a run would read (counted at the source). */
      pending: z.number().int(),
    }),
  ),
});
export type CollectionTaskTest = z.infer<typeof collectionTaskTest>;

export const collectionRejectQuery = z.object({ ...pageQueryFields(200, 20) });
export const collectionRejectPage = page(
  collectionReject.extend({ templateId: z.number().int(), templateName: z.string(), at: timestamp }),
);
export type CollectionRejectPage = z.infer<typeof collectionRejectPage>;

// ---------------------------------------------------------------- changes, monitoring, report

export const collectionChangeQuery = z.object({
  ...pageQueryFields(200, 20),
  table: z.enum(COLLECTION_TARGETS).optional(),
  patientId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  runId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  sourceId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  op: z.enum(COLLECTION_CHANGE_OPS).optional(),
});
export const collectionChange = z.object({
  id: z.number().int(),
  /** The run that made it, or (HL7) the message whose processing made it. */
  runId: z.number().int().nullable(),
  messageId: z.number().int().nullable(),
  sourceId: z.number().int().nullable(),
  sourceName: z.string(),
  table: z.enum(COLLECTION_TARGETS),
  recordId: z.number().int(),
  patientId: z.number().int().nullable(),
  patientName: z.string(),
  op: z.enum(COLLECTION_CHANGE_OPS),
  /** The fields that changed: before and after (updates only). */
  diff: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  at: timestamp,
});
export type CollectionChange = z.infer<typeof collectionChange>;
export const collectionChangePage = page(collectionChange);
export type CollectionChangePage = z.infer<typeof collectionChangePage>;

export const collectionMonitoring = z.object({
  sources: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      kind: z.enum(COLLECTION_SOURCE_KINDS),
      enabled: z.boolean(),
      lastRunAt: timestampOrNull,
      lastStatus: z.enum(COLLECTION_RUN_STATUSES).nullable(),
      rowsRead: z.number().int(),
      rowsWritten: z.number().int(),
      rowsRejected: z.number().int(),
      failedRuns: z.number().int(),
      /** Hours since the newest row collected from it (null: nothing yet). */
      lagHours: z.number().nullable(),
      /** HL7: messages stored, processed, rejected. */
      messages: z.object({
        stored: z.number().int(),
        processed: z.number().int(),
        rejected: z.number().int(),
      }),
    }),
  ),
  tasks: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      lastRun: collectionRun.nullable(),
      runs: z.number().int(),
      failedRuns: z.number().int(),
    }),
  ),
  /** Rows per day over the last 30 days (Beijing days). */
  trend: z.array(
    z.object({
      day: z.string(),
      written: z.number().int(),
      rejected: z.number().int(),
      runs: z.number().int(),
    }),
  ),
});
export type CollectionMonitoring = z.infer<typeof collectionMonitoring>;

export const COLLECTION_REPORT_PERIODS = ['day', 'week', 'month'] as const;
export const collectionReportQuery = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  period: z.enum(COLLECTION_REPORT_PERIODS).default('day'),
  format: z.enum(['json', 'csv', 'xlsx']).default('json'),
});
export const collectionReport = z.object({
  rows: z.array(
    z.object({
      period: z.string(),
      sourceId: z.number().int(),
      sourceName: z.string(),
      table: z.enum(COLLECTION_TARGETS),
      inserted: z.number().int(),
      updated: z.number().int(),
      rejected: z.number().int(),
    }),
  ),
});
export type CollectionReport = z.infer<typeof collectionReport>;

export const hl7Message = z.object({
  id: z.number().int(),
  sourceId: z.number().int(),
  controlId: z.string(),
  type: z.string(),
  status: z.enum(HL7_MESSAGE_STATUSES),
  error: z.string(),
  receivedAt: timestamp,
});
export const hl7MessagePage = page(hl7Message);
export const hl7MessageQuery = z.object({
  ...pageQueryFields(200, 20),
  sourceId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  status: z.enum(HL7_MESSAGE_STATUSES).optional(),
});
