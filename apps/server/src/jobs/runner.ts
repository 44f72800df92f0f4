import os from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { reasonText } from '../http/logging.js';
import { failureEnglish, failureOf } from './failure.js';

export type JobRow = typeof jobs.$inferSelect;
export type CancelHook = (tx: Tx, job: JobRow) => Promise<void>;

export interface JobContext {
  db: Db;
  job: JobRow;
  /** Records progress (0-100) so the UI can poll it; also keeps the job's heartbeat fresh. */
  progress(percent: number): Promise<void>;
}

/** Does the work of one job; what it returns is stored as the job's result. A throw fails the job. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>;

export interface NewJob {
  appId: number;
  kind: string;
  params?: Record<string, unknown>;
  createdBy?: number | null;
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

/** A running job whose process stopped sending heartbeats this long ago is queued again. */
const STALE_AFTER_S = 300;
const MAX_ATTEMPTS = 3;

/**
 * Runs queued jobs of the kinds it knows. Several processes (or several runners) share the
 * queue: each claim is one UPDATE over `SELECT ... FOR UPDATE SKIP LOCKED`, so a job is taken
 * once. Works the same on PGlite, where there is one connection and the lock is trivially free.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly cancelled = new Map<string, CancelHook>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  readonly workerId = `${os.hostname()}:${process.pid}`;

  constructor(
    private readonly db: Db,
    private readonly opts: { pollMs?: number; onFinished?: (job: JobRow) => Promise<void> } = {},
  ) {}

  /** Registers the handler of one kind of job. */
  handle(kind: string, handler: JobHandler) {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is already handled`);
    this.handlers.set(kind, handler);
    return this;
  }

  /**
   * What a kind of job does when it is cancelled before any process took it (task scheduling):
   * e.g. an import marks its record cancelled. Runs in the cancelling transaction.
   */
  onCancelled(kind: string, hook: CancelHook) {
    this.cancelled.set(kind, hook);
    return this;
  }

  /** Runs the cancel hook of the job's kind, if it has one. */
  async cancelledHook(tx: Tx, job: JobRow) {
    await this.cancelled.get(job.kind)?.(tx, job);
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.nudge();
      this.timer = setTimeout(tick, this.opts.pollMs ?? 1000);
      this.timer.unref();
    };
    tick();
  }

  /** Stops polling and waits for the job in hand. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Looks for work now (after a job was queued in this process), without waiting for the next poll. */
  nudge() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drainQueue()
      .then(() => {})
      .catch(() => {})
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /**
   * Waits for the job this process is running, then runs queued jobs until none is left;
   * returns how many it ran. Tests and command-line tools call it.
   */
  async drain(): Promise<number> {
    await this.running;
    return this.drainQueue();
  }

  private async drainQueue(): Promise<number> {
    let n = 0;
    for (;;) {
      const job = await this.claim();
      if (!job) return n;
      await this.run(job);
      n++;
    }
  }

  private async claim(): Promise<JobRow | null> {
    const kinds = [...this.handlers.keys()];
    if (!kinds.length) return null;
    const kindList = sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    );
    const res = await this.db.execute(sql`
      update jobs set status = 'running', started_at = now(), heartbeat_at = now(),
        attempts = attempts + 1, worker_id = ${this.workerId}
      where id = (
        select id from jobs
        where kind in (${kindList}) and attempts < ${MAX_ATTEMPTS}
          and (status = 'queued'
            or (status = 'running' and heartbeat_at < now() - make_interval(secs => ${STALE_AFTER_S})))
        order by id
        for update skip locked
        limit 1
      )
      returning id`);
    const rows = (res as unknown as { rows: Array<{ id: number | string }> }).rows;
    const id = rows[0]?.id;
    if (id === undefined) return null;
    const [job] = await this.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, Number(id)));
    return job ?? null;
  }

  private async run(job: JobRow) {
    const handler = this.handlers.get(job.kind)!;
    const ctx: JobContext = {
      db: this.db,
      job,
      progress: async (percent) => {
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        await this.db.update(jobs).set({ progress: p, heartbeatAt: new Date() }).where(eq(jobs.id, job.id));
      },
    };
    let finished: JobRow | undefined;
    try {
      const result = await handler(ctx);
      [finished] = await this.db
        .update(jobs)
        .set({ status: 'succeeded', progress: 100, result: result ?? null, finishedAt: new Date() })
        .where(eq(jobs.id, job.id))
        .returning();
    } catch (e) {
      // A reason with a catalogue key keeps the key beside its English text, so every reader
      // (the jobs routes, the research task result) words it in their own language.
      const failure = failureOf(e);
      // Without one, the error's own text without values (a failed query's message lists its
      // bound values: patient data of a bulk insert would reach the screen and the notice).
      const error = failure ? failureEnglish(failure) : reasonText(e);
      [finished] = await this.db
        .update(jobs)
        .set({ status: 'failed', error, ...(failure ? { result: { failure } } : {}), finishedAt: new Date() })
        .where(eq(jobs.id, job.id))
        .returning();
    }
    if (finished && this.opts.onFinished) await this.opts.onFinished(finished).catch(() => {});
  }
}
