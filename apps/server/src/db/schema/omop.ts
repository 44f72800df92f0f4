import { OMOP_MAPPING_KINDS } from '@crdp/core';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { appKeys, at, authored, createdAt, createdBy, timestamps } from './columns.js';
import { jobs } from './jobs.js';
import { appScope, oneOf } from './policies.js';

/**
 * The OMOP CDM v5.4 export of the clinical data (apps/server/src/omop). Every row carries
 * `app_id`: each hospital keeps its own source-to-concept maps, rules and export tasks.
 */

/**
 * A source-to-concept map of one app: a source code of one vocabulary kind (an ICD-10 code of a
 * diagnosis, a lab item code, a medication code, a gender code, a visit kind, a unit) and the
 * OMOP standard concept it stands for. Built-in defaults (gender, visit kinds) are code, not rows;
 * a row of the same kind and code overrides them.
 */
export const omopMappings = pgTable(
  'omop_mappings',
  {
    ...appKeys(),
    /** condition, measurement, drug, gender, visit, unit. */
    kind: text('kind').notNull(),
    sourceCode: text('source_code').notNull(),
    conceptId: integer('concept_id').notNull(),
    conceptName: text('concept_name').notNull(),
    note: text('note').notNull().default(''),
    ...authored(),
  },
  (t) => [
    uniqueIndex('omop_mappings_app_kind_code').on(t.appId, t.kind, t.sourceCode),
    index('omop_mappings_app_updated').on(t.appId, t.updatedAt),
    oneOf('omop_mappings_kind', t.kind, OMOP_MAPPING_KINDS),
    appScope(),
  ],
);

/**
 * Which clinical table goes to which CDM table. The built-in rules (one per supported pair) are
 * written for an app the first time it changes anything of the OMOP area; a deleted rule is
 * kept (deleted_at) so its history stays readable, and adding the pair again revives it.
 */
export const omopRules = pgTable(
  'omop_rules',
  {
    ...appKeys(),
    name: text('name').notNull(),
    /** patients, visits, diagnoses, lab_results, orders. */
    sourceTable: text('source_table').notNull(),
    /** person, visit_occurrence, observation_period, condition_occurrence, measurement, drug_exposure. */
    targetTable: text('target_table').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    builtin: boolean('builtin').notNull().default(false),
    note: text('note').notNull().default(''),
    ...timestamps(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('omop_rules_app_pair')
      .on(t.appId, t.sourceTable, t.targetTable)
      .where(sql`${t.deletedAt} is null`),
    index('omop_rules_app').on(t.appId, t.id),
    appScope(),
  ],
);

/** One export of the app's clinical data as OMOP CDM CSV files in a ZIP: a named task over a job. */
export const omopTasks = pgTable(
  'omop_tasks',
  {
    ...appKeys(),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    createdBy: createdBy(),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('omop_tasks_app').on(t.appId, t.id), uniqueIndex('omop_tasks_job').on(t.jobId), appScope()],
);
