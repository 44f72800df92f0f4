import { asc, inArray } from 'drizzle-orm';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Db } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { reasonText } from '../http/logging.js';
import type { JobRow } from './runner.js';
import { BaseJobQueue, type JobQueueOptions } from './worker.js';

/** pg-boss keeps its tables in this schema of the app's own database (created on start). */
export const BOSS_SCHEMA = 'pgboss';
/** The one pg-boss queue: each of its jobs carries the id of a row of `jobs`. */
export const BOSS_QUEUE = 'crdp-jobs';

/**
 * A delivery that was fetched but whose claim was never written (the process died between the
 * two) expires after this long and pg-boss offers it again, up to BOSS_RETRIES times.
 */
const DELIVERY_EXPIRY_S = 120;
const BOSS_RETRIES = 10;
const DELIVER_BATCH = 100;

type Delivery = PgBoss.Job<{ jobId: number }>;

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
  readonly boss: PgBoss;
  private opening: Promise<void> | null = null;

  constructor(
    db: Db,
    private readonly pool: pg.Pool,
    opts: JobQueueOptions = {},
  ) {
    super(db, opts);
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: BOSS_SCHEMA,
      schedule: false,
      supervise: true,
      migrate: true,
      archiveCompletedAfterSeconds: 3600,
      archiveFailedAfterSeconds: 7 * 86_400,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (e) =>
      this.log.error({ reason: reasonText(e) }, 'job queue: pg-boss reported an error'),
    );
  }

  protected override open() {
    this.opening ??= (async () => {
      await this.boss.start();
      const settings = {
        name: BOSS_QUEUE,
        policy: 'standard' as const,
        retryLimit: BOSS_RETRIES,
        retryDelay: 5,
        retryBackoff: true,
        expireInSeconds: DELIVERY_EXPIRY_S,
      };
      await this.boss.createQueue(BOSS_QUEUE, settings);
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

  /** Runs `work` in one transaction on one connection, which pg-boss's calls share through `db`. */
  private async transaction<T>(work: (client: pg.PoolClient, db: PgBoss.Db) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
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
    await this.transaction(async (client, db) => {
      const { rows } = await client.query<{ id: string }>(
        `select id from jobs
         where status = 'queued' and queue_job_id is null and kind = any($1::text[])
         order by id limit ${DELIVER_BATCH}
         for update skip locked`,
        [kinds],
      );
      for (const r of rows) {
        const deliveryId = await this.boss.send(BOSS_QUEUE, { jobId: Number(r.id) }, { db });
        await client.query('update jobs set queue_job_id = $2 where id = $1', [r.id, deliveryId]);
      }
    });
  }

  protected async claim(max: number): Promise<JobRow[]> {
    if (max < 1) return [];
    await this.open();
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
    const deliveries = await this.boss.fetch<{ jobId: number }>(BOSS_QUEUE, { batchSize: max, db });
    if (failed) throw failed;
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
   * or null when the delivery is spent (the row was cancelled, claimed through a newer delivery,
   * deleted) or is of a kind this process does not run (it is then left for a process that does).
   */
  private async take(d: Delivery): Promise<number | null> {
    const jobId = Number(d.data?.jobId);
    const kinds = this.kinds();
    return this.transaction(async (client, db) => {
      const { rows } = await client.query<{ id: string }>(
        `update jobs set status = 'running', started_at = now(), heartbeat_at = now(),
           attempts = attempts + 1, worker_id = $3
         where id = $1 and status = 'queued' and queue_job_id = $2 and kind = any($4::text[])
         returning id`,
        [jobId, d.id, this.workerId, kinds],
      );
      let output: object = { claimed: this.workerId };
      if (!rows.length) {
        const { rows: left } = await client.query<{ status: string }>(
          `update jobs set queue_job_id = null
           where id = $1 and status = 'queued' and queue_job_id = $2 and not (kind = any($3::text[]))
           returning status`,
          [jobId, d.id, kinds],
        );
        output = { skipped: left.length ? 'kind not run here' : 'not waiting for this delivery' };
      }
      await this.boss.complete(BOSS_QUEUE, d.id, output, { db });
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
           where b.name = $1 and b.id = jobs.queue_job_id and b.state < 'completed')`,
      [BOSS_QUEUE],
    );
    if (rowCount) {
      this.log.warn({ jobs: rowCount }, 'job queue: deliveries lost; the jobs are sent again');
      this.nudge();
    }
    return out;
  }
}
