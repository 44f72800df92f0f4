import { SCHEDULE_TRIGGERS } from '@crdp/core';
import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { appKeys, at, authored, createdAt, madeBy } from './columns.js';
import { jobs } from './jobs.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Task scheduling (任务调度): named, periodic runs of a schedulable job kind with its params on
 * a cron expression (scheduling/README.md). The scheduler tick claims due rows with one
 * `UPDATE ... WHERE enabled AND next_run_at <= now ... RETURNING`, so several server processes
 * queue each due run once. Every row carries `app_id`.
 */
export const schedules = pgTable(
  'schedules',
  {
    ...appKeys(),
    name: text('name').notNull(),
    /** A kind of the schedulable registry (scheduling/registry.ts), e.g. diseaseLibrary.push. */
    kind: text('kind').notNull(),
    /** The job's params, checked by the kind's zod schema and its ownership check. */
    params: jsonb('params').notNull().default({}),
    /** Five-field cron expression (minute hour day-of-month month day-of-week), read by croner. */
    cron: text('cron').notNull(),
    /** IANA time zone the cron expression is read in (the server's at creation). */
    timezone: text('timezone').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** The next due time; null while disabled. */
    nextRunAt: at('next_run_at'),
    lastRunAt: at('last_run_at'),
    lastJobId: bigint('last_job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    /** Why the last due run queued nothing (its library was deleted...), worded in both languages. */
    lastError: jsonb('last_error'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('schedules_app_name').on(t.appId, t.name),
    index('schedules_due').on(t.enabled, t.nextRunAt),
    appScope(),
  ],
);

/**
 * Every job a schedule queued: by the tick (`due_at` set; unique per schedule and due time, a
 * second guard besides the claim) or by "run now" (`due_at` null).
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    ...appKeys(),
    scheduleId: parentKey('schedule_id', () => schedules.id),
    jobId: bigint('job_id', { mode: 'number' }).references(() => jobs.id, { onDelete: 'set null' }),
    dueAt: at('due_at'),
    /** schedule | manual */
    trigger: text('trigger').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('schedule_runs_due').on(t.scheduleId, t.dueAt),
    oneOf('schedule_runs_trigger', t.trigger, SCHEDULE_TRIGGERS),
    index('schedule_runs_job').on(t.jobId),
    appScope(),
  ],
);

/** A failed or cancelled job queued again with the same kind and params: the old and the new job. */
export const jobRetries = pgTable(
  'job_retries',
  {
    ...appKeys(),
    jobId: bigint('job_id', { mode: 'number' })
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    retryJobId: bigint('retry_job_id', { mode: 'number' })
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    ...madeBy(),
  },
  (t) => [
    uniqueIndex('job_retries_retry').on(t.retryJobId),
    index('job_retries_job').on(t.jobId),
    appScope(),
  ],
);
