/**
 * Issue 22 goal 3: 1,000,000 patients, measured. `npm run bench -- scale` (after `npm run build`).
 *
 * 1. Load (once; the database is kept between runs): the synthetic generator writes
 *    BENCH_SCALE_PATIENTS (1,000,000) patients with their visits, diagnoses, orders, labs, vital
 *    signs and documents into the PostgreSQL database BENCH_SCALE_DB (crdp_scale) by COPY, with
 *    the clinical tables' secondary indexes, unique keys and foreign keys dropped first and built
 *    after the load (primary keys stay: other tables reference them). Reference in the same run:
 *    a plain COPY of the same rows (generated beforehand) into bare copies of the tables (no
 *    index, no key, no constraint), sampled between the load's ten slices. Prints rows/s and
 *    `load ratio=<our seconds per row / plain COPY's>`. BENCH_SCALE_RELOAD=1 loads again.
 * 2. Measure (BENCH_SCALE_ONLY=word|word: only the calls whose name holds one), through the built server (its own process, real HTTP, signed in as the demo admin),
 *    each call BENCH_REQUESTS (200) times against the same work done without HTTP (the service
 *    function or the same SQL on a pool): patient list page 1 and page 40,000 (keyset), the person
 *    view and each of its tabs over 200 different patients, Chinese full-text search over
 *    documents, the disease-library criteria count over every patient, and chart aggregates.
 *    Each line prints p50/p95 (max for the few slow calls), the target and `ratio=`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { listChildren, personView, vitalSignsOf } from '../apps/server/src/clinical/patient360.js';
import { searchPatientsByConditions } from '../apps/server/src/clinical/search/search.js';
import {
  CDR_TABLE_NAMES,
  copyBatch,
  makeBatch,
  seedSynthetic,
} from '../apps/server/src/clinical/synthetic/seed.js';
import { countPatients } from '../apps/server/src/cohort/compile.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { prepareData } from '../apps/server/src/seed/index.js';
import { catalogue } from '../apps/server/src/visualization/routes.js';
import { DEMO_PASSWORD, signIn, startServer } from './_server.js';

const N = Number(process.env.BENCH_SCALE_PATIENTS ?? 1_000_000);
const NAME = process.env.BENCH_SCALE_DB ?? 'crdp_scale';
const SLICES = 10;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const SEED = 7;
const BATCH = 2000;
const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
if (!/^[a-z_][a-z0-9_]*$/.test(NAME)) throw new Error('BENCH_SCALE_DB must be a plain lower-case name');
const dbUrl = (() => {
  const u = new URL(admin);
  u.pathname = `/${NAME}`;
  return u.toString();
})();

const TABLES = CDR_TABLE_NAMES;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function adminQuery(text: string) {
  const c = new pg.Client(admin);
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

interface Loaded {
  patients: number;
  rows: number;
  copy_ms: number;
  index_ms: number;
  total_ms: number;
  ref_rows: number;
  ref_ms: number;
  loaded_at: string;
}

/** The load figures kept with the database, or null when it must be (re)loaded. */
async function keptLoad(): Promise<Loaded | null> {
  const exists = await adminQuery(`select 1 from pg_database where datname = '${NAME}'`);
  if (!exists.length || process.env.BENCH_SCALE_RELOAD === '1') return null;
  const c = new pg.Client(dbUrl);
  await c.connect();
  try {
    const r = await c.query<Loaded>(
      `select * from bench.scale_load where patients = $1 order by loaded_at desc limit 1`,
      [N],
    );
    return r.rows[0] ?? null;
  } catch {
    return null;
  } finally {
    await c.end();
  }
}

