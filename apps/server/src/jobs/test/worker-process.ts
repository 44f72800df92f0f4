/**
 * One worker process of the two-process job tests (boss.int.test.ts): the real job queue
 * (`createJobQueue`, pg-boss on PostgreSQL) on the database DATABASE_URL names, with handlers
 * that report to the test through the IPC channel of `child_process.fork`.
 *
 * Env: DATABASE_URL, WORKER_NAME (A, B, ...), JOB_OPTIONS (JSON of JobQueueOptions numbers).
 * Sends `ready`, `claimed`, `claimLost`, `stopped`; obeys `go` and `stop`.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.js';
import { reasonText } from '../../http/logging.js';
import { createJobQueue } from '../queue.js';
import { JobClaimLost } from '../runner.js';
import type { JobLog } from '../worker.js';

type ToParent =
  | { type: 'ready'; workerId: string }
  | { type: 'claimed'; jobId: number; attempt: number }
  | { type: 'claimLost'; jobId: number; attempt: number; isClaimLost: boolean }
  | { type: 'stopped' };

const name = process.env.WORKER_NAME ?? '?';
const send = (m: ToParent) => process.send?.(m);
const say =
  (level: string) =>
  (obj: object, msg: string): void => {
    process.stderr.write(`${JSON.stringify({ process: name, level, msg, ...obj })}\n`);
  };
const log: JobLog = { info: () => {}, warn: say('warn'), error: say('error') };

let go: () => void = () => {};
const goes = new Promise<void>((r) => {
  go = r;
});

const database = await openDatabase({ url: process.env.DATABASE_URL!, dataDir: 'memory' });
const db = database.db;
const queue = createJobQueue(database, { ...JSON.parse(process.env.JOB_OPTIONS ?? '{}'), log });

/** claim-once: each run leaves one line; the handlers wait until both workers hold a job. */
queue.handle('test.once', async ({ job }) => {
  await db.execute(
    sql`insert into claim_log (job_id, worker, attempt) values (${job.id}, ${name}, ${job.attempts})`,
  );
  for (let i = 0; i < 1500; i++) {
    const res = await db.execute(sql`select count(distinct worker)::int as n from claim_log`);
    if (Number((res as unknown as { rows: Array<{ n: number }> }).rows[0]!.n) >= 2) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { worker: name };
});

/** fencing: A reports its claim and waits for `go` (the test stops this process meanwhile). */
queue.handle('test.fence', async ({ job, progress }) => {
  if (name === 'A') {
    send({ type: 'claimed', jobId: job.id, attempt: job.attempts });
    await goes;
    try {
      await progress(60);
    } catch (e) {
      send({
        type: 'claimLost',
        jobId: job.id,
        attempt: job.attempts,
        isClaimLost: e instanceof JobClaimLost,
      });
    }
    // Returns as if nothing happened: the queue must still not write this result.
    return { by: 'A', attempt: job.attempts };
  }
  await progress(30);
  return { by: name, attempt: job.attempts };
});

process.on('message', (m: { type: string }) => {
  if (m.type === 'go') go();
  if (m.type === 'stop')
    void (async () => {
      await queue.close();
      await database.close();
      send({ type: 'stopped' });
      process.disconnect?.();
    })().catch((e) => {
      log.error({ reason: reasonText(e) }, 'worker stop failed');
      process.exit(1);
    });
});

await queue.start();
send({ type: 'ready', workerId: queue.workerId });
