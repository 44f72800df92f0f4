import { SITE_DEFAULT_TEXT, type SiteSettings } from '@crdp/core';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { moduleConfig } from '../db/schema/index.js';

/** Site defaults, written once at first start; administrators change them later. */
export const SITE_DEFAULTS: Array<[group: string, module: string, name: string, value: string]> = [
  ['site', 'title', 'documentTitle', SITE_DEFAULT_TEXT.documentTitle['zh-CN']],
  ['site', 'title', 'menuTitle', 'CRDP'],
  ['site', 'title', 'loginTitle', SITE_DEFAULT_TEXT.loginTitle['zh-CN']],
  ['site', 'title', 'loginLogo', '/logo.svg'],
  ['site', 'environment', 'name', SITE_DEFAULT_TEXT.environment['zh-CN']],
  // The environment name is hidden in the header for this one laboratory environment.
  ['site', 'environment', 'hiddenName', SITE_DEFAULT_TEXT.hiddenEnvironment['zh-CN']],
  ['site', 'footer', 'company', 'CRDP'],
  ['site', 'features', 'mode', 'single-center'],
];

/** One value: the app's own row if it has one, else the site default. */
export async function readConfigValue(
  db: Tx,
  appId: number | null,
  group: string,
  module: string,
  name: string,
) {
  const rows = await db
    .select({ appId: moduleConfig.appId, value: moduleConfig.value })
    .from(moduleConfig)
    .where(
      and(
        eq(moduleConfig.configGroup, group),
        eq(moduleConfig.moduleName, module),
        eq(moduleConfig.configName, name),
        appId === null
          ? isNull(moduleConfig.appId)
          : or(isNull(moduleConfig.appId), eq(moduleConfig.appId, appId)),
      ),
    )
    .orderBy(sql`${moduleConfig.appId} nulls last`);
  return rows[0]?.value ?? null;
}

export async function seedSiteDefaults(db: Tx, company: string) {
  for (const [g, m, n, v] of SITE_DEFAULTS) {
    await db
      .insert(moduleConfig)
      .values({
        appId: null,
        configGroup: g,
        moduleName: m,
        configName: n,
        value: g === 'site' && n === 'company' ? company : v,
      })
      .onConflictDoNothing();
  }
}

export async function siteSettings(db: Tx, appId: number | null): Promise<SiteSettings> {
  const v = (m: string, n: string) => readConfigValue(db, appId, 'site', m, n);
  const [documentTitle, menuTitle, loginTitle, loginLogo, environment, hiddenEnvironment, company, mode] =
    await Promise.all([
      v('title', 'documentTitle'),
      v('title', 'menuTitle'),
      v('title', 'loginTitle'),
      v('title', 'loginLogo'),
      v('environment', 'name'),
      v('environment', 'hiddenName'),
      v('footer', 'company'),
      v('features', 'mode'),
    ]);
  return {
    documentTitle: documentTitle ?? 'CRDP',
    menuTitle: menuTitle ?? 'CRDP',
    loginTitle: loginTitle ?? 'CRDP',
    loginLogo: loginLogo ?? '',
    environment: environment ?? '',
    hiddenEnvironment: hiddenEnvironment ?? '',
    company: company ?? 'CRDP',
    multiCenter: mode === 'multi-center',
  };
}
