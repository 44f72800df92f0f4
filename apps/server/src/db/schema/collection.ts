import {
  COLLECTION_CHANGE_OPS,
  COLLECTION_RUN_STATUSES,
  COLLECTION_SOURCE_KINDS,
  COLLECTION_TARGETS,
  COLLECTION_TRIGGERS,
  HL7_MESSAGE_STATUSES,
} from '@crdp/core';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, appKeys, at, authored, createdAt, createdBy, madeBy } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Data collection (collection/README.md). A source is a hospital system: its connection (the
 * password encrypted with COLLECTION_SECRET_KEY, never returned) or an HL7 listener. A template
 * maps one source table onto one CDR table; every change of its mapping is kept as a version.
 * A task runs templates as a job; each run keeps its counts, its rejected rows and what it
 * changed in the CDR.
 */
export const collectionSources = pgTable(
  'collection_sources',
  {
    ...appKeys(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    config: jsonb('config').notNull().default({}),
    /** AES-256-GCM of the password: `v1.<iv>.<tag>.<ciphertext>` in base64url; '' when none. */
    secret: text('secret').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [
    uniqueIndex('collection_sources_app_name').on(t.appId, t.name),
    oneOf('collection_sources_kind', t.kind, COLLECTION_SOURCE_KINDS),
    appScope(),
  ],
);

export const collectionTemplates = pgTable(
  'collection_templates',
  {
    ...appKeys(),
    sourceId: integer('source_id')
      .notNull()
      .references(() => collectionSources.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    target: text('target').notNull(),
    spec: jsonb('spec').notNull(),
    version: integer('version').notNull().default(1),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [
    uniqueIndex('collection_templates_app_name').on(t.appId, t.name),
    index('collection_templates_source').on(t.sourceId),
    oneOf('collection_templates_target', t.target, COLLECTION_TARGETS),
    appScope(),
  ],
);

/** Every mapping a template has had (version 1 is the first). */
export const collectionTemplateVersions = pgTable(
  'collection_template_versions',
  {
    templateId: parentKey('template_id', () => collectionTemplates.id),
    version: integer('version').notNull(),
    appId: appId(),
    spec: jsonb('spec').notNull(),
    changedBy: createdBy(),
    changedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version] }),
    index('collection_template_versions_app').on(t.appId),
    appScope(),
  ],
);

export const collectionTasks = pgTable(
  'collection_tasks',
  {
    ...appKeys(),
    name: text('name').notNull(),
    templateIds: jsonb('template_ids').notNull().$type<number[]>(),
    batchSize: integer('batch_size').notNull().default(1000),
    enabled: boolean('enabled').notNull().default(true),
    /** Template id → `{ value, key }` of the last row committed: the next run starts after it. */
    watermarks: jsonb('watermarks').notNull().default({}),
    ...authored(),
  },
  (t) => [uniqueIndex('collection_tasks_app_name').on(t.appId, t.name), appScope()],
);

export const collectionRuns = pgTable(
  'collection_runs',
  {
    ...appKeys(),
    taskId: parentKey('task_id', () => collectionTasks.id),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('queued'),
    trigger: text('trigger').notNull().default('manual'),
    rowsRead: integer('rows_read').notNull().default(0),
    rowsInserted: integer('rows_inserted').notNull().default(0),
    rowsUpdated: integer('rows_updated').notNull().default(0),
    rowsUnchanged: integer('rows_unchanged').notNull().default(0),
    rowsRejected: integer('rows_rejected').notNull().default(0),
    /** Per template id: { read, inserted, updated, rejected, watermark }. */
    templates: jsonb('templates').notNull().default({}),
    /** Why it failed, in both languages. */
    error: jsonb('error'),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
    ...madeBy(),
  },
  (t) => [
    index('collection_runs_task').on(t.taskId, t.id),
    index('collection_runs_app_created').on(t.appId, t.createdAt),
    oneOf('collection_runs_status', t.status, COLLECTION_RUN_STATUSES),
    oneOf('collection_runs_trigger', t.trigger, COLLECTION_TRIGGERS),
    appScope(),
  ],
);

/** A source row a run refused, with its reason (the run went on without it). */
export const collectionRejects = pgTable(
  'collection_rejects',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    runId: parentKey('run_id', () => collectionRuns.id),
    templateId: integer('template_id').notNull(),
    sourceKey: text('source_key').notNull(),
    field: text('field').notNull().default(''),
    /** { 'zh-CN', 'en-US' }. */
    reason: jsonb('reason').notNull(),
    row: jsonb('row').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('collection_rejects_run').on(t.runId, t.id), appScope()],
);

/** What a run changed in the CDR: a row inserted, or updated (with the fields before and after). */
export const collectionChanges = pgTable(
  'collection_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    /** The run whose batch made the change; null for an HL7 message's change (`messageId`). */
    runId: integer('run_id').references(() => collectionRuns.id, { onDelete: 'cascade' }),
    /** The HL7 message whose processing made the change. */
    messageId: bigint('message_id', { mode: 'number' }).references(() => hl7Messages.id, {
      onDelete: 'set null',
    }),
    /** The source the row came from (the report's source). */
    sourceId: integer('source_id').references(() => collectionSources.id, { onDelete: 'cascade' }),
    /** The template whose rows made the change (0 for an HL7 message). */
    templateId: integer('template_id').notNull(),
    table: text('table_name').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    patientId: bigint('patient_id', { mode: 'number' }),
    op: text('op').notNull(),
    /** Updates: { field: [before, after] } of the fields that changed. */
    diff: jsonb('diff'),
    createdAt: createdAt(),
  },
  (t) => [
    index('collection_changes_run').on(t.runId, t.id),
    index('collection_changes_app_patient').on(t.appId, t.patientId, t.id),
    index('collection_changes_app_table').on(t.appId, t.table, t.id),
    oneOf('collection_changes_op', t.op, COLLECTION_CHANGE_OPS),
    appScope(),
  ],
);

/**
 * HL7 v2 messages as received: stored (and only then acknowledged), then processed into the CDR.
 * A message sent again with the same control id (MSH-10) is acknowledged and not stored twice.
 */
export const hl7Messages = pgTable(
  'hl7_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    sourceId: parentKey('source_id', () => collectionSources.id),
    controlId: text('control_id').notNull(),
    type: text('type').notNull(),
    raw: text('raw').notNull(),
    status: text('status').notNull().default('stored'),
    attempts: smallint('attempts').notNull().default(0),
    error: jsonb('error'),
    receivedAt: createdAt(),
    processedAt: at('processed_at'),
  },
  (t) => [
    uniqueIndex('hl7_messages_source_control').on(t.sourceId, t.controlId),
    index('hl7_messages_pending').on(t.status, t.id),
    index('hl7_messages_app').on(t.appId, t.id),
    oneOf('hl7_messages_status', t.status, HL7_MESSAGE_STATUSES),
    appScope(),
  ],
);
