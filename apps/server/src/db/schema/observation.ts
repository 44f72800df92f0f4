import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { appId, appKeys, at, authored, madeBy } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/*
 * The observation store (observation/README.md): the CDR in the OMOP/i2b2 shape, one row per
 * patient, concept, time and value, made by incremental transform tasks. A row keeps its local
 * concept (the CDR's own text and code); the standard concept is the coding area's mapping,
 * joined at read time (coding_mappings), never copied here.
 */
export const OBSERVATION_DOMAINS_DB = ['visit', 'diagnosis', 'lab', 'operation', 'drug', 'vital'] as const;

export const observations = pgTable(
  'observations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    visitId: bigint('visit_id', { mode: 'number' }),
    domain: text('domain').notNull(),
    /** The local concept: the CDR's text (diagnosis name, lab item, operation, drug, vital sign, visit kind). */
    concept: text('concept').notNull(),
    /** The source system's code (ICD-10 of a diagnosis, lab item code, order code...); '' when none. */
    localCode: text('local_code').notNull().default(''),
    startAt: at('start_at').notNull(),
    endAt: at('end_at'),
    valueNum: doublePrecision('value_num'),
    valueText: text('value_text').notNull().default(''),
    unit: text('unit').notNull().default(''),
    /** The department of the visit the row belongs to ('' when none). */
    department: text('department').notNull().default(''),
    /** The id of the CDR row (its table is the domain's). */
    sourceId: bigint('source_id', { mode: 'number' }).notNull(),
    transformedAt: at('transformed_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('observations_app_domain_source').on(t.appId, t.domain, t.sourceId),
    index('observations_app_domain_start').on(t.appId, t.domain, t.startAt),
    index('observations_patient').on(t.patientId, t.domain, t.startAt),
    oneOf('observations_domain', t.domain, OBSERVATION_DOMAINS_DB),
    appScope(),
  ],
);

/** A transform task: which domains it takes, and the watermark of its last run (xid8 as bigint). */
export const observationTasks = pgTable(
  'observation_tasks',
  {
    ...appKeys(),
    name: text('name').notNull(),
    domains: text('domains').array().notNull().default(sql`'{}'::text[]`),
    /** Every transaction below it had ended when the last run read the CDR; null: never run. */
    watermark: bigint('watermark', { mode: 'number' }),
    createdByName: text('created_by_name').notNull().default(''),
    ...authored(),
  },
  (t) => [index('observation_tasks_app').on(t.appId, t.id), appScope()],
);

/** One run of a task (a job of kind `observation.transform`), with what it changed per domain. */
export const observationRuns = pgTable(
  'observation_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    taskId: parentKey('task_id', () => observationTasks.id),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    /** full (first run, or asked for) or incremental (rows changed since the watermark). */
    mode: text('mode').notNull(),
    fromWatermark: bigint('from_watermark', { mode: 'number' }),
    toWatermark: bigint('to_watermark', { mode: 'number' }),
    /** { <domain>: { upserted, deleted } } once the run ended. */
    counts: jsonb('counts'),
    finishedAt: at('finished_at'),
    ...madeBy(),
  },
  (t) => [
    index('observation_runs_task').on(t.taskId, t.id),
    index('observation_runs_app').on(t.appId),
    oneOf('observation_runs_mode', t.mode, ['full', 'incremental']),
    appScope(),
  ],
);
