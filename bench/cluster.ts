// Two nodes, one database, a read replica (issue 22 goal 6): the cluster of bench/cluster
// (a PostgreSQL primary and its streaming replica, two CRDP nodes, the Node reverse proxy).
// 1. The patient list (GET /api/v0.1/360?size=20, 50 connections, autocannon) through the proxy
//    to both nodes reading the replica, against one node on the primary alone (no proxy, no
//    replica), measured alternately: ratio = cluster / one node (requests per second).
// 2. Replication lag: a row written on the primary, polled on the replica until it is there.
// 3. SIGKILL of node B under 8 writers through the proxy; every acknowledged write looked up.
// `npm run build` first. BENCH_SECONDS (10) per round, BENCH_ROUNDS (2), BENCH_PATIENTS (2000).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { startCluster, startNode } from './cluster/cluster.js';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
/** Clock ticks a second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;
const ticks = (pid: number, children = false) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime + stime, and with `children` the time of the exited children it reaped (cutime + cstime).
    return Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
  } catch {
    return 0;
  }
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 2000);
const BASE = 18_700;

const cluster = await startCluster({ basePort: BASE, log: (l) => console.log(`cluster: ${l}`) });
const primary = new pg.Client(cluster.postgres.primaryUrl);
await primary.connect();
// The reference: one more node on the same primary, without the replica, addressed directly.
const { DATABASE_READ_URL: _replica, ...primaryOnly } = cluster.env;
const single = startNode('single', BASE + 9, primaryOnly);
try {
  await single.start();
  const login = await fetch(`${cluster.proxy.url}/api/v0.1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ UserName: 'admin', Password: cluster.env.DEMO_PASSWORD }),
  });
  const key = ((await login.json()) as { data: { User: { SessionKey: string } } }).data.User.SessionKey;
  const first = await fetch(`${cluster.proxy.url}/api/v0.1/cdr/patients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', WeAppAuthorization: key },
    body: JSON.stringify({ mrn: 'BENCH-0', name: '患者0', gender: 1 }),
  });
  const firstId = ((await first.json()) as { data: { id: number } }).data.id;
  const { rows } = await primary.query<{ app_id: number }>('select app_id from patients where id = $1', [
    firstId,
  ]);
  const appId = rows[0]!.app_id;
  await primary.query(
    `insert into patients (app_id, mrn, name, gender, birth_date, source, source_id)
     select $1, 'BENCH-' || g, '患者' || g, 1 + g % 2, date '1950-01-01' + (g % 20000), 'bench', 'BENCH-' || g
     from generate_series(1, $2::int) g`,
    [appId, PATIENTS],
  );
  await primary.query('analyze patients');
  await cluster.postgres.caughtUp();

  const headers = { WeAppAuthorization: key };
  // autocannon in a process of its own: the proxy runs in this one, and must not share its event loop.
  const load = (url: string, duration: number) =>
    new Promise<{ rps: number; p99: number; bad: number }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [AUTOCANNON, '-c', '50', '-d', String(duration), '-j', '-H', `WeAppAuthorization=${key}`, url],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.on('exit', (code) => {
        if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
        const r = JSON.parse(out) as {
          requests: { average: number };
          latency: { p99: number };
          errors: number;
          non2xx: number;
        };
        resolve({ rps: r.requests.average, p99: r.latency.p99, bad: r.errors + r.non2xx });
      });
    });
  const list = '/api/v0.1/360?size=20';
  const nodeA = cluster.nodes[0]!.url;
  for (const u of [cluster.proxy.url, single.url, nodeA]) {
    const check = await fetch(`${u}${list}`, { headers });
    if (check.status !== 200) throw new Error(`list on ${u}: ${check.status} ${await check.text()}`);
    await load(`${u}${list}`, 2); // warm-up
  }
  // Where the CPU goes (Linux /proc): the node processes, the proxy (this process) and PostgreSQL's
  // backends of both clusters, in CPU milliseconds per request answered.
  const postmasters = ['primary', 'replica'].map((d) =>
    Number(readFileSync(path.join(cluster.dir, d, 'postmaster.pid'), 'utf8').split('\n')[0]),
  );
  const nodePids = [...cluster.nodes, single].map((n) => n.child!.pid!);
  const cpu = () => {
    const backends = postmasters.flatMap((pm) =>
      execFileSync('pgrep', ['-P', String(pm)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number),
    );
    // A backend that ended meanwhile (a pool closing an idle connection) counts in its postmaster's cutime.
    const postgres = sum(backends.map((b) => ticks(b))) + sum(postmasters.map((pm) => ticks(pm, true)));
    return { nodes: sum(nodePids.map((n) => ticks(n))), proxy: ticks(process.pid), postgres };
  };
  const measured = async (url: string) => {
    const before = cpu();
    const r = await load(url, SECONDS);
    const after = cpu();
    const per = (k: 'nodes' | 'proxy' | 'postgres') =>
      (((after[k] - before[k]) * 1000) / TICKS / Math.max(1, r.rps * SECONDS)).toFixed(2);
    return {
      ...r,
      cpu: `CPU ms per request: nodes ${per('nodes')}, proxy ${per('proxy')}, PostgreSQL ${per('postgres')}`,
    };
  };
  const two: number[] = [];
  const one: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const c = await measured(`${cluster.proxy.url}${list}`);
    const s = await measured(`${single.url}${list}`);
    // Node A alone, reading the replica, without the proxy: what the proxy's hop costs.
    const d = await measured(`${nodeA}${list}`);
    two.push(c.rps);
    one.push(s.rps);
    direct.push(d.rps);
    console.log(`round ${i + 1}:`);
    console.log(
      `  two nodes + replica via proxy ${c.rps.toFixed(0)} req/s (p99 ${c.p99} ms, ${c.bad} bad); ${c.cpu}`,
    );
    console.log(
      `  one node on the primary       ${s.rps.toFixed(0)} req/s (p99 ${s.p99} ms, ${s.bad} bad); ${s.cpu}`,
    );
    console.log(
      `  node A alone on the replica   ${d.rps.toFixed(0)} req/s (p99 ${d.p99} ms, ${d.bad} bad); ${d.cpu}`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const served = cluster.proxy.upstreams.map((u) => `${u.name} ${u.served}`).join(', ');
  const replicaReads = new pg.Client(cluster.postgres.replicaUrl);
  await replicaReads.connect();
  const sessions = await replicaReads.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where application_name = 'crdp-read'",
  );
  console.log(`proxy answers per node: ${served}; read sessions on the replica: ${sessions.rows[0]!.n}`);

  // Replication lag: a row written on the primary, looked for on the replica every millisecond or so.
  await primary.query(
    'create table bench_lag (id serial primary key, at timestamptz not null default now())',
  );
  const lags: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    const made = await primary.query<{ id: number }>('insert into bench_lag default values returning id');
    const id = made.rows[0]!.id;
    for (;;) {
      const r = await replicaReads.query('select 1 from bench_lag where id = $1', [id]);
      if (r.rowCount) break;
    }
    lags.push(performance.now() - t);
  }
  await replicaReads.end();
  if (lags.length) {
    const sorted = [...lags].sort((a, b) => a - b);
    console.log(
      `replication lag (commit on the primary to visible on the replica, ${sorted.length} rows): ` +
        `p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
  }

  // A node killed under load.
  const acknowledged: number[] = [];
  let refused = 0;
  let stop = false;
  const writers = Array.from({ length: 8 }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      try {
        const r = await fetch(`${cluster.proxy.url}/api/v0.1/free_access`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ scopeKind: 'term', label: `bench ${w}-${i}` }),
        });
        const body = (await r.json()) as { data?: { id: number } };
        if (r.status === 200 && body.data) acknowledged.push(body.data.id);
        else refused++;
      } catch {
        refused++;
      }
    }
  });
  await new Promise((r) => setTimeout(r, 3000));
  await cluster.nodes[1]!.stop('SIGKILL');
  await new Promise((r) => setTimeout(r, 5000));
  stop = true;
  await Promise.all(writers);
  const present = await primary.query('select id from free_access_keys where id = any($1)', [acknowledged]);
  const lost = acknowledged.length - (present.rowCount ?? 0);
  console.log(
    `kill -9 of node B under 8 writers: ${acknowledged.length} acknowledged, ${lost} lost, ${refused} answered 502 ` +
      `(in flight on B when it died); crash ratio=${((acknowledged.length - lost) / Math.max(1, acknowledged.length)).toFixed(3)}`,
  );
  console.log(`list: node A alone on the replica ${median(direct).toFixed(0)} req/s (no proxy)`);
  console.log(
    `list: two nodes + replica ${median(two).toFixed(0)} req/s vs one node on the primary ${median(one).toFixed(0)} req/s, ratio=${(median(two) / median(one)).toFixed(2)}`,
  );
} finally {
  await primary.end();
  await single.stop();
  await cluster.stop();
}
