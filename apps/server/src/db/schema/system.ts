import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { apps, users } from './identity.js';
import { parentKey } from './keys.js';
import { appScope, appScopeRead } from './policies.js';

/**
 * Append-only audit trail: who did what, when, in which app, with the state before and after.
 * A trigger (migration 0001) refuses UPDATE and DELETE on this table. Inside an app scope only
 * the app's rows are read and written; rows without an app (a sign-in with an unknown name...)
 * belong to the system path.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    appId: integer('app_id'),
    userId: integer('user_id'),
    userName: text('user_name').notNull().default(''),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull().default(''),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    outcome: text('outcome').notNull().default('success'),
    requestId: text('request_id').notNull().default(''),
    ip: text('ip').notNull().default(''),
  },
  (t) => [
    index('audit_app_at').on(t.appId, t.at),
    index('audit_entity').on(t.entity, t.entityId),
    appScope(),
  ],
);

/**
 * Site and feature configuration read by `cdm/module_config_one`. `app_id` null is the site default;
 * a row with an app id overrides it for that app. Inside an app scope the site defaults are read
 * too, but only the app's own rows written.
 */
export const moduleConfig = pgTable(
  'module_config',
  {
    id: serial('id').primaryKey(),
    appId: integer('app_id').references(() => apps.appId, { onDelete: 'cascade' }),
    configGroup: text('config_group').notNull(),
    moduleName: text('module_name').notNull(),
    configName: text('config_name').notNull(),
    value: text('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('module_config_key').on(t.configGroup, t.moduleName, t.configName, t.appId).nullsNotDistinct(),
    appScope(),
    appScopeRead(sql`${t.appId} is null`),
  ],
);

/** Secrets the server makes at first start and keeps (the RSA key pair for password transport). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/** Notices shown under the header bell: a job finished, a data element published, a record assigned. */
export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appId: parentKey('app_id', () => apps.appId),
    userId: parentKey('user_id', () => users.userId),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    link: text('link').notNull().default(''),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [index('notices_user').on(t.userId, t.appId, t.createdAt), appScope()],
);

/** Marks what the first start has created, so a second start neither re-seeds nor fails. */
export const seedMarks = pgTable('seed_marks', {
  name: text('name').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row whose version a trigger bumps on any change of roles, memberships, menus or
 * functions (migration 0005+). Servers cache resolved permissions per user and app and reuse
 * them only while this version is unchanged, so every process sees a change at once.
 */
export const aclVersion = pgTable('acl_version', {
  id: integer('id').primaryKey().default(1),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
