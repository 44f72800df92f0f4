import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { looseId } from './auth.js';
import { jsonValue, stamps, timestamp, timestampOrNull } from './common.js';

/**
 * Contracts of the administration area (spec 000 §6 and §7): the envelope calls of
 * `api/merchants/merchantsuser`, `merchantsinfo` and `MerchantsPermission`, and the REST routes
 * `role`, `role_permission`, `role_user`, `menu`, `users`, `config/module`, `disease` and `audit`.
 * Server: apps/server/src/admin; web: apps/web/src/pages/system.
 *
 * The limits are exported so the web's form rules say what the server checks.
 */

/**
 * A string of at most `max` UTF-16 units, trimmed, without control characters or lone
 * surrogates; texts of 500 units or more are free text, where tab and line breaks are allowed.
 */
const text = (max: number, opts: { min?: number; required?: string } = {}) =>
  safeText(max, { ...opts, multiline: max >= 500 });

/** A positive integer in a query string. */
const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');
const queryText = text(100);
const queryId = queryInt(1, 2_147_483_647);
const idList = (max: number) => z.array(looseId).max(max);

// ---------------------------------------------------------------------------------------------
// Limits (the web's form rules read them)

export const ROLE_NAME_MAX = 30;
export const ROLE_DESCRIPTION_MAX = 200;
/** User names: 2 to 64 letters, digits or `. _ @ -` (the sign-in identifier of the whole platform). */
export const USER_NAME_PATTERN = /^[\w.@-]{2,64}$/;
export const NICKNAME_MAX = 50;
/** A password an administrator sets; the policy (8 to 32 code points …) is checked on top. */
export const ADMIN_PASSWORD_MAX = 64;
export const DISEASE_NAME_MAX = 100;
export const DISEASE_CATEGORY_MAX = 50;
/** An ICD-10 code like `I10` or `E11.9` (upper case; the server upper-cases what it gets). */
export const DISEASE_ICD10_PATTERN = /^[A-Z]\d{2}(\.[0-9A-Z]{1,4})?$/;
export const SITE_TITLE_MAX = 60;
export const SITE_ENVIRONMENT_MAX = 60;
export const SITE_LOGO_MAX = 200_000;

// ---------------------------------------------------------------------------------------------
// Users (merchantsuser, REST users)

export const adminUserName = z
  .string()
  .trim()
  .regex(USER_NAME_PATTERN, 'UserName must be 2 to 64 letters, digits or . _ @ -');
export const adminPassword = z
  .string()
  .min(1)
  .max(ADMIN_PASSWORD_MAX)
  .refine((v) => v.length <= ADMIN_PASSWORD_MAX, {
    message: `must be at most ${ADMIN_PASSWORD_MAX} characters`,
  });

/** `merchantsuser.GetList` params[0]. */
export const adminUserListQuery = z.object({
  PageIndex: z.number().int().min(1).max(100_000).default(1),
  PageSize: z.number().int().min(1).max(100).default(10),
  Keyword: text(100).optional(),
  Enabled: z.boolean().optional(),
  RoleId: looseId.optional(),
});
export type AdminUserListQuery = z.input<typeof adminUserListQuery>;

/** Query of `GET /api/v0.1/users`. */
export const adminUsersQuery = z.object({
  page: queryInt(1, 100_000).optional(),
  size: queryInt(1, 100).optional(),
  keyword: queryText.optional(),
  enabled: queryBool.optional(),
  role_id: queryId.optional(),
});

/** `merchantsuser.Save` params[0]: without `UserId` a new member (with a password), else a change. */
export const adminUserSave = z.object({
  UserId: looseId.optional(),
  UserName: adminUserName,
  NickName: text(NICKNAME_MAX).optional(),
  Password: adminPassword.optional(),
  /** The actor's own current password, needed when they set their own. */
  OldPassword: adminPassword.optional(),
  Enabled: z.boolean().optional(),
  /** Roles in the current app; when given they replace the user's roles there. */
  RoleIds: idList(200).optional(),
});
export type AdminUserSave = z.input<typeof adminUserSave>;

