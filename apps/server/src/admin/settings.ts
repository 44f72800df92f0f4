import type { ModuleSettings } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { auditTrail } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { moduleConfig } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { siteSettings } from '../site/service.js';

/** Where each setting of the system-set screen lives in module_config (group `site`). */
const KEYS = {
  documentTitle: ['title', 'documentTitle'],
  menuTitle: ['title', 'menuTitle'],
  loginTitle: ['title', 'loginTitle'],
  loginLogo: ['title', 'loginLogo'],
  environment: ['environment', 'name'],
  company: ['footer', 'company'],
  mode: ['features', 'mode'],
} as const;
const trail = auditTrail('module_config', 'config');

export async function readModuleSettings(db: Tx, appId: number): Promise<ModuleSettings> {
  const s = await siteSettings(db, appId);
  return {
    documentTitle: s.documentTitle,
    menuTitle: s.menuTitle,
    loginTitle: s.loginTitle,
    loginLogo: s.loginLogo,
    environment: s.environment,
    company: s.company,
    mode: s.multiCenter ? 'multi-center' : 'single-center',
  };
}

/**
 * Writes the app's own values (rows with its app id override the site defaults), so one
 * app's administrator never changes what another app sees.
 */
export async function saveModuleSettings(ctx: SignedIn, input: ModuleSettings): Promise<ModuleSettings> {
  const { appId } = ctx;
  return ctx.db.transaction(async (tx) => {
    const before = await readModuleSettings(tx, appId);
    for (const [field, [module, name]] of Object.entries(KEYS) as Array<
      [keyof ModuleSettings, readonly [string, string]]
    >) {
      if (before[field] === input[field]) continue;
      const where = and(
        eq(moduleConfig.appId, appId),
        eq(moduleConfig.configGroup, 'site'),
        eq(moduleConfig.moduleName, module),
        eq(moduleConfig.configName, name),
      );
      const [row] = await tx.select({ id: moduleConfig.id }).from(moduleConfig).where(where);
      if (row)
        await tx
          .update(moduleConfig)
          .set({ value: input[field], updatedAt: new Date() })
          .where(eq(moduleConfig.id, row.id));
      else
        await tx
          .insert(moduleConfig)
          .values({ appId, configGroup: 'site', moduleName: module, configName: name, value: input[field] });
    }
    const after = await readModuleSettings(tx, appId);
    const shorten = (s: ModuleSettings) => ({
      ...s,
      loginLogo:
        s.loginLogo.length > 200 ? `${s.loginLogo.slice(0, 60)}…(${s.loginLogo.length})` : s.loginLogo,
    });
    await trail.edited(tx, ctx, appId, shorten(before), shorten(after));
    return after;
  });
}
