// The CRDP server built in this process on a PostgreSQL database, with the demo app and its
// administrator, and a `pg` pool beside it for the reference queries (benchmarks that compare
// an HTTP call with the same SQL run directly).
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { seedSynthetic } from '../apps/server/src/clinical/synthetic/seed.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { DEMO_PASSWORD } from './_server.js';

export async function demoServerIn(url: string, poolMax: number) {
  const database = await openDatabase({ url, dataDir: 'memory' });
  const config = {
    ...loadConfig({}),
    databaseUrl: url,
    demoData: true,
    demoPassword: DEMO_PASSWORD,
    logLevel: 'silent' as const,
    loginRateLimit: 100000,
  };
  const app = await buildApp({ config, database, logger: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  const appId = Number(
    (await pool.query(`select app_id from apps where app_short_name = 'DEMO'`)).rows[0].app_id,
  );
  return {
    app,
    database,
    address,
    pool,
    appId,
    /** Files `patients` synthetic patients into the demo app (2 COPY workers), then analyses. */
    async seed(patients: number) {
      const seedPool = new pg.Pool({ connectionString: url, max: 4 });
      await seedSynthetic(database.db, { appId, patients, seed: 1, batchSize: 2000, pool: seedPool });
      await seedPool.end();
      await pool.query('analyze');
    },
    async close() {
      await app.close();
      await pool.end();
      await database.close();
    },
  };
}
