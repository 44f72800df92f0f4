import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { seedSynthetic } from '../clinical/synthetic/seed.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { apps } from '../db/schema/index.js';
import { prepareData } from '../seed/index.js';

/**
 * `npm run seed:synthetic -- --patients N --seed S [--app DEMO] [--batch 500] [--workers 2]`:
 * deterministic synthetic patients into DATABASE_URL (COPY) or the embedded database in DATA_DIR
 * (batched INSERTs; stop the server first, the embedded database is one process's).
 */
async function main() {
  const { values } = parseArgs({
    options: {
      patients: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      app: { type: 'string', default: 'DEMO' },
      batch: { type: 'string', default: '500' },
      workers: { type: 'string', default: '2' },
    },
  });
  const patients = Number(values.patients);
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(patients) || patients < 1)
    throw new Error('--patients must be a positive integer');
  if (!Number.isSafeInteger(seed)) throw new Error('--seed must be an integer');
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const pool = config.databaseUrl ? new pg.Pool({ connectionString: config.databaseUrl, max: 8 }) : undefined;
  try {
    await prepareData(database.db, config);
    const [app] = await database.db.select().from(apps).where(eq(apps.appShortName, values.app!));
    if (!app) throw new Error(`no app with short name ${values.app}`);
    const started = Date.now();
    let last = 0;
    const res = await seedSynthetic(database.db, {
      appId: app.appId,
      patients,
      seed,
      batchSize: Number(values.batch),
      workers: Number(values.workers),
      ...(pool ? { pool } : {}),
      onProgress: (done, rows) => {
        if (Date.now() - last < 5000 && done < patients) return;
        last = Date.now();
        const s = (Date.now() - started) / 1000;
        process.stdout.write(
          `${done}/${patients} patients, ${rows} rows, ${s.toFixed(0)} s, ${Math.round(rows / s)} rows/s\n`,
        );
      },
    });
    await database.db.execute(sql`analyze`);
    const s = (Date.now() - started) / 1000;
    process.stdout.write(
      `seed:synthetic: ${res.patients} patients, ${res.rows} rows in ${s.toFixed(1)} s on ${database.label} (app ${app.appShortName}, seed ${seed})\n`,
    );
  } finally {
    await pool?.end();
    await database.close();
  }
}

main().catch((e) => {
  process.stderr.write(`seed:synthetic: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
