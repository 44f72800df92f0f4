import { type SQL, sql } from 'drizzle-orm';

/*
 * Per-kind concurrency limits (table `job_kind_settings`, per app and kind): at most `max_running`
 * jobs of that app and kind run at once, across every server process. Both queues enforce it at
 * the point where a queued row becomes eligible to run:
 *
 * - the in-process runner (PGlite) in its one claim statement: a queued row is claimed only while
 *   the running ones plus the queued ones before it stay under the limit;
 * - pg-boss (PostgreSQL) when a row is sent: a row is delivered only while the running ones plus
 *   the ones already delivered plus the unsent ones before it stay under the limit, inside one
 *   transaction that holds an advisory lock, so two processes never both send past it. A row is
 *   claimed only from a delivery, so running <= running + delivered <= limit.
 *
 * A kind without a row (or with a null limit) runs as many as the process's slots allow.
 */

/** The advisory lock (one key for the whole app) that makes "count, then send" atomic on pg-boss. */
export const LIMIT_LOCK_KEY = 0x6a6f6273; // 'jobs'

/** The limit of the app and kind of the row aliased `j` (a fixed alias, never input), or null. */
const limitOf = (j: string) =>
  `(select s.max_running from job_kind_settings s where s.app_id = ${j}.app_id and s.kind = ${j}.kind)`;
const countOf = (j: string, where: string) =>
  `(select count(*) from jobs x where x.app_id = ${j}.app_id and x.kind = ${j}.kind and ${where})`;

/**
 * In-process runner: the queued row aliased `j` may be claimed now when its app and kind have no
 * limit, or its running rows plus the queued rows queued before it are fewer than the limit.
 */
export function claimableUnderLimit(j: string): SQL {
  return sql.raw(`(${limitOf(j)} is null or
    ${countOf(j, "x.status = 'running'")} + ${countOf(j, `x.status = 'queued' and x.id < ${j}.id`)} < ${limitOf(j)})`);
}

/**
 * pg-boss: the unsent queued row aliased `j` may be sent now when there is no limit, or its
 * running rows, the queued rows already sent and the unsent ones before it are fewer than the limit.
 */
export function sendableUnderLimit(j: string): string {
  return `(${limitOf(j)} is null or
    ${countOf(j, `(x.status = 'running' or (x.status = 'queued' and (x.queue_job_id is not null or x.id < ${j}.id)))`)} < ${limitOf(j)})`;
}
