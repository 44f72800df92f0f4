// Patient 360 latency through the real HTTP server against the same SQL run directly on the
// database, in the same run: patient list page 1 and a deep page (keyset), one person view,
// and a two-condition search (diagnosis + document text). p50/p95 over BENCH_REQUESTS (200).
// Uses BENCH_CDR_URL (an already seeded database, e.g. 1,000,000 patients by npm run seed:synthetic)
// or seeds BENCH_PATIENTS (default 20000) into a fresh database.
import { matchingPatients } from '../apps/server/src/clinical/search/search.js';
import { createBenchDatabase } from './_database.js';
import { demoServerIn } from './_inprocess.js';
import { signIn } from './_server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
// A fresh database unless BENCH_CDR_URL names a seeded one.
const created = process.env.BENCH_CDR_URL ? null : await createBenchDatabase();
const server = await demoServerIn(process.env.BENCH_CDR_URL ?? created!.url, 2);
const { address, pool, appId, database } = server;
if (created) await server.seed(Number(process.env.BENCH_PATIENTS ?? 20000));
const total = Number(
  (await pool.query('select count(*) from patients where app_id = $1', [appId])).rows[0].count,
);

const key = await signIn(address, 'admin');

const SIZE = 20;
const deepPage = Math.min(40_000, Math.floor(total / SIZE));
// The cursor of the deep page: the last id of the page before it (found once, not timed).
const cursor = (
  await pool.query('select id from patients where app_id = $1 order by id desc offset $2 limit 1', [
    appId,
    (deepPage - 1) * SIZE - 1,
  ])
).rows[0]?.id;
const person = (await pool.query(`select patient_id from operations where app_id = $1 limit 1`, [appId]))
  .rows[0].patient_id;
const search = { diagnosis: '肝硬化', text: '腹水', size: SIZE };

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
async function time(fn: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return { p50: pct(xs, 50), p95: pct(xs, 95) };
}
const http = (path: string, body?: object) => async () => {
  const r = await fetch(`${address}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { WeAppAuthorization: key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  await r.arrayBuffer();
};
const q = (text: string, params: unknown[]) => async () => {
  await pool.query(text, params);
};
const personSql = async () => {
  await Promise.all([
    pool.query('select * from patients where id = $1 and app_id = $2', [person, appId]),
    pool.query(
      'select * from visits where app_id = $2 and patient_id = $1 order by admit_at desc, id desc limit 50',
      [person, appId],
    ),
    pool.query('select count(*) from visits where app_id = $2 and patient_id = $1', [person, appId]),
    pool.query(
      'select * from diagnoses where app_id = $2 and patient_id = $1 order by diagnosed_at desc, id desc limit 50',
      [person, appId],
    ),
    pool.query('select count(*) from diagnoses where app_id = $2 and patient_id = $1', [person, appId]),
    pool.query(
      'select * from allergies where app_id = $2 and patient_id = $1 order by recorded_at desc limit 50',
      [person, appId],
    ),
    pool.query('select count(*) from allergies where app_id = $2 and patient_id = $1', [person, appId]),
  ]);
};
const searchQuery = async () => {
  await matchingPatients(database.db, appId, search, SIZE + 1);
};

const cases: Array<[string, () => Promise<unknown>, () => Promise<unknown>, number]> = [
  [
    'patient list page 1',
    http(`/api/v0.1/360?size=${SIZE}`),
    q('select * from patients where app_id = $1 order by id desc limit $2', [appId, SIZE + 1]),
    50,
  ],
  [
    `patient list page ${deepPage}`,
    http(`/api/v0.1/360?size=${SIZE}&cursor=${cursor}`),
    q('select * from patients where app_id = $1 and id < $2 order by id desc limit $3', [
      appId,
      cursor,
      SIZE + 1,
    ]),
    50,
  ],
  ['person view', http(`/api/v0.1/360/person/${person}`), personSql, 100],
  ['search 肝硬化 + 腹水', http('/api/v0.1/fulltext/search', search), searchQuery, 300],
];
console.log(`${total} patients in the app; ${REQUESTS} requests each`);
let worst = 0;
for (const [name, viaHttp, viaSql, target] of cases) {
  const h = await time(viaHttp);
  const s = await time(viaSql);
  worst = Math.max(worst, h.p50 / s.p50);
  console.log(
    `${name.padEnd(24)} http p50 ${h.p50.toFixed(1)} ms p95 ${h.p95.toFixed(1)} ms | sql p50 ${s.p50.toFixed(1)} ms p95 ${s.p95.toFixed(1)} ms | target p95 < ${target} ms ${h.p95 < target ? 'met' : 'MISSED'} | ratio=${(h.p50 / s.p50).toFixed(2)}`,
  );
}
console.log(`cdr-360 ratio=${worst.toFixed(2)} (worst http/sql p50)`);
await server.close();
await created?.drop();
