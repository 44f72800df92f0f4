import { RECORD_QC_SEVERITIES } from '@crdp/core';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, appKeys, at, authored, createdAt } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Medical-record QC (record-qc/README.md). The checks are built in (@crdp/core RECORD_QC_CATALOGUE);
 * an app keeps here only the checks it changed: on or off and their parameters.
 */
export const recordQcRules = pgTable(
  'record_qc_rules',
  {
    ...appKeys(),
    code: text('code').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    params: jsonb('params').notNull(),
    ...authored(),
  },
  (t) => [uniqueIndex('record_qc_rules_app_code').on(t.appId, t.code), appScope()],
);

/** A plan: which checks, over which inpatient visits (departments, admission dates). */
export const recordQcPlans = pgTable(
  'record_qc_plans',
  {
    ...appKeys(),
    name: text('name').notNull(),
    checks: text('checks').array().notNull().default(sql`'{}'::text[]`),
    departments: text('departments').array().notNull().default(sql`'{}'::text[]`),
    admitFrom: date('admit_from', { mode: 'string' }),
    admitTo: date('admit_to', { mode: 'string' }),
    ...authored(),
  },
  (t) => [index('record_qc_plans_app').on(t.appId), appScope()],
);

/** A run of a plan as a job; the checks and their parameters are copied in when it is queued. */
export const recordQcTasks = pgTable(
  'record_qc_tasks',
  {
    ...appKeys(),
    planId: integer('plan_id').references(() => recordQcPlans.id, { onDelete: 'set null' }),
    planName: text('plan_name').notNull(),
    /** [{ code, params }] as they were when queued. */
    checks: jsonb('checks').notNull(),
    /** { departments, admitFrom, admitTo } of the plan when queued. */
    scope: jsonb('scope').notNull(),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    /** Visits in scope per department: { 心内科: 12 }. */
    departmentVisits: jsonb('department_visits').notNull().default({}),
    /** Stays in scope per responsible doctor (the stay's doctor or an author of its notes): { 张伟: 8 }. */
    doctorVisits: jsonb('doctor_visits').notNull().default({}),
    /** Stays in scope per admission month (Beijing time) and department: { '2026-03': { 心内科: 40 } } (the trend's denominators). */
    monthVisits: jsonb('month_visits').notNull().default({}),
    visits: integer('visits').notNull().default(0),
    faults: integer('faults').notNull().default(0),
    finishedAt: at('finished_at'),
    ...authored(),
  },
  (t) => [index('record_qc_tasks_app').on(t.appId), appScope()],
);

/** A fault a task found: the check, the visit, the document when there is one, the points it costs. */
export const recordQcFaults = pgTable(
  'record_qc_faults',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    taskId: parentKey('task_id', () => recordQcTasks.id),
    check: text('check').notNull(),
    severity: text('severity').notNull(),
    points: smallint('points').notNull(),
    visitId: bigint('visit_id', { mode: 'number' }).notNull(),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    documentId: bigint('document_id', { mode: 'number' }),
    department: text('department').notNull().default(''),
    /** The doctor answerable for the fault: the document's author, else the stay's doctor ('' unknown). */
    doctor: text('doctor').notNull().default(''),
    /** What the message needs: { hours, lateHours, sections, missing }. */
    detail: jsonb('detail').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('record_qc_faults_task').on(t.taskId, t.department),
    index('record_qc_faults_app').on(t.appId),
    oneOf('record_qc_faults_severity', t.severity, RECORD_QC_SEVERITIES),
    appScope(),
  ],
);
