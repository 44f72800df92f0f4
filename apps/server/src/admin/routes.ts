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
  restOk,
  rolePermissions,
} from '@crdp/core';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { appMembers, auditLog, diseases } from '../db/schema/index.js';
import { signedIn } from '../http/context.js';
import { ok } from '../http/reply.js';
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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const tags = ['admin'];

  r.get(
    '/api/v0.1/role',
    {
      config: { access: { apiId: 'RoleManage.query' } },
      schema: {
        tags,
        summary: 'Roles of the current app',
        querystring: adminRolesQuery,
        response: { 200: restOk(z.array(adminRole)) },
      },
    },
    async (req) => ok(await listRoles(db, actorOf(req).appId, req.query.name)),
  );
  r.get(
    '/api/v0.1/role_permission',
    {
      config: { access: { apiId: 'RoleManage.query' } },
      schema: {
        tags,
        summary: 'Menu and function ids of a role',
        querystring: adminRoleIdQuery,
        response: { 200: restOk(rolePermissions) },
      },
    },
    async (req) => ok(await getRolePermissions(db, actorOf(req).appId, req.query.role_id, 'query.role_id')),
  );
  r.get(
    '/api/v0.1/role_user',
    {
      config: { access: { apiId: 'RoleManage.query' } },
      schema: {
        tags,
        summary: 'Members of a role',
        querystring: adminRoleIdQuery,
        response: { 200: restOk(z.array(adminMember)) },
      },
    },
    async (req) => ok(await listRoleUsers(db, actorOf(req).appId, req.query.role_id, 'query.role_id')),
  );
  r.get(
    '/api/v0.1/menu',
    {
      config: { access: { apiId: 'RoleManage.query' } },
      schema: {
        tags,
        summary: 'The menu tree of product 22 with each menu’s functions',
        response: { 200: restOk(z.array(permissionMenu)) },
      },
    },
    async () => ok(await permissionMenus(db, PRODUCT_ID)),
  );

  r.get(
    '/api/v0.1/users',
    {
      config: { access: { apiId: 'UserManage.query' } },
      schema: {
        tags,
        summary: 'Members of the current app, paged (GET user of spec 000 is the signed-in user)',
        querystring: adminUsersQuery,
        response: { 200: restOk(adminUserPage) },
      },
    },
    async (req) => {
      const q = req.query;
      return ok(
        await listUsers(db, actorOf(req).appId, {
          PageIndex: q.page ?? 1,
          PageSize: q.size ?? 10,
          Keyword: q.keyword,
          Enabled: q.enabled,
          RoleId: q.role_id,
        }),
      );
    },
  );
  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    r.post(
      `/api/v0.1/users/:id/${action}`,
      {
        config: { access: { apiId: `UserManage.${action}` }, ownedIds: membersOf },
        schema: {
          tags,
          summary: enabled ? 'Enable a member' : 'Disable a member; their sessions end at once',
          params: idParams,
          response: { 200: restOk(adminUserAccount) },
        },
      },
      async (req) => ok(await setUserEnabled(actorOf(req), req.params.id, enabled)),
    );
  }
  r.post(
    '/api/v0.1/users/:id/reset_password',
    {
      config: { access: { apiId: 'UserManage.edit' }, ownedIds: membersOf },
      schema: {
        tags,
        summary: 'Set a new password (or, without one, make a temporary password shown once); sessions end',
        params: idParams,
        body: adminResetPasswordBody,
        response: { 200: restOk(adminPasswordReset) },
      },
    },
    async (req) =>
      ok(
        await resetPassword(
          actorOf(req),
          req.params.id,
          req.body?.Password,
          generatePasswordLike,
          req.body?.OldPassword,
        ),
      ),
  );

  r.get(
    '/api/v0.1/config/module',
    {
      config: { access: { apiId: 'SystemSet.query' } },
      schema: {
        tags,
        summary: 'Module configuration of the current app (titles, logo, environment, company, mode)',
        response: { 200: restOk(moduleSettings) },
      },
    },
    async (req) => ok(await readModuleSettings(db, actorOf(req).appId)),
  );
  r.put(
    '/api/v0.1/config/module',
    {
      config: { access: { apiId: 'SystemSet.edit' } },
      schema: {
        tags,
        summary: 'Change the module configuration of the current app',
        body: moduleSettings,
        response: { 200: restOk(moduleSettings) },
      },
    },
    async (req) => ok(await saveModuleSettings(actorOf(req), req.body)),
  );

  r.get(
    '/api/v0.1/disease',
    {
      config: { access: { apiId: 'SystemMaintainDisease.query' } },
      schema: {
        tags,
        summary: 'The disease dictionary of the current app',
        querystring: adminDiseaseQuery,
        response: { 200: restOk(adminDiseasePage) },
      },
    },
    async (req) => {
      const q = req.query;
      return ok(
        await listDiseases(db, actorOf(req).appId, {
          keyword: q.keyword,
          category: q.category,
          enabled: q.enabled,
          page: q.page ?? 1,
          size: q.size ?? 10,
        }),
      );
    },
  );
  r.post(
    '/api/v0.1/disease',
    {
      config: { access: { apiId: 'SystemMaintainDisease.add' } },
      schema: {
        tags,
        summary: 'Add a disease',
        body: adminDiseaseCreate,
        response: { 200: restOk(adminDisease) },
      },
    },
    async (req) => ok(await addDisease(actorOf(req), req.body)),
  );
  r.patch(
    '/api/v0.1/disease/:id',
    {
      config: { access: { apiId: 'SystemMaintainDisease.edit' }, ownedIds: diseasesOf },
      schema: {
        tags,
        summary: 'Change a disease (name, ICD-10 code, category, enabled)',
        params: idParams,
        body: adminDiseasePatch,
        response: { 200: restOk(adminDisease) },
      },
    },
    async (req) => ok(await editDisease(actorOf(req), req.params.id, req.body)),
  );
  r.delete(
    '/api/v0.1/disease/:id',
    {
      config: { access: { apiId: 'SystemMaintainDisease.delete' }, ownedIds: diseasesOf },
      schema: {
        tags,
        summary: 'Delete a disease',
        params: idParams,
        response: { 200: restOk(z.literal(true)) },
      },
    },
    async (req) => ok(await deleteDisease(actorOf(req), req.params.id)),
  );

  r.get(
    '/api/v0.1/audit',
    {
      config: { access: { apiId: 'LogActivationLog.query' } },
      schema: {
        tags,
        summary: 'The audit trail of the current app, filterable by user, action, object, outcome and time',
        querystring: auditLogQuery,
        response: { 200: restOk(auditLogPage) },
      },
    },
    async (req) => {
      const q = req.query;
      return ok(
        await listAudit(db, actorOf(req).appId, {
          user: q.user,
          action: q.action,
          entity: q.entity,
          entityId: q.entity_id,
          outcome: q.outcome,
          from: q.from ? new Date(q.from) : undefined,
          to: q.to ? new Date(q.to) : undefined,
          page: q.page ?? 1,
          size: q.size ?? 20,
        }),
      );
    },
  );
  r.get(
    '/api/v0.1/audit/:id',
    {
      config: { access: { apiId: 'LogActivationDetails.get' }, ownedIds: auditOf },
      schema: {
        tags,
        summary: 'One audit entry with the state before and after',
        params: idParams,
        response: { 200: restOk(auditLogEntry) },
      },
    },
    async (req) => ok(await auditEntry(db, actorOf(req).appId, req.params.id)),
  );
}
