import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { type AuditEntry, audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import type { RequestContext } from '../http/context.js';
import { enqueueJob, type JobRow } from './runner.js';

/** The app a job runs in and the user who asked; a request's context when there is one (a schedule has none). */
type JobOwner = { appId: number; userId: number | null };
type JobAsker = RequestContext & JobOwner;
type JobRequest = { kind: string; params: Record<string, unknown> };
type JobAudit = Omit<AuditEntry, 'after'> & { after?: Record<string, unknown> };
/** A table whose rows follow a job: an `id` and a `job_id`. */
type JobLinkedTable = PgTable & { id: PgColumn; jobId: PgColumn };

/**
 * A person asks for work that runs as a job (a push, a fill, an export, an analysis): the job is
 * queued and the request audited in one transaction, the audit's `after` naming the job. Either
 * both are written or neither.
 */
export function requestJob(db: Db, actor: JobAsker, job: JobRequest, entry: JobAudit): Promise<JobRow> {
  return db.transaction((tx) => queueJobFor(tx, actor, job, entry));
}

/**
 * Queues a job in the caller's transaction, links the row it works for (`job.link`: a task, a run, a
 * snapshot the caller has just written) to it, and audits the request with the job's id in `after`
 * (the audited entity's id defaults to the linked row's): row, job and audit row are written together
 * or not at all.
 */
export async function queueJobFor<T extends JobLinkedTable>(
  tx: Tx,
  actor: JobAsker | JobOwner,
  job: JobRequest & { link?: { table: T; id: number } },
  entry: JobAudit,
): Promise<JobRow> {
  const { link, ...request } = job;
  const row = await enqueueJob(tx, { appId: actor.appId, ...request, createdBy: actor.userId });
  if (link)
    await tx
      .update(link.table)
      .set({ jobId: row.id } as PgUpdateSetSource<T>)
      .where(eq(link.table.id, link.id));
  const context = 'requestId' in actor ? actor : null;
  const owner = context ? {} : { appId: actor.appId, userId: actor.userId };
  const after = { ...entry.after, jobId: row.id };
  await audit(tx, context, { ...owner, entityId: link?.id, ...entry, after });
  return row;
}
