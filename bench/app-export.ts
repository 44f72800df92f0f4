/**
 * The database export of one hospital (`/system/exportDatabase`): every app-scoped table as CSV in
 * a ZIP, read a batch at a time. Seeds PATIENTS synthetic patients (about a hundred rows each over
 * the clinical tables) into one app and a few into another, then drains the same generator the
 * HTTP route pipes to the client. Reference, measured in the same run: the same rows read in the
 * same keyset batches and written as JSON lines without compression (the database work alone).
 * Prints `ratio=<export/reference>` and the memory growth next to the file's size.
 * Run: `npx tsx bench/app-export.ts` (PATIENTS=… to change the size; DATABASE_URL for PostgreSQL).
 */
import { appExport, exportTables } from '../apps/server/src/backup/app-export.js';
import { seedSynthetic } from '../apps/server/src/clinical/synthetic/seed.js';
import { apps } from '../apps/server/src/db/schema/index.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';
import { drain } from './_drain.js';

const PATIENTS = Number(process.env.PATIENTS ?? 10_000);
const BATCH = 1000;
const { database, drop, kind } = await openThrowAwayDatabase('crdp_bench');
const { db } = database;
const [mine] = await db.insert(apps).values({ appShortName: 'BENCHEXP', name: '导出基准医院' }).returning();
const [other] = await db.insert(apps).values({ appShortName: 'BENCHOTH', name: '他院' }).returning();

const t0 = performance.now();
const seeded = await seedSynthetic(db, { appId: mine!.appId, patients: PATIENTS, seed: 7, batchSize: 1000 });
await seedSynthetic(db, { appId: other!.appId, patients: 100, seed: 8 });
console.log(
  `${kind}: ${PATIENTS.toLocaleString('en')} patients, ${seeded.rows.toLocaleString('en')} rows seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

/** A key value as an SQL literal (the bench's own ids and codes). */
const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

/** Reference: every export table's rows of the app in the same keyset batches, as JSON lines. */
async function* reference(): AsyncGenerator<string> {
  for (const t of exportTables()) {
    const keys = t.key.map((k) => `"${k}"`).join(', ');
    let after: unknown[] | null = null;
    for (;;) {
      const where: string = after
        ? `app_id = ${mine!.appId} and (${keys}) > (${after.map(literal).join(', ')})`
        : `app_id = ${mine!.appId}`;
      const res: unknown = await db.execute(
        `select * from "${t.name}" where ${where} order by ${keys} limit ${BATCH}`,
      );
      const rows = (res as { rows: Array<Record<string, unknown>> }).rows;
      if (!rows.length) break;
      yield rows.map((r) => JSON.stringify(r)).join('\n');
      const last = rows[rows.length - 1]!;
      after = t.key.map((k) => last[k]);
      if (rows.length < BATCH) break;
    }
  }
}

const ref = await drain('reference (keyset batches, JSON lines, no ZIP)', reference());
const ms = await drain(
  'export (CSV per table in a ZIP)',
  appExport(db, { id: mine!.appId, name: 'bench' }, 'bench'),
);
console.log(`  app export ratio=${(ms / ref).toFixed(2)}`);
await drop();
