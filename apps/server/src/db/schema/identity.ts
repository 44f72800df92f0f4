import { FREE_ACCESS_SCOPES } from '@crdp/core';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { parentKey } from './keys.js';
import { appScope, appScopeRead, oneOf } from './policies.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * An application (tenant): a hospital or a research network. Every row of tenant data carries its id.
 * Inside an app scope every app's row may be read (names of the centers of a multi-center topic,
 * of the apps a role is shared with), but only the scope's own row changed.
 */
export const apps = pgTable(
  'apps',
  {
    appId: serial('app_id').primaryKey(),
    appShortName: text('app_short_name').notNull().unique(),
    name: text('name').notNull(),
    appType: text('app_type').notNull().default('hospital'),
    createdAt: createdAt(),
  },
  () => [appScope(), appScopeRead(sql`true`)],
);

export const appProducts = pgTable(
  'app_products',
  {
    appId: parentKey('app_id', () => apps.appId),
    productId: integer('product_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.productId] }), appScope()],
);

export const users = pgTable(
  'users',
  {
    userId: serial('user_id').primaryKey(),
    userName: text('user_name').notNull(),
    nickname: text('nickname').notNull().default(''),
    headImage: text('head_image').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_user_name_lower').on(sql`lower(${t.userName})`)],
);

export const appMembers = pgTable(
  'app_members',
  {
    appId: parentKey('app_id', () => apps.appId),
    userId: parentKey('user_id', () => users.userId),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] }), index('app_members_user').on(t.userId), appScope()],
);

export const roles = pgTable(
  'roles',
  {
    roleId: serial('role_id').primaryKey(),
    appId: parentKey('app_id', () => apps.appId),
    roleName: text('role_name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roles_app_name').on(t.appId, t.roleName), appScope()],
);

export const roleUsers = pgTable(
  'role_users',
  {
    roleId: parentKey('role_id', () => roles.roleId),
    userId: parentKey('user_id', () => users.userId),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.userId] }), index('role_users_user').on(t.userId)],
);

/** Apps a role is shared with (a network role granted to a member hospital's app). */
export const roleApps = pgTable(
  'role_apps',
  {
    roleId: parentKey('role_id', () => roles.roleId),
    appId: parentKey('app_id', () => apps.appId),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.appId] }), appScope()],
);

/** One row per route of the product's route table (product 22); global, not per app. */
export const menus = pgTable('menus', {
  menuId: integer('menu_id').primaryKey(),
  routerName: text('router_name').notNull().unique(),
  parentId: integer('parent_id'),
  path: text('path').notNull(),
  title: text('title').notNull(),
  titleEn: text('title_en').notNull(),
  icon: text('icon').notNull().default(''),
  sortOrder: integer('sort_order').notNull().default(0),
  hidden: boolean('hidden').notNull().default(false),
  productId: integer('product_id').notNull(),
});

/** A function (button or call) of a menu; its ApiId is what routes on the server require. */
export const functions = pgTable(
  'functions',
  {
    funcId: integer('func_id').primaryKey(),
    menuId: parentKey('menu_id', () => menus.menuId),
    apiId: text('api_id').notNull().unique(),
    action: text('action').notNull(),
    title: text('title').notNull().default(''),
  },
  (t) => [index('functions_menu').on(t.menuId)],
);

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: parentKey('role_id', () => roles.roleId),
    menuId: parentKey('menu_id', () => menus.menuId),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

export const roleFunctions = pgTable(
  'role_functions',
  {
    roleId: parentKey('role_id', () => roles.roleId),
    funcId: parentKey('func_id', () => functions.funcId),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.funcId] })],
);

/**
 * Sessions live in the database so any server process can check them. Only a SHA-256 hash
 * of the key is stored. `kind` is `login` for a signed-in user and `free` for a free-access
 * link, whose `scope` says what it may reach.
 */
export const sessions = pgTable(
  'sessions',
  {
    sessionId: bigserial('session_id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id').references(() => users.userId, { onDelete: 'cascade' }),
    appId: parentKey('app_id', () => apps.appId),
    kind: text('kind').notNull().default('login'),
    scope: jsonb('scope'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [
    index('sessions_user').on(t.userId),
    index('sessions_expires').on(t.expiresAt),
    oneOf('sessions_kind', t.kind, ['login', 'free']),
    appScope(),
  ],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userName: text('user_name').notNull(),
    success: boolean('success').notNull(),
    ip: text('ip').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_ip_at').on(t.ip, t.at)],
);

/**
 * Failed sign-in and old-password guesses per (user name, client address): past the threshold
 * that address alone is refused for a growing time. The user name is kept only as a SHA-256 of
 * its normalised form (trimmed, lower case), since a name that matches no account may be a
 * password typed in the wrong field.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    userKey: text('user_key').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userKey, t.ip] }), index('login_throttle_last_at').on(t.lastAt)],
);

/** Scoped, expiring, revocable keys that open the CRF-only set or the terminology view without a password. */
export const freeAccessKeys = pgTable(
  'free_access_keys',
  {
    id: serial('id').primaryKey(),
    keyHash: text('key_hash').notNull().unique(),
    appId: parentKey('app_id', () => apps.appId),
    scopeKind: text('scope_kind').notNull(),
    objectId: text('object_id'),
    label: text('label').notNull().default(''),
    createdBy: integer('created_by').references(() => users.userId, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [oneOf('free_access_keys_scope_kind', t.scopeKind, FREE_ACCESS_SCOPES), appScope()],
);
