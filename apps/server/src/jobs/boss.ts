import { randomBytes } from 'node:crypto';
import { asc, inArray } from 'drizzle-orm';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { reasonText } from '../http/logging.js';
import { LIMIT_LOCK_KEY, sendableUnderLimit } from './limits.js';
import type { JobRow } from './runner.js';
import { BaseJobQueue, type JobQueueOptions } from './worker.js';

/** pg-boss keeps its tables in this schema of the app's own database (created on start). */
export const BOSS_SCHEMA = 'pgboss';
const QUEUE_PREFIX = 'crdp.';
/** The pg-boss queue of a job kind: each of its jobs carries the id of a row of `jobs`. */
export const bossQueue = (kind: string) => `${QUEUE_PREFIX}${kind}`;

/**
 * A delivery that was fetched but whose claim was never written (the process died between the
 * two) expires after this long and pg-boss offers it again, up to BOSS_RETRIES times.
 */
const DELIVERY_EXPIRY_S = 120;
const BOSS_RETRIES = 10;
const DELIVER_BATCH = 100;
/**
 * The longest a queue transaction may sit idle between its statements before PostgreSQL ends its
 * session (`transaction`): its statements follow one another at once, so only a frozen process
 * comes near it.
 */
const LOCK_HOLD_S = 10;

type Delivery = PgBoss.Job<{ jobId: number }>;

/**
 * A delivery's id: the job's id in its first 12 hex digits, the rest random. pg-boss hands out
 * deliveries sent in one transaction (same `created_on`) by id, so they go out in job order.
 */
