import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, appKeys, at, authored, madeBy } from './columns.js';
import { users } from './identity.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope } from './policies.js';
import { researchSubjects } from './research.js';

/*
 * ODM generation (odm/README.md): a topic is a research subject (科研课题) chosen for ODM files,
 * with the clinical data (observation domains, a date range) and the data elements (each bound to
 * an observation concept) its files carry; each generation is a job that streams one CDISC ODM
 * 1.3.2 file to disk.
 */
export const odmTopics = pgTable(
  'odm_topics',
  {
    ...appKeys(),
    subjectId: parentKey('subject_id', () => researchSubjects.id),
    domains: text('domains').array().notNull().default(sql`'{}'::text[]`),
    fromDate: date('from_date', { mode: 'string' }),
    toDate: date('to_date', { mode: 'string' }),
    /** [{ elementId, domain, concept, pick }] (OdmElementBinding of @crdp/core). */
    elements: jsonb('elements').notNull().default([]),
    ...authored(),
  },
  (t) => [uniqueIndex('odm_topics_app_subject').on(t.appId, t.subjectId), appScope()],
);

/** One generated file: a job of kind `odm.generate`; the file is DATA_DIR/odm/<app>/<job>.xml. */
export const odmGenerations = pgTable(
  'odm_generations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    topicId: parentKey('topic_id', () => odmTopics.id),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    createdByName: text('created_by_name').notNull().default(''),
    ...madeBy(),
  },
  (t) => [
    index('odm_generations_topic').on(t.topicId, t.id),
    index('odm_generations_app').on(t.appId),
    appScope(),
  ],
);

/**
 * Per app and job kind: how many of its jobs may run at once (across every server process; the
 * job runner enforces it, jobs/README.md) and the batch size its handler reads.
 */
export const jobKindSettings = pgTable(
  'job_kind_settings',
  {
    appId: appId(),
    kind: text('kind').notNull(),
    maxRunning: integer('max_running'),
    batchSize: integer('batch_size'),
    updatedBy: integer('updated_by').references(() => users.userId, { onDelete: 'set null' }),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.kind] }), appScope()],
);
