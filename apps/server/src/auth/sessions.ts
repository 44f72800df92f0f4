import { and, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import {
  functions,
  menus,
  roleFunctions,
  roleMenus,
  roles,
  roleUsers,
  sessions,
  users,
} from '../db/schema/index.js';
import type { AuthContext, FreeScopeKind } from '../http/access.js';
import { hashKey, newSessionKey } from './tokens.js';

/** The sliding expiry is written at most this often, so busy sessions do not write on every request. */
const SLIDE_WRITE_INTERVAL_MS = 30_000;

export interface NewSession {
  userId: number | null;
  appId: number;
  kind: 'login' | 'free';
  scope?: { kind: FreeScopeKind; objectId: string | null; keyId?: number } | null;
  ttlMs: number;
  ip?: string;
  userAgent?: string;
}

/** Creates a session row and returns the key; only its hash is stored. */
export async function createSession(db: Tx, s: NewSession): Promise<{ key: string; sessionId: number }> {
  const key = newSessionKey();
  const now = Date.now();
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: hashKey(key),
      userId: s.userId,
      appId: s.appId,
      kind: s.kind,
      scope: s.scope ?? null,
      expiresAt: new Date(now + s.ttlMs),
      ip: s.ip ?? '',
      userAgent: (s.userAgent ?? '').slice(0, 300),
    })
    .returning({ sessionId: sessions.sessionId });
  return { key, sessionId: row!.sessionId };
}

export type SessionLookup =
  | { status: 'ok'; auth: AuthContext }
  | { status: 'unknown' }
  | { status: 'expired' };

/**
 * Finds the session of a key, slides its expiry, and loads the permissions of the user's
 * roles in the session's app. Permissions are read on every request, so a changed role takes
 * effect at once and no process holds the only copy of them.
 */
/**
 * The lookup every request makes, built and named once per database: drizzle builds no SQL per
 * request and PostgreSQL parses and plans it once per connection (bench/authed-list.ts).
 */
const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();
function prepareLookup(db: Db) {
  return db
    .select({
      sessionId: sessions.sessionId,
      userId: sessions.userId,
      appId: sessions.appId,
      kind: sessions.kind,
      scope: sessions.scope,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      userName: users.userName,
      enabled: users.enabled,
      aclVersion: sql<number>`(select version from acl_version where id = 1)`,
    })
    .from(sessions)
    .leftJoin(users, eq(users.userId, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('crdp_session_lookup');
}

export async function resolveSession(db: Db, key: string, ttlMs: number): Promise<SessionLookup> {
  if (!key || key.length > 200) return { status: 'unknown' };
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ hash: hashKey(key) });
  if (!row) return { status: 'unknown' };
  const now = Date.now();
  if (row.expiresAt.getTime() <= now) {
    await db.delete(sessions).where(eq(sessions.sessionId, row.sessionId));
    return { status: 'expired' };
  }
  if (row.kind === 'login' && (row.userId === null || row.enabled === false)) {
    return { status: 'unknown' };
  }
  if (row.kind === 'login' && now - row.lastSeenAt.getTime() > SLIDE_WRITE_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), expiresAt: new Date(now + ttlMs) })
      .where(eq(sessions.sessionId, row.sessionId));
  }
  const perms =
    row.kind === 'login' && row.userId !== null
      ? await cachedPermissions(db, row.userId, row.appId, Number(row.aclVersion ?? 0))
      : { apiIds: new Set<string>(), routerNames: new Set<string>() };
  return {
    status: 'ok',
    auth: {
      sessionId: row.sessionId,
      kind: row.kind === 'free' ? 'free' : 'login',
      userId: row.userId,
      userName: row.userName ?? '',
      appId: row.appId,
      apiIds: perms.apiIds,
      routerNames: perms.routerNames,
      aclVersion: Number(row.aclVersion ?? 0),
      scope: (row.scope as AuthContext['scope']) ?? null,
    },
  };
}

type Permissions = { apiIds: Set<string>; routerNames: Set<string> };
const permissionCache = new Map<string, { version: number; perms: Permissions }>();
const PERMISSION_CACHE_LIMIT = 10_000;

/**
 * Permissions are a cache keyed by user and app and stamped with the database's ACL version:
 * reused only while no role, membership, menu or function changed anywhere (a trigger bumps
 * the version), so the database stays the only truth and every process sees changes at once.
 */
async function cachedPermissions(
  db: Tx,
  userId: number,
  appId: number,
  version: number,
): Promise<Permissions> {
  const key = `${userId}:${appId}`;
  const hit = permissionCache.get(key);
  if (hit && hit.version === version) return hit.perms;
  const perms = await loadPermissions(db, userId, appId);
  if (permissionCache.size >= PERMISSION_CACHE_LIMIT) permissionCache.clear();
  permissionCache.set(key, { version, perms });
  return perms;
}

/** The union of the menus and functions of the user's roles in one app. */
export async function loadPermissions(db: Tx, userId: number, appId: number) {
  const roleIds = db
    .select({ roleId: roles.roleId })
    .from(roles)
    .innerJoin(roleUsers, eq(roleUsers.roleId, roles.roleId))
    .where(and(eq(roles.appId, appId), eq(roleUsers.userId, userId)));
  const [menuRows, funcRows] = await Promise.all([
    db
      .selectDistinct({ routerName: menus.routerName })
      .from(roleMenus)
      .innerJoin(menus, eq(menus.menuId, roleMenus.menuId))
      .where(inArray(roleMenus.roleId, roleIds)),
    db
      .selectDistinct({ apiId: functions.apiId })
      .from(roleFunctions)
      .innerJoin(functions, eq(functions.funcId, roleFunctions.funcId))
      .where(inArray(roleFunctions.roleId, roleIds)),
  ]);
  return {
    routerNames: new Set(menuRows.map((r) => r.routerName)),
    apiIds: new Set(funcRows.map((r) => r.apiId)),
  };
}

export async function endSession(db: Tx, sessionId: number) {
  await db.delete(sessions).where(eq(sessions.sessionId, sessionId));
}

/** Ends every session of a user except one (after a password change). */
export async function endOtherSessions(db: Tx, userId: number, keepSessionId: number) {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.sessionId, keepSessionId)));
}

export async function switchSessionApp(db: Tx, sessionId: number, appId: number) {
  await db.update(sessions).set({ appId }).where(eq(sessions.sessionId, sessionId));
}

/** Removes expired sessions; run at start and from time to time. */
export async function purgeExpiredSessions(db: Tx) {
  await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`));
}

export async function countActiveSessions(db: Tx, userId: number) {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)));
  return r?.n ?? 0;
}
