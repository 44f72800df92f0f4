// Incremental collection from a hospital system's PostgreSQL database into the CDR, through the
// real collection run (apps/server/src/collection/run.ts: the task's job reads batches after the
// watermark, maps them with the template, checks each row with the CDR entry form, upserts it by
// source id with its change record, moves the watermark, in one transaction per batch), against
// a plain COPY of the same rows from the source into a copy of the CDR table (COPY TO STDOUT
// piped into COPY FROM STDIN, pg-copy-streams). Both on the machine's PostgreSQL, same run.
// Prints rows/s and ratio=<collection / COPY> (target ≤ 2). Then a rerun: nothing doubles.
// BENCH_COLLECT_ROWS (default 1,000,000), BENCH_COLLECT_BATCH (default 5000, at most 10,000).
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { collectionJob } from '../apps/server/src/collection/run.js';
import { SecretBox } from '../apps/server/src/collection/secrets.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import {
  apps,
  collectionRuns,
  collectionSources,
  collectionTasks,
  collectionTemplates,
  jobs,
} from '../apps/server/src/db/schema/index.js';
import { BENCH_POSTGRES, createBenchDatabase, postgresAnswers } from './_database.js';

const N = Number(process.env.BENCH_COLLECT_ROWS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_COLLECT_BATCH ?? 5000);
const PATIENTS = Math.max(100, Math.floor(N / 100));

if (!(await postgresAnswers(BENCH_POSTGRES, 'collection benchmark skipped'))) process.exit(0);

