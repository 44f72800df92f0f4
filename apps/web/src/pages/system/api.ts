import { callEnvelope, rest } from '../../api/client';

/** Service calls of the administration pages (spec 000 section 7 and the admin REST routes). */
const USER = 'api/merchants/merchantsuser';
const INFO = 'api/merchants/merchantsinfo';
const PERM = 'api/merchants/MerchantsPermission';

export interface Role {
  RoleId: number;
  RoleName: string;
  Description: string;
  UserCount: number;
  CreatedAt: string;
}
export interface MemberUser {
  UserId: number;
  UserName: string;
  NickName: string;
  Enabled: boolean;
}
export interface AdminUser extends MemberUser {
  LastLoginAt: string | null;
  CreatedAt: string;
  Roles: Array<{ RoleId: number; RoleName: string }>;
}
export interface PermissionMenu {
  MenuId: number;
  ParentId: number | null;
  RouterName: string;
  Title: string;
  TitleEn: string;
  Hidden: boolean;
  Functions: Array<{ FuncId: number; ApiId: string; Action: string }>;
}
export interface RelatedApp {
  AppId: number;
  AppShortName: string;
  AppName: string;
  AppType: string;
  Current?: boolean;
}
export interface Disease {
  id: number;
  name: string;
  icd10: string;
  category: string;
  enabled: boolean;
  updatedAt: string;
}
export interface ModuleSettings {
  documentTitle: string;
  menuTitle: string;
  loginTitle: string;
  loginLogo: string;
  environment: string;
  company: string;
  mode: 'single-center' | 'multi-center';
}
export interface AuditRow {
  id: number;
  at: string;
  userId: number | null;
  userName: string;
  action: string;
  entity: string;
  entityId: string;
  outcome: 'success' | 'failure' | 'denied';
  reason: string | null;
  ip: string;
  requestId: string;
}
export interface AuditDetail extends AuditRow {
  before: unknown;
  after: unknown;
}
export interface Page<T> {
  total: number;
  items: T[];
}

export const roleApi = {
  list: (RoleName?: string) => callEnvelope<Role[]>(PERM, 'GetRoleList', [{ RoleName }]),
  save: (p: { RoleId?: number; RoleName: string; Description?: string }) =>
    callEnvelope<Role>(PERM, 'AddRole', [p], { silent: true }),
  remove: (RoleId: number) => callEnvelope<boolean>(PERM, 'DeleteRole', [RoleId]),
  users: (RoleId: number) => callEnvelope<MemberUser[]>(PERM, 'GetRoleUsers', [RoleId]),
  addUsers: (RoleId: number, UserIds: number[]) =>
    callEnvelope<number[]>(PERM, 'AddRoleUser', [{ RoleId, UserIds }]),
  removeUser: (RoleId: number, UserId: number) =>
    callEnvelope<boolean>(PERM, 'DeleteRoleUser', [{ RoleId, UserId }]),
  apps: (RoleId: number) => callEnvelope<RelatedApp[]>(PERM, 'GetRoleApps', [RoleId]),
  addApps: (RoleId: number, AppIds: number[]) =>
    callEnvelope<number[]>(PERM, 'AddRoleApp', [{ RoleId, AppIds }]),
  removeApp: (RoleId: number, AppId: number) =>
    callEnvelope<boolean>(PERM, 'DeleteRoleApp', [{ RoleId, AppId }]),
  menus: () => callEnvelope<PermissionMenu[]>(PERM, 'GetPermissionMenus', [22]),
  permissions: (RoleId: number) =>
    callEnvelope<{ MenuIds: number[]; FuncIds: number[] }>(PERM, 'GetRolePermissions', [RoleId]),
  savePermissions: (p: { RoleId: number; MenuIds: number[]; FuncIds: number[] }) =>
    callEnvelope<{ MenuIds: number[]; FuncIds: number[] }>(PERM, 'SaveRolePermissionAndFunctions', [p]),
};

export const appApi = {
  related: () => callEnvelope<RelatedApp[]>(INFO, 'GetRelatedApps', []),
  members: (Keyword?: string) => callEnvelope<MemberUser[]>(INFO, 'GetMembers', [{ Keyword, Limit: 200 }]),
};

export const userApi = {
  list: (q: { PageIndex: number; PageSize: number; Keyword?: string; Enabled?: boolean; RoleId?: number }) =>
    callEnvelope<{ Total: number; List: AdminUser[] }>(USER, 'GetList', [q]),
  save: (p: {
    UserId?: number;
    UserName: string;
    NickName?: string;
    Password?: string;
    RoleIds?: number[];
  }) => callEnvelope<AdminUser>(USER, 'Save', [p], { silent: true }),
  setEnabled: (id: number, enabled: boolean) =>
    rest<AdminUser>({ url: `users/${id}/${enabled ? 'enable' : 'disable'}`, method: 'POST', data: {} }),
  resetPassword: (id: number, Password?: string) =>
    rest<{ Password: string | null }>({
      url: `users/${id}/reset_password`,
      method: 'POST',
      data: { Password },
    }),
};

export const diseaseApi = {
  list: (q: { keyword?: string; category?: string; enabled?: boolean; page: number; size: number }) =>
    rest<Page<Disease>>({ url: 'disease', params: q }),
  add: (d: Omit<Disease, 'id' | 'updatedAt'>) =>
    rest<Disease>({ url: 'disease', method: 'POST', data: d, silent: true }),
  edit: (id: number, d: Partial<Omit<Disease, 'id' | 'updatedAt'>>) =>
    rest<Disease>({ url: `disease/${id}`, method: 'PATCH', data: d, silent: true }),
  remove: (id: number) => rest<boolean>({ url: `disease/${id}`, method: 'DELETE' }),
};

export const settingsApi = {
  get: () => rest<ModuleSettings>({ url: 'config/module' }),
  save: (s: ModuleSettings) =>
    rest<ModuleSettings>({ url: 'config/module', method: 'PUT', data: s, silent: true }),
};

export const auditApi = {
  list: (q: Record<string, string | number | undefined>) => rest<Page<AuditRow>>({ url: 'audit', params: q }),
  get: (id: number) => rest<AuditDetail>({ url: `audit/${id}` }),
};

/** The field a refused call names (`params.0.RoleName` -> `RoleName`, `body.name` -> `name`). */
export function fieldOf(error: unknown): string | undefined {
  const body = (error as { body?: { field?: string; error?: { field?: string } } })?.body;
  const field = body?.error?.field ?? body?.field;
  return field?.split('.').pop();
}

export interface DatabaseSummary {
  engine: 'embedded' | 'postgresql';
  app: { id: number; name: string };
  tables: Array<{ name: string; rows: number }>;
  totalRows: number;
  leftOut: string[];
}
export const databaseApi = {
  summary: () => rest<DatabaseSummary>({ url: 'system/database' }),
};
