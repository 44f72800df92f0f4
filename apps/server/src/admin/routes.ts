import {
  adminDisease,
  adminDiseaseCreate,
  adminDiseasePage,
  adminDiseasePatch,
  adminDiseaseQuery,
  adminMember,
  adminPasswordReset,
  adminResetPasswordBody,
  adminRole,
  adminRoleIdQuery,
  adminRolesQuery,
  adminUserAccount,
  adminUserPage,
  adminUsersQuery,
  auditLogEntry,
  auditLogPage,
  auditLogQuery,
  looseId,
  moduleSettings,
  PRODUCT_ID,
  permissionMenu,
  rolePermissions,
} from '@crdp/core';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { appMembers, auditLog, diseases } from '../db/schema/index.js';
import { signedIn } from '../http/context.js';
import { restRoutes } from '../http/route.js';
import { auditEntry, auditScope, listAudit } from './audit-log.js';
import { addDisease, deleteDisease, editDisease, listDiseases } from './diseases.js';
import { generatePasswordLike } from './password-gen.js';
import { getRolePermissions, listRoles, listRoleUsers, permissionMenus } from './roles.js';
import { readModuleSettings, saveModuleSettings } from './settings.js';
import { listUsers, resetPassword, setUserEnabled } from './users.js';

/** The signed-in administrator of the request (the route's access already required one). */
const actorOf = (req: FastifyRequest) => signedIn(req.ctx);
const idParams = z.object({ id: looseId });

/** Real ids of one app's objects, for the authorization matrix's cross-app check. */
const membersOf = async (db: Db, appId: number) =>
  (await db.select({ id: appMembers.userId }).from(appMembers).where(eq(appMembers.appId, appId))).map(
    (r) => ({
      id: r.id,
    }),
  );
const diseasesOf = async (db: Db, appId: number) =>
  (await db.select({ id: diseases.diseaseId }).from(diseases).where(eq(diseases.appId, appId))).map((r) => ({
    id: r.id,
  }));
const auditOf = async (db: Db, appId: number) =>
  (
    await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.appId, appId), auditScope(db, appId)))
      .orderBy(asc(auditLog.id))
      .limit(20)
  ).map((r) => ({ id: r.id }));

