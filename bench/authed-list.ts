// Issue 22 goal 2: an authenticated list request through the whole server (session, permission,
// app scope, read audit, serialisation) against a bare Fastify route that reads the same 20 rows
// with `pg` and returns them as JSON, in the same run, on PostgreSQL (autocannon, 50 connections,
// measured alternately so drift on a shared machine hits both). Target: ratio ≥ 0.7.
// BENCH_SECONDS (10) per round, BENCH_ROUNDS (2), BENCH_PATIENTS (2000).
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createBenchDatabase } from './_database.js';
import { demoServerIn } from './_inprocess.js';
import { DEMO_PASSWORD } from './_server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const created = await createBenchDatabase();
// The bare route's pool is as large as the server's (db/client.ts).
const server = await demoServerIn(created.url, 10);
const { address: ours, pool, appId } = server;
await server.seed(Number(process.env.BENCH_PATIENTS ?? 2000));

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
  body: JSON.stringify({ method: 'Login', params: [{ UserName: 'admin', Password: DEMO_PASSWORD }] }),
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

await server.close();
await bare.close();
await created.drop();
