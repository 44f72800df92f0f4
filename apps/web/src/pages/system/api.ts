import type {
  AdminDisease,
  AdminDiseaseCreate,
  AdminDiseasePage,
  AdminDiseasePatch,
  AdminDiseaseQuery,
  AdminMember,
  AdminPasswordReset,
  AdminRole,
  AdminUser,
  AdminUserAccount,
  AdminUserListQuery,
  AdminUserPage,
  AdminUserSave,
  AuditLogEntry,
  AuditLogPage,
  AuditLogQuery,
  AuditLogRow,
  DatabaseSummary,
  ModuleSettings,
  PermissionMenu,
  RelatedApp,
  RoleApp,
  RolePermissions,
  RolePermissionsInput,
  RoleSaved,
  RoleSaveInput,
} from '@crdp/core';
import { callEnvelope, rest } from '../../api/client';

/** Shapes of the administration calls: contracts of @crdp/core (the server answers with them). */
export type {
  AdminDisease,
  AdminMember,
  AdminRole,
  AdminUser,
  AuditLogEntry,
  AuditLogQuery,
  AuditLogRow,
  DatabaseSummary,
  ModuleSettings,
  PermissionMenu,
  RelatedApp,
  RoleApp,
};

/** Service calls of the administration pages (spec 000 section 7 and the admin REST routes). */
const USER = 'api/merchants/merchantsuser';
const INFO = 'api/merchants/merchantsinfo';
const PERM = 'api/merchants/MerchantsPermission';

/** A query string as the web sends it: the contract's names, numbers and flags as they are. */
type QueryOf<Q> = { [K in keyof Q]?: string | number | boolean | undefined };

export const roleApi = {
  list: (RoleName?: string) => callEnvelope<AdminRole[]>(PERM, 'GetRoleList', [{ RoleName }]),
  save: (p: RoleSaveInput) => callEnvelope<RoleSaved>(PERM, 'AddRole', [p], { silent: true }),
  remove: (RoleId: number) => callEnvelope<true>(PERM, 'DeleteRole', [RoleId]),
  users: (RoleId: number) => callEnvelope<AdminMember[]>(PERM, 'GetRoleUsers', [RoleId]),
  addUsers: (RoleId: number, UserIds: number[]) =>
    callEnvelope<number[]>(PERM, 'AddRoleUser', [{ RoleId, UserIds }]),
  removeUser: (RoleId: number, UserId: number) =>
    callEnvelope<true>(PERM, 'DeleteRoleUser', [{ RoleId, UserId }]),
  apps: (RoleId: number) => callEnvelope<RoleApp[]>(PERM, 'GetRoleApps', [RoleId]),
  addApps: (RoleId: number, AppIds: number[]) =>
    callEnvelope<number[]>(PERM, 'AddRoleApp', [{ RoleId, AppIds }]),
  removeApp: (RoleId: number, AppId: number) =>
    callEnvelope<true>(PERM, 'DeleteRoleApp', [{ RoleId, AppId }]),
  menus: () => callEnvelope<PermissionMenu[]>(PERM, 'GetPermissionMenus', [22]),
  permissions: (RoleId: number) => callEnvelope<RolePermissions>(PERM, 'GetRolePermissions', [RoleId]),
  savePermissions: (p: RolePermissionsInput) =>
    callEnvelope<RolePermissions>(PERM, 'SaveRolePermissionAndFunctions', [p]),
};

export const appApi = {
  related: () => callEnvelope<RelatedApp[]>(INFO, 'GetRelatedApps', []),
  members: (Keyword?: string) => callEnvelope<AdminMember[]>(INFO, 'GetMembers', [{ Keyword, Limit: 200 }]),
};

export const userApi = {
  list: (q: AdminUserListQuery) => callEnvelope<AdminUserPage>(USER, 'GetList', [q]),
  save: (p: AdminUserSave) => callEnvelope<AdminUserAccount>(USER, 'Save', [p], { silent: true }),
  setEnabled: (id: number, enabled: boolean) =>
    rest<AdminUserAccount>({
      url: `users/${id}/${enabled ? 'enable' : 'disable'}`,
      method: 'POST',
      data: {},
    }),
  resetPassword: (id: number, Password?: string) =>
    rest<AdminPasswordReset>({
      url: `users/${id}/reset_password`,
      method: 'POST',
      data: { Password },
    }),
};

export const diseaseApi = {
  list: (q: QueryOf<AdminDiseaseQuery>) => rest<AdminDiseasePage>({ url: 'disease', params: q }),
  add: (d: AdminDiseaseCreate) =>
    rest<AdminDisease>({ url: 'disease', method: 'POST', data: d, silent: true }),
  edit: (id: number, d: AdminDiseasePatch) =>
    rest<AdminDisease>({ url: `disease/${id}`, method: 'PATCH', data: d, silent: true }),
  remove: (id: number) => rest<true>({ url: `disease/${id}`, method: 'DELETE' }),
};

export const settingsApi = {
  get: () => rest<ModuleSettings>({ url: 'config/module' }),
  save: (s: ModuleSettings) =>
    rest<ModuleSettings>({ url: 'config/module', method: 'PUT', data: s, silent: true }),
};

export const auditApi = {
  list: (q: QueryOf<AuditLogQuery>) => rest<AuditLogPage>({ url: 'audit', params: q }),
  get: (id: number) => rest<AuditLogEntry>({ url: `audit/${id}` }),
};

/** The field a refused call names (`params.0.RoleName` -> `RoleName`, `body.name` -> `name`). */
export function fieldOf(error: unknown): string | undefined {
  const body = (error as { body?: { field?: string; error?: { field?: string } } })?.body;
  const field = body?.error?.field ?? body?.field;
  return field?.split('.').pop();
}

export const databaseApi = {
  summary: () => rest<DatabaseSummary>({ url: 'system/database' }),
};
