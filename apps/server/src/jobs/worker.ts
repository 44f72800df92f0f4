import os from 'node:os';
import { and, eq, gte, inArray, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { reasonText } from '../http/logging.js';
import { failureEnglish, failureOf, type JobFailure } from './failure.js';
import { deleteOldJobs } from './retention.js';
import {
  type CancelHook,
  JobClaimLost,
  type JobContext,
  type JobHandler,
  type JobQueue,
  type JobRow,
} from './runner.js';

/** Where the queue writes what went wrong (pino's signature; the app passes `app.log`). */
export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobQueueOptions {
  /** Jobs this process runs at the same time (JOB_CONCURRENCY). */
  concurrency?: number;
  /** How often an idle process looks for work. */
  pollMs?: number;
  /** How often a running job's heartbeat is written, whether or not it reports progress. */
  heartbeatMs?: number;
  /** A running job whose heartbeat is older than this is queued again (its process stopped). */
  staleMs?: number;
  /** Claims a job may have; a stale job that used them up fails (`job.abandoned`). */
  maxAttempts?: number;
  /** How often the sweeper looks for stale jobs. */
  sweepMs?: number;
  /** Finished jobs older than this many days are deleted (retention.ts); 0 keeps all (JOB_RETENTION_DAYS). */
  retentionDays?: number;
  /** How often the retention cleanup runs. */
  cleanupMs?: number;
  /** Called once for each job that ends (succeeded, failed, abandoned); never for a lost claim. */
  onFinished?: (job: JobRow) => Promise<void>;
  log?: JobLog;
}

export const JOB_DEFAULTS = {
  concurrency: 2,
  pollMs: 1000,
  heartbeatMs: 30_000,
  staleMs: 300_000,
  maxAttempts: 3,
  sweepMs: 30_000,
  retentionDays: 30,
  cleanupMs: 3_600_000,
} as const;

const silent: JobLog = { info() {}, warn() {}, error() {} };

/** The longest wait between polls after claims kept failing. */
const MAX_BACKOFF_MS = 30_000;

/**
 * What both queues share: the handler registry, the slots (concurrency), the poll loop with
 * back-off after a failed claim, the run of one job with its heartbeat and fenced writes, the
 * sweeper and the retention cleanup. A subclass says how a job is claimed (`claim`), and
 * optionally how queued rows are handed to a delivery system first (`deliver`).
 */
export abstract class BaseJobQueue implements JobQueue {
  abstract readonly backend: 'pg-boss' | 'local';
  readonly workerId = `${os.hostname()}:${process.pid}`;
  protected readonly handlers = new Map<string, JobHandler>();
  private readonly cancelHooks = new Map<string, CancelHook>();
  protected readonly opts: Required<Omit<JobQueueOptions, 'onFinished' | 'log'>>;
  protected readonly log: JobLog;
  private readonly onFinished: JobQueueOptions['onFinished'];
  /**
   * Runs in this process, by run (a job whose claim this process lost may be running here twice:
   * the old run, fenced out, and the new one).
   */
  private readonly inFlight = new Map<symbol, { id: number; run: Promise<void> }>();
  private stopped = true;
  private pumping: Promise<void> | null = null;
  private again = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;
  /** Claims that failed in a row (the poll backs off while it is not 0). */
  private failures = 0;
  private lastCleanup = 0;

  constructor(
    protected readonly db: Db,
    opts: JobQueueOptions = {},
  ) {
    const { onFinished, log, ...rest } = opts;
    this.opts = { ...JOB_DEFAULTS, ...rest };
    this.onFinished = onFinished;
    this.log = log ?? silent;
  }

  /** Claims up to `max` jobs of the handled kinds for this process: they are `running` with a new attempt. */
  protected abstract claim(max: number): Promise<JobRow[]>;
  /** Gets ready to claim (pg-boss: started, queue created); called before any claim. */
  protected async open(): Promise<void> {}
  /** Lets go of what `open` took. */
  protected async release(): Promise<void> {}
  /** Hands queued rows to the delivery system, if there is one (pg-boss). */
  protected async deliver(): Promise<void> {}

  handle(kind: string, handler: JobHandler) {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is already handled`);
    this.handlers.set(kind, handler);
    return this;
  }

  onCancelled(kind: string, hook: CancelHook) {
    this.cancelHooks.set(kind, hook);
    return this;
  }

  async cancelledHook(tx: Tx, job: JobRow) {
    await this.cancelHooks.get(job.kind)?.(tx, job);
  }

  /** The kinds this process runs. */
  protected kinds() {
    return [...this.handlers.keys()];
  }

  async start() {
    if (!this.stopped) return;
    await this.open();
    this.stopped = false;
    this.sweepTimer = setInterval(() => this.sweepInBackground(), this.opts.sweepMs);
    this.sweepTimer.unref();
    this.sweepInBackground();
    this.tick();
  }

  async stop() {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.pollTimer = this.sweepTimer = null;
    await this.pumping;
    await this.sweeping;
    await this.settled();
  }

  private async settled() {
    await Promise.all([...this.inFlight.values()].map((f) => f.run));
  }

  async close() {
    await this.stop();
    await this.release();
  }

  nudge() {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.fill()
      .then(
        () => {
          this.failures = 0;
        },
        (e) => {
          this.failures++;
          // Never swallowed: logged (the reason only, no values), and the poll tries again later.
          this.log.error(
            { reason: reasonText(e), worker: this.workerId, failures: this.failures },
            'job queue: claiming jobs failed; trying again',
          );
        },
      )
      .finally(() => {
        this.pumping = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.nudge();
        }
      });
  }

  private tick = () => {
    if (this.stopped) return;
    this.nudge();
    const wait = this.failures
      ? Math.min(MAX_BACKOFF_MS, this.opts.pollMs * 2 ** Math.min(this.failures, 8))
      : this.opts.pollMs;
    this.pollTimer = setTimeout(this.tick, wait);
    this.pollTimer.unref();
  };

  /** Takes jobs while slots are free. */
  private async fill() {
    await this.deliver();
    while (!this.stopped) {
      const free = this.opts.concurrency - this.inFlight.size;
      if (free <= 0) return;
      const claimed = await this.claim(free);
      for (const job of claimed) this.launch(job);
      if (claimed.length < free) return;
    }
  }

  private launch(job: JobRow) {
    const key = Symbol(job.id);
    const run = this.run(job).finally(() => {
      this.inFlight.delete(key);
      this.nudge();
    });
    this.inFlight.set(key, { id: job.id, run });
    return run;
  }

  async drain(): Promise<number> {
    await this.open();
    let n = 0;
    for (;;) {
      await this.pumping;
      await this.settled();
      await this.deliver();
      const [job] = await this.claim(1);
      if (!job) {
        if (this.inFlight.size || this.pumping) continue;
        // A job another process is sending or claiming right now is not visible to this claim
        // yet: wait for it to be running (there or here) rather than call the queue empty.
        if (!(await this.anyQueued())) return n;
        await new Promise((r) => setTimeout(r, 25));
        continue;
      }
      n++;
      await this.launch(job);
    }
  }

  /** Whether a job of a kind run here is still queued. */
  private async anyQueued() {
    const kinds = this.kinds();
    if (!kinds.length) return false;
    const [row] = await this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.status, 'queued'), inArray(jobs.kind, kinds)))
      .limit(1);
    return !!row;
  }

  /** Runs one claimed job: heartbeat on a timer, progress and result written only under this claim. */
  private async run(job: JobRow) {
    const attempt = job.attempts;
    const lost = new AbortController();
    const mine = and(eq(jobs.id, job.id), eq(jobs.attempts, attempt), eq(jobs.status, 'running'));
    const claimLost = () => {
      if (lost.signal.aborted) return;
      lost.abort(new JobClaimLost(job.id, attempt));
      this.log.warn(
        { jobId: job.id, kind: job.kind, attempt, worker: this.workerId },
        'job queue: the job was claimed again elsewhere; this run stops writing',
      );
    };
    /** One write of this run, only while its claim holds; false (and the claim marked lost) otherwise. */
    const write = async (set: PgUpdateSetSource<typeof jobs>) => {
      const rows = await this.db.update(jobs).set(set).where(mine).returning({ id: jobs.id });
      if (!rows.length) claimLost();
      return rows.length > 0;
    };
    let beating: Promise<unknown> | null = null;
    const heartbeat = setInterval(() => {
      if (beating || lost.signal.aborted) return;
      beating = write({ heartbeatAt: sql`now()` })
        .catch((e) =>
          this.log.warn({ jobId: job.id, reason: reasonText(e) }, 'job queue: heartbeat not written'),
        )
        .finally(() => {
          beating = null;
        });
    }, this.opts.heartbeatMs);
    heartbeat.unref();
    const ctx: JobContext = {
      db: this.db,
      job,
      signal: lost.signal,
      progress: async (percent) => {
        if (lost.signal.aborted) throw lost.signal.reason;
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        if (!(await write({ progress: p, heartbeatAt: sql`now()` }))) throw lost.signal.reason;
      },
    };
    let finished: JobRow | undefined;
    const startedAt = performance.now();
    try {
      let outcome: PgUpdateSetSource<typeof jobs>;
      try {
        const result = await this.handlers.get(job.kind)!(ctx);
        outcome = { status: 'succeeded', progress: 100, result: result ?? null, finishedAt: new Date() };
      } catch (e) {
        if (e instanceof JobClaimLost) throw e;
        // A reason with a catalogue key keeps the key beside its English text, so every reader
        // (the jobs routes, the research task result) words it in their own language.
        const failure = failureOf(e);
        // Without one, the error's own text without values (a failed query's message lists its
        // bound values: patient data of a bulk insert would reach the screen and the notice).
        const error = failure ? failureEnglish(failure) : reasonText(e);
        outcome = {
          status: 'failed',
          error,
          ...(failure ? { result: { failure } } : {}),
          finishedAt: new Date(),
        };
      }
      clearInterval(heartbeat);
      await beating;
      // A run whose claim was taken over writes nothing more, whatever its handler returned.
      if (!lost.signal.aborted) {
        [finished] = await this.db.update(jobs).set(outcome).where(mine).returning();
        if (!finished) claimLost();
        // Kind, id and time only: what an operator needs to see slow or failing jobs.
        else
          this.log.info(
            {
              jobId: job.id,
              kind: job.kind,
              status: finished.status,
              ms: Math.round(performance.now() - startedAt),
            },
            'job queue: job ended',
          );
      }
    } catch (e) {
      if (!(e instanceof JobClaimLost))
        // The end could not be written (the database went away): the heartbeat stops, so the
        // sweeper of some process queues the job again.
        this.log.error(
          { jobId: job.id, kind: job.kind, reason: reasonText(e) },
          'job queue: the end of a job could not be written',
        );
    } finally {
      clearInterval(heartbeat);
    }
    if (finished) await this.finished(finished);
  }

  private async finished(job: JobRow) {
    if (!this.onFinished) return;
    await this.onFinished(job).catch((e) =>
      this.log.warn(
        { jobId: job.id, reason: reasonText(e) },
        'job queue: the end of a job was not announced',
      ),
    );
  }

  private sweepInBackground() {
    if (this.sweeping) return;
    this.sweeping = (async () => {
      await this.sweep();
      if (Date.now() - this.lastCleanup >= this.opts.cleanupMs) {
        this.lastCleanup = Date.now();
        const n = await this.cleanup();
        if (n) this.log.info({ deleted: n, days: this.opts.retentionDays }, 'job queue: old jobs deleted');
      }
    })()
      .catch((e) => this.log.error({ reason: reasonText(e) }, 'job queue: the sweeper failed; trying again'))
      .finally(() => {
        this.sweeping = null;
      });
  }

  /** Running jobs of other processes (or of none) whose heartbeat is older than `staleMs`. */
  protected stale(): SQL {
    const mine = [...new Set([...this.inFlight.values()].map((f) => f.id))];
    return and(
      eq(jobs.status, 'running'),
      lt(jobs.heartbeatAt, sql`now() - make_interval(secs => ${this.opts.staleMs / 1000})`),
      mine.length ? notInArray(jobs.id, mine) : undefined,
    )!;
  }

  async sweep() {
    const requeued = await this.db
      .update(jobs)
      .set({ status: 'queued', queueJobId: null })
      .where(and(this.stale(), lt(jobs.attempts, this.opts.maxAttempts)))
      .returning({ id: jobs.id, kind: jobs.kind, attempts: jobs.attempts });
    for (const j of requeued)
      this.log.warn(
        { jobId: j.id, kind: j.kind, attempts: j.attempts },
        'job queue: a running job stopped sending heartbeats; queued again',
      );
    const used = await this.db
      .select({ id: jobs.id, attempts: jobs.attempts })
      .from(jobs)
      .where(and(this.stale(), gte(jobs.attempts, this.opts.maxAttempts)));
    let abandoned = 0;
    for (const j of used) {
      const failure: JobFailure = { key: 'job.abandoned', values: { attempts: j.attempts } };
      const [row] = await this.db
        .update(jobs)
        .set({
          status: 'failed',
          error: failureEnglish(failure),
          result: { failure },
          finishedAt: new Date(),
        })
        .where(and(eq(jobs.id, j.id), eq(jobs.attempts, j.attempts), this.stale()))
        .returning();
      if (!row) continue;
      abandoned++;
      this.log.warn({ jobId: row.id, kind: row.kind, attempts: row.attempts }, 'job queue: job given up');
      await this.finished(row);
    }
    if (requeued.length) this.nudge();
    return { requeued: requeued.length, abandoned };
  }

  async cleanup() {
    return deleteOldJobs(this.db, this.opts.retentionDays);
  }
}
