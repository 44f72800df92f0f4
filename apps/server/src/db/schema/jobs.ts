import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { apps, users } from './identity.js';

/**
 * Background jobs (imports, exports, pushes...). Any server process may run them: a runner
 * claims the oldest queued job with `FOR UPDATE SKIP LOCKED`, so two processes never take the
 * same one. See jobs/README.md.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.appId, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** queued, running, succeeded, failed. */
    status: text('status').notNull().default('queued'),
    /** 0 to 100. */
    progress: integer('progress').notNull().default(0),
    params: jsonb('params').notNull().default({}),
    result: jsonb('result'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** The process that runs it (host:pid), for operators. */
    workerId: text('worker_id'),
    createdBy: integer('created_by').references(() => users.userId, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_status').on(t.status, t.id), index('jobs_app').on(t.appId, t.id)],
);