/** Body of `POST /api/v0.1/users/:id/reset_password`; without `Password` a temporary one is made. */
export const adminResetPasswordBody = z
  .object({
    Password: adminPassword.optional(),
    /** Needed when administrators reset their own password. */
    OldPassword: adminPassword.optional(),
  })
  .optional();

/** What an administrator sees of a user account: never the password hash. */
export const adminUserAccount = z.object({
  UserId: z.number().int(),
  UserName: z.string(),
  NickName: z.string(),
  Enabled: z.boolean(),
  LastLoginAt: timestampOrNull,
  CreatedAt: timestamp,
});
export type AdminUserAccount = z.infer<typeof adminUserAccount>;

/** A role as a user's role list shows it. */
export const adminUserRole = z.object({ RoleId: z.number().int(), RoleName: z.string() });
export type AdminUserRole = z.infer<typeof adminUserRole>;

/** A member of the app with their roles there (user list). */
export const adminUser = adminUserAccount.extend({ Roles: z.array(adminUserRole) });
export type AdminUser = z.infer<typeof adminUser>;

export const adminUserPage = z.object({
  Total: z.number().int(),
  PageIndex: z.number().int(),
  PageSize: z.number().int(),
  List: z.array(adminUser),
});
export type AdminUserPage = z.infer<typeof adminUserPage>;

/** A password reset: the temporary password (shown once) when none was given, else null. */
export const adminPasswordReset = z.object({ UserId: z.number().int(), Password: z.string().nullable() });
export type AdminPasswordReset = z.infer<typeof adminPasswordReset>;

/** A member as pickers and role member lists show them. */
export const adminMember = z.object({
  UserId: z.number().int(),
  UserName: z.string(),
  NickName: z.string(),
  Enabled: z.boolean(),
});
export type AdminMember = z.infer<typeof adminMember>;

// ---------------------------------------------------------------------------------------------
// Apps (merchantsinfo)

/** `merchantsinfo.GetMembers` params[0]. */
export const appMembersQuery = z.object({
  Keyword: text(100).optional(),
  Limit: z.number().int().min(1).max(500).default(100),
});
export type AppMembersQuery = z.input<typeof appMembersQuery>;

/** An app a role is shared with. */
export const roleApp = z.object({
  AppId: z.number().int(),
  AppShortName: z.string(),
  AppName: z.string(),
  AppType: z.string(),
});
export type RoleApp = z.infer<typeof roleApp>;

/** An app of the signed-in user (`GetRelatedApps`); the current one is marked. */
export const relatedApp = roleApp.extend({ Current: z.boolean() });
export type RelatedApp = z.infer<typeof relatedApp>;

/** The current app (`merchantsinfo.Get`). */
export const appDetails = roleApp.extend({
  AppProducts: z.array(z.object({ ProductId: z.number().int() })),
  MemberCount: z.number().int(),
  RoleCount: z.number().int(),
  CreatedAt: timestamp,
});
export type AppDetails = z.infer<typeof appDetails>;

/** A kind of app (`GetAppTypes`), named in both languages. */
export const appType = z.object({ AppType: z.string(), Name: z.string(), NameEn: z.string() });
export type AppType = z.infer<typeof appType>;

// ---------------------------------------------------------------------------------------------
// Roles and permissions (MerchantsPermission, REST role, role_permission, role_user, menu)

export const adminRoleName = text(ROLE_NAME_MAX, { min: 1, required: 'RoleName is required' });

