import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  outcome?: 'success' | 'failure' | 'denied';
  /** Overrides for calls made before a session exists (sign-in). */
  appId?: number | null;
  userId?: number | null;
  userName?: string;
}

/**
 * Appends one row to the audit trail, in the caller's transaction when there is one, so the
 * change and its audit row are written together or not at all.
 */
export async function audit(db: Tx, req: FastifyRequest | null, e: AuditEntry) {
  await db.insert(auditLog).values({
    appId: e.appId !== undefined ? e.appId : (req?.auth?.appId ?? null),
    userId: e.userId !== undefined ? e.userId : (req?.auth?.userId ?? null),
    userName: e.userName ?? req?.auth?.userName ?? '',
    action: e.action,
    entity: e.entity,
    entityId: e.entityId === undefined ? '' : String(e.entityId),
    before: e.before ?? null,
    after: e.after ?? null,
    reason: e.reason ?? null,
    outcome: e.outcome ?? 'success',
    requestId: req ? String(req.id) : '',
    ip: req?.ip ?? '',
  });
}
