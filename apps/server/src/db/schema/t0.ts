import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { appId, appNamed, at, authored } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope } from './policies.js';

/** A T0 event of one app: a rule for a patient's index date (t0/README.md). */
export const t0Events = pgTable(
  't0_events',
  {
    ...appNamed(),
    rule: jsonb('rule').notNull(),
    /** The rule as of the last run ('' before any): a rule changed since makes the results stale. */
    ruleRun: text('rule_run').notNull().default(''),
    patients: integer('patients').notNull().default(0),
    materializedAt: at('materialized_at'),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    ...authored(),
  },
  (t) => [index('t0_events_app').on(t.appId), appScope()],
);

/** Each patient's T0 of an event, as of the event's last run, with the row it came from. */
export const t0Patients = pgTable(
  't0_patients',
  {
    eventId: parentKey('event_id', () => t0Events.id),
    appId: appId(),
    patientId: parentKey('patient_id', () => patients.id),
    t0: at('t0').notNull(),
    sourceTable: text('source_table').notNull(),
    sourceId: integer('source_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.patientId] }),
    index('t0_patients_app').on(t.appId),
    appScope(),
  ],
);
