import { z } from 'zod';
import { timestamp, timestampOrNull } from './common.js';

/**
 * Contracts of the platform around the areas: the site configuration the login page and the
 * shell read, one module configuration value (spec 000 §7 `cdm/module_config_one`), the notices
 * of the header's bell, this app's database summary and export, and the health checks.
 * Server: apps/server/src/site, notices, backup, health; web: apps/web/src/api, app, shell and
 * pages/system/ExportDatabase.
 */

/** `GET /api/v0.1/site`: titles, logo, environment name, company and the feature mode. */
export const siteSettings = z.object({
  documentTitle: z.string(),
  menuTitle: z.string(),
  loginTitle: z.string(),
  /** A same-site path or a data:image URL; '' for none. */
  loginLogo: z.string(),
  /** The environment named in the header; '' for none. */
  environment: z.string(),
  /** The environment whose name the header hides. */
  hiddenEnvironment: z.string(),
  company: z.string(),
  multiCenter: z.boolean(),
});
export type SiteSettings = z.infer<typeof siteSettings>;

const configName = z.string().trim().min(1).max(100);
/** Query of `GET /api/v0.1/cdm/module_config_one`. */
export const moduleConfigQuery = z.object({
  config_group: configName,
  module_name: configName,
  config_name: configName,
});
export type ModuleConfigQuery = z.input<typeof moduleConfigQuery>;
/** One configuration value: the app's own, else the site default; null when neither exists. */
export const moduleConfigValue = z.object({ value: z.string().nullable() });
export type ModuleConfigValue = z.infer<typeof moduleConfigValue>;

// ---------------------------------------------------------------------------------------------
// Notices

/** What a notice is about; `dataElement.published` drives the header's subscription icon. */
export const NOTICE_KINDS = ['job.finished', 'dataElement.published', 'record.assigned', 'system'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Query of `GET /api/v0.1/notices`. */
export const noticesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

export const notice = z.object({
  id: z.number().int(),
  appId: z.number().int(),
  userId: z.number().int(),
  /** One of NOTICE_KINDS (older rows may hold others). */
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** A site-relative address to open; '' for none. */
  link: z.string(),
  createdAt: timestamp,
  readAt: timestampOrNull,
});
export type Notice = z.infer<typeof notice>;

/** The newest notices of the signed-in user in the current app, and how many are unread. */
export const noticeList = z.object({ items: z.array(notice), unread: z.number().int() });
export type NoticeList = z.infer<typeof noticeList>;

/** Body of `POST /api/v0.1/notices/read`: the ids to mark read, or none for all. */
export const noticesReadBody = z
  .object({ ids: z.array(z.number().int().positive()).max(500).optional() })
  .default({});
export const noticesRead = z.object({ updated: z.number().int() });
export type NoticesRead = z.infer<typeof noticesRead>;

// ---------------------------------------------------------------------------------------------
// This app's database (system/database)

/** `GET /api/v0.1/system/database`: this app's tables and row counts, and how the site is backed up. */
export const databaseSummary = z.object({
  engine: z.enum(['embedded', 'postgresql']),
  app: z.object({ id: z.number().int(), name: z.string() }),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int() })),
  totalRows: z.number().int(),
  /** Tables the app export leaves out (shared or secret: sessions, keys …). */
  leftOut: z.array(z.string()),
});
export type DatabaseSummary = z.infer<typeof databaseSummary>;

// ---------------------------------------------------------------------------------------------
// Health

export const healthLive = z.object({ status: z.literal('ok') });
export const healthReady = z.object({ status: z.literal('ready'), database: z.string() });
export const healthUnavailable = z.object({ status: z.literal('unavailable'), database: z.string() });
