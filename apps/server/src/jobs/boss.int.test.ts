import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../db/client.js';
import { jobs } from '../db/schema/index.js';
import { openThrowAwayDatabase } from '../test/database.js';
import { BOSS_SCHEMA, bossQueue } from './boss.js';
import { LIMIT_LOCK_KEY } from './limits.js';
import { jobRow, testApp, until } from './test/support.js';
import type { JobQueueOptions } from './worker.js';

const script = fileURLToPath(new URL('./test/worker-process.ts', import.meta.url));
// The child runs the TypeScript sources, the workspace packages' too (no build needed).
const tsconfig = fileURLToPath(new URL('../../../../tsconfig.tests.json', import.meta.url));

type Message = { type: string; [k: string]: unknown };

interface Worker {
  name: string;
  child: ChildProcess;
  messages: Message[];
  workerId: string;
  /** Waits for the first message of a type (that `match` accepts). */
  next(type: string, match?: (m: Message) => boolean): Promise<Message>;
  stop(): Promise<void>;
}

/**
 * Two server processes on one PostgreSQL database, each running the real queue (pg-boss) in a
 * process of its own (test/worker-process.ts). PostgreSQL only: an embedded PGlite database
 * belongs to one process, so there is nothing to race for; the PostgreSQL suite of CI runs it.
 */
