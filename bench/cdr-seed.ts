// Synthetic generator throughput on PostgreSQL: our seeding path (generate + COPY, 2 workers)
// against a reference that writes the very same rows with plain multi-row INSERT statements
// through node-postgres (what a hand-written loader does). Both into fresh databases, same run.
// BENCH_PATIENTS (default 5000), DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
import pg from 'pg';
import { CDR_TABLES, type CdrTable } from '../apps/server/src/clinical/records.js';
import { columnsOf, makeBatch, seedSynthetic } from '../apps/server/src/clinical/synthetic/seed.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { apps } from '../apps/server/src/db/schema/index.js';
import { createBenchDatabase } from './_database.js';

const N = Number(process.env.BENCH_PATIENTS ?? 5000);

async function freshDatabase() {
  const created = await createBenchDatabase();
  const database = await openDatabase({ url: created.url, dataDir: 'memory' });
  const [app] = await database.db.insert(apps).values({ appShortName: 'BENCH', name: 'bench' }).returning();
  return {
    url: created.url,
    database,
    appId: app!.appId,
    drop: async () => {
      await database.close();
      await created.drop();
    },
  };
}

const TABLES = Object.keys(CDR_TABLES) as CdrTable[];

// Reference: the same rows, generated beforehand (not timed), written with INSERT ... VALUES of 500 rows.
async function reference() {
  const db = await freshDatabase();
  const batches = [];
  for (let i = 0; i < N; i += 2000)
    batches.push(await makeBatch(db.database.db, db.appId, 1, i, Math.min(N, i + 2000)));
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const started = performance.now();
  let rows = 0;
  for (const b of batches) {
    const client = await pool.connect();
    await client.query('begin');
    for (const t of TABLES) {
      const list = b[t];
      if (!list.length) continue;
      const { name, cols } = columnsOf(t, list[0]!);
      for (let i = 0; i < list.length; i += 500) {
        const chunk = list.slice(i, i + 500);
        const params: unknown[] = [];
        const values = chunk.map(
          (r) =>
            `(${cols
              .map(({ key }) => {
                const v = r[key];
                params.push(
                  v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v,
                );
                return `$${params.length}`;
              })
              .join(',')})`,
        );
        await client.query(
          `insert into "${name}" (${cols.map((c) => `"${c.name}"`).join(',')}) values ${values.join(',')}`,
          params,
        );
      }
      rows += list.length;
    }
    await client.query('commit');
    client.release();
  }
  const ms = performance.now() - started;
  await pool.end();
  await db.drop();
  return { ms, rows };
}

async function ours() {
  const db = await freshDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  const started = performance.now();
  const r = await seedSynthetic(db.database.db, {
    appId: db.appId,
    patients: N,
    seed: 1,
    batchSize: 2000,
    workers: 2,
    pool,
  });
  const ms = performance.now() - started;
  await pool.end();
  await db.drop();
  return { ms, rows: r.rows };
}

const ref = await reference();
const our = await ours();
console.log(
  `reference INSERT: ${ref.rows} rows in ${(ref.ms / 1000).toFixed(1)} s (${Math.round(ref.rows / (ref.ms / 1000))} rows/s, rows generated beforehand)`,
);
console.log(
  `seed:synthetic:   ${our.rows} rows in ${(our.ms / 1000).toFixed(1)} s (${Math.round(our.rows / (our.ms / 1000))} rows/s, generation included)`,
);
console.log(`${N} patients -> 1,000,000 extrapolated: ${(((our.ms / N) * 1e6) / 60000).toFixed(1)} min`);
console.log(`cdr-seed ratio=${(our.ms / ref.ms).toFixed(3)}`);
