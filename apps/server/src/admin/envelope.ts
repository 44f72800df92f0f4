import {
  adminMember,
  adminRole,
  adminUserAccount,
  adminUserListQuery,
  adminUserPage,
  adminUserRole,
  adminUserSave,
  appDetails,
  appMembersQuery,
  appType,
  looseId,
  noParams,
  PRODUCT_ID,
  permissionFunc,
  permissionMenu,
  relatedApp,
  roleApp,
  roleAppInput,
  roleAppsAddInput,
  roleListQuery,
  rolePermissions,
  rolePermissionsInput,
  roleSaved,
  roleSaveInput,
  roleUserInput,
  roleUsersAddInput,
  userRolesQuery,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { defineMethod, registerEnvelope } from '../envelope/envelope.js';
import { signedIn } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { assertAccess } from '../http/security.js';
import { APP_TYPES, appMembersList, appDetails as readAppDetails, relatedApps } from './apps.js';
import {
  addRoleApps,
  addRoleUsers,
  deleteRole,
  deleteRoleApp,
  deleteRoleUser,
  getRolePermissions,
  listRoleApps,
  listRoles,
  listRoleUsers,
  listUserRoles,
  permissionFuncs,
  permissionMenus,
  saveRole,
  saveRolePermissions,
} from './roles.js';
import { listUsers, saveUser } from './users.js';

/** The signed-in person of the call (every method here needs one). */
const actorOf = (req: FastifyRequest) => signedIn(req.ctx);
const need = (req: FastifyRequest, apiId: string) => assertAccess(req, { apiId });
const done = z.literal(true);
const ids = z.array(z.number().int());

/**
 * The administration envelope calls of spec 000 section 7 (merchantsuser, merchantsinfo,
 * MerchantsPermission). Every method names the function it needs; every query is scoped to
 * the session's app.
 */
export async function adminEnvelopeRoutes(app: FastifyInstance) {
  const db = app.db;

  registerEnvelope(app, '/api/merchants/merchantsuser', {
    GetList: defineMethod({
      access: { apiId: 'UserManage.query' },
      summary: 'Members of the current app, paged, searchable by name, filtered by state and role',
      params: z.tuple([adminUserListQuery.optional()]),
      result: adminUserPage,
      handler: async (req, [q]) => listUsers(db, actorOf(req).appId, q ?? { PageIndex: 1, PageSize: 10 }),
    }),
    Save: defineMethod({
      access: 'session',
      summary:
        'Create (UserManage.add; initial password must pass the policy) or update (UserManage.edit) a member, with their roles in this app',
      params: z.tuple([adminUserSave]),
      result: adminUserAccount,
      handler: async (req, [input]) => {
        need(req, input.UserId === undefined ? 'UserManage.add' : 'UserManage.edit');
        return saveUser(actorOf(req), input);
      },
    }),
  });

  registerEnvelope(app, '/api/merchants/merchantsinfo', {
    GetRelatedApps: defineMethod({
      access: 'session',
      summary: 'Apps the signed-in user belongs to; the current one is marked',
      params: noParams,
      result: z.array(relatedApp),
      handler: async (req) => {
        const a = actorOf(req);
        return relatedApps(db, a.userId, a.appId);
      },
    }),
    GetMembers: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'Members of the current app (for adding users to a role)',
      params: z.tuple([appMembersQuery.optional()]),
      result: z.array(adminMember),
      handler: async (req, [q]) => appMembersList(db, actorOf(req).appId, q?.Keyword, q?.Limit ?? 100),
    }),
    Get: defineMethod({
      access: 'session',
      summary: 'The current app: names, type, products, member and role counts',
      params: z.tuple([looseId.optional()]),
      result: appDetails,
      handler: async (req, [appId]) => readAppDetails(db, actorOf(req).appId, appId),
    }),
    GetAppTypes: defineMethod({
      access: 'session',
      summary: 'Kinds of app',
      params: noParams,
      result: z.array(appType),
      handler: async () => [...APP_TYPES],
    }),
  });

  registerEnvelope(app, '/api/merchants/MerchantsPermission', {
    GetUserRoleList: defineMethod({
      access: 'session',
      summary:
        "Roles of a user in the current app (without UserId: the caller's own; another user's needs RoleManage.query)",
      params: z.tuple([userRolesQuery.optional()]),
      result: z.array(adminUserRole),
      handler: async (req, [q]) => {
        const a = actorOf(req);
        const userId = q?.UserId ?? a.userId;
        if (userId !== a.userId) need(req, 'RoleManage.query');
        return listUserRoles(db, a.appId, userId);
      },
    }),
    GetRoleUsers: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'Members of a role',
      params: z.tuple([looseId]),
      result: z.array(adminMember),
      handler: async (req, [roleId]) => listRoleUsers(db, actorOf(req).appId, roleId),
    }),
    DeleteRoleUser: defineMethod({
      access: { apiId: 'RoleManage.edit' },
      summary: 'Remove a user from a role (never the last enabled administrator)',
      params: z.tuple([roleUserInput]),
      result: done,
      handler: async (req, [p]) => deleteRoleUser(actorOf(req), p.RoleId, p.UserId),
    }),
    GetRoleApps: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'Apps a role is shared with',
      params: z.tuple([looseId]),
      result: z.array(roleApp),
      handler: async (req, [roleId]) => listRoleApps(db, actorOf(req).appId, roleId),
    }),
    DeleteRoleApp: defineMethod({
      access: { apiId: 'RoleManage.edit' },
      summary: 'Stop sharing a role with an app',
      params: z.tuple([roleAppInput]),
      result: done,
      handler: async (req, [p]) => deleteRoleApp(actorOf(req), p.RoleId, p.AppId),
    }),
    GetRoleList: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'Roles of the current app (AppId, when given, must be the current app)',
      params: z.tuple([roleListQuery.optional()]),
      result: z.array(adminRole),
      handler: async (req, [q]) => {
        const a = actorOf(req);
        if (q?.AppId !== undefined && q.AppId !== a.appId)
          throw new AppError(403, 'admin.otherApp', { id: a.appId }, 'params.0.AppId');
        return listRoles(db, a.appId, q?.RoleName);
      },
    }),
    DeleteRole: defineMethod({
      access: { apiId: 'RoleManage.delete' },
      summary: 'Delete a role with its memberships and grants',
      params: z.tuple([looseId]),
      result: done,
      handler: async (req, [roleId]) => deleteRole(actorOf(req), roleId),
    }),
    AddRole: defineMethod({
      access: 'session',
      summary: 'Add a role (RoleManage.add) or rename one when RoleId is given (RoleManage.edit)',
      params: z.tuple([roleSaveInput]),
      result: roleSaved,
      handler: async (req, [input]) => {
        need(req, input.RoleId === undefined ? 'RoleManage.add' : 'RoleManage.edit');
        return saveRole(actorOf(req), input);
      },
    }),
    AddRoleApp: defineMethod({
      access: { apiId: 'RoleManage.edit' },
      summary: 'Share a role with apps the caller also belongs to',
      params: z.tuple([roleAppsAddInput]),
      result: ids,
      handler: async (req, [p]) => addRoleApps(actorOf(req), p.RoleId, p.AppIds),
    }),
    AddRoleUser: defineMethod({
      access: { apiId: 'RoleManage.edit' },
      summary: 'Add members of the current app to a role',
      params: z.tuple([roleUsersAddInput]),
      result: ids,
      handler: async (req, [p]) => addRoleUsers(actorOf(req), p.RoleId, p.UserIds),
    }),
    GetPermissionMenus: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'The menu tree of a product (22) with each menu’s functions',
      params: z.tuple([looseId.optional()]),
      result: z.array(permissionMenu),
      handler: async (_req, [productId]) => permissionMenus(db, productId ?? PRODUCT_ID),
    }),
    GetRolePermissions: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'Menu ids and function ids a role holds',
      params: z.tuple([looseId]),
      result: rolePermissions,
      handler: async (req, [roleId]) => getRolePermissions(db, actorOf(req).appId, roleId),
    }),
    SaveRolePermissionAndFunctions: defineMethod({
      access: { apiId: 'RoleManage.edit' },
      summary: 'Replace the menus and functions of a role together',
      params: z.tuple([rolePermissionsInput]),
      result: rolePermissions,
      handler: async (req, [p]) => saveRolePermissions(actorOf(req), p),
    }),
    GetPermissionFuncs: defineMethod({
      access: { apiId: 'RoleManage.query' },
      summary: 'Every function (button or call) with its menu and ApiId',
      params: noParams,
      result: z.array(permissionFunc),
      handler: async () => permissionFuncs(db),
    }),
  });
}
