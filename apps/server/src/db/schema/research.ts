import {
  MC_CENTER_ROLES,
  RESEARCH_DATASET_STATUSES,
  RESEARCH_PROJECT_ROLES,
  TASK_STATUSES,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { appId, appKeys, at, authored, createdAt, madeBy } from './columns.js';
import { crfForms } from './crf.js';
import { users } from './identity.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Research subjects (科研课题) and multi-center topics. A subject belongs to one app; a
 * multi-center topic is led by one app and joined by others, each of which enrols only its own
 * patients. Every row carries `app_id`.
 */
/*
 * Status columns hold the task statuses of spec 001 section 3 (TASK_STATUSES of @crdp/core):
 * the life of a research subject and of a multi-center topic.
 */
const userRef = (name: string) => integer(name).references(() => users.userId, { onDelete: 'set null' });

/** The editable list of project types (cohort, case-control...), per app. */
export const researchProjectTypes = pgTable(
  'research_project_types',
  {
    ...appKeys(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('research_project_types_app_code').on(t.appId, t.code), appScope()],
);

export const researchSubjects = pgTable(
  'research_subjects',
  {
    ...appKeys(),
    name: text('name').notNull(),
    /** A built-in type code (cohort, caseControl...) or one of the app's own types. */
    typeCode: text('type_code').notNull().default('cohort'),
    description: text('description').notNull().default(''),
    piUserId: userRef('pi_user_id'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    targetSize: integer('target_size').notNull().default(0),
    /** CohortCriteria of @crdp/core. */
    criteria: jsonb('criteria').notNull(),
    /** Variable definitions of the analysis dataset. */
    variables: jsonb('variables').notNull().default([]),
    crfFormId: integer('crf_form_id').references(() => crfForms.id, { onDelete: 'set null' }),
    /** Names of the participating centers (the app itself is always one). */
    centers: jsonb('centers').notNull().default([]),
    /** A TASK_STATUSES code. */
    status: text('status').notNull().default('staged'),
    ...authored(),
  },
  (t) => [
    index('research_subjects_app_status').on(t.appId, t.status),
    oneOf('research_subjects_status', t.status, TASK_STATUSES),
    appScope(),
  ],
);

export const researchSubjectMembers = pgTable(
  'research_subject_members',
  {
    subjectId: parentKey('subject_id', () => researchSubjects.id),
    userId: parentKey('user_id', () => users.userId),
    /** pi, coordinator, investigator, statistician, dataManager. */
    role: text('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.subjectId, t.userId] }),
    oneOf('research_subject_members_role', t.role, RESEARCH_PROJECT_ROLES),
  ],
);

/** Every status move: who, when, from, to, why. Append-only like the audit trail. */
export const researchStatusLog = pgTable(
  'research_status_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    subjectId: parentKey('subject_id', () => researchSubjects.id),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    userId: userRef('user_id'),
    userName: text('user_name').notNull(),
    reason: text('reason').notNull().default(''),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [
    index('research_status_log_subject').on(t.subjectId, t.at),
    // '' is the move that created the subject.
    oneOf('research_status_log_from_status', t.fromStatus, ['', ...TASK_STATUSES]),
    oneOf('research_status_log_to_status', t.toStatus, TASK_STATUSES),
    appScope(),
  ],
);

/** Patients recruited into a subject. */
export const researchEnrolments = pgTable(
  'research_enrolments',
  {
    appId: appId(),
    subjectId: parentKey('subject_id', () => researchSubjects.id),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    enrolledBy: userRef('enrolled_by'),
    enrolledAt: at('enrolled_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.subjectId, t.patientId] }),
    index('research_enrolments_app').on(t.appId, t.subjectId),
    appScope(),
  ],
);

/** An analysis dataset: one row per enrolled patient, built by a background job. */
export const researchDatasets = pgTable(
  'research_datasets',
  {
    ...appKeys(),
    subjectId: parentKey('subject_id', () => researchSubjects.id),
    name: text('name').notNull(),
    /** Chosen variable definitions and derived columns, as requested. */
    spec: jsonb('spec').notNull(),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    /** building | ready | failed */
    status: text('status').notNull().default('building'),
    columns: jsonb('columns').notNull().default([]),
    rows: jsonb('rows').notNull().default([]),
    rowCount: integer('row_count').notNull().default(0),
    ...madeBy(),
    builtAt: at('built_at'),
  },
  (t) => [
    index('research_datasets_subject').on(t.appId, t.subjectId),
    oneOf('research_datasets_status', t.status, RESEARCH_DATASET_STATUSES),
    appScope(),
  ],
);

/** A multi-center topic, led by one app (center). */
export const mcTopics = pgTable(
  'mc_topics',
  {
    id: serial('id').primaryKey(),
    /** The leading center. */
    appId: appId(),
    name: text('name').notNull(),
    typeCode: text('type_code').notNull().default('cohort'),
    /** Protocol text: background, objectives, design, endpoints... */
    protocol: jsonb('protocol').notNull().default({}),
    /** Variables every center fills, with their plausible ranges, for detection. */
    variables: jsonb('variables').notNull().default([]),
    status: text('status').notNull().default('staged'),
    /** Pooled cells of other centers counting fewer cases than this are shown as "< n" (1–100). */
    minCellCount: integer('min_cell_count').notNull().default(5),
    ...authored(),
  },
  (t) => [
    index('mc_topics_app').on(t.appId),
    check('mc_topics_min_cell_count', sql`${t.minCellCount} between 1 and 100`),
    oneOf('mc_topics_status', t.status, TASK_STATUSES),
    appScope(),
  ],
);

export const mcTopicCenters = pgTable(
  'mc_topic_centers',
  {
    topicId: parentKey('topic_id', () => mcTopics.id),
    appId: appId(),
    /** lead | member */
    role: text('role').notNull(),
    /**
     * A member is invited (pending) and takes part only once its administrator accepted; it may
     * decline, the lead may withdraw a pending invitation, an accepted member may leave.
     */
    status: text('status').notNull().default('pending'),
    /** When the invitation was sent (or sent again). */
    joinedAt: at('joined_at').notNull().defaultNow(),
    /** When the status last changed after the invitation (accepted, declined, withdrawn, left). */
    respondedAt: at('responded_at'),
  },
  (t) => [
    primaryKey({ columns: [t.topicId, t.appId] }),
    index('mc_topic_centers_app').on(t.appId),
    check(
      'mc_topic_centers_status',
      sql`${t.status} in ('pending', 'accepted', 'declined', 'withdrawn', 'left')`,
    ),
    oneOf('mc_topic_centers_role', t.role, MC_CENTER_ROLES),
    appScope(),
  ],
);

/** A center's case in a topic: its own patient and the topic variables it entered. */
export const mcTopicCases = pgTable(
  'mc_topic_cases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    topicId: parentKey('topic_id', () => mcTopics.id),
    appId: appId(),
    patientId: bigint('patient_id', { mode: 'number' })
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    values: jsonb('values').notNull().default({}),
    enteredBy: userRef('entered_by'),
    enteredAt: at('entered_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mc_topic_cases_patient').on(t.topicId, t.patientId),
    index('mc_topic_cases_app').on(t.topicId, t.appId),
    appScope(),
  ],
);

/** Who moved a multi-center topic from which status to which, and when (leading center only). */
export const mcTopicStatusLog = pgTable(
  'mc_topic_status_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    topicId: parentKey('topic_id', () => mcTopics.id),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    userId: userRef('user_id'),
    userName: text('user_name').notNull(),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [
    index('mc_topic_status_log_topic').on(t.topicId, t.at),
    oneOf('mc_topic_status_log_from_status', t.fromStatus, TASK_STATUSES),
    oneOf('mc_topic_status_log_to_status', t.toStatus, TASK_STATUSES),
    appScope(),
  ],
);
