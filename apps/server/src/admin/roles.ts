import type {
  AdminMember,
  AdminUserRole,
  AuditAction,
  adminRole,
  PermissionFunc,
  PermissionMenu,
  RoleApp,
  RolePermissions,
  RoleSaved,
} from '@crdp/core';
import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import {
  appMembers,
  apps,
  functions,
  menus,
  roleApps,
  roleFunctions,
  roleMenus,
  roles,
  roleUsers,
  users,
} from '../db/schema/index.js';
import type { RequestContext, SignedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { keepingAnAdministrator, membersOfApp, roleOfApp } from './scope.js';

const trail = auditTrail('role', 'role');

/** A member as the admin screens list one (users of an app, members of a role). */
export const memberColumns = {
  UserId: users.userId,
  UserName: users.userName,
  NickName: users.nickname,
  Enabled: users.enabled,
};

/** Roles of the actor's app, with how many users hold each. */
export async function listRoles(db: Tx, appId: number, name?: string): Promise<z.input<typeof adminRole>[]> {
  const rows = await db
    .select({
      RoleId: roles.roleId,
      RoleName: roles.roleName,
      Description: roles.description,
      AppId: roles.appId,
      CreatedAt: roles.createdAt,
      // A join, not a correlated subquery: drizzle writes columns unqualified in a one-table
      // select, so `role_id = role_id` inside the subquery counted every role's members.
      UserCount: sql<number>`count(${roleUsers.userId})::int`,
    })
    .from(roles)
    .leftJoin(roleUsers, eq(roleUsers.roleId, roles.roleId))
    .where(and(eq(roles.appId, appId), name ? ilike(roles.roleName, `%${escapeLike(name)}%`) : undefined))
    .groupBy(roles.roleId)
    .orderBy(asc(roles.roleId));
  return rows;
}

async function roleNameFree(db: Tx, appId: number, name: string, exceptRoleId?: number) {
  const [taken] = await db
    .select({ roleId: roles.roleId })
    .from(roles)
    .where(and(eq(roles.appId, appId), sql`lower(${roles.roleName}) = lower(${name})`));
  if (taken && taken.roleId !== exceptRoleId)
    throw new AppError(400, 'admin.roleNameTaken', { name }, 'params.0.RoleName');
}

/** Adds a role to the actor's app, or renames one of its roles when `RoleId` is given. */
export async function saveRole(
  ctx: SignedIn,
  input: { RoleId?: number | undefined; RoleName: string; Description?: string | undefined },
): Promise<RoleSaved> {
  return ctx.db.transaction(async (tx) => {
    await roleNameFree(tx, ctx.appId, input.RoleName, input.RoleId);
    if (input.RoleId === undefined) {
      const [role] = await tx
        .insert(roles)
        .values({ appId: ctx.appId, roleName: input.RoleName, description: input.Description ?? '' })
        .returning();
      await trail.added(tx, ctx, role!.roleId, role);
      return { RoleId: role!.roleId, RoleName: role!.roleName, Description: role!.description };
    }
    const before = await roleOfApp(tx, ctx.appId, input.RoleId, 'params.0.RoleId');
    const [after] = await tx
      .update(roles)
      .set({ roleName: input.RoleName, description: input.Description ?? before.description })
      .where(eq(roles.roleId, before.roleId))
      .returning();
    await trail.edited(tx, ctx, before.roleId, before, after);
    return { RoleId: after!.roleId, RoleName: after!.roleName, Description: after!.description };
  });
}

/** Deletes a role with its memberships and grants, in one transaction. */
export async function deleteRole(ctx: SignedIn, roleId: number): Promise<true> {
  await ctx.db.transaction(async (tx) => {
    const role = await roleOfApp(tx, ctx.appId, roleId, 'params.0');
    const [members, grants] = await Promise.all([roleUserIds(tx, roleId), rolePermissions(tx, roleId)]);
    await keepingAnAdministrator(tx, [ctx.appId], async () => {
      // Memberships, shares and grants go by the foreign keys' cascade, in this same statement.
      await tx.delete(roles).where(eq(roles.roleId, roleId));
    });
    await trail.deleted(tx, ctx, roleId, { ...role, UserIds: members, ...grants });
  });
  return true as const;
}

async function roleUserIds(db: Tx, roleId: number) {
  const rows = await db
    .select({ userId: roleUsers.userId })
    .from(roleUsers)
    .where(eq(roleUsers.roleId, roleId))
    .orderBy(asc(roleUsers.userId));
  return rows.map((r) => r.userId);
}

/** Members of a role (only roles of the actor's app). */
export async function listRoleUsers(
  db: Tx,
  appId: number,
  roleId: number,
  field = 'params.0',
): Promise<AdminMember[]> {
  await roleOfApp(db, appId, roleId, field);
  return db
    .select(memberColumns)
    .from(roleUsers)
    .innerJoin(users, eq(users.userId, roleUsers.userId))
    .where(eq(roleUsers.roleId, roleId))
    .orderBy(asc(users.userId));
}

/** Roles a user holds in the actor's app. */
export async function listUserRoles(
  db: Tx,
  appId: number,
  userId: number,
  field = 'params.0.UserId',
): Promise<AdminUserRole[]> {
  await membersOfApp(db, appId, [userId], field);
  return db
    .select({ RoleId: roles.roleId, RoleName: roles.roleName })
    .from(roleUsers)
    .innerJoin(roles, and(eq(roles.roleId, roleUsers.roleId), eq(roles.appId, appId)))
    .where(eq(roleUsers.userId, userId))
    .orderBy(asc(roles.roleId));
}

/**
 * One audited change of the users or apps linked to a role: the ids are read before and after
 * `change` runs in the same transaction, and the audit row holds both lists.
 */
async function changeRoleLinks(
  tx: Tx,
  ctx: RequestContext,
  roleId: number,
  links: {
    action: AuditAction;
    field: 'UserIds' | 'AppIds';
    read: (tx: Tx, roleId: number) => Promise<number[]>;
  },
  change: (before: number[]) => Promise<unknown>,
) {
  const before = await links.read(tx, roleId);
  await change(before);
  const after = await links.read(tx, roleId);
  await audit(tx, ctx, {
    action: links.action,
    entity: 'role',
    entityId: roleId,
    before: { [links.field]: before },
    after: { [links.field]: after },
  });
  return after;
}

const USERS = { field: 'UserIds', read: roleUserIds } as const;
const APPS = { field: 'AppIds', read: (tx: Tx, roleId: number) => roleAppIds(tx, roleId) } as const;

export async function addRoleUsers(ctx: SignedIn, roleId: number, userIds: number[]): Promise<number[]> {
  return ctx.db.transaction(async (tx) => {
    await roleOfApp(tx, ctx.appId, roleId, 'params.0.RoleId');
    await membersOfApp(tx, ctx.appId, userIds, 'params.0.UserIds');
    return changeRoleLinks(tx, ctx, roleId, { ...USERS, action: 'role.users.add' }, () =>
      tx
        .insert(roleUsers)
        .values([...new Set(userIds)].map((userId) => ({ roleId, userId })))
        .onConflictDoNothing(),
    );
  });
}

export async function deleteRoleUser(ctx: SignedIn, roleId: number, userId: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    await roleOfApp(tx, ctx.appId, roleId, 'params.0.RoleId');
    await changeRoleLinks(tx, ctx, roleId, { ...USERS, action: 'role.users.delete' }, async (before) => {
      if (!before.includes(userId))
        throw new AppError(400, 'admin.unknownUser', { id: userId }, 'params.0.UserId');
      await keepingAnAdministrator(tx, [ctx.appId], () =>
        tx.delete(roleUsers).where(and(eq(roleUsers.roleId, roleId), eq(roleUsers.userId, userId))),
      );
    });
    return true as const;
  });
}

