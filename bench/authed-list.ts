// Issue 22 goal 2: an authenticated list request through the whole server (session, permission,
// app scope, read audit, serialisation) against a bare Fastify route that reads the same 20 rows
// with `pg` and returns them as JSON, in the same run, on PostgreSQL (autocannon, 50 connections,
// measured alternately so drift on a shared machine hits both). Target: ratio ≥ 0.7.
// BENCH_SECONDS (10) per round, BENCH_ROUNDS (2), BENCH_PATIENTS (2000).
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { seedSynthetic } from '../apps/server/src/clinical/synthetic/seed.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PASSWORD = 'Bench-Pass-2026';
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const name = `crdp_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
await admin.end();
const u = new URL(base);
u.pathname = `/${name}`;
const url = u.toString();

const database = await openDatabase({ url, dataDir: 'memory' });
const config = {
  ...loadConfig({}),
  databaseUrl: url,
  demoData: true,
  demoPassword: PASSWORD,
  logLevel: 'silent' as const,
  loginRateLimit: 100000,
};
const app = await buildApp({ config, database, logger: false });
const ours = await app.listen({ port: 0, host: '127.0.0.1' });
// The bare route's pool is as large as the server's (db/client.ts).
const pool = new pg.Pool({ connectionString: url, max: 10 });
const appId = Number(
  (await pool.query(`select app_id from apps where app_short_name = 'DEMO'`)).rows[0].app_id,
);
const seedPool = new pg.Pool({ connectionString: url, max: 4 });
await seedSynthetic(database.db, {
  appId,
  patients: Number(process.env.BENCH_PATIENTS ?? 2000),
  seed: 1,
  batchSize: 2000,
  pool: seedPool,
});
await seedPool.end();
await pool.query('analyze');

const bare = Fastify({ logger: false });
bare.get('/list', async () => {
  const r = await pool.query('select * from patients where app_id = $1 order by id desc limit $2', [
    appId,
    21,
  ]);
  const rows = r.rows.slice(0, 20);
  return { items: rows, nextCursor: r.rows.length > 20 ? String(rows[19].id) : null };
});
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const login = await fetch(`${ours}/api/merchants/merchantslogin`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ method: 'Login', params: [{ UserName: 'admin', Password: PASSWORD }] }),
});
const key = ((await login.json()) as { result: { User: { SessionKey: string } } }).result.User.SessionKey;

async function load(target: string, headers: Record<string, string> = {}, duration = SECONDS) {
  const r = await autocannon({ url: target, connections: 50, duration, pipelining: 1, headers });
  return { rps: r.requests.average, p99: r.latency.p99, bad: r.errors + r.non2xx };
}
const oursList = `${ours}/api/v0.1/360?size=20`;
const auth = { WeAppAuthorization: key };
const check = await fetch(oursList, { headers: auth });
if (check.status !== 200) throw new Error(`list: ${check.status} ${await check.text()}`);

await load(`${bareUrl}/list`, {}, 2);
await load(oursList, auth, 2);
const b: number[] = [];
const o: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const rb = await load(`${bareUrl}/list`);
  const ro = await load(oursList, auth);
  if (rb.bad || ro.bad) throw new Error(`failed requests: bare ${rb.bad}, crdp ${ro.bad}`);
  console.log(
    `round ${i + 1}: bare ${rb.rps.toFixed(0)} req/s (p99 ${rb.p99} ms), crdp ${ro.rps.toFixed(0)} req/s (p99 ${ro.p99} ms)`,
  );
  b.push(rb.rps);
  o.push(ro.rps);
}
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const audited = Number(
  (await pool.query(`select count(*) from audit_log where entity = 'patient_list'`)).rows[0].count,
);
console.log(`read-audit rows written for the list: ${audited}`);
console.log(`authed-list ratio=${(mean(o) / mean(b)).toFixed(3)} (target ≥ 0.7)`);

await app.close();
await bare.close();
await pool.end();
await database.close();
const drop = new pg.Client({ connectionString: base });
await drop.connect();
await drop.query(`drop database if exists ${name} with (force)`);
await drop.end();
