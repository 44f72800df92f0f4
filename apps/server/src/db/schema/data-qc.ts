import { QC_RULE_KINDS, QC_SEVERITIES } from '@crdp/core';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { appId, appKeys, appNamed, authored, createdAt, createdBy } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Data quality control (数据质控) over the clinical data repository: rules checked against the
 * CDR tables, plans (named sets of rules), tasks (one run of a plan, as a job) and the rows each
 * rule found at fault. Tables and columns a rule names come from a fixed whitelist
 * (data-qc/catalogue.ts), never from SQL written by a client. Every row carries `app_id`.
 */
export const qcRules = pgTable(
  'qc_rules',
  {
    ...appNamed(),
    /** A key of the catalogue: patients, visits, labResults... */
    tableKey: text('table_key').notNull(),
    /** required, range, pattern, allowed, date_order, future_date. */
    kind: text('kind').notNull(),
    /** A column key of the table in the catalogue. */
    columnKey: text('column_key').notNull(),
    /** Kind-specific settings: { min, max, pattern, values, otherColumn, filterColumn, filterValue }. */
    params: jsonb('params').notNull().default({}),
    /** error or warning. */
    severity: text('severity').notNull().default('error'),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [
    index('qc_rules_app').on(t.appId, t.id),
    oneOf('qc_rules_kind', t.kind, QC_RULE_KINDS),
    oneOf('qc_rules_severity', t.severity, QC_SEVERITIES),
    appScope(),
  ],
);

export const qcPlans = pgTable(
  'qc_plans',
  {
    ...appNamed(),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [index('qc_plans_app').on(t.appId, t.id), appScope()],
);

/** The rules of a plan, in order. Deleting a rule takes it out of every plan. */
export const qcPlanRules = pgTable(
  'qc_plan_rules',
  {
    planId: parentKey('plan_id', () => qcPlans.id),
    ruleId: parentKey('rule_id', () => qcRules.id),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.planId, t.ruleId] }), index('qc_plan_rules_rule').on(t.ruleId)],
);

/** One run of a plan. Its status, progress and times are those of its job. */
export const qcTasks = pgTable(
  'qc_tasks',
  {
    ...appKeys(),
    planId: integer('plan_id').references(() => qcPlans.id, { onDelete: 'set null' }),
    /** The plan's name when the task was started (the plan may change or go). */
    planName: text('plan_name').notNull(),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    createdBy: createdBy(),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('qc_tasks_app').on(t.appId, t.id), appScope()],
);

/** What one rule of a task found: a copy of the rule as it was run, rows checked and at fault. */
export const qcTaskRules = pgTable(
  'qc_task_rules',
  {
    ...appKeys(),
    taskId: parentKey('task_id', () => qcTasks.id),
    ruleId: integer('rule_id').references(() => qcRules.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    /** The rule as it was run: { name, tableKey, kind, columnKey, params, severity }. */
    rule: jsonb('rule').notNull(),
    /** Skipped because the rule was disabled when the task ran. */
    skipped: boolean('skipped').notNull().default(false),
    checked: integer('checked').notNull().default(0),
    /** The true number of rows at fault; at most a capped number of them are stored. */
    faults: integer('faults').notNull().default(0),
    stored: integer('stored').notNull().default(0),
  },
  (t) => [index('qc_task_rules_task').on(t.taskId, t.position), appScope()],
);

/** A row at fault: where it is, whose it is, and the value(s) the rule looked at. */
export const qcFaults = pgTable(
  'qc_faults',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    taskId: parentKey('task_id', () => qcTasks.id),
    taskRuleId: parentKey('task_rule_id', () => qcTaskRules.id),
    tableKey: text('table_key').notNull(),
    rowId: bigint('row_id', { mode: 'number' }).notNull(),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    /** The checked column's value as text (null when empty). */
    value: text('value'),
    /** The second column's value of a date-order rule. */
    otherValue: text('other_value'),
  },
  (t) => [
    index('qc_faults_task').on(t.taskId, t.taskRuleId, t.id),
    index('qc_faults_task_patient').on(t.taskId, t.patientId),
    appScope(),
  ],
);
