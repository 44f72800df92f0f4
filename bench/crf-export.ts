/**
 * Export of a CRF form with 100,000 records (issue 6: "exports stream: a form with 100,000
 * records exports without loading them all into memory"). Each format (CSV, XLSX, CDISC ODM
 * 1.3.2) is drained from the same generator the HTTP route pipes to the client, and compared with
 * a reference measured in the same run: reading the same rows in the same batches and writing them
 * as JSON lines (the database work without the formatting). The process's resident memory is
 * sampled while each export runs; its growth is printed next to the size of the file, which it must
 * stay far below (the file is never held whole).
 * Prints `ratio=<export/reference>` per format.
 * Run: `npx tsx bench/crf-export.ts` (RECORDS=… to change the size; DATABASE_URL for PostgreSQL).
 */
import { exportCsv, exportOdm, exportXlsx } from '../apps/server/src/crf/export.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';
import { publishedBenchForm } from './_crf.js';
import { drain } from './_drain.js';

const RECORDS = Number(process.env.RECORDS ?? 100_000);
const { database, drop, kind } = await openThrowAwayDatabase('crdp_bench');
const { db } = database;
const { appId, form, version, actor } = await publishedBenchForm(db, 'BENCHX');

const t0 = performance.now();
await db.execute(`
  insert into crf_records (app_id, form_id, version_id, subject_code, answers, status)
  select ${appId}, ${form.id}, ${version.id}, 'S-' || g,
    jsonb_build_object('weight', 50 + g % 50, 'height', 150 + g % 40,
      'hbsag', case when g % 2 = 0 then 'neg' else 'pos' end, 'note', '记录 ' || g),
    'submitted'
  from generate_series(1, ${RECORDS}) g`);
console.log(
  `${kind}: ${RECORDS.toLocaleString('en')} records inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

/** Reference: the same rows in the same batches, written as JSON lines. */
async function* reference() {
  let after = 0;
  for (;;) {
    const res = await db.execute(
      `select id, answers, subject_code from crf_records
       where app_id = ${appId} and form_id = ${form.id} and id > ${after} order by id limit 500`,
    );
    const rows = (res as unknown as { rows: Array<{ id: number }> }).rows;
    if (!rows.length) return;
    yield rows.map((r) => JSON.stringify(r)).join('\n');
    after = Number(rows[rows.length - 1]!.id);
  }
}

const ref = await drain('reference (batched read, JSON lines)', reference());
for (const [name, source] of [
  ['CSV', () => exportCsv(db, actor, form.id, false)],
  ['XLSX', () => exportXlsx(db, actor, form.id, true)],
  ['ODM 1.3.2', () => exportOdm(db, actor, form.id)],
] as const) {
  const ms = await drain(name, source());
  console.log(`  ${name} ratio=${(ms / ref).toFixed(2)}`);
}
await drop();
