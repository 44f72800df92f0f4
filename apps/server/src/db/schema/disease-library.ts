import { LIBRARY_FILING_RULES, LIBRARY_FILL_OUTCOMES, LIBRARY_STATUSES } from '@crdp/core';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { diseases } from './admin.js';
import { patients } from './clinical.js';
import { appId, appNamed, at, authored, createdAt, madeBy } from './columns.js';
import { crfForms, crfRecords } from './crf.js';
import { users } from './identity.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Disease libraries (专病库): a research database for one disease, filled from the clinical
 * data. A library names its CRF and, per CRF item, a source rule in the indicator template
 * language (disease-library/template.ts); its patients are found by the shared cohort criteria.
 * Every row carries `app_id`.
 */
const libraryId = () => parentKey('library_id', () => diseaseLibraries.id);

export const diseaseLibraries = pgTable(
  'disease_libraries',
  {
    ...appNamed(),
    diseaseId: integer('disease_id').references(() => diseases.diseaseId, { onDelete: 'set null' }),
    crfFormId: integer('crf_form_id')
      .notNull()
      .references(() => crfForms.id, { onDelete: 'restrict' }),
    /** CohortCriteria of @crdp/core. */
    criteria: jsonb('criteria').notNull(),
    /** Source rules by CRF item key: { [itemKey]: template string }. */
    sourceRules: jsonb('source_rules').notNull().default({}),
    /** Item keys offered by the library search (RetrievalConfig). */
    searchFields: jsonb('search_fields').notNull().default([]),
    /** How a patient's filing date is set: push (day of push), firstVisit, firstDiagnosis. */
    filingRule: text('filing_rule').notNull().default('push'),
    /** enabled | disabled */
    status: text('status').notNull().default('enabled'),
    /** Hours between scheduled pushes; 0 means no schedule. */
    pushEveryHours: integer('push_every_hours').notNull().default(0),
    nextPushAt: at('next_push_at'),
    lastPushAt: at('last_push_at'),
    lastFillAt: at('last_fill_at'),
    ...authored(),
    /**
     * Soft delete: the library leaves every list and answers 404 to every use, while its
     * filings, records and fill log stay (like CRF records); its name may be used again.
     */
    deletedAt: at('deleted_at'),
    deletedBy: integer('deleted_by').references(() => users.userId, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('disease_libraries_app_name').on(t.appId, t.name).where(sql`${t.deletedAt} is null`),
    index('disease_libraries_next_push').on(t.nextPushAt),
    oneOf('disease_libraries_status', t.status, LIBRARY_STATUSES),
    oneOf('disease_libraries_filing_rule', t.filingRule, LIBRARY_FILING_RULES),
    appScope(),
  ],
);

/** A patient of a library: when filed, why included, and the CRF record that holds its values. */
export const diseaseLibraryPatients = pgTable(
  'disease_library_patients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    libraryId: libraryId(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    recordId: bigint('record_id', { mode: 'number' }).references(() => crfRecords.id, {
      onDelete: 'set null',
    }),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    /** Why the patient was included: the inclusion conditions met, in words and as data. */
    reason: jsonb('reason').notNull().default([]),
    /** Per item: machine, manual or unobtainable (with the reason in `unobtainable`). */
    itemMethods: jsonb('item_methods').notNull().default({}),
    /** Items marked not obtainable: { [itemKey]: reason }. */
    unobtainable: jsonb('unobtainable').notNull().default({}),
    pushJobId: bigint('push_job_id', { mode: 'number' }),
    addedAt: at('added_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('disease_library_patients_lib_patient').on(t.libraryId, t.patientId),
    index('disease_library_patients_lib_filing').on(t.libraryId, t.filingDate, t.id),
    appScope(),
  ],
);

/** Where each filled value came from: one row per patient and item of a fill job. */
export const diseaseLibraryFillLog = pgTable(
  'disease_library_fill_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    libraryId: libraryId(),
    jobId: bigint('job_id', { mode: 'number' }),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    itemKey: text('item_key').notNull(),
    /** filled, unchanged, keptManual, noData, unobtainable, invalid (FillOutcome of disease-library/fill.ts). */
    outcome: text('outcome').notNull(),
    value: jsonb('value'),
    /** The rule and the source row: { rule, table, rowId, at }. */
    source: jsonb('source').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('disease_library_fill_log_lib').on(t.libraryId, t.id),
    index('disease_library_fill_log_patient').on(t.libraryId, t.patientId, t.itemKey),
    oneOf('disease_library_fill_log_outcome', t.outcome, LIBRARY_FILL_OUTCOMES),
    appScope(),
  ],
);

/** Common templates (commonly-template): a CRF with its source rules, to start a library from. */
export const diseaseLibraryTemplates = pgTable(
  'disease_library_templates',
  {
    ...appNamed(),
    crfFormId: parentKey('crf_form_id', () => crfForms.id),
    sourceRules: jsonb('source_rules').notNull().default({}),
    ...madeBy(),
  },
  (t) => [uniqueIndex('disease_library_templates_app_name').on(t.appId, t.name), appScope()],
);