/** `GetUserRoleList` params[0]: without `UserId`, the caller's own roles. */
export const userRolesQuery = z.object({ UserId: looseId.optional() });
/** `GetRoleList` params[0] (`AppId`, when given, must be the current app). */
export const roleListQuery = z.object({
  AppId: looseId.optional(),
  RoleName: text(ROLE_NAME_MAX).optional(),
});
export type RoleListQuery = z.input<typeof roleListQuery>;
/** Query of `GET /api/v0.1/role`. */
export const adminRolesQuery = z.object({ name: queryText.optional() });
/** Query of `GET /api/v0.1/role_permission` and `role_user`. */
export const adminRoleIdQuery = z.object({ role_id: queryId });

/** `AddRole` params[0]: without `RoleId` a new role, else a rename. */
export const roleSaveInput = z.object({
  RoleId: looseId.optional(),
  RoleName: adminRoleName,
  Description: text(ROLE_DESCRIPTION_MAX).optional(),
});
export type RoleSaveInput = z.input<typeof roleSaveInput>;
export const roleUserInput = z.object({ RoleId: looseId, UserId: looseId });
export const roleAppInput = z.object({ RoleId: looseId, AppId: looseId });
export const roleUsersAddInput = z.object({ RoleId: looseId, UserIds: idList(500).min(1) });
export const roleAppsAddInput = z.object({ RoleId: looseId, AppIds: idList(100).min(1) });
/** `SaveRolePermissionAndFunctions` params[0]: the role's menus and functions, replaced together. */
export const rolePermissionsInput = z.object({
  RoleId: looseId,
  MenuIds: idList(5000),
  FuncIds: idList(50_000),
});
export type RolePermissionsInput = z.input<typeof rolePermissionsInput>;

/** A role of the current app with how many users hold it. */
export const adminRole = z.object({
  RoleId: z.number().int(),
  RoleName: z.string(),
  Description: z.string(),
  AppId: z.number().int(),
  CreatedAt: timestamp,
  UserCount: z.number().int(),
});
export type AdminRole = z.infer<typeof adminRole>;

/** A role as `AddRole` answers it. */
export const roleSaved = z.object({
  RoleId: z.number().int(),
  RoleName: z.string(),
  Description: z.string(),
});
export type RoleSaved = z.infer<typeof roleSaved>;

/** Menu ids and function ids a role holds. */
export const rolePermissions = z.object({
  MenuIds: z.array(z.number().int()),
  FuncIds: z.array(z.number().int()),
});
export type RolePermissions = z.infer<typeof rolePermissions>;

/** A function (button or call) with its menu and ApiId (`GetPermissionFuncs`). */
export const permissionFunc = z.object({
  FuncId: z.number().int(),
  MenuId: z.number().int(),
  ApiId: z.string(),
  Action: z.string(),
});
export type PermissionFunc = z.infer<typeof permissionFunc>;

/** A menu of the product with its functions (`GetPermissionMenus`, `GET menu`). */
export const permissionMenu = z.object({
  MenuId: z.number().int(),
  ParentId: z.number().int().nullable(),
  RouterName: z.string(),
  Path: z.string(),
  Title: z.string(),
  TitleEn: z.string(),
  Icon: z.string(),
  Hidden: z.boolean(),
  SortOrder: z.number().int(),
  Functions: z.array(permissionFunc.omit({ MenuId: true })),
});
export type PermissionMenu = z.infer<typeof permissionMenu>;

// ---------------------------------------------------------------------------------------------
// Module configuration (REST config/module)

