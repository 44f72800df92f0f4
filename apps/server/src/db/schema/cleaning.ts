import { CLEANING_FAULTS, cleaningRuleDefinition } from '@crdp/core';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { documents, patients } from './clinical.js';
import { appId, appKeys, appNamed, at, authored, createdAt, createdBy } from './columns.js';
import { jobs } from './jobs.js';
import { appScope, oneOf } from './policies.js';

/*
 * Data cleaning (cleaning/README.md): an app's own cleaning rules (the built-in ones live in
 * @crdp/core), the tasks that ran rule sets over CDR documents, the values they extracted with
 * their source sentence, and the marks a person gave a sample's extractions (many-test).
 */

/** A rule of the app: a regex or syntactic definition (the `cleaningRuleDefinition` contract). */
export const cleaningRules = pgTable(
  'cleaning_rules',
  {
    ...appNamed(),
    kind: text('kind').notNull(),
    definition: jsonb('definition').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [
    uniqueIndex('cleaning_rules_app_name').on(t.appId, t.name),
    // The kinds of the definition contract (regex, syntactic).
    oneOf(
      'cleaning_rules_kind',
      t.kind,
      cleaningRuleDefinition.options.map((o) => o.shape.kind.value),
    ),
    appScope(),
  ],
);

/** One cleaning task: a rule set (fixed when queued, definitions included) over a scope of documents. */
export const cleaningTasks = pgTable(
  'cleaning_tasks',
  {
    ...appKeys(),
    name: text('name').notNull(),
    /** [{ ref, name, definition }] as they were when the task was queued or rerun. */
    rules: jsonb('rules').notNull(),
    /** { kinds, from, to } */
    scope: jsonb('scope').notNull(),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    cancelledAt: at('cancelled_at'),
    createdBy: createdBy(),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('cleaning_tasks_app').on(t.appId), appScope()],
);

/**
 * A value a rule read from a document, with its sentence and span (provenance). One document and
 * rule hold one set of values: a later run over the same document replaces them, so a rerun never
 * duplicates. Faults (out of range, unknown unit) are kept with their value.
 */
export const cleanedValues = pgTable(
  'cleaned_values',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    taskId: integer('task_id').references(() => cleaningTasks.id, { onDelete: 'cascade' }),
    ruleRef: text('rule_ref').notNull(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    documentId: bigint('document_id', { mode: 'number' })
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    visitId: bigint('visit_id', { mode: 'number' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    valueNum: doublePrecision('value_num'),
    valueHigh: doublePrecision('value_high'),
    valueText: text('value_text').notNull().default(''),
    unit: text('unit').notNull().default(''),
    section: text('section').notNull().default(''),
    sentence: text('sentence').notNull(),
    sentenceStart: integer('sentence_start').notNull(),
    spanStart: integer('span_start').notNull(),
    spanEnd: integer('span_end').notNull(),
    /** { negated, uncertain, time, timeDays, laterality, comparator } */
    qualifiers: jsonb('qualifiers').notNull().default({}),
    fault: text('fault').notNull().default(''),
    faultDetail: text('fault_detail').notNull().default(''),
    /** The document's time: what a disease library's windows compare. */
    observedAt: at('observed_at').notNull(),
  },
  (t) => [
    index('cleaned_values_patient').on(t.appId, t.patientId, t.code, t.observedAt),
    index('cleaned_values_document').on(t.documentId, t.ruleRef),
    index('cleaned_values_task').on(t.taskId),
    // '' for a value without a fault.
    oneOf('cleaned_values_fault', t.fault, ['', ...CLEANING_FAULTS]),
    appScope(),
  ],
);

/** A person's mark on one extraction of a sample (many-test): correct or not. */
export const cleaningMarks = pgTable(
  'cleaning_marks',
  {
    ...appKeys(),
    documentId: bigint('document_id', { mode: 'number' })
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    ruleRef: text('rule_ref').notNull(),
    code: text('code').notNull(),
    spanStart: integer('span_start').notNull(),
    correct: boolean('correct').notNull(),
    markedBy: createdBy(),
    markedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cleaning_marks_one').on(t.appId, t.documentId, t.ruleRef, t.code, t.spanStart),
    appScope(),
  ],
);