/** Secondary indexes, unique keys and foreign keys of the clinical tables: their definitions, dropped. */
async function dropIndexes(c: pg.PoolClient) {
  const constraints = (
    await c.query<{ tbl: string; name: string; def: string; type: string }>(
      `select t.relname as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def, k.contype as type
       from pg_constraint k join pg_class t on t.oid = k.conrelid
       where t.relnamespace = 'public'::regnamespace and t.relname = any($1) and k.contype in ('u', 'f')`,
      [TABLES],
    )
  ).rows;
  const indexes = (
    await c.query<{ name: string; def: string }>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class t on t.oid = i.indrelid
       where t.relnamespace = 'public'::regnamespace and t.relname = any($1) and not i.indisprimary
         and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
      [TABLES],
    )
  ).rows;
  for (const k of constraints) await c.query(`alter table "${k.tbl}" drop constraint "${k.name}"`);
  for (const i of indexes) await c.query(`drop index ${i.name}`);
  return { constraints, indexes };
}

async function buildIndexes(c: pg.PoolClient, kept: Awaited<ReturnType<typeof dropIndexes>>) {
  await c.query(`set maintenance_work_mem = '1GB'`);
  await c.query('set max_parallel_maintenance_workers = 2');
  // Unique keys and plain indexes first, foreign keys last (each checked by one join, not per row).
  for (const k of kept.constraints.filter((x) => x.type === 'u'))
    await c.query(`alter table "${k.tbl}" add constraint "${k.name}" ${k.def}`);
  for (const i of kept.indexes) await c.query(i.def);
  for (const k of kept.constraints.filter((x) => x.type === 'f'))
    await c.query(`alter table "${k.tbl}" add constraint "${k.name}" ${k.def}`);
}

/**
 * The reference: a plain COPY of the same rows into bare copies of the tables (no index, no key,
 * no constraint), rows generated beforehand (untimed), on two connections as the load. It is
 * sampled between the slices of the load, so both are measured over the same period of a shared
 * machine: after slice k it copies the rows of up to 2·BATCH patients starting at patient k·size,
 * the same rows the load wrote for them.
 */
async function plainCopyReference(
  db: Awaited<ReturnType<typeof openDatabase>>['db'],
  pool: pg.Pool,
  appId: number,
) {
  await pool.query('drop schema if exists bench_ref cascade');
  await pool.query('create schema bench_ref');
  for (const t of TABLES)
    await pool.query(`create table bench_ref."${t}" (like public."${t}" including defaults)`);
  let rows = 0;
  let ms = 0;
  return {
    /** Copies the rows of `size` patients (slice k's sample), in two halves on two connections. */
    async sample(k: number, size: number) {
      const from = (k * size) % N;
      const half = Math.ceil(size / 2);
      const batches = [
        await makeBatch(db, appId, SEED, from, Math.min(N, from + half)),
        await makeBatch(db, appId, SEED, from + half, Math.min(N, from + size)),
      ].filter((x) => x.patients.length > 0);
      await pool.query(TABLES.map((t) => `truncate bench_ref."${t}";`).join(''));
      const started = performance.now();
      const counts = await Promise.all(
        batches.map(async (batch) => {
          const client = await pool.connect();
          try {
            return await copyBatch(client, batch, 'bench_ref');
          } finally {
            client.release();
          }
        }),
      );
      ms += performance.now() - started;
      rows += counts.reduce((x, y) => x + y, 0);
    },
    result: () => ({ rows, ms }),
    drop: () => pool.query('drop schema bench_ref cascade'),
  };
}

