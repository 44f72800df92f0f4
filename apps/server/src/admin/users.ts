import {
  type AdminPasswordReset,
  type AdminUserAccount,
  type AdminUserPage,
  checkPasswordPolicy,
} from '@crdp/core';
import { and, asc, count, desc, eq, exists, gt, ilike, inArray, or, sql } from 'drizzle-orm';
import { audit, auditTrail } from '../audit/audit.js';
import { hashPassword } from '../auth/passwords.js';
import { checkOwnPassword } from '../auth/service.js';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { appMembers, auditLog, roles, roleUsers, sessions, users } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { assertAccountInReach, keepingAnAdministrator, membersOfApp } from './scope.js';

export interface UserQuery {
  PageIndex: number;
  PageSize: number;
  Keyword?: string | undefined;
  Enabled?: boolean | undefined;
  RoleId?: number | undefined;
}

const trail = auditTrail('user', 'user');

/** What an administrator sees of a user: never the password hash. */
const publicUser = (u: typeof users.$inferSelect): AdminUserAccount => ({
  UserId: u.userId,
  UserName: u.userName,
  NickName: u.nickname,
  Enabled: u.enabled,
  LastLoginAt: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
  CreatedAt: u.createdAt.toISOString(),
});

/** Members of the actor's app, paged and searchable, each with their roles in this app. */
export async function listUsers(db: Tx, appId: number, q: UserQuery): Promise<AdminUserPage> {
  const keyword = q.Keyword?.trim();
  const where = and(
    eq(appMembers.appId, appId),
    keyword
      ? or(
          ilike(users.userName, `%${escapeLike(keyword)}%`),
          ilike(users.nickname, `%${escapeLike(keyword)}%`),
        )
      : undefined,
    q.Enabled === undefined ? undefined : eq(users.enabled, q.Enabled),
    q.RoleId === undefined
      ? undefined
      : exists(
          db
            .select({ one: sql`1` })
            .from(roleUsers)
            .innerJoin(roles, and(eq(roles.roleId, roleUsers.roleId), eq(roles.appId, appId)))
            .where(and(eq(roleUsers.userId, users.userId), eq(roleUsers.roleId, q.RoleId))),
        ),
  );
  const [total] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(appMembers, eq(appMembers.userId, users.userId))
    .where(where);
  const rows = await db
    .select({ user: users })
    .from(users)
    .innerJoin(appMembers, eq(appMembers.userId, users.userId))
    .where(where)
    .orderBy(desc(users.userId))
    .limit(q.PageSize)
    .offset((q.PageIndex - 1) * q.PageSize);
  const ids = rows.map((r) => r.user.userId);
  const roleRows = ids.length
    ? await db
        .select({ userId: roleUsers.userId, RoleId: roles.roleId, RoleName: roles.roleName })
        .from(roleUsers)
        .innerJoin(roles, and(eq(roles.roleId, roleUsers.roleId), eq(roles.appId, appId)))
        .where(inArray(roleUsers.userId, ids))
        .orderBy(asc(roles.roleId))
    : [];
  return {
    Total: total?.n ?? 0,
    PageIndex: q.PageIndex,
    PageSize: q.PageSize,
    List: rows.map(({ user }) => ({
      ...publicUser(user),
      Roles: roleRows
        .filter((r) => r.userId === user.userId)
        .map((r) => ({ RoleId: r.RoleId, RoleName: r.RoleName })),
    })),
  };
}

export interface UserInput {
  UserId?: number | undefined;
  UserName: string;
  NickName?: string | undefined;
  Password?: string | undefined;
  /** The actor's own current password, needed when they set their own password. */
  OldPassword?: string | undefined;
  Enabled?: boolean | undefined;
  /** Roles in the actor's app; when given they replace the user's roles there. */
  RoleIds?: number[] | undefined;
}