const src = await createBenchDatabase('crdp_bench_his');
const cdr = await createBenchDatabase('crdp_bench_cdr');
try {
  // The HIS: lab results as its system keeps them (text values and times, a change time indexed).
  const s = new pg.Client(src.url);
  await s.connect();
  let t0 = performance.now();
  await s.query(`create schema his;
    create table his.lab_result (result_id bigint primary key, patient_no text not null, item text, item_name text,
      val text, unit text, taken text, updated_at timestamptz not null);
    insert into his.lab_result
      select i, 'P' || (i % ${PATIENTS}), 'T' || (i % 40), '检验项目' || (i % 40), ((i % 997) / 10.0)::text, 'mmol/L',
             to_char(timestamp '2025-01-01' + (i || ' seconds')::interval, 'YYYY-MM-DD HH24:MI:SS'),
             timestamptz '2026-01-01' + (i || ' milliseconds')::interval
        from generate_series(1, ${N}) i;
    create index on his.lab_result (updated_at, result_id);
    analyze his.lab_result;`);
  console.log(
    `source: ${N} lab results of ${PATIENTS} patients made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const database = await openDatabase({ url: cdr.url, dataDir: 'memory' });
  const db = database.db;
  const [app] = await db.insert(apps).values({ appShortName: 'BENCH', name: 'bench' }).returning();
  const appId = app!.appId;
  const u = new URL(src.url);
  const [source] = await db
    .insert(collectionSources)
    .values({
      appId,
      name: 'HIS',
      kind: 'postgresql',
      config: {
        host: u.hostname,
        port: 5432,
        database: src.name,
        user: 'postgres',
        ssl: false,
        listenPort: 0,
      },
    })
    .returning();
  const sourceTag = `collect:${source!.id}`;
  const c = new pg.Client(cdr.url);
  await c.connect();
  // The patients, collected before (not timed).
  await c.query(
    `insert into patients (app_id, mrn, name, gender, source, source_id)
     select $1, 'P' || k, '患者' || k, 1 + k % 2, $2, 'P' || k from generate_series(0, ${PATIENTS - 1}) k order by k`,
    [appId, sourceTag],
  );
  const [template] = await db
    .insert(collectionTemplates)
    .values({
      appId,
      sourceId: source!.id,
      name: '检验',
      target: 'labResults',
      spec: {
        table: 'his.lab_result',
        keyColumn: 'result_id',
        watermarkColumn: 'updated_at',
        patientColumn: 'patient_no',
        patientBy: 'sourceId',
        visitColumn: '',
        fields: [
          { field: 'itemCode', column: 'item', transforms: [] },
          { field: 'itemName', column: 'item_name', transforms: [] },
          { field: 'valueNum', column: 'val', transforms: [] },
          { field: 'unit', column: 'unit', transforms: [] },
          {
            field: 'collectedAt',
            column: 'taken',
            transforms: [{ kind: 'date', format: 'yyyy-MM-dd HH:mm:ss' }],
          },
        ],
      },
    })
    .returning();
  const [task] = await db
    .insert(collectionTasks)
    .values({ appId, name: '检验采集', templateIds: [template!.id], batchSize: BATCH })
    .returning();
  const box = new SecretBox(randomBytes(32), '/nonexistent');
  const runOnce = async () => {
    const [run] = await db
      .insert(collectionRuns)
      .values({ appId, taskId: task!.id, trigger: 'manual' })
      .returning();
    const [job] = await db
      .insert(jobs)
      .values({
        appId,
        kind: 'collection.run',
        params: { taskId: task!.id, runId: run!.id },
        status: 'running',
        attempts: 1,
      })
      .returning();
    const started = performance.now();
    await collectionJob({ box, filesRoot: '/nonexistent' })({
      db,
      job: job!,
      progress: async () => {},
      signal: new AbortController().signal,
    });
    const ms = performance.now() - started;
    const { rows } = await c.query(
      `select status, rows_read as "rowsRead", rows_inserted as "rowsInserted", rows_rejected as "rowsRejected"
         from collection_runs where id = $1`,
      [run!.id],
    );
    return {
      ms,
      run: rows[0] as { status: string; rowsRead: number; rowsInserted: number; rowsRejected: number },
    };
  };

  // Ours: the collection run, from the start (no watermark yet).
  const first = await runOnce();
  const { rows: labs } = await c.query(`select count(*)::int as n from lab_results where source = $1`, [
    sourceTag,
  ]);
  const { rows: changes } = await c.query(`select count(*)::int as n from collection_changes`);
  console.log(
    `collection run: ${first.run.rowsRead} read, ${first.run.rowsInserted} inserted, ${first.run.rowsRejected} rejected, status ${first.run.status}; ${labs[0].n} lab results and ${changes[0].n} change records in the CDR: ${(first.ms / 1000).toFixed(2)} s, ${((N / first.ms) * 1000).toFixed(0)} rows/s (batch ${BATCH})`,
  );
  if (first.run.status !== 'succeeded' || labs[0].n !== N)
    throw new Error('the collection did not write every row');

  // Reference: the same rows COPYed from the source into a copy of the CDR table.
  await c.query(`create table lab_results_copy (like lab_results including all)`);
  const { rows: base } = await c.query(`select min(id)::bigint as id from patients where source = $1`, [
    sourceTag,
  ]);
  const firstPatient = Number(base[0].id);
  t0 = performance.now();
  const out = s.query(
    copyTo(`copy (select ${appId}, ${firstPatient} + substr(patient_no, 2)::bigint, item, item_name, val::double precision, val, unit,
                  (taken || '+08')::timestamptz, '${sourceTag}', result_id::text
             from his.lab_result order by updated_at, result_id) to stdout`),
  );
  const into = c.query(
    copyFrom(
      `copy lab_results_copy (app_id, patient_id, item_code, item_name, value_num, value_text, unit, collected_at, source, source_id) from stdin`,
    ),
  );
  await pipeline(out, into);
  const copyMs = performance.now() - t0;
  const { rows: copied } = await c.query(`select count(*)::int as n from lab_results_copy`);
  console.log(
    `reference COPY source → copy of lab_results: ${copied[0].n} rows in ${(copyMs / 1000).toFixed(2)} s, ${((N / copyMs) * 1000).toFixed(0)} rows/s`,
  );
  const ratio = first.ms / copyMs;
  console.log(
    `collection vs COPY ratio=${ratio.toFixed(2)} (target ≤ 2${ratio <= 2 ? ', met' : ', MISSED'})`,
  );

  // A rerun starts after the watermark: nothing to read, nothing doubles.
  const again = await runOnce();
  const { rows: after } = await c.query(`select count(*)::int as n from lab_results where source = $1`, [
    sourceTag,
  ]);
  console.log(
    `rerun: ${again.run.rowsRead} read, ${again.run.rowsInserted} inserted in ${(again.ms / 1000).toFixed(2)} s; ${after[0].n} lab results (${after[0].n === N ? 'nothing doubled' : 'DOUBLED'})`,
  );
  await s.end();
  await c.end();
  await database.close();
} finally {
  await src.drop();
  await cdr.drop();
}