/** Apps a role of the actor's app is shared with. */
export async function listRoleApps(db: Tx, appId: number, roleId: number): Promise<RoleApp[]> {
  await roleOfApp(db, appId, roleId, 'params.0');
  return db
    .select({ AppId: apps.appId, AppShortName: apps.appShortName, AppName: apps.name, AppType: apps.appType })
    .from(roleApps)
    .innerJoin(apps, eq(apps.appId, roleApps.appId))
    .where(eq(roleApps.roleId, roleId))
    .orderBy(asc(apps.appId));
}

async function roleAppIds(db: Tx, roleId: number) {
  const rows = await db.select({ appId: roleApps.appId }).from(roleApps).where(eq(roleApps.roleId, roleId));
  return rows.map((r) => r.appId).sort((a, b) => a - b);
}

/** Shares a role with apps the actor also belongs to (never an app they have no standing in). */
export async function addRoleApps(ctx: SignedIn, roleId: number, appIds: number[]): Promise<number[]> {
  return ctx.db.transaction(async (tx) => {
    await roleOfApp(tx, ctx.appId, roleId, 'params.0.RoleId');
    const mine = await tx
      .select({ appId: appMembers.appId })
      .from(appMembers)
      .where(eq(appMembers.userId, ctx.userId));
    const missing = appIds.find((id) => !mine.some((m) => m.appId === id));
    if (missing !== undefined)
      throw new AppError(400, 'admin.unknownApp', { id: missing }, 'params.0.AppIds');
    return changeRoleLinks(tx, ctx, roleId, { ...APPS, action: 'role.apps.add' }, () =>
      tx
        .insert(roleApps)
        .values([...new Set(appIds)].map((appId) => ({ roleId, appId })))
        .onConflictDoNothing(),
    );
  });
}

export async function deleteRoleApp(ctx: SignedIn, roleId: number, appId: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    await roleOfApp(tx, ctx.appId, roleId, 'params.0.RoleId');
    await changeRoleLinks(tx, ctx, roleId, { ...APPS, action: 'role.apps.delete' }, async (before) => {
      if (!before.includes(appId))
        throw new AppError(400, 'admin.unknownApp', { id: appId }, 'params.0.AppId');
      await tx.delete(roleApps).where(and(eq(roleApps.roleId, roleId), eq(roleApps.appId, appId)));
    });
    return true as const;
  });
}

