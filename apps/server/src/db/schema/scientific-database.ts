import {
  bigint,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, appKeys, appNamed, at, authored, madeBy } from './columns.js';
import { diseaseLibraries } from './disease-library.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';
import { researchSubjects } from './research.js';
import { variableGroups } from './variables.js';

/*
 * The scientific database (scientific-database/README.md): transform tasks and the versioned
 * snapshots their runs build. A snapshot's rows are one Parquet file (written by DuckDB), kept in
 * the database in parts so backups, row-level security and every server process see it.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** 转换任务: what a run builds (subject, cohort, variables). */
export const sciTransformTasks = pgTable(
  'sci_transform_tasks',
  {
    ...appNamed(),
    subjectId: parentKey('subject_id', () => researchSubjects.id),
    /** subject | library */
    cohort: text('cohort').notNull(),
    libraryId: integer('library_id').references(() => diseaseLibraries.id, { onDelete: 'set null' }),
    variableGroupId: integer('variable_group_id').references(() => variableGroups.id, {
      onDelete: 'set null',
    }),
    /** Variable ids in order, used when no group is named. */
    variableIds: jsonb('variable_ids').notNull().default([]),
    ...authored(),
  },
  (t) => [
    uniqueIndex('sci_transform_tasks_app_name').on(t.appId, t.name),
    oneOf('sci_transform_tasks_cohort', t.cohort, ['subject', 'library']),
    appScope(),
  ],
);

/** 数据转换任务: one run of a task, a version of its snapshot. */
export const sciSnapshots = pgTable(
  'sci_snapshots',
  {
    ...appKeys(),
    taskId: parentKey('task_id', () => sciTransformTasks.id),
    version: integer('version').notNull(),
    /** building | ready | failed */
    status: text('status').notNull().default('building'),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    /** What the run was asked for: subject, cohort and its name, frozen when it was queued. */
    spec: jsonb('spec').notNull(),
    /** The variables as they were defined when the run was queued (`sciColumn`). */
    columns: jsonb('columns').notNull().default([]),
    /** Per column (`sciColumnStats`), worked out when built. */
    stats: jsonb('stats').notNull().default([]),
    rowCount: integer('row_count').notNull().default(0),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256').notNull().default(''),
    buildMs: integer('build_ms').notNull().default(0),
    error: text('error').notNull().default(''),
    ...madeBy(),
    builtAt: at('built_at'),
  },
  (t) => [
    uniqueIndex('sci_snapshots_task_version').on(t.taskId, t.version),
    index('sci_snapshots_app').on(t.appId, t.status),
    oneOf('sci_snapshots_status', t.status, ['building', 'ready', 'failed']),
    appScope(),
  ],
);

/** The Parquet file of a ready snapshot, in parts of at most 4 MB. */
export const sciSnapshotParts = pgTable(
  'sci_snapshot_parts',
  {
    snapshotId: parentKey('snapshot_id', () => sciSnapshots.id),
    part: integer('part').notNull(),
    appId: appId(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.part] }), appScope()],
);