async function load(): Promise<Loaded> {
  await adminQuery(`drop database if exists ${NAME} with (force)`);
  await adminQuery(`create database ${NAME}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-scale-'));
  const database = await openDatabase({ url: dbUrl, dataDir: 'memory' });
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
  try {
    const config = loadConfig({});
    await prepareData(database.db, { ...config, demoData: true, dataDir, demoPassword: DEMO_PASSWORD });
    const appId = Number(
      (await pool.query(`select app_id from apps where app_short_name = 'DEMO'`)).rows[0].app_id,
    );
    const reference = await plainCopyReference(database.db, pool, appId);
    const client = await pool.connect();
    let copyMs = 0;
    let indexMs = 0;
    let rows = 0;
    try {
      const kept = await dropIndexes(client);
      console.log(
        `dropped ${kept.indexes.length} indexes and ${kept.constraints.length} unique and foreign keys of ${TABLES.length} tables for the load`,
      );
      // The load in SLICES slices, the reference sampled after each (its time is not the load's).
      const sliceSize = Math.ceil(N / SLICES);
      let last = 0;
      for (let k = 0, from = 0; from < N; k++, from += sliceSize) {
        const t = performance.now();
        const res = await seedSynthetic(database.db, {
          appId,
          from,
          patients: Math.min(N, from + sliceSize),
          seed: SEED,
          batchSize: BATCH,
          workers: 2,
          pool,
          onProgress: (done) => {
            if (Date.now() - last < 30_000 && done < N) return;
            last = Date.now();
            const sec = (copyMs + performance.now() - t) / 1000;
            console.log(`  ${n(done)}/${n(N)} patients, ${sec.toFixed(0)} s of loading`);
          },
        });
        rows += res.rows;
        copyMs += performance.now() - t;
        await reference.sample(k, Math.min(2 * BATCH, sliceSize));
      }
      const indexStarted = performance.now();
      await buildIndexes(client, kept);
      await client.query('analyze');
      indexMs = performance.now() - indexStarted;
    } finally {
      client.release();
    }
    const ref = reference.result();
    await reference.drop();
    console.log(
      `plain COPY reference: ${n(ref.rows)} rows in ${s(ref.ms)}, ${n(ref.rows / (ref.ms / 1000))} rows/s (sampled after each of ${SLICES} slices; rows generated beforehand, bare tables)`,
    );
    const loaded: Loaded = {
      patients: N,
      rows,
      copy_ms: copyMs,
      index_ms: indexMs,
      total_ms: copyMs + indexMs,
      ref_rows: ref.rows,
      ref_ms: ref.ms,
      loaded_at: new Date().toISOString(),
    };
    await pool.query(
      `create schema if not exists bench;
       create table if not exists bench.scale_load (patients int, rows bigint, copy_ms float8, index_ms float8,
         total_ms float8, ref_rows bigint, ref_ms float8, loaded_at timestamptz)`,
    );
    await pool.query(
      'insert into bench.scale_load values ($1, $2, $3, $4, $5, $6, $7, $8)',
      Object.values(loaded),
    );
    return loaded;
  } finally {
    await pool.end();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function reportLoad(l: Loaded, fresh: boolean) {
  const ours = l.total_ms / Number(l.rows);
  const plain = l.ref_ms / Number(l.ref_rows);
  console.log(
    `${fresh ? 'loaded' : `kept from ${new Date(l.loaded_at).toISOString()} (BENCH_SCALE_RELOAD=1 loads again)`}: ${n(l.patients)} patients, ${n(Number(l.rows))} rows`,
  );
  console.log(
    `  generate + COPY ${s(l.copy_ms)}, indexes and keys ${s(l.index_ms)}, total ${s(l.total_ms)} (${(l.total_ms / 60000).toFixed(1)} min, target < 30 min ${l.total_ms < 1_800_000 ? 'met' : 'MISSED'}), ${n(Number(l.rows) / (l.total_ms / 1000))} rows/s; plain COPY ${n(Number(l.ref_rows) / (l.ref_ms / 1000))} rows/s`,
  );
  console.log(`load ratio=${(ours / plain).toFixed(2)}`);
}

interface Case {
  name: string;
  target: number;
  /** The call through HTTP, given the request's index. */
  http: (i: number) => Promise<unknown>;
  /** The same work without HTTP, session, permission and audit. */
  direct: (i: number) => Promise<unknown>;
  /** Runs (the heavy aggregates run fewer times than REQUESTS). */
  runs?: number;
}

async function time(fn: (i: number) => Promise<unknown>, runs: number) {
  // Warm-up: ten calls before a long series, one before a short one (the slow calls).
  for (let i = 0; i < (runs >= 50 ? 10 : 1); i++) await fn(i);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  return { p50: pct(xs, 50), p95: pct(xs, 95), max: Math.max(...xs) };
}

async function measure() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-scale-srv-'));
  const server = await startServer({ DATABASE_URL: dbUrl, DATA_DIR: dataDir }, 3990);
  const database = await openDatabase({ url: dbUrl, dataDir: 'memory' });
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
  try {
    const db = database.db;
    const appId = Number(
      (await pool.query(`select app_id from apps where app_short_name = 'DEMO'`)).rows[0].app_id,
    );
    const total = Number(
      (await pool.query('select count(*) from patients where app_id = $1', [appId])).rows[0].count,
    );
    const key = await signIn(server.url, 'admin');
    const SIZE = 20;
    const deepPage = Math.min(40_000, Math.floor(total / SIZE));
    const cursor = Number(
      (
        await pool.query('select id from patients where app_id = $1 order by id desc offset $2 limit 1', [
          appId,
          (deepPage - 1) * SIZE - 1,
        ])
      ).rows[0].id,
    );
    // REQUESTS different inpatients spread over the table (each with visits and vital signs).
    const step = Math.max(1, Math.floor(total / REQUESTS / 2));
    const people = (
      await pool.query<{ patient_id: string; visit_id: string }>(
        `select distinct on (v.patient_id) v.patient_id, v.id as visit_id from visits v
         where v.app_id = $1 and v.patient_id % $2 = 0
           and exists (select 1 from vital_signs s where s.patient_id = v.patient_id and s.visit_id = v.id)
         order by v.patient_id limit $3`,
        [appId, step, REQUESTS],
      )
    ).rows.map((r) => ({ id: Number(r.patient_id), visit: Number(r.visit_id) }));
    if (people.length < 20) throw new Error(`only ${people.length} inpatients found for the person views`);
    const person = (i: number) => people[i % people.length]!;
    const get = (p: string) => async () => {
      const r = await fetch(`${server.url}${p}`, { headers: { WeAppAuthorization: key } });
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    const post = (p: string, body: unknown) => async () => {
      const r = await fetch(`${server.url}${p}`, {
        method: 'POST',
        headers: { WeAppAuthorization: key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    const page1 = { page: 1, size: SIZE };
    const tab = (url: (id: number) => string, kind: Parameters<typeof listChildren>[3]): Case => ({
      name: `tab ${kind}`,
      target: 100,
      http: (i) => get(url(person(i).id))(),
      direct: (i) => listChildren(db, appId, person(i).id, kind, page1),
    });
    const words = ['腹水', '黑便', '黄染'];
    const criteria = {
      match: 'all' as const,
      inclusion: [
        { kind: 'diagnosis' as const, codes: ['B18'] },
        { kind: 'age' as const, min: 18, max: 90 },
      ],
      exclusion: [{ kind: 'diagnosis' as const, codes: ['C22'] }],
    };
    const charts = [
      { dataset: 'patients', dimensions: ['province'], measures: ['count'], filters: [], limit: 5000 },
      { dataset: 'diagnoses', dimensions: ['diagnosis'], measures: ['count'], filters: [], limit: 5000 },
    ];
    const cases: Case[] = [
      {
        name: 'patient list page 1',
        target: 50,
        http: get(`/api/v0.1/360?size=${SIZE}`),
        direct: () =>
          pool.query('select * from patients where app_id = $1 order by id desc limit $2', [appId, SIZE + 1]),
      },
      {
        name: `patient list page ${deepPage}`,
        target: 50,
        http: get(`/api/v0.1/360?size=${SIZE}&cursor=${cursor}`),
        direct: () =>
          pool.query('select * from patients where app_id = $1 and id < $2 order by id desc limit $3', [
            appId,
            cursor,
            SIZE + 1,
          ]),
      },
      {
        name: 'person view',
        target: 100,
        http: (i) => get(`/api/v0.1/360/person/${person(i).id}`)(),
        direct: (i) => personView(db, appId, person(i).id, true),
      },
      tab((id) => `/api/v0.1/360/visits/${id}`, 'visits'),
      tab((id) => `/api/v0.1/360/diagnoses/${id}`, 'diagnoses'),
      tab((id) => `/api/v0.1/360/allergies/${id}`, 'allergies'),
      tab((id) => `/api/v0.1/360/examinelist/${id}`, 'examReports'),
      tab((id) => `/api/v0.1/360/operationlist/${id}`, 'operations'),
      tab((id) => `/api/v0.1/360/physicalexams/${id}`, 'physicalExams'),
      tab((id) => `/api/v0.1/360/documents/${id}`, 'documents'),
      tab((id) => `/api/v0.1/360/measurementlist/${id}`, 'labResults'),
      tab((id) => `/api/v0.1/360/druglist?patientId=${id}`, 'orders'),
      {
        name: 'tab vital signs',
        target: 100,
        http: (i) => get(`/api/v0.1/360/vitalsigns/${person(i).id}?visitId=${person(i).visit}`)(),
        direct: (i) => vitalSignsOf(db, appId, person(i).id, person(i).visit),
      },
      {
        // At 1,000,000 patients a common word matches hundreds of thousands of documents and the
        // first page counts every matching patient: a few runs only (README, "1,000,000 patients").
        name: 'full-text search, one word (documents)',
        target: 300,
        runs: 2,
        http: (i) => post('/api/v0.1/fulltext/search', { text: words[i % words.length], size: SIZE })(),
        direct: (i) =>
          searchPatientsByConditions(db, appId, { text: words[i % words.length], size: SIZE } as never, true),
      },
      {
        name: 'search 肝硬化 + 腹水',
        target: 300,
        runs: 2,
        http: post('/api/v0.1/fulltext/search', { diagnosis: '肝硬化', text: '腹水', size: SIZE }),
        direct: () =>
          searchPatientsByConditions(
            db,
            appId,
            { diagnosis: '肝硬化', text: '腹水', size: SIZE } as never,
            true,
          ),
      },
      {
        name: 'criteria count (B18, 18-90, not C22)',
        target: 2000,
        runs: 5,
        http: post('/api/v0.1/diseaselibrary/criteria/count', criteria),
        direct: () => countPatients(db, appId, criteria),
      },
      ...charts.map(
        (c): Case => ({
          name: `chart aggregate ${c.dataset} by ${c.dimensions[0]}`,
          target: 1000,
          runs: 5,
          http: post('/api/v0.1/visualization/aggregate', c),
          direct: () => catalogue.aggregate(db, appId, c as never, 'zh-CN'),
        }),
      ),
    ];
    console.log(
      `${n(total)} patients in the app; ${REQUESTS} requests per call (fewer for the slow ones, judged by their slowest)`,
    );
    let worst = 0;
    let missed = 0;
    // BENCH_SCALE_ONLY=word|word measures only the calls whose name holds one of the words.
    const only = process.env.BENCH_SCALE_ONLY?.split('|');
    const chosen = cases.filter((x) => !only || only.some((w) => x.name.includes(w)));
    for (const c of chosen) {
      const runs = c.runs ?? REQUESTS;
      const h = await time(c.http, runs);
      const d = await time(c.direct, runs);
      const ratio = h.p50 / d.p50;
      worst = Math.max(worst, ratio);
      const judged = runs < 50 ? h.max : h.p95;
      if (judged >= c.target) missed++;
      console.log(
        `${c.name.padEnd(40)} http p50 ${h.p50.toFixed(1)} p95 ${h.p95.toFixed(1)} max ${h.max.toFixed(1)} ms | direct p50 ${d.p50.toFixed(1)} p95 ${d.p95.toFixed(1)} ms | target ${runs < 50 ? 'max' : 'p95'} < ${c.target} ms ${judged < c.target ? 'met' : 'MISSED'} | ratio=${ratio.toFixed(2)}`,
      );
    }
    console.log(`${chosen.length - missed} of ${chosen.length} targets met`);
    console.log(`queries ratio=${worst.toFixed(2)} (worst http/direct p50)`);
  } finally {
    await server.stop();
    await pool.end();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const load1 = process.hrtime.bigint();
const kept = await keptLoad();
const loaded = kept ?? (await load());
reportLoad(loaded, !kept);
if (!kept) console.log(`(load phase ${(Number(process.hrtime.bigint() - load1) / 1e9).toFixed(0)} s)`);
await measure();