export function deliveryIdOf(jobId: number) {
  const h = jobId.toString(16).padStart(12, '0');
  const r = randomBytes(10).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${r.slice(0, 4)}-${r.slice(4, 8)}-${r.slice(8, 20)}`;
}

/**
 * Jobs on PostgreSQL, delivered by pg-boss. The `jobs` row stays the truth the UI reads; pg-boss
 * carries its id from the process that queued it to the one that runs it:
 *
 * 1. `deliver`: queued rows not sent yet are sent as pg-boss jobs in one transaction that also
 *    stores the pg-boss id on the row (`queue_job_id`), so each queued row is sent once.
 * 2. `claim`: `fetch` takes deliveries (pg-boss: `FOR UPDATE SKIP LOCKED`); for each, one
 *    transaction marks the row running with a new attempt number (only if it is still queued
 *    and still waits for this very delivery) and completes the delivery.
 * 3. The run, its heartbeat and its fenced writes are the base class's; a stale running job is
 *    queued again by the sweeper of any process and goes back to step 1.
 *
 * pg-boss runs its SQL on the app's pool (no second pool). Its own cron is off (schedules are the
 * app's, scheduling/); its maintenance archives completed deliveries after an hour and deletes
 * archived ones after 7 days.
 */
export class BossJobQueue extends BaseJobQueue {
  readonly backend = 'pg-boss' as const;
  private boss: PgBoss;
  private opening: Promise<void> | null = null;
  /** The pg-boss queues known to exist (created once per process, on first use). */
  private readonly queues = new Set<string>();
  /** Queue creation, one at a time in this process. */
  private creating: Promise<void> = Promise.resolve();

  constructor(
    db: Db,
    private readonly pool: pg.Pool,
    opts: JobQueueOptions = {},
  ) {
    super(db, opts);
    this.boss = this.newBoss();
  }

  private newBoss() {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => this.pool.query(text, values) },
      schema: BOSS_SCHEMA,
      schedule: false,
      supervise: true,
      migrate: true,
      archiveCompletedAfterSeconds: 3600,
      archiveFailedAfterSeconds: 7 * 86_400,
      deleteAfterDays: 7,
    });
    boss.on('error', (e) =>
      this.log.error({ reason: reasonText(e) }, 'job queue: pg-boss reported an error'),
    );
    return boss;
  }

  /**
   * Starts pg-boss, which creates or migrates its schema. Processes starting at once on a new
   * database race for that: pg-boss serialises them with an advisory lock, but the one that waited
   * may still miss the other's schema (`duplicate key ... pg_namespace_nspname_index`), and an
   * instance that failed to start never starts. A new instance, a moment later, finds it made.
   */
  private async startBoss() {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.start();
        return;
      } catch (e) {
        if (attempt >= 5) throw e;
        this.log.warn({ reason: reasonText(e), attempt }, 'job queue: pg-boss did not start; trying again');
        this.boss = this.newBoss();
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  protected override open() {
    this.opening ??= (async () => {
      await this.startBoss();
      this.queues.clear();
    })().catch((e) => {
      this.opening = null;
      throw e;
    });
    return this.opening;
  }

  protected override async release() {
    if (!this.opening) return;
    await this.opening.catch(() => {});
    this.opening = null;
    await this.boss.stop({ graceful: true, wait: true, close: false });
  }

  /**
   * Creates the pg-boss queues of these kinds that this process has not seen yet. pg-boss's
   * `createQueue` is idempotent but not safe to run twice at once (it attaches a partition and can
   * deadlock with another creation): one at a time here, and tried again when another process's
   * creation got in the way.
   */
  private ensureQueues(kinds: string[]) {
    const missing = kinds.map(bossQueue).filter((n) => !this.queues.has(n));
    if (!missing.length) return Promise.resolve();
    const run = this.creating.then(async () => {
      for (const name of missing) {
        if (this.queues.has(name)) continue;
        for (let attempt = 1; ; attempt++) {
          try {
            await this.boss.createQueue(name, {
              name,
              policy: 'standard',
              retryLimit: BOSS_RETRIES,
              retryDelay: 5,
              retryBackoff: true,
              expireInSeconds: DELIVERY_EXPIRY_S,
            });
            break;
          } catch (e) {
            if (attempt >= 5) throw e;
            await new Promise((r) => setTimeout(r, 50 * attempt));
          }
        }
        this.queues.add(name);
      }
    });
    this.creating = run.catch(() => {});
    return run;
  }

  /**
   * Runs `work` in one transaction on one connection, which pg-boss's calls share through `db`.
   * These transactions hold what every process waits for (the limit lock of `deliver`, a job's row
   * in `take`): a process that freezes inside one (a long GC pause, a stopped VM) would stop every
   * other process's deliveries. PostgreSQL ends the session of a transaction left idle for
   * LOCK_HOLD_S (its locks go with it); the frozen process finds its connection gone and its
   * transaction rolled back when it wakes, and tries again on its next poll.
   */
  private async transaction<T>(work: (client: pg.PoolClient, db: PgBoss.Db) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(`set local idle_in_transaction_session_timeout = '${LOCK_HOLD_S}s'`);
      const out = await work(client, { executeSql: (text, values) => client.query(text, values) });
      await client.query('commit');
      return out;
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** Sends the queued rows of the kinds run here that were not sent yet (each poll does it first). */
  override async deliver() {
    const kinds = this.kinds();
    if (!kinds.length) return;
    await this.open();
    await this.ensureQueues(kinds);
    await this.transaction(async (client, db) => {
      // Per-kind limits (limits.ts): count and send under one lock, so two processes sending at
      // once never deliver more of an app's kind than its limit.
      await client.query('select pg_advisory_xact_lock($1)', [LIMIT_LOCK_KEY]);
      const { rows } = await client.query<{ id: string; kind: string }>(
        `select j.id, j.kind from jobs j
         where j.status = 'queued' and j.queue_job_id is null and j.kind = any($1::text[])
           and ${sendableUnderLimit('j')}
         order by j.id limit ${DELIVER_BATCH}
         for update skip locked`,
        [kinds],
      );
      for (const r of rows) {
        const deliveryId = await this.boss.send(
          bossQueue(r.kind),
          { jobId: Number(r.id) },
          { db, id: deliveryIdOf(Number(r.id)) },
        );
        await client.query('update jobs set queue_job_id = $2 where id = $1', [r.id, deliveryId]);
      }
    });
  }

  /**
   * Takes up to `max` deliveries of the kinds run here, oldest first, as the jobs were queued:
   * one query finds the kinds' queues that hold deliveries ready now, ordered by their oldest
   * (so an idle process asks one question a poll, not one per kind), then pg-boss fetches from
   * them in that order (within a queue pg-boss takes the oldest first).
   */
  private async fetchDeliveries(max: number): Promise<Delivery[]> {
    const kinds = this.kinds();
    if (!kinds.length) return [];
    const { rows } = await this.pool.query<{ name: string }>(
      `select name from ${BOSS_SCHEMA}.job
       where name = any($1::text[]) and state < 'active' and start_after < now()
       group by name
       order by min(created_on), min(id::text)`,
      [kinds.map(bossQueue)],
    );
    const out: Delivery[] = [];
    for (const { name } of rows) {
      if (out.length >= max) break;
      // pg-boss 10's fetch swallows every error of its query (it expects only unique violations):
      // this executor keeps it, so a failed claim is logged and retried instead of looking empty.
      let failed: unknown = null;
      const db: PgBoss.Db = {
        executeSql: async (text, values) => {
          try {
            return await this.pool.query(text, values);
          } catch (e) {
            failed = e;
            throw e;
          }
        },
      };
      const got = await this.boss.fetch<{ jobId: number }>(name, { batchSize: max - out.length, db });
      if (failed) {
        // Deliveries already fetched are claimed first; theirs expire and come back otherwise.
        if (out.length) break;
        throw failed;
      }
      out.push(...got);
    }
    return out;
  }

  protected async claim(max: number): Promise<JobRow[]> {
    if (max < 1) return [];
    await this.open();
    const deliveries = await this.fetchDeliveries(max);
    const ids: number[] = [];
    let firstError: unknown = null;
    for (const d of deliveries) {
      try {
        const id = await this.take(d);
        if (id !== null) ids.push(id);
      } catch (e) {
        // The delivery stays active, expires and is offered again; the others go on.
        firstError ??= e;
        this.log.error(
          { jobId: d.data?.jobId, reason: reasonText(e) },
          'job queue: a delivered job could not be claimed; pg-boss offers it again',
        );
      }
    }
    if (!ids.length) {
      if (firstError) throw firstError;
      return [];
    }
    return this.db.select().from(jobs).where(inArray(jobs.id, ids)).orderBy(asc(jobs.id));
  }

  /**
   * Claims the row of one delivery and completes the delivery, in one transaction; the row's id,
   * or null when the delivery is spent (the row was cancelled, deleted, or sent again after its
   * process stopped: it waits for a newer delivery).
   */
  private async take(d: Delivery): Promise<number | null> {
    const jobId = Number(d.data?.jobId);
    return this.transaction(async (client, db) => {
      const { rows } = await client.query<{ id: string }>(
        `update jobs set status = 'running', started_at = now(), heartbeat_at = now(),
           attempts = attempts + 1, worker_id = $3
         where id = $1 and status = 'queued' and queue_job_id = $2
         returning id`,
        [jobId, d.id, this.workerId],
      );
      const output = rows.length ? { claimed: this.workerId } : { skipped: 'not waiting for this delivery' };
      await this.boss.complete(d.name, d.id, output, { db });
      return rows.length ? jobId : null;
    });
  }

  /**
   * The base sweep, then queued rows whose delivery is gone (it expired too often, or waited past
   * pg-boss's retention): sent again by the next `deliver`.
   */
  override async sweep() {
    const out = await super.sweep();
    await this.open();
    const { rowCount } = await this.pool.query(
      `update jobs set queue_job_id = null
       where status = 'queued' and queue_job_id is not null
         and not exists (
           select 1 from ${BOSS_SCHEMA}.job b
           where b.name = $1 || jobs.kind and b.id = jobs.queue_job_id and b.state < 'completed')`,
      [QUEUE_PREFIX],
    );
    if (rowCount) {
      this.log.warn({ jobs: rowCount }, 'job queue: deliveries lost; the jobs are sent again');
      this.nudge();
    }
    return out;
  }
}
