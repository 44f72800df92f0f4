import { CRF_FORM_STATUSES, CRF_RECORD_STATUSES } from '@crdp/crf';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { appId, appKeys, at, authored, createdAt, createdBy, timestamps } from './columns.js';
import { users } from './identity.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Case report forms (CRF). A form has one editable draft and immutable published versions;
 * a record is filled against exactly one version and keeps a field-level change history
 * once submitted. Every row carries `app_id`.
 */

export const crfForms = pgTable(
  'crf_forms',
  {
    ...appKeys(),
    name: text('name').notNull(),
    category: text('category').notNull().default(''),
    /** active | archived */
    status: text('status').notNull().default('active'),
    /** The editable draft (form JSON of @crdp/crf); published versions are copies of it. */
    draft: jsonb('draft').notNull(),
    /** Number of the latest published version; 0 while never published. */
    latestVersion: integer('latest_version').notNull().default(0),
    ...authored(),
  },
  (t) => [
    index('crf_forms_app').on(t.appId, t.status),
    oneOf('crf_forms_status', t.status, CRF_FORM_STATUSES),
    appScope(),
  ],
);

export const crfFormVersions = pgTable(
  'crf_form_versions',
  {
    ...appKeys(),
    formId: parentKey('form_id', () => crfForms.id),
    version: integer('version').notNull(),
    /** Immutable once written: records point at it. */
    definition: jsonb('definition').notNull(),
    note: text('note').notNull().default(''),
    publishedBy: integer('published_by').references(() => users.userId, { onDelete: 'set null' }),
    publishedAt: at('published_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('crf_form_versions_form_version').on(t.formId, t.version), appScope()],
);

export const crfRecords = pgTable(
  'crf_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    formId: parentKey('form_id', () => crfForms.id),
    versionId: integer('version_id')
      .notNull()
      .references(() => crfFormVersions.id, { onDelete: 'restrict' }),
    /** The subject: a patient of the clinical data, or a free subject code (disease library, project). */
    patientId: bigint('patient_id', { mode: 'number' }).references(() => patients.id, {
      onDelete: 'restrict',
    }),
    subjectCode: text('subject_code').notNull().default(''),
    answers: jsonb('answers').notNull().default({}),
    /** For each computed item: machine or manual. */
    methods: jsonb('methods').notNull().default({}),
    /** draft | submitted | verified | locked */
    status: text('status').notNull().default('draft'),
    /** Status before locking, restored on unlock. */
    statusBeforeLock: text('status_before_lock'),
    assignedTo: integer('assigned_to').references(() => users.userId, { onDelete: 'set null' }),
    /** The free-access key a record was created through; such a link sees only its own records. */
    freeKeyId: integer('free_key_id'),
    createdBy: createdBy(),
    createdByName: text('created_by_name').notNull().default(''),
    updatedByName: text('updated_by_name').notNull().default(''),
    /** Optimistic concurrency: a save names the revision it started from. */
    revision: integer('revision').notNull().default(1),
    ...timestamps(),
    submittedAt: at('submitted_at'),
    lockedAt: at('locked_at'),
    /** Soft delete: the row and its history stay; lists and exports leave it out. */
    deletedAt: at('deleted_at'),
    deletedBy: integer('deleted_by').references(() => users.userId, { onDelete: 'set null' }),
    deletedByName: text('deleted_by_name'),
    deleteReason: text('delete_reason'),
  },
  (t) => [
    index('crf_records_form').on(t.appId, t.formId, t.id),
    index('crf_records_patient').on(t.appId, t.patientId),
    index('crf_records_subject').on(t.appId, t.subjectCode),
    oneOf('crf_records_status', t.status, CRF_RECORD_STATUSES),
    // A record is locked from submitted or verified, and unlocking restores that status.
    oneOf('crf_records_status_before_lock', t.statusBeforeLock, ['submitted', 'verified']),
    appScope(),
  ],
);

/** Field-level audit of submitted records: append-only, one row per changed item. */
export const crfRecordChanges = pgTable(
  'crf_record_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    recordId: bigint('record_id', { mode: 'number' })
      .notNull()
      .references(() => crfRecords.id, { onDelete: 'cascade' }),
    /** Item key, or a record-level event: '@submit', '@verify', '@lock', '@unlock'. */
    itemKey: text('item_key').notNull(),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    reason: text('reason').notNull().default(''),
    userId: integer('user_id'),
    userName: text('user_name').notNull(),
    changedAt: at('changed_at').notNull().defaultNow(),
  },
  (t) => [index('crf_record_changes_record').on(t.recordId, t.itemKey), appScope()],
);

/** Files of `upload` items, stored under DATA_DIR/uploads/app-<id>/crf/. */
export const crfUploads = pgTable(
  'crf_uploads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    formId: parentKey('form_id', () => crfForms.id),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** Path relative to DATA_DIR/uploads. */
    storagePath: text('storage_path').notNull(),
    freeKeyId: integer('free_key_id'),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('crf_uploads_form').on(t.appId, t.formId), appScope()],
);