describe.skipIf(!process.env.DATABASE_URL)(
  'jobs on PostgreSQL with two worker processes (skipped without DATABASE_URL: an embedded PGlite database belongs to one process)',
  () => {
    let database: Database;
    let db: Db;
    let drop: () => Promise<void>;
    let url: string;
    let appId: number;
    const started: Worker[] = [];

    async function worker(name: string, opts: JobQueueOptions): Promise<Worker> {
      const child = fork(script, [], {
        execArgv: ['--import', 'tsx'],
        env: {
          ...process.env,
          DATABASE_URL: url,
          WORKER_NAME: name,
          JOB_OPTIONS: JSON.stringify(opts),
          TSX_TSCONFIG_PATH: tsconfig,
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const messages: Message[] = [];
      let exited: number | null = null;
      child.on('message', (m) => messages.push(m as Message));
      child.on('exit', (code) => {
        exited = code ?? -1;
      });
      const next = (type: string, match: (m: Message) => boolean = () => true) =>
        until(
          `${type} from worker ${name}`,
          async () => {
            if (exited !== null && exited !== 0) throw new Error(`worker ${name} exited with ${exited}`);
            return messages.find((m) => m.type === type && match(m));
          },
          45_000,
        );
      const w: Worker = {
        name,
        child,
        messages,
        workerId: '',
        next,
        stop: async () => {
          if (exited !== null || !child.connected) return;
          child.send({ type: 'stop' });
          await next('stopped');
          await until(`worker ${name} to exit`, async () => exited !== null);
        },
      };
      started.push(w);
      w.workerId = String((await next('ready')).workerId);
      return w;
    }

    beforeAll(async () => {
      const t = await openThrowAwayDatabase('crdp_jobs_procs');
      ({ database, drop } = t);
      url = t.url!;
      db = database.db;
      appId = await testApp(db);
      await db.execute(
        sql`create table claim_log (job_id bigint not null, worker text not null, attempt int not null)`,
      );
    });
    afterEach(async () => {
      // A worker a failed test left stopped or running is ended (only the processes this file started).
      for (const w of started.splice(0)) {
        if (w.child.exitCode === null && w.child.signalCode === null) {
          w.child.kill('SIGCONT');
          w.child.kill('SIGKILL');
        }
      }
    });
    afterAll(async () => drop?.());

    it('claim-once: two processes race for 24 jobs and each job runs exactly once', async () => {
      const opts = { concurrency: 2, pollMs: 100 };
      const [a, b] = await Promise.all([worker('A', opts), worker('B', opts)]);
      const ids = await db.transaction(async (tx) => {
        const rows = await tx
          .insert(jobs)
          .values(Array.from({ length: 24 }, (_, i) => ({ appId, kind: 'test.once', params: { i } })))
          .returning({ id: jobs.id });
        return rows.map((r) => r.id);
      });
      await until(
        'every job to end',
        async () => {
          const [r] = await db
            .select({ n: sql<number>`count(*)::int` })
            .from(jobs)
            .where(sql`${inArray(jobs.id, ids)} and ${jobs.status} in ('succeeded', 'failed')`);
          return Number(r!.n) === ids.length;
        },
        45_000,
      );
      const runs = (await db.execute(
        sql`select job_id, worker, attempt from claim_log order by job_id`,
      )) as unknown as {
        rows: Array<{ job_id: string; worker: string; attempt: number }>;
      };
      // One run per job: no job ran twice, none was left out.
      expect(runs.rows.map((r) => Number(r.job_id))).toEqual([...ids].sort((x, y) => x - y));
      const rows = await db.select().from(jobs).where(inArray(jobs.id, ids));
      const idOf: Record<string, string> = { A: a!.workerId, B: b!.workerId };
      for (const j of rows) {
        const run = runs.rows.find((r) => Number(r.job_id) === j.id)!;
        expect(j).toMatchObject({ status: 'succeeded', attempts: 1, result: { worker: run.worker } });
        expect(j.workerId).toBe(idOf[run.worker]);
        expect(run.attempt).toBe(1);
      }
      // Both processes took jobs (each handler waited until the other process held one).
      expect(new Set(runs.rows.map((r) => r.worker))).toEqual(new Set(['A', 'B']));
      // pg-boss delivered each job once, and each delivery was acknowledged by its claim.
      const deliveries = await database.pool!.query<{ job_id: string; state: string }>(
        `select data->>'jobId' as job_id, state from ${BOSS_SCHEMA}.job where name = $1`,
        [bossQueue('test.once')],
      );
      expect(deliveries.rows.map((d) => Number(d.job_id)).sort((x, y) => x - y)).toEqual(
        [...ids].sort((x, y) => x - y),
      );
      expect(new Set(deliveries.rows.map((d) => d.state))).toEqual(new Set(['completed']));
      await Promise.all([a!.stop(), b!.stop()]);
    });

    it('fencing: a stopped worker whose job another process took cannot write progress or result', async () => {
      const opts = { concurrency: 1, pollMs: 100, heartbeatMs: 200, staleMs: 1500, sweepMs: 200 };
      const a = await worker('A', opts);
      const [job] = await db.insert(jobs).values({ appId, kind: 'test.fence' }).returning();
      const claimed = await a.next('claimed');
      expect(claimed).toMatchObject({ jobId: job!.id, attempt: 1 });
      expect(await jobRow(db, job!.id)).toMatchObject({
        status: 'running',
        attempts: 1,
        workerId: a.workerId,
      });
      // A stalls (a long GC pause, a frozen VM): no heartbeat, no writes, its claim held.
      a.child.kill('SIGSTOP');
      const b = await worker('B', opts);
      const byB = await until(
        'B to take the stale job over and finish it',
        async () => {
          const r = await jobRow(db, job!.id);
          return r.status === 'succeeded' && r;
        },
        45_000,
      );
      expect(byB).toMatchObject({
        attempts: 2,
        progress: 100,
        workerId: b.workerId,
        result: { by: 'B', attempt: 2 },
      });
      a.child.kill('SIGCONT');
      a.child.send({ type: 'go' });
      const lost = await a.next('claimLost');
      expect(lost).toMatchObject({ jobId: job!.id, attempt: 1, isClaimLost: true });
      // A's run is over once its queue has stopped: nothing of it reached the row.
      await a.stop();
      expect(await jobRow(db, job!.id)).toEqual(byB);
      await b.stop();
    });

    it('a process frozen inside its delivery transaction holds no other process up', async () => {
      // A polls often, so it is often inside `deliver`, which holds the limit lock all deliveries
      // take. A is stopped (SIGSTOP) until it is caught holding that lock.
      const a = await worker('A', { concurrency: 1, pollMs: 10, sweepMs: 60_000 });
      const holding = async () => {
        const r = await database.pool!.query<{ n: number }>(
          `select count(*)::int as n from pg_locks
           where locktype = 'advisory' and granted and classid = 0 and objid = $1 and objsubid = 1`,
          [LIMIT_LOCK_KEY],
        );
        return r.rows[0]!.n > 0;
      };
      let caught = false;
      for (let i = 0; i < 2000 && !caught; i++) {
        a.child.kill('SIGSTOP');
        await new Promise((r) => setTimeout(r, 5));
        caught = await holding();
        if (!caught) a.child.kill('SIGCONT');
      }
      expect(caught).toBe(true);
      // B's deliveries wait on that lock until PostgreSQL ends A's idle transaction (LOCK_HOLD_S).
      const b = await worker('B', { concurrency: 1, pollMs: 100, sweepMs: 60_000 });
      const [job] = await db.insert(jobs).values({ appId, kind: 'test.fence' }).returning();
      const done = await until(
        'B to run the job while A is frozen',
        async () => {
          const r = await jobRow(db, job!.id);
          return r.status === 'succeeded' && r;
        },
        45_000,
      );
      expect(done).toMatchObject({ attempts: 1, workerId: b.workerId, result: { by: 'B', attempt: 1 } });
      expect(await holding()).toBe(false);
      // A wakes to a connection PostgreSQL closed: its transaction rolled back, and it goes on.
      a.child.kill('SIGCONT');
      await b.stop();
      a.child.send({ type: 'go' });
      const [again] = await db.insert(jobs).values({ appId, kind: 'test.fence' }).returning();
      const byA = await until(
        'A to run a job after it woke',
        async () => {
          const r = await jobRow(db, again!.id);
          return r.status === 'succeeded' && r;
        },
        45_000,
      );
      expect(byA).toMatchObject({ workerId: a.workerId, result: { by: 'A', attempt: 1 } });
      await a.stop();
    });
  },
);
