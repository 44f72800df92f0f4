import { JOB_STATUSES, type JobStatus } from '@crdp/core';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { madeBy } from './columns.js';
import { apps } from './identity.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/**
 * Background jobs (imports, exports, pushes...): the truth the UI reads. Any server process may
 * run them; on PostgreSQL pg-boss delivers them, on the embedded database the in-process runner
 * claims them with `FOR UPDATE SKIP LOCKED`. Each claim adds one to `attempts`, and every write of
 * the run (heartbeat, progress, result) is conditional on that number. See jobs/README.md.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: parentKey('app_id', () => apps.appId),
    kind: text('kind').notNull(),
    /** queued, running, succeeded, failed, cancelled. */
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    /** 0 to 100. */
    progress: integer('progress').notNull().default(0),
    params: jsonb('params').notNull().default({}),
    result: jsonb('result'),
    error: text('error'),
    /** Claims so far; the current claim's number is the fencing token of its writes. */
    attempts: integer('attempts').notNull().default(0),
    /** The process that runs it (host:pid), for operators. */
    workerId: text('worker_id'),
    ...madeBy(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** PostgreSQL: the pg-boss job that delivers this queued job (null: not sent yet). */
    queueJobId: uuid('queue_job_id'),
  },
  (t) => [
    index('jobs_status').on(t.status, t.id),
    index('jobs_app').on(t.appId, t.id),
    oneOf('jobs_status_value', t.status, JOB_STATUSES),
    appScope(),
  ],
);
