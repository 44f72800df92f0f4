import { type AuditEntry, audit } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import type { RequestContext } from '../http/context.js';
import { enqueueJob, type JobRow } from './runner.js';

/**
 * A person asks for work that runs as a job (a push, a fill, an export, an analysis): the job is
 * queued and the request audited in one transaction, the audit's `after` naming the job. Either
 * both are written or neither.
 */
export function requestJob(
  db: Db,
  actor: RequestContext & { appId: number; userId: number | null },
  job: { kind: string; params: Record<string, unknown> },
  entry: Omit<AuditEntry, 'after'> & { after?: Record<string, unknown> },
): Promise<JobRow> {
  return db.transaction(async (tx) => {
    const row = await enqueueJob(tx, { appId: actor.appId, ...job, createdBy: actor.userId });
    await audit(tx, actor, { ...entry, after: { jobId: row.id, ...entry.after } });
    return row;
  });
}
