import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { appMembers, functions, roleFunctions, roles, roleUsers, users } from '../db/schema/index.js';
import { AppError } from '../http/errors.js';

/**
 * Rules that keep an administrator inside their own app. Every admin query goes through the
 * session's app id; these helpers turn an id from the request into a row of that app, or
 * refuse with a message naming the field.
 */

/** The function whose holders count as administrators of an app: who may edit roles can grant everything else. */
export const ADMINISTRATOR_API_ID = 'RoleManage.edit';

export async function roleOfApp(db: Tx, appId: number, roleId: number, field: string) {
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.roleId, roleId), eq(roles.appId, appId)));
  if (!role) throw new AppError(400, 'admin.unknownRole', { id: roleId }, field);
  return role;
}

/** The users among `userIds` that are members of the app; any other id is refused. */
export async function membersOfApp(db: Tx, appId: number, userIds: number[], field: string) {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ userId: users.userId, userName: users.userName, enabled: users.enabled })
    .from(users)
    .innerJoin(appMembers, and(eq(appMembers.userId, users.userId), eq(appMembers.appId, appId)))
    .where(inArray(users.userId, unique));
  const missing = unique.find((id) => !rows.some((r) => r.userId === id));
  if (missing !== undefined) throw new AppError(400, 'admin.unknownUser', { id: missing }, field);
  return rows;
}

/** Enabled members of the app whose roles there hold the administrator function. */
export async function countAdministrators(db: Tx, appId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${users.userId})::int` })
    .from(users)
    .innerJoin(appMembers, and(eq(appMembers.userId, users.userId), eq(appMembers.appId, appId)))
    .innerJoin(roleUsers, eq(roleUsers.userId, users.userId))
    .innerJoin(roles, and(eq(roles.roleId, roleUsers.roleId), eq(roles.appId, appId)))
    .innerJoin(roleFunctions, eq(roleFunctions.roleId, roles.roleId))
    .innerJoin(
      functions,
      and(eq(functions.funcId, roleFunctions.funcId), eq(functions.apiId, ADMINISTRATOR_API_ID)),
    )
    .where(eq(users.enabled, true));
  return row?.n ?? 0;
}

/**
 * Runs a change inside the caller's transaction and refuses it (rolling it back) when it would
 * leave an app that had an enabled administrator without one. Checking after the change covers
 * every path at once: disabling, deleting a role, removing a member, stripping a permission.
 */
export async function keepingAnAdministrator<T>(tx: Tx, appIds: number[], change: () => Promise<T>) {
  const before = await Promise.all(appIds.map((id) => countAdministrators(tx, id)));
  const result = await change();
  for (const [i, appId] of appIds.entries()) {
    if (before[i]! > 0 && (await countAdministrators(tx, appId)) === 0)
      throw new AppError(409, 'admin.lastAdministrator');
  }
  return result;
}

/** Apps a user belongs to. */
export async function appIdsOfUser(db: Tx, userId: number) {
  const rows = await db
    .select({ appId: appMembers.appId })
    .from(appMembers)
    .where(eq(appMembers.userId, userId));
  return rows.map((r) => r.appId);
}

/**
 * An account (name, password, enabled) is shared by every app the user belongs to, so only an
 * administrator who is a member of all of them may change it.
 */
export async function assertAccountInReach(
  db: Tx,
  callerId: number,
  target: { userId: number; userName: string },
) {
  const [mine, theirs] = await Promise.all([appIdsOfUser(db, callerId), appIdsOfUser(db, target.userId)]);
  if (!theirs.every((a) => mine.includes(a)))
    throw new AppError(403, 'admin.sharedUser', { name: target.userName });
  return theirs;
}
