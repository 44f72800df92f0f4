import path from 'node:path';
import { restoreBackup } from '../backup/backup.js';
import { loadConfig } from '../config.js';

/** `npm run restore FILE`: brings a backup back into an empty DATA_DIR. */
async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npm run restore -- FILE (into the empty DATA_DIR)');
  const config = loadConfig();
  if (config.databaseUrl)
    throw new Error('DATABASE_URL is set: restore PostgreSQL with pg_restore (see the README)');
  const manifest = await restoreBackup(path.resolve(file), config.dataDir);
  process.stdout.write(`Restored the backup of ${manifest.createdAt} into ${config.dataDir}\n`);
}

main().catch((e) => {
  process.stderr.write(`restore: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
