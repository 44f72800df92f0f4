import type { Database } from '../db/client.js';
import { BossJobQueue } from './boss.js';
import { LocalJobQueue } from './local.js';
import type { JobQueue } from './runner.js';
import type { JobQueueOptions } from './worker.js';

/**
 * The job queue of a database: pg-boss on PostgreSQL, the in-process runner on the embedded
 * database (pg-boss needs a PostgreSQL server to connect to; PGlite runs inside this process).
 */
export function createJobQueue(database: Database, opts: JobQueueOptions = {}): JobQueue {
  if (database.kind === 'postgres') {
    if (!database.pool) throw new Error('the PostgreSQL database has no pool for the job queue');
    return new BossJobQueue(database.db, database.pool, opts);
  }
  return new LocalJobQueue(database.db, opts);
}
