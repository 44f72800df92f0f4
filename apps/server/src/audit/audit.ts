import type { AuditAction } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';
import type { RequestContext } from '../http/context.js';

export interface AuditEntry {
  action: AuditAction;
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
export async function audit(db: Tx, source: RequestContext | FastifyRequest | null, e: AuditEntry) {
  await db.insert(auditLog).values(auditRow(source, e));
}

/** The prefixes `p` of the audit actions `p.<verb>`. */
type PrefixOf<V extends string> = AuditAction extends infer A
  ? A extends `${infer P}.${V}`
    ? P
    : never
  : never;
/** The trail's method for a verb, or never when the entity has no such action. */
type Verb<P extends string, V extends string, F> = `${P}.${V}` extends AuditAction ? F : never;

/**
 * The audit trail of one kind of entity, named once where its service is written: its `add`,
 * `edit` and `delete` rows (actions `prefix.add`, `prefix.edit`, `prefix.delete`, entity
 * `entity`), each in the caller's transaction. `added` and `edited` answer the entity's new view,
 * so a service ends with `return trail.added(tx, ctx, row.id, after)`.
 */
export function auditTrail<P extends PrefixOf<'add'> | PrefixOf<'edit'> | PrefixOf<'delete'>>(
  entity: string,
  prefix: P,
) {
  const write = (db: Tx, ctx: RequestContext, verb: string, e: Omit<AuditEntry, 'action' | 'entity'>) =>
    audit(db, ctx, { ...e, action: `${prefix}.${verb}` as AuditAction, entity });
  return {
    added: (async (db: Tx, ctx: RequestContext, id: string | number, after: unknown) => {
      await write(db, ctx, 'add', { entityId: id, after });
      return after;
    }) as Verb<P, 'add', <T>(db: Tx, ctx: RequestContext, id: string | number, after: T) => Promise<T>>,
    edited: (async (db: Tx, ctx: RequestContext, id: string | number, before: unknown, after: unknown) => {
      await write(db, ctx, 'edit', { entityId: id, before, after });
      return after;
    }) as Verb<
      P,
      'edit',
      <T>(db: Tx, ctx: RequestContext, id: string | number, before: unknown, after: T) => Promise<T>
    >,
    deleted: (async (db: Tx, ctx: RequestContext, id: string | number, before: unknown) => {
      await write(db, ctx, 'delete', { entityId: id, before });
    }) as Verb<
      P,
      'delete',
      (db: Tx, ctx: RequestContext, id: string | number, before: unknown) => Promise<void>
    >,
  };
}

/**
 * The audit row of switching an entity on or off: action `enable` or `disable`, with its
 * `enabled` before and after, in the caller's transaction.
 */
export function auditSwitched(
  db: Tx,
  ctx: RequestContext,
  entity: string,
  id: string | number,
  was: boolean,
  enabled: boolean,
): Promise<void> {
  return audit(db, ctx, {
    action: enabled ? 'enable' : 'disable',
    entity,
    entityId: id,
    before: { enabled: was },
    after: { enabled },
  });
}

function auditRow(
  source: RequestContext | FastifyRequest | null,
  e: AuditEntry,
): typeof auditLog.$inferInsert {
  const ctx = contextOf(source);
  return {
    appId: e.appId !== undefined ? e.appId : (ctx?.auth?.appId ?? null),
    userId: e.userId !== undefined ? e.userId : (ctx?.auth?.userId ?? null),
    userName: e.userName ?? ctx?.auth?.userName ?? '',
    action: e.action,
    entity: e.entity,
    entityId: e.entityId === undefined ? '' : String(e.entityId),
    before: e.before ?? null,
    after: e.after ?? null,
    reason: e.reason ?? null,
    outcome: e.outcome ?? 'success',
    requestId: ctx?.requestId ?? '',
    ip: ctx?.ip ?? '',
  };
}

/**
 * Read rows go in together (group commit): a row waits only while the insert before it runs, and
 * every row that came in meanwhile goes in with the next one, so under load one statement
 * carries many reads while an idle server writes each at once. Each read still answers only
 * after its own row is written.
 */
class ReadRows {
  private waiting: Array<{ row: typeof auditLog.$inferInsert; done: (e?: unknown) => void }> = [];
  private writing = false;
  constructor(private readonly db: Tx) {}

