import type { AuditLogEntry, AuditLogPage, AuditLogRow, AuditOutcome } from '@crdp/core';
import { and, desc, eq, gte, ilike, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { pageOfTable } from '../db/paging.js';
import { appMembers, auditLog } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';

export interface AuditQuery {
  user?: string | undefined;
  action?: string | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
  outcome?: AuditOutcome | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  page: number;
  size: number;
}

/**
 * Rows an app's administrator may read: the app's own rows, and the sign-in rows written
 * before any app was chosen (failed sign-ins, lockouts) of the app's members.
 */
export function auditScope(db: Tx, appId: number): SQL {
  const members = db.select({ id: appMembers.userId }).from(appMembers).where(eq(appMembers.appId, appId));
  return or(eq(auditLog.appId, appId), and(isNull(auditLog.appId), inArray(auditLog.userId, members)))!;
}

const summary = (r: typeof auditLog.$inferSelect): AuditLogRow => ({
  id: r.id,
  at: r.at.toISOString(),
  userId: r.userId,
  userName: r.userName,
  action: r.action,
  entity: r.entity,
  entityId: r.entityId,
  outcome: r.outcome as AuditOutcome,
  reason: r.reason,
  ip: r.ip,
  requestId: r.requestId,
});

export async function listAudit(db: Tx, appId: number, q: AuditQuery): Promise<AuditLogPage> {
  const where = and(
    auditScope(db, appId),
    q.user ? ilike(auditLog.userName, `%${escapeLike(q.user)}%`) : undefined,
    q.action ? ilike(auditLog.action, `${escapeLike(q.action)}%`) : undefined,
    q.entity ? eq(auditLog.entity, q.entity) : undefined,
    q.entityId ? eq(auditLog.entityId, q.entityId) : undefined,
    q.outcome ? eq(auditLog.outcome, q.outcome) : undefined,
    q.from ? gte(auditLog.at, q.from) : undefined,
    q.to ? lte(auditLog.at, q.to) : undefined,
  );
  const { total, rows } = await pageOfTable(db, auditLog, where, [desc(auditLog.id)], q);
  return { total, page: q.page, size: q.size, items: rows.map(summary) };
}

export async function auditEntry(db: Tx, appId: number, id: number): Promise<AuditLogEntry> {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.id, id), auditScope(db, appId)));
  if (!row) throw notFound('audit');
  return { ...summary(row), before: row.before, after: row.after };
}
