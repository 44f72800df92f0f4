import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, appKeys, appNamed, at, authored } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/*
 * The variable library (variables/README.md): an app's research variables, each with its
 * derivation from the clinical data (the `variableDerivation` contract), worked out on demand.
 */

export const variables = pgTable(
  'variables',
  {
    ...appKeys(),
    code: text('code').notNull(),
    labelZh: text('label_zh').notNull(),
    labelEn: text('label_en').notNull().default(''),
    type: text('type').notNull(),
    unit: text('unit').notNull().default(''),
    /** [{ code, labelZh, labelEn }] for category variables. */
    valueSet: jsonb('value_set').notNull().default([]),
    description: text('description').notNull().default(''),
    derivation: jsonb('derivation').notNull(),
    ...authored(),
  },
  (t) => [
    uniqueIndex('variables_app_code').on(t.appId, t.code),
    index('variables_app').on(t.appId),
    oneOf('variables_type', t.type, ['number', 'text', 'date', 'category']),
    appScope(),
  ],
);

/** A named collection of the app's variables for a study (变量组). */
export const variableGroups = pgTable(
  'variable_groups',
  {
    ...appNamed(),
    ...authored(),
  },
  (t) => [uniqueIndex('variable_groups_app_name').on(t.appId, t.name), appScope()],
);

/** The variables of a group, in their order; a deleted variable leaves its groups. */
export const variableGroupMembers = pgTable(
  'variable_group_members',
  {
    groupId: parentKey('group_id', () => variableGroups.id),
    variableId: parentKey('variable_id', () => variables.id),
    appId: appId(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.variableId] }),
    index('variable_group_members_variable').on(t.variableId),
    appScope(),
  ],
);

/**
 * A variable template (变量模板): one derivation pattern (a lab item's or a cleaned value's
 * aggregates in a window) that makes one variable per item and aggregate when applied.
 * `spec` is the `variableTemplateSpec` contract.
 */
export const variableTemplates = pgTable(
  'variable_templates',
  {
    ...appNamed(),
    spec: jsonb('spec').notNull(),
    ...authored(),
  },
  (t) => [uniqueIndex('variable_templates_app_name').on(t.appId, t.name), appScope()],
);

/** A variable group template (变量组模板): variable templates whose variables make one group. */
export const variableGroupTemplates = pgTable(
  'variable_group_templates',
  {
    ...appNamed(),
    /** The variable templates' ids, in order. */
    templateIds: jsonb('template_ids').notNull().default([]),
    ...authored(),
  },
  (t) => [uniqueIndex('variable_group_templates_app_name').on(t.appId, t.name), appScope()],
);

/** A variable set (变量集): the variables a study's dataset is built from, in order. */
export const variableSets = pgTable(
  'variable_sets',
  {
    ...appNamed(),
    ...authored(),
  },
  (t) => [uniqueIndex('variable_sets_app_name').on(t.appId, t.name), appScope()],
);

export const variableSetMembers = pgTable(
  'variable_set_members',
  {
    setId: parentKey('set_id', () => variableSets.id),
    variableId: parentKey('variable_id', () => variables.id),
    appId: appId(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.setId, t.variableId] }),
    index('variable_set_members_variable').on(t.variableId),
    appScope(),
  ],
);

/**
 * A transfer rule (转换规则): maps variables of one model or version to the codes of another,
 * each mapping with its value transform (`variableTransferMapping` contract).
 */
export const variableTransferRules = pgTable(
  'variable_transfer_rules',
  {
    ...appNamed(),
    targetModel: text('target_model').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    mappings: jsonb('mappings').notNull().default([]),
    ...authored(),
  },
  (t) => [uniqueIndex('variable_transfer_rules_app_name').on(t.appId, t.name), appScope()],
);

/** A run of a transfer rule as a job (转换列表); the mappings are copied in when it is queued. */
export const variableTransferRuns = pgTable(
  'variable_transfer_runs',
  {
    ...appKeys(),
    ruleId: integer('rule_id').references(() => variableTransferRules.id, { onDelete: 'set null' }),
    ruleName: text('rule_name').notNull(),
    targetModel: text('target_model').notNull().default(''),
    mappings: jsonb('mappings').notNull(),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    patients: integer('patients').notNull().default(0),
    values: integer('values').notNull().default(0),
    /** Per target code: { converted, unmapped } values. */
    summary: jsonb('summary').notNull().default([]),
    finishedAt: at('finished_at'),
    ...authored(),
  },
  (t) => [index('variable_transfer_runs_app').on(t.appId), appScope()],
);

/** The values a run wrote: one row per patient and target code. */
export const variableTransferValues = pgTable(
  'variable_transfer_values',
  {
    runId: parentKey('run_id', () => variableTransferRuns.id),
    appId: appId(),
    patientId: bigint('patient_id', { mode: 'number' }).notNull(),
    code: text('code').notNull(),
    value: text('value'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.patientId, t.code] }), appScope()],
);