/** The menu tree of the product with each menu's functions, for the permission editor. */
export async function permissionMenus(db: Tx, productId: number): Promise<PermissionMenu[]> {
  const [menuRows, funcRows] = await Promise.all([
    db
      .select()
      .from(menus)
      .where(eq(menus.productId, productId))
      .orderBy(asc(menus.parentId), asc(menus.sortOrder), asc(menus.menuId)),
    db.select().from(functions).orderBy(asc(functions.funcId)),
  ]);
  return menuRows.map((m) => ({
    MenuId: m.menuId,
    ParentId: m.parentId,
    RouterName: m.routerName,
    Path: m.path,
    Title: m.title,
    TitleEn: m.titleEn,
    Icon: m.icon,
    Hidden: m.hidden,
    SortOrder: m.sortOrder,
    Functions: funcRows
      .filter((f) => f.menuId === m.menuId)
      .map((f) => ({ FuncId: f.funcId, ApiId: f.apiId, Action: f.action })),
  }));
}

export async function permissionFuncs(db: Tx): Promise<PermissionFunc[]> {
  return db
    .select({
      FuncId: functions.funcId,
      MenuId: functions.menuId,
      ApiId: functions.apiId,
      Action: functions.action,
    })
    .from(functions)
    .orderBy(asc(functions.funcId));
}

async function rolePermissions(db: Tx, roleId: number): Promise<RolePermissions> {
  const [m, f] = await Promise.all([
    db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, roleId)),
    db.select({ id: roleFunctions.funcId }).from(roleFunctions).where(eq(roleFunctions.roleId, roleId)),
  ]);
  const sorted = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
  return { MenuIds: sorted(m), FuncIds: sorted(f) };
}

export async function getRolePermissions(
  db: Tx,
  appId: number,
  roleId: number,
  field = 'params.0',
): Promise<RolePermissions> {
  await roleOfApp(db, appId, roleId, field);
  return rolePermissions(db, roleId);
}

/**
 * Replaces a role's menus and functions together. A function brings its menu, and a menu
 * brings its ancestors, so a granted button is always reachable. Unknown ids are refused.
 */
export async function saveRolePermissions(
  ctx: SignedIn,
  input: { RoleId: number; MenuIds: number[]; FuncIds: number[] },
): Promise<RolePermissions> {
  return ctx.db.transaction(async (tx) => {
    await roleOfApp(tx, ctx.appId, input.RoleId, 'params.0.RoleId');
    const allMenus = await tx.select({ id: menus.menuId, parentId: menus.parentId }).from(menus);
    const parentOf = new Map(allMenus.map((m) => [m.id, m.parentId]));
    const badMenu = input.MenuIds.find((id) => !parentOf.has(id));
    if (badMenu !== undefined)
      throw new AppError(400, 'admin.unknownMenu', { id: badMenu }, 'params.0.MenuIds');
    const funcIds = [...new Set(input.FuncIds)];
    const funcRows = funcIds.length
      ? await tx
          .select({ id: functions.funcId, menuId: functions.menuId })
          .from(functions)
          .where(inArray(functions.funcId, funcIds))
      : [];
    const badFunc = funcIds.find((id) => !funcRows.some((f) => f.id === id));
    if (badFunc !== undefined)
      throw new AppError(400, 'admin.unknownFunction', { id: badFunc }, 'params.0.FuncIds');
    const menuIds = new Set<number>();
    for (const start of [...input.MenuIds, ...funcRows.map((f) => f.menuId)]) {
      let id: number | null | undefined = start;
      while (id !== null && id !== undefined && !menuIds.has(id)) {
        menuIds.add(id);
        id = parentOf.get(id);
      }
    }
    const before = await rolePermissions(tx, input.RoleId);
    await keepingAnAdministrator(tx, [ctx.appId], async () => {
      await tx.delete(roleMenus).where(eq(roleMenus.roleId, input.RoleId));
      await tx.delete(roleFunctions).where(eq(roleFunctions.roleId, input.RoleId));
      if (menuIds.size)
        await tx.insert(roleMenus).values([...menuIds].map((menuId) => ({ roleId: input.RoleId, menuId })));
      if (funcIds.length)
        await tx.insert(roleFunctions).values(funcIds.map((funcId) => ({ roleId: input.RoleId, funcId })));
    });
    const after = await rolePermissions(tx, input.RoleId);
    await audit(tx, ctx, {
      action: 'role.permissions',
      entity: 'role',
      entityId: input.RoleId,
      before,
      after,
    });
    return after;
  });
}

/** Number of roles of an app (app details). */
export async function countRoles(db: Tx, appId: number) {
  const [r] = await db.select({ n: count() }).from(roles).where(eq(roles.appId, appId));
  return r?.n ?? 0;
}