const siteTitle = text(SITE_TITLE_MAX, { min: 1 });
/** Same-origin path or an inline image: the content security policy allows nothing else. */
const siteLogo = text(SITE_LOGO_MAX).refine(
  (v) =>
    v === '' ||
    (/^\/(?!\/)[\w./-]*$/.test(v) && !v.includes('..')) ||
    /^data:image\/(png|jpeg|svg\+xml|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(v),
  'must be a same-site path like /logo.svg or a data:image URL',
);

export const SITE_MODES = ['single-center', 'multi-center'] as const;

/** The system-set screen: titles, logo, environment, company, single- or multi-center mode. */
export const moduleSettings = z.object({
  documentTitle: siteTitle,
  menuTitle: siteTitle,
  loginTitle: siteTitle,
  loginLogo: siteLogo,
  environment: text(SITE_ENVIRONMENT_MAX),
  company: siteTitle,
  mode: z.enum(SITE_MODES),
});
export type ModuleSettings = z.infer<typeof moduleSettings>;

// ---------------------------------------------------------------------------------------------
// Disease dictionary (REST disease)

const diseaseIcd10 = z
  .string()
  .trim()
  .toUpperCase()
  .regex(new RegExp(`^$|${DISEASE_ICD10_PATTERN.source}`), 'icd10 must look like I10 or E11.9');
const diseaseFields = {
  name: text(DISEASE_NAME_MAX, { min: 1 }),
  icd10: diseaseIcd10,
  category: text(DISEASE_CATEGORY_MAX),
  enabled: z.boolean(),
};

/** Body of `POST /api/v0.1/disease`. */
export const adminDiseaseCreate = z.object({
  name: diseaseFields.name,
  icd10: diseaseFields.icd10.default(''),
  category: diseaseFields.category.default(''),
  enabled: diseaseFields.enabled.default(true),
});
export type AdminDiseaseCreate = z.input<typeof adminDiseaseCreate>;

/** Body of `PATCH /api/v0.1/disease/:id`: the fields to change. */
export const adminDiseasePatch = z.object({
  name: diseaseFields.name.optional(),
  icd10: diseaseFields.icd10.optional(),
  category: diseaseFields.category.optional(),
  enabled: diseaseFields.enabled.optional(),
});
export type AdminDiseasePatch = z.input<typeof adminDiseasePatch>;

/** Query of `GET /api/v0.1/disease`. */
export const adminDiseaseQuery = z.object({
  keyword: queryText.optional(),
  category: queryText.optional(),
  enabled: queryBool.optional(),
  page: queryInt(1, 100_000).optional(),
  size: queryInt(1, 100).optional(),
});
export type AdminDiseaseQuery = z.input<typeof adminDiseaseQuery>;

export const adminDisease = z.object({
  id: z.number().int(),
  name: z.string(),
  icd10: z.string(),
  category: z.string(),
  enabled: z.boolean(),
  ...stamps,
});
export type AdminDisease = z.infer<typeof adminDisease>;

export const adminDiseasePage = z.object({
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  items: z.array(adminDisease),
});
export type AdminDiseasePage = z.infer<typeof adminDiseasePage>;

// ---------------------------------------------------------------------------------------------
// Audit trail (REST audit)

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export const auditOutcome = z.enum(AUDIT_OUTCOMES);
export type AuditOutcome = z.infer<typeof auditOutcome>;

/** Query of `GET /api/v0.1/audit`. */
export const auditLogQuery = z.object({
  user: queryText.optional(),
  action: queryText.optional(),
  entity: queryText.optional(),
  entity_id: queryText.optional(),
  outcome: auditOutcome.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  page: queryInt(1, 100_000).optional(),
  size: queryInt(1, 100).optional(),
});
export type AuditLogQuery = z.input<typeof auditLogQuery>;

/** One row of the audit trail (the action is a code of AUDIT_ACTIONS; older rows may hold others). */
export const auditLogRow = z.object({
  id: z.number().int(),
  at: timestamp,
  userId: z.number().int().nullable(),
  userName: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  outcome: auditOutcome,
  reason: z.string().nullable(),
  ip: z.string(),
  requestId: z.string(),
});
export type AuditLogRow = z.infer<typeof auditLogRow>;

/** One row with the state before and after. */
export const auditLogEntry = auditLogRow.extend({ before: jsonValue, after: jsonValue });
export type AuditLogEntry = z.infer<typeof auditLogEntry>;

export const auditLogPage = z.object({
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  items: z.array(auditLogRow),
});
export type AuditLogPage = z.infer<typeof auditLogPage>;
