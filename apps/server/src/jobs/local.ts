import { asc, inArray, sql } from 'drizzle-orm';
import { jobs } from '../db/schema/index.js';
import { claimableUnderLimit } from './limits.js';
import type { JobRow } from './runner.js';
import { BaseJobQueue } from './worker.js';

/**
 * The in-process runner of the embedded database (PGlite), which pg-boss cannot use: it speaks to
 * PostgreSQL through `pg` over a socket, and PGlite is a library in this process. A claim is one
 * `UPDATE jobs ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT n)`, so it would be safe
 * with several processes too; on PGlite there is one (the data directory is locked). The same
 * statement keeps each app's per-kind limit (limits.ts): it runs on PGlite's one connection, so
 * no other claim can come between its count and its update.
 */
export class LocalJobQueue extends BaseJobQueue {
  readonly backend = 'local' as const;

  protected async claim(max: number): Promise<JobRow[]> {
    const kinds = this.kinds();
    if (!kinds.length || max < 1) return [];
    const kindList = sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    );
    const res = await this.db.execute(sql`
      update jobs set status = 'running', started_at = now(), heartbeat_at = now(),
        attempts = attempts + 1, worker_id = ${this.workerId}
      where id in (
        select j.id from jobs j
        where j.status = 'queued' and j.kind in (${kindList}) and ${claimableUnderLimit('j')}
        order by j.id
        for update skip locked
        limit ${max}
      )
      returning id`);
    const ids = (res as unknown as { rows: Array<{ id: number | string }> }).rows.map((r) => Number(r.id));
    if (!ids.length) return [];
    return this.db.select().from(jobs).where(inArray(jobs.id, ids)).orderBy(asc(jobs.id));
  }
}
