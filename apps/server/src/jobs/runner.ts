import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { jobs } from '../db/schema/index.js';

/**
 * The one interface every area uses for background jobs (jobs/README.md): `enqueueJob` writes
 * the job's row, `app.jobs` (a `JobQueue`) runs it. Two implementations: pg-boss on PostgreSQL
 * (`boss.ts`), an in-process runner on the embedded database (`local.ts`); `queue.ts` picks one.
 */

export type JobRow = typeof jobs.$inferSelect;
export type CancelHook = (tx: Tx, job: JobRow) => Promise<void>;

/**
 * The job was claimed again by another worker (this one stopped sending heartbeats): every write
 * of this run is refused from now on. `progress()` throws it; a handler should let it pass.
 */
export class JobClaimLost extends Error {
  constructor(
    readonly jobId: number,
    readonly attempt: number,
  ) {
    super(`job ${jobId}: claim ${attempt} was taken over by a newer claim`);
    this.name = 'JobClaimLost';
  }
}

export interface JobContext {
  db: Db;
  /** The row as claimed; `job.attempts` is this claim's number (the fencing token of its writes). */
  job: JobRow;
  /**
   * Records progress (0-100) so the UI can poll it. Conditional on this claim: once another
   * worker has taken the job it throws `JobClaimLost`, which stops the handler there.
   */
  progress(percent: number): Promise<void>;
  /** Aborted (reason: `JobClaimLost`) as soon as this process learns that the claim is lost. */
  signal: AbortSignal;
}

/** Does the work of one job; what it returns is stored as the job's result. A throw fails the job. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>;

export interface NewJob {
  appId: number;
  kind: string;
  params?: Record<string, unknown>;
  createdBy?: number | null;
}

/** What the areas and the routes see of the job queue (`app.jobs`). */
export interface JobQueue {
  /** `pg-boss` on PostgreSQL, `local` (in-process runner) on the embedded database. */
  readonly backend: 'pg-boss' | 'local';
  /** This process (host:pid), stored on the rows it claims. */
  readonly workerId: string;
  /** Registers the handler of one kind of job. */
  handle(kind: string, handler: JobHandler): this;
  /**
   * What a kind of job does when it is cancelled before any process took it (task scheduling):
   * e.g. an import marks its record cancelled. Runs in the cancelling transaction.
   */
  onCancelled(kind: string, hook: CancelHook): this;
  /** Runs the cancel hook of the job's kind, if it has one. */
  cancelledHook(tx: Tx, job: JobRow): Promise<void>;
  /** Starts taking jobs (polling, heartbeats, the sweeper). */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the ones in hand; `drain()` still works afterwards. */
  stop(): Promise<void>;
  /** `stop()`, then lets go of pg-boss. */
  close(): Promise<void>;
  /** Looks for work now (after a job was queued in this process), without waiting for the next poll. */
  nudge(): void;
  /**
   * Waits for the jobs this process is running, then runs queued jobs one at a time until none
   * is left; returns how many it ran. Tests and command-line tools call it.
   */
  drain(): Promise<number>;
  /**
   * Queues again the running jobs whose heartbeat is stale (their process stopped), and fails
   * those that used up their attempts. Runs on a timer; tests call it.
   */
  sweep(): Promise<{ requeued: number; abandoned: number }>;
  /** Deletes finished jobs older than the retention period (retention.ts); returns how many. */
  cleanup(): Promise<number>;
}

/** Queues a job, in the caller's transaction when given one, so it exists only if the caller's write does. */
export async function enqueueJob(db: Tx, job: NewJob): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({ appId: job.appId, kind: job.kind, params: job.params ?? {}, createdBy: job.createdBy ?? null })
    .returning();
  return row!;
}

/** A job of one app, or null: routes use it so an app never sees another's jobs. */
export async function findJob(db: Tx, appId: number, id: number): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.appId, appId)));
  return row ?? null;
}