/** REST routes of the administration area under /api/v0.1. */
export async function adminRoutes(app: FastifyInstance) {
  const db = app.db;
  const tags = ['admin'];
  const api = restRoutes(app, { tags });

  api.get(
    '/api/v0.1/role',
    {
      access: { apiId: 'RoleManage.query' },
      summary: 'Roles of the current app',
      query: adminRolesQuery,
      answer: z.array(adminRole),
    },
    (req) => listRoles(db, actorOf(req).appId, req.query.name),
  );
  api.get(
    '/api/v0.1/role_permission',
    {
      access: { apiId: 'RoleManage.query' },
      summary: 'Menu and function ids of a role',
      query: adminRoleIdQuery,
      answer: rolePermissions,
    },
    (req) => getRolePermissions(db, actorOf(req).appId, req.query.role_id, 'query.role_id'),
  );
  api.get(
    '/api/v0.1/role_user',
    {
      access: { apiId: 'RoleManage.query' },
      summary: 'Members of a role',
      query: adminRoleIdQuery,
      answer: z.array(adminMember),
    },
    (req) => listRoleUsers(db, actorOf(req).appId, req.query.role_id, 'query.role_id'),
  );
  api.get(
    '/api/v0.1/menu',
    {
      access: { apiId: 'RoleManage.query' },
      summary: 'The menu tree of product 22 with each menu’s functions',
      answer: z.array(permissionMenu),
    },
    () => permissionMenus(db, PRODUCT_ID),
  );

  api.get(
    '/api/v0.1/users',
    {
      access: { apiId: 'UserManage.query' },
      summary: 'Members of the current app, paged (GET user of spec 000 is the signed-in user)',
      query: adminUsersQuery,
      answer: adminUserPage,
    },
    async (req) => {
      const q = req.query;
      return await listUsers(db, actorOf(req).appId, {
        PageIndex: q.page ?? 1,
        PageSize: q.size ?? 10,
        Keyword: q.keyword,
        Enabled: q.enabled,
        RoleId: q.role_id,
      });
    },
  );
  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    api.post(
      `/api/v0.1/users/:id/${action}`,
      {
        access: { apiId: `UserManage.${action}` },
        ownedIds: membersOf,
        summary: enabled ? 'Enable a member' : 'Disable a member; their sessions end at once',
        params: idParams,
        answer: adminUserAccount,
      },
      (req) => setUserEnabled(actorOf(req), req.params.id, enabled),
    );
  }
  api.post(
    '/api/v0.1/users/:id/reset_password',
    {
      access: { apiId: 'UserManage.edit' },
      ownedIds: membersOf,
      summary: 'Set a new password (or, without one, make a temporary password shown once); sessions end',
      params: idParams,
      body: adminResetPasswordBody,
      answer: adminPasswordReset,
    },
    (req) =>
      resetPassword(
        actorOf(req),
        req.params.id,
        req.body?.Password,
        generatePasswordLike,
        req.body?.OldPassword,
      ),
  );

  api.get(
    '/api/v0.1/config/module',
    {
      access: { apiId: 'SystemSet.query' },
      summary: 'Module configuration of the current app (titles, logo, environment, company, mode)',
      answer: moduleSettings,
    },
    (req) => readModuleSettings(db, actorOf(req).appId),
  );
  api.put(
    '/api/v0.1/config/module',
    {
      access: { apiId: 'SystemSet.edit' },
      summary: 'Change the module configuration of the current app',
      body: moduleSettings,
      answer: moduleSettings,
    },
    (req) => saveModuleSettings(actorOf(req), req.body),
  );

  api.get(
    '/api/v0.1/disease',
    {
      access: { apiId: 'SystemMaintainDisease.query' },
      summary: 'The disease dictionary of the current app',
      query: adminDiseaseQuery,
      answer: adminDiseasePage,
    },
    async (req) => {
      const q = req.query;
      return await listDiseases(db, actorOf(req).appId, {
        keyword: q.keyword,
        category: q.category,
        enabled: q.enabled,
        page: q.page ?? 1,
        size: q.size ?? 10,
      });
    },
  );
  api.post(
    '/api/v0.1/disease',
    {
      access: { apiId: 'SystemMaintainDisease.add' },
      summary: 'Add a disease',
      body: adminDiseaseCreate,
      answer: adminDisease,
    },
    (req) => addDisease(actorOf(req), req.body),
  );
  api.patch(
    '/api/v0.1/disease/:id',
    {
      access: { apiId: 'SystemMaintainDisease.edit' },
      ownedIds: diseasesOf,
      summary: 'Change a disease (name, ICD-10 code, category, enabled)',
      params: idParams,
      body: adminDiseasePatch,
      answer: adminDisease,
    },
    (req) => editDisease(actorOf(req), req.params.id, req.body),
  );
  api.delete(
    '/api/v0.1/disease/:id',
    {
      access: { apiId: 'SystemMaintainDisease.delete' },
      ownedIds: diseasesOf,
      summary: 'Delete a disease',
      params: idParams,
      answer: z.literal(true),
    },
    (req) => deleteDisease(actorOf(req), req.params.id),
  );

  api.get(
    '/api/v0.1/audit',
    {
      access: { apiId: 'LogActivationLog.query' },
      summary: 'The audit trail of the current app, filterable by user, action, object, outcome and time',
      query: auditLogQuery,
      answer: auditLogPage,
    },
    async (req) => {
      const q = req.query;
      return await listAudit(db, actorOf(req).appId, {
        user: q.user,
        action: q.action,
        entity: q.entity,
        entityId: q.entity_id,
        outcome: q.outcome,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        page: q.page ?? 1,
        size: q.size ?? 20,
      });
    },
  );
  api.get(
    '/api/v0.1/audit/:id',
    {
      access: { apiId: 'LogActivationDetails.get' },
      ownedIds: auditOf,
      summary: 'One audit entry with the state before and after',
      params: idParams,
      answer: auditLogEntry,
    },
    (req) => auditEntry(db, actorOf(req).appId, req.params.id),
  );
}
