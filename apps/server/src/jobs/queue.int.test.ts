import type { JobStatus } from '@crdp/core';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { openThrowAwayDatabase } from '../test/database.js';
import { BOSS_SCHEMA, type BossJobQueue, bossQueue } from './boss.js';
import { jobFailureText } from './failure.js';
import { createJobQueue } from './queue.js';
import { KEPT_KINDS } from './retention.js';
import { enqueueJob, JobClaimLost, type JobQueue, type JobRow } from './runner.js';
import { capturingLog, gate, jobRow, statusCounts, testApp, until } from './test/support.js';
import type { JobQueueOptions } from './worker.js';

/**
 * The job queue itself, on the database of the run: pg-boss on PostgreSQL (DATABASE_URL), the
 * in-process runner on PGlite. Two processes racing for jobs on PostgreSQL: boss.int.test.ts.
 */
describe('job queue', () => {
  let database: Database;
  let db: Db;
  let drop: () => Promise<void>;
  let appId: number;
  const open: JobQueue[] = [];
  const queue = (opts: JobQueueOptions = {}) => {
    const q = createJobQueue(database, { pollMs: 50, ...opts });
    open.push(q);
    return q;
  };
  const pg = () => database.kind === 'postgres';

  beforeAll(async () => {
    ({ database, drop } = await openThrowAwayDatabase('crdp_jobs'));
    db = database.db;
    appId = await testApp(db);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((q) => q.close()));
    await db.delete(jobs);
  });
  afterAll(async () => drop?.());

  it('runs jobs on pg-boss on PostgreSQL and in process on PGlite, the delivery acknowledged by the claim', async () => {
    const q = queue();
    expect(q.backend).toBe(pg() ? 'pg-boss' : 'local');
    q.handle('test.echo', async ({ job }) => ({ echoed: job.params }));
    const job = await enqueueJob(db, { appId, kind: 'test.echo', params: { n: 7 } });
    expect(await q.drain()).toBe(1);
    const row = await jobRow(db, job.id);
    expect(row).toMatchObject({ status: 'succeeded', progress: 100, attempts: 1, workerId: q.workerId });
    expect(row.result).toEqual({ echoed: { n: 7 } });
    if (pg()) {
      // The row names its delivery; pg-boss holds it as completed by this claim.
      expect(row.queueJobId).toMatch(/^[0-9a-f-]{36}$/);
      const res = await database.pool!.query(
        `select state, data, output from ${BOSS_SCHEMA}.job where name = $1 and id = $2`,
        [bossQueue('test.echo'), row.queueJobId],
      );
      expect(res.rows).toEqual([
        { state: 'completed', data: { jobId: job.id }, output: { claimed: q.workerId } },
      ]);
    } else expect(row.queueJobId).toBeNull();
  });

  it('moves the heartbeat on a timer while the handler reports no progress', async () => {
    const q = queue({ heartbeatMs: 100 });
    const started = gate();
    const release = gate();
    q.handle('test.quiet', async () => {
      started.open();
      await release.opened;
      return { quiet: true };
    });
    const job = await enqueueJob(db, { appId, kind: 'test.quiet' });
    await q.start();
    await started.opened;
    const claimed = (await jobRow(db, job.id)).heartbeatAt!;
    const seen = new Set<number>([claimed.getTime()]);
    await until('two heartbeats after the claim', async () => {
      const r = await jobRow(db, job.id);
      seen.add(r.heartbeatAt!.getTime());
      return seen.size >= 3 && r;
    });
    const during = await jobRow(db, job.id);
    expect(during.status).toBe('running');
    expect(during.progress).toBe(0);
    expect(during.heartbeatAt!.getTime()).toBeGreaterThan(claimed.getTime());
    release.open();
    const done = await until('the job to end', async () => {
      const r = await jobRow(db, job.id);
      return r.status === 'succeeded' && r;
    });
    expect(done.result).toEqual({ quiet: true });
  });

  it('fences a worker whose claim was taken over: its progress throws and its result is not written', async () => {
    // A never beats (its heartbeat is an hour away), so B's sweeper finds the job stale.
    const a = queue({ concurrency: 1, heartbeatMs: 3_600_000 });
    const b = queue({ staleMs: 200 });
    const aStarted = gate();
    const aGo = gate();
    let aProgress: unknown = 'not called';
    a.handle('test.fence', async ({ progress }) => {
      aStarted.open();
      await aGo.opened;
      try {
        await progress(60);
        aProgress = 'written';
      } catch (e) {
        aProgress = e;
      }
      // A handler that ignores the lost claim still cannot write its result.
      return { by: 'A' };
    });
    b.handle('test.fence', async ({ job, progress }) => {
      await progress(30);
      return { by: 'B', attempt: job.attempts };
    });
    const job = await enqueueJob(db, { appId, kind: 'test.fence' });
    await a.start();
    await aStarted.opened;
    expect(await jobRow(db, job.id)).toMatchObject({ status: 'running', attempts: 1 });
    await until('B to find the job stale', async () => (await b.sweep()).requeued === 1);
    expect(await b.drain()).toBe(1);
    const byB = await jobRow(db, job.id);
    expect(byB).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      progress: 100,
      result: { by: 'B', attempt: 2 },
    });
    aGo.open();
    await a.stop();
    expect(aProgress).toBeInstanceOf(JobClaimLost);
    expect((aProgress as JobClaimLost).attempt).toBe(1);
    // Nothing of A's reached the row after B took it.
    const after = await jobRow(db, job.id);
    expect(after).toEqual(byB);
  });

  it('queues a stale job again and gives up one that used its attempts, in the reader’s language', async () => {
    const ended: JobRow[] = [];
    const q = queue({ staleMs: 60_000, onFinished: async (j) => void ended.push(j) });
    const row = async (attempts: number, heartbeat: ReturnType<typeof sql> | null) =>
      (
        await db
          .insert(jobs)
          .values({
            appId,
            kind: 'test.stale',
            status: 'running',
            attempts,
            startedAt: new Date(),
            ...(heartbeat ? { heartbeatAt: heartbeat } : {}),
            queueJobId: pg() ? '00000000-0000-4000-8000-000000000001' : null,
          })
          .returning()
      )[0]!;
    const stale = await row(1, sql`now() - interval '1 hour'`);
    const spent = await row(3, sql`now() - interval '1 hour'`);
    const fresh = await row(1, sql`now()`);
    const never = await row(1, null);
    expect(await q.sweep()).toEqual({ requeued: 1, abandoned: 1 });
    expect(await jobRow(db, stale.id)).toMatchObject({ status: 'queued', queueJobId: null, attempts: 1 });
    const given = await jobRow(db, spent.id);
    expect(given.status).toBe('failed');
    expect(given.finishedAt).not.toBeNull();
    expect(given.result).toEqual({ failure: { key: 'job.abandoned', values: { attempts: 3 } } });
    expect(jobFailureText(given, 'en-US')).toBe(
      'The process running the job stopped responding 3 times; the job was given up, retry it',
    );
    expect(jobFailureText(given, 'zh-CN')).toBe('运行该作业的进程 3 次停止响应，作业已放弃，请重试');
    expect(ended.map((j) => j.id)).toEqual([spent.id]);
    expect((await jobRow(db, fresh.id)).status).toBe('running');
    expect((await jobRow(db, never.id)).status).toBe('running');
  });

  it('runs as many jobs at once as its concurrency, and no more', async () => {
    const q = queue({ concurrency: 2 });
    const both = gate();
    let running = 0;
    let atPeak: Record<string, number> | null = null;
    q.handle('test.pair', async () => {
      running++;
      if (running === 2) {
        atPeak = await statusCounts(db);
        both.open();
      }
      await both.opened;
      running--;
      return null;
    });
    for (let i = 0; i < 3; i++) await enqueueJob(db, { appId, kind: 'test.pair' });
    await q.start();
    await until('three jobs to end', async () => (await statusCounts(db)).succeeded === 3);
    // Two ran together (the gate opens only then) while the third waited for a slot.
    expect(atPeak).toEqual({ running: 2, queued: 1 });
  });

  it('keeps an app’s per-kind limit (job_kind_settings) with free slots left, across two workers, other apps unaffected', async () => {
    const other = await testApp(db, 'jobs-limit-other');
    await db.execute(
      sql`insert into job_kind_settings (app_id, kind, max_running) values (${appId}, 'test.limited', 2)`,
    );
    // Two workers with four slots each: eight slots for six jobs of a kind limited to two at once.
    const a = queue({ concurrency: 4 });
    const b = queue({ concurrency: 4 });
    const peaks = { limited: 0, other: 0 };
    const now = { limited: 0, other: 0 };
    const handler = async ({ job }: { job: JobRow }) => {
      const key = job.appId === appId ? 'limited' : 'other';
      now[key]++;
      peaks[key] = Math.max(peaks[key], now[key]);
      await new Promise((r) => setTimeout(r, 150));
      now[key]--;
      return null;
    };
    a.handle('test.limited', handler);
    b.handle('test.limited', handler);
    for (let i = 0; i < 6; i++) await enqueueJob(db, { appId, kind: 'test.limited' });
    for (let i = 0; i < 3; i++) await enqueueJob(db, { appId: other, kind: 'test.limited' });
    let sawRunning = 0;
    await a.start();
    await b.start();
    await until('nine jobs to end', async () => {
      const [r] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(jobs)
        .where(sql`${jobs.appId} = ${appId} and ${jobs.status} = 'running'`);
      sawRunning = Math.max(sawRunning, Number(r!.n));
      return (await statusCounts(db)).succeeded === 9;
    });
    // The limited app never had more than two running, by the handlers' count and the rows';
    // the other app (no setting) ran its three side by side.
    expect(peaks.limited).toBe(2);
    expect(sawRunning).toBeLessThanOrEqual(2);
    expect(peaks.other).toBe(3);
    await db.execute(sql`delete from job_kind_settings where app_id = ${appId}`);
  });

  it('logs a failed claim without swallowing it and runs the job once the database answers again', async () => {
    const { log, lines } = capturingLog();
    const q = queue({ log });
    q.handle('test.later', async () => ({ ran: true }));
    const job = await enqueueJob(db, { appId, kind: 'test.later' });
    await db.execute(sql`alter table jobs rename to jobs_away`);
    try {
      await q.start();
      await until('two failed claims in the log', async () => {
        const failed = lines.filter((l) => l.msg.startsWith('job queue: claiming jobs failed'));
        return failed.length >= 2 && failed;
      });
    } finally {
      await db.execute(sql`alter table jobs_away rename to jobs`);
    }
    const failed = lines.find((l) => l.msg.startsWith('job queue: claiming jobs failed'))!;
    expect(failed.level).toBe('error');
    expect(String(failed.obj.reason)).toContain('jobs');
    const done = await until('the job to run', async () => {
      const r = await jobRow(db, job.id);
      return r.status === 'succeeded' && r;
    });
    expect(done.result).toEqual({ ran: true });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'PostgreSQL: an error of pg-boss’s fetch (which pg-boss 10 swallows) is logged and retried (skipped without DATABASE_URL: PGlite has no pg-boss)',
    async () => {
      const { log, lines } = capturingLog();
      const q = queue({ log }) as BossJobQueue;
      q.handle('test.fetched', async () => ({ ran: true }));
      const job = await enqueueJob(db, { appId, kind: 'test.fetched' });
      await q.deliver();
      expect((await jobRow(db, job.id)).queueJobId).not.toBeNull();
      const pool = database.pool!;
      await pool.query(`alter table ${BOSS_SCHEMA}.job rename column priority to priority_away`);
      try {
        await q.start();
        await until('two failed fetches in the log', async () => {
          const failed = lines.filter(
            (l) =>
              l.msg.startsWith('job queue: claiming jobs failed') &&
              String(l.obj.reason).includes('priority'),
          );
          return failed.length >= 2 && failed;
        });
        expect((await jobRow(db, job.id)).status).toBe('queued');
      } finally {
        await pool.query(`alter table ${BOSS_SCHEMA}.job rename column priority_away to priority`);
      }
      await until('the job to run', async () => (await jobRow(db, job.id)).status === 'succeeded');
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    'PostgreSQL: queues starting at once on a new database all start (one creates pg-boss’s schema) (skipped without DATABASE_URL)',
    async () => {
      const fresh = await openThrowAwayDatabase('crdp_jobs_fresh');
      const qs = Array.from({ length: 4 }, () => createJobQueue(fresh.database, { pollMs: 50 }));
      try {
        await Promise.all(qs.map((q) => q.start()));
        const appOfFresh = await testApp(fresh.database.db, 'jobs-fresh');
        qs[0]!.handle('test.fresh', async () => ({ ok: true }));
        const job = await enqueueJob(fresh.database.db, { appId: appOfFresh, kind: 'test.fresh' });
        // The started queue's own poll may take it first: drain waits for it either way.
        await qs[0]!.drain();
        expect(await jobRow(fresh.database.db, job.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
      } finally {
        await Promise.all(qs.map((q) => q.close()));
        await fresh.drop();
      }
    },
  );

  it('deletes finished jobs past the retention period, except kinds whose row is their result', async () => {
    const q = queue({ retentionDays: 30 });
    const make = async (kind: string, status: JobStatus, daysAgo: number | null) =>
      (
        await db
          .insert(jobs)
          .values({
            appId,
            kind,
            status,
            ...(daysAgo !== null ? { finishedAt: sql`now() - make_interval(days => ${daysAgo})` } : {}),
          })
          .returning({ id: jobs.id })
      )[0]!.id;
    const gone = [
      await make('cdr.synthetic', 'succeeded', 40),
      await make('dataQc.run', 'failed', 31),
      await make('diseaseLibrary.push', 'cancelled', 45),
    ];
    const kept = [
      ...(await Promise.all(KEPT_KINDS.map((k) => make(k, 'succeeded', 400)))),
      await make('cdr.synthetic', 'succeeded', 10),
      await make('cdr.import', 'running', null),
      await make('cdr.import', 'queued', null),
    ];
    expect(await queue({ retentionDays: 0 }).cleanup()).toBe(0);
    expect(await q.cleanup()).toBe(3);
    const left = (await db.select({ id: jobs.id }).from(jobs)).map((r) => r.id).sort((x, y) => x - y);
    expect(left).toEqual(kept.sort((x, y) => x - y));
    expect(await db.select().from(jobs).where(eq(jobs.id, gone[0]!))).toEqual([]);
  });
});
