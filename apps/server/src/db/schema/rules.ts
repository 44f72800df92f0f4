import { RULE_ACTION_KINDS, RULE_FAULT_LEVELS, RULE_STATUSES } from '@crdp/core';
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { appId, appKeys, appNamed, at, authored, createdAt } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/** A clinical rule of one app (rules/README.md): conditions (`when`) and actions, draft or published. */
export const clinicalRules = pgTable(
  'clinical_rules',
  {
    ...appNamed(),
    when: jsonb('when').notNull(),
    actions: jsonb('actions').notNull(),
    status: text('status').notNull().default('draft'),
    version: integer('version').notNull().default(0),
    publishedAt: at('published_at'),
    ...authored(),
  },
  (t) => [
    index('clinical_rules_app').on(t.appId),
    oneOf('clinical_rules_status', t.status, RULE_STATUSES),
    appScope(),
  ],
);

/** A test sample of a rule: a patient or hand-made attribute values, and whether the rule should fire. */
export const ruleSamples = pgTable(
  'rule_samples',
  {
    ...appKeys(),
    ruleId: parentKey('rule_id', () => clinicalRules.id),
    name: text('name').notNull(),
    patientId: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    attributes: jsonb('attributes'),
    expectedFired: boolean('expected_fired').notNull(),
    ...authored(),
  },
  (t) => [index('rule_samples_rule').on(t.ruleId), index('rule_samples_app').on(t.appId), appScope()],
);

/** A run of some rules over a cohort, as a job. */
export const ruleRuns = pgTable(
  'rule_runs',
  {
    ...appKeys(),
    ruleIds: integer('rule_ids').array().notNull().default(sql`'{}'::integer[]`),
    scope: jsonb('scope').notNull(),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    patients: integer('patients').notNull().default(0),
    results: integer('results').notNull().default(0),
    finishedAt: at('finished_at'),
    ...authored(),
  },
  (t) => [index('rule_runs_app').on(t.appId), appScope()],
);

/** What a run's rules did to each patient they fired on: a fault, a derived value, a tag or a notice. */
export const ruleResults = pgTable(
  'rule_results',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: appId(),
    runId: parentKey('run_id', () => ruleRuns.id),
    ruleId: parentKey('rule_id', () => clinicalRules.id),
    ruleVersion: integer('rule_version').notNull(),
    patientId: parentKey('patient_id', () => patients.id),
    kind: text('kind').notNull(),
    level: text('level').notNull().default(''),
    name: text('name').notNull().default(''),
    value: text('value').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('rule_results_run').on(t.runId, t.kind),
    index('rule_results_patient').on(t.patientId),
    index('rule_results_app').on(t.appId),
    oneOf('rule_results_kind', t.kind, RULE_ACTION_KINDS),
    // '' for the actions other than a fault.
    oneOf('rule_results_level', t.level, ['', ...RULE_FAULT_LEVELS]),
    appScope(),
  ],
);
