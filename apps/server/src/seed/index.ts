import { PRODUCT_ID } from '@crdp/core';
import { purgeExpiredSessions } from '../auth/sessions.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { seedBasicDictionaries } from '../reference/dictionaries.js';
import { seedSiteDefaults } from '../site/service.js';
import { seedDemo } from './demo.js';
import { syncMenus } from './menus.js';

/** Everything a start does to the data before serving: idempotent, safe to run on every start. */
export async function prepareData(
  db: Db,
  config: Pick<Config, 'demoData' | 'dataDir' | 'demoPassword' | 'companyName'>,
) {
  await db.transaction(async (tx) => {
    await syncMenus(tx);
    await seedSiteDefaults(tx, config.companyName);
  });
  await purgeExpiredSessions(db);
  const demo = config.demoData ? await seedDemo(db, config.dataDir, config.demoPassword) : null;
  // After the demo apps, so they start with them too; a read of the dictionaries then writes nothing.
  await seedBasicDictionaries(db, PRODUCT_ID);
  return { demo };
}