  add(row: typeof auditLog.$inferInsert): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, done: (e) => (e ? reject(e) : resolve()) });
      if (!this.writing) void this.write();
    });
  }

  private async write() {
    this.writing = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, READ_ROWS_PER_INSERT);
      try {
        await this.db.insert(auditLog).values(batch.map((b) => b.row));
        for (const b of batch) b.done();
      } catch (e) {
        for (const b of batch) b.done(e);
      }
    }
    this.writing = false;
  }
}
const READ_ROWS_PER_INSERT = 500;
const readRows = new WeakMap<Tx, ReadRows>();
function readRowsOf(db: Tx) {
  let r = readRows.get(db);
  if (!r) {
    r = new ReadRows(db);
    readRows.set(db, r);
  }
  return r;
}

/**
 * The context of an audit call. Services pass their `RequestContext`; a few framework hooks
 * (refusals audited from the error hook, before a context may exist) still pass the request.
 */
function contextOf(
  source: RequestContext | FastifyRequest | null,
): Pick<RequestContext, 'auth' | 'requestId' | 'ip'> | null {
  if (!source) return null;
  if ('requestId' in source) return source;
  if (source.ctx) return source.ctx;
  return { auth: source.auth, requestId: String(source.id), ip: source.ip ?? '' };
}

/**
 * Reads of patient data (HIPAA §164.312(b): who looked at whose data). `read` for a record or a
 * list page, `download` for a file; the row holds ids, counts and the names of the filters used,
 * never a value a person typed or the patient's data.
 */
export type ReadAction = 'read' | 'download';

export interface ReadAuditEntry {
  action?: ReadAction;
  entity: string;
  entityId?: string | number;
  /** Ids, counts and filter names only. */
  detail?: Record<string, unknown>;
  /**
   * Write the row only when this user has no `read` row of the same entity and id in this app
   * within so many minutes (the tabs of one patient view after its person call): one statement.
   */
  onceWithinMinutes?: number;
}

/**
 * Appends one read row, outside any transaction, and never fails the read: a row that cannot be
 * written is reported on the log (its class only, no values) and the answer goes out.
 */
export async function auditRead(source: RequestContext | FastifyRequest, e: ReadAuditEntry): Promise<void> {
  const ctx: RequestContext = 'requestId' in source ? source : source.ctx;
  const { db, auth } = ctx;
  const action = e.action ?? 'read';
  try {
    if (!e.onceWithinMinutes) {
      await readRowsOf(db).add(
        auditRow(ctx, { action, entity: e.entity, entityId: e.entityId, after: e.detail ?? null }),
      );
      return;
    }
    const appId = auth?.appId ?? null;
    const userId = auth?.userId ?? null;
    const entityId = e.entityId === undefined ? '' : String(e.entityId);
    await db.execute(sql`insert into audit_log (app_id, user_id, user_name, action, entity, entity_id, after, request_id, ip)
      select ${appId}, ${userId}, ${auth?.userName ?? ''}, ${action}, ${e.entity}, ${entityId},
        ${e.detail ? JSON.stringify(e.detail) : null}::jsonb, ${ctx.requestId}, ${ctx.ip}
      where not exists (select 1 from audit_log a where a.entity = ${e.entity} and a.entity_id = ${entityId}
        and a.action = ${action} and a.app_id is not distinct from ${appId}::int and a.user_id is not distinct from ${userId}::int
        and a.at > now() - make_interval(mins => ${e.onceWithinMinutes}::int))`);
  } catch (err) {
    ctx.log.error(
      { audit: { action, entity: e.entity }, errorClass: (err as Error)?.name ?? 'Error' },
      'read audit row not written',
    );
  }
}

/**
 * One read row for a page of a list: the names of the filters used (never their values), the
 * page (`at`: the request's page and size, or the result's own), how many rows came back and the total.
 */
export function auditPageRead(
  source: RequestContext | FastifyRequest,
  e: { entity: string; entityId?: string | number; filters?: string[] },
  result: { items: readonly unknown[]; total: number; page?: number; size?: number },
  at: { page?: number; size?: number } = result,
): Promise<void> {
  return auditRead(source, {
    entity: e.entity,
    entityId: e.entityId,
    detail: {
      ...(e.filters ? { filters: e.filters } : {}),
      page: at.page,
      size: at.size,
      count: result.items.length,
      total: result.total,
    },
  });
}

/** The names of the filters a list request used (values left out: a keyword may be a name). */
export function filterNames(query: object, names: readonly string[]): string[] {
  const q = query as Record<string, unknown>;
  return names.filter((n) => {
    const v = q[n];
    return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
  });
}