async function roleIdsInApp(db: Tx, appId: number, userId: number) {
  const rows = await db
    .select({ id: roles.roleId })
    .from(roleUsers)
    .innerJoin(roles, and(eq(roles.roleId, roleUsers.roleId), eq(roles.appId, appId)))
    .where(eq(roleUsers.userId, userId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function assertRolesOfApp(db: Tx, appId: number, roleIds: number[]) {
  if (!roleIds.length) return;
  const rows = await db
    .select({ id: roles.roleId })
    .from(roles)
    .where(and(eq(roles.appId, appId), inArray(roles.roleId, roleIds)));
  const missing = roleIds.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined)
    throw new AppError(400, 'admin.unknownRole', { id: missing }, 'params.0.RoleIds');
}

function assertPassword(password: string, field: string) {
  const policy = checkPasswordPolicy(password);
  if (!policy.ok) throw new AppError(400, policy.problem!, {}, field);
}

/**
 * An administrator setting their own password gives the current one first, as a person
 * changing it would: a session left open on a ward computer must not be enough to take the
 * account over. The guesses are throttled like sign-in.
 */
async function assertOwnPassword(ctx: SignedIn, old: string | undefined, field: string) {
  const { db, userId } = ctx;
  if (!old) throw new AppError(400, 'password.oldRequired', {}, field);
  const [me] = await db.select().from(users).where(eq(users.userId, userId));
  if (!me) throw new AppError(401, 'auth.required');
  await checkOwnPassword(ctx, me, old, field);
}

const snapshot = (u: typeof users.$inferSelect, roleIds: number[]) => ({
  UserId: u.userId,
  UserName: u.userName,
  NickName: u.nickname,
  Enabled: u.enabled,
  RoleIds: roleIds,
});

/** Name-taken refusals an administrator may meet per hour before further tries wait. */
export const NAME_PROBES_PER_HOUR = 20;

/**
 * User names are the sign-in identifier and sign-in names no hospital, so they are unique on the
 * whole platform: refusing a taken name necessarily says that the name exists somewhere. The
 * refusal says nothing more (not which hospital, not who; the same words whether the name is in
 * this app or another), each one is audited (`user.nameTaken`) so probing shows in the audit
 * trail, and past NAME_PROBES_PER_HOUR refusals in an hour the administrator waits (429), so
 * names cannot be listed by trying.
 */
async function refuseTakenName(ctx: SignedIn, input: UserInput) {
  const { db } = ctx;
  const [sameName] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${input.UserName})`);
  if (!sameName || sameName.userId === input.UserId) return;
  const since = new Date(Date.now() - 3_600_000);
  const recent = await db
    .select({ at: auditLog.at })
    .from(auditLog)
    .where(
      and(eq(auditLog.userId, ctx.userId), eq(auditLog.action, 'user.nameTaken'), gt(auditLog.at, since)),
    )
    .orderBy(desc(auditLog.at))
    .limit(NAME_PROBES_PER_HOUR);
  if (recent.length >= NAME_PROBES_PER_HOUR) {
    const oldest = recent[recent.length - 1]!.at.getTime();
    const seconds = Math.max(1, Math.ceil((oldest + 3_600_000 - Date.now()) / 1000));
    throw new AppError(429, 'request.rateLimited', { seconds }, 'params.0.UserName');
  }
  await audit(db, ctx, {
    action: 'user.nameTaken',
    entity: 'user',
    entityId: input.UserId ?? '',
    outcome: 'failure',
    reason: 'user name taken',
  });
  throw new AppError(400, 'admin.userNameTaken', { name: input.UserName }, 'params.0.UserName');
}

/**
 * Creates a member of the actor's app (with an initial password that passes the policy) or
 * updates one. A disabled user's sessions end in the same transaction.
 */
export async function saveUser(ctx: SignedIn, input: UserInput): Promise<AdminUserAccount> {
  const { db } = ctx;
  if (input.Password !== undefined) assertPassword(input.Password, 'params.0.Password');
  if (input.UserId === undefined && input.Password === undefined)
    throw new AppError(400, 'admin.passwordRequired', {}, 'params.0.Password');
  if (input.UserId === ctx.userId && input.Password !== undefined)
    await assertOwnPassword(ctx, input.OldPassword, 'params.0.OldPassword');
  await refuseTakenName(ctx, input);
  const passwordHash = input.Password !== undefined ? await hashPassword(input.Password) : undefined;
  return db.transaction(async (tx) => {
    const [sameName] = await tx
      .select({ userId: users.userId })
      .from(users)
      .where(sql`lower(${users.userName}) = lower(${input.UserName})`);
    if (sameName && sameName.userId !== input.UserId)
      throw new AppError(400, 'admin.userNameTaken', { name: input.UserName }, 'params.0.UserName');
    if (input.RoleIds) await assertRolesOfApp(tx, ctx.appId, input.RoleIds);

    if (input.UserId === undefined) {
      const [created] = await tx
        .insert(users)
        .values({
          userName: input.UserName,
          nickname: input.NickName ?? '',
          passwordHash: passwordHash!,
          enabled: input.Enabled ?? true,
        })
        .returning();
      const userId = created!.userId;
      await tx.insert(appMembers).values({ appId: ctx.appId, userId });
      const roleIds = [...new Set(input.RoleIds ?? [])].sort((a, b) => a - b);
      if (roleIds.length) await tx.insert(roleUsers).values(roleIds.map((roleId) => ({ roleId, userId })));
      await trail.added(tx, ctx, userId, snapshot(created!, roleIds));
      return publicUser(created!);
    }

    const userId = input.UserId;
    const [member] = await membersOfApp(tx, ctx.appId, [userId], 'params.0.UserId');
    const [before] = await tx.select().from(users).where(eq(users.userId, userId));
    const accountChanges =
      before!.userName !== input.UserName ||
      (input.NickName !== undefined && input.NickName !== before!.nickname) ||
      (input.Enabled !== undefined && input.Enabled !== before!.enabled) ||
      passwordHash !== undefined;
    const appIds = accountChanges ? await assertAccountInReach(tx, ctx.userId, member!) : [ctx.appId];
    const rolesBefore = await roleIdsInApp(tx, ctx.appId, userId);
    const after = await keepingAnAdministrator(tx, [...new Set([ctx.appId, ...appIds])], async () => {
      const [updated] = await tx
        .update(users)
        .set({
          userName: input.UserName,
          ...(input.NickName !== undefined ? { nickname: input.NickName } : {}),
          ...(input.Enabled !== undefined ? { enabled: input.Enabled } : {}),
          ...(passwordHash !== undefined ? { passwordHash, passwordChangedAt: new Date() } : {}),
        })
        .where(eq(users.userId, userId))
        .returning();
      if (input.RoleIds) {
        const appRoles = tx.select({ id: roles.roleId }).from(roles).where(eq(roles.appId, ctx.appId));
        await tx
          .delete(roleUsers)
          .where(and(eq(roleUsers.userId, userId), inArray(roleUsers.roleId, appRoles)));
        const ids = [...new Set(input.RoleIds)];
        if (ids.length) await tx.insert(roleUsers).values(ids.map((roleId) => ({ roleId, userId })));
      }
      return updated!;
    });
    if (!after.enabled || passwordHash !== undefined)
      await tx.delete(sessions).where(eq(sessions.userId, userId));
    const rolesAfter = await roleIdsInApp(tx, ctx.appId, userId);
    await trail.edited(tx, ctx, userId, snapshot(before!, rolesBefore), snapshot(after, rolesAfter));
    return publicUser(after);
  });
}

/** The account of a member of the app; any other user is not found (404 on `id`). */
async function memberAccount(tx: Tx, appId: number, userId: number) {
  const [member] = await tx
    .select()
    .from(users)
    .innerJoin(appMembers, and(eq(appMembers.userId, users.userId), eq(appMembers.appId, appId)))
    .where(eq(users.userId, userId));
  if (!member) throw new AppError(404, 'admin.unknownUser', { id: userId }, 'id');
  return member.users;
}

/** Enables or disables a member; disabling ends every session of the user at once. */
export async function setUserEnabled(
  ctx: SignedIn,
  userId: number,
  enabled: boolean,
): Promise<AdminUserAccount> {
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const before = await memberAccount(tx, ctx.appId, userId);
    const appIds = await assertAccountInReach(tx, ctx.userId, before);
    const after = await keepingAnAdministrator(tx, appIds, async () => {
      const [u] = await tx.update(users).set({ enabled }).where(eq(users.userId, userId)).returning();
      return u!;
    });
    const ended = enabled ? [] : await tx.delete(sessions).where(eq(sessions.userId, userId)).returning();
    await audit(tx, ctx, {
      action: enabled ? 'user.enable' : 'user.disable',
      entity: 'user',
      entityId: userId,
      before: { UserName: before.userName, Enabled: before.enabled },
      after: { UserName: after.userName, Enabled: after.enabled, SessionsEnded: ended.length },
    });
    return publicUser(after);
  });
}

/**
 * Sets a new password for a member. Without one, a temporary password that passes the policy
 * is made and returned once, for the administrator to hand over. Sessions of the user end.
 */
export async function resetPassword(
  ctx: SignedIn,
  userId: number,
  password: string | undefined,
  generate: () => string,
  oldPassword?: string,
): Promise<AdminPasswordReset> {
  const { db } = ctx;
  const chosen = password ?? generate();
  assertPassword(chosen, 'Password');
  if (userId === ctx.userId) await assertOwnPassword(ctx, oldPassword, 'OldPassword');
  const passwordHash = await hashPassword(chosen);
  return db.transaction(async (tx) => {
    const account = await memberAccount(tx, ctx.appId, userId);
    await assertAccountInReach(tx, ctx.userId, account);
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: new Date() })
      .where(eq(users.userId, userId));
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning();
    await audit(tx, ctx, {
      action: 'user.resetPassword',
      entity: 'user',
      entityId: userId,
      after: {
        UserName: account.userName,
        SessionsEnded: ended.length,
        Generated: password === undefined,
      },
    });
    return { UserId: userId, Password: password === undefined ? chosen : null };
  });
}
