import { createInterface } from 'node:readline/promises';
import { createAdministrator } from '../admin/bootstrap.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { prepareData } from '../seed/index.js';

/**
 * `npm run create-admin`: the first administrator, from ADMIN_USER / ADMIN_PASSWORD / ADMIN_APP or asked.
 * A new app (ADMIN_APP not yet known) takes its display name from ADMIN_APP_NAME when given.
 */
async function main() {
  const config = loadConfig();
  let { ADMIN_USER: userName, ADMIN_PASSWORD: password, ADMIN_APP: app } = process.env;
  if (!userName || !password || !app) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    userName ||= (await rl.question('Administrator user name: ')).trim();
    password ||= (await rl.question('Password (8-32, three of upper/lower/digit/special): ')).trim();
    app ||= (await rl.question('App short name (e.g. HOSPITAL): ')).trim();
    rl.close();
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await prepareData(database.db, { ...config, demoData: false });
    const r = await createAdministrator(database.db, {
      userName: userName!,
      password: password!,
      appShortName: app!,
      appName: process.env.ADMIN_APP_NAME?.trim() || undefined,
    });
    process.stdout.write(
      `Administrator ${userName} created in app ${app} (user id ${r.userId}) on ${database.label}\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((e) => {
  process.stderr.write(`create-admin: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
