// Load: concurrent users for 60 s signing in, listing and saving, against the real server on the
// embedded database and on PostgreSQL. Errors are counted, and every save the server
// acknowledged must be in the database afterwards (lost writes: 0). The reference measured in
// the same run is GET /healthz of the same server at the same concurrency:
// ratio=<workload operations per second / healthz requests per second>.
//
// Goal (issue 22): on PostgreSQL 200 users with p99 < 500 ms and no request over 5 s; on the
// embedded database (one query at a time) 100 users with no request over 10 s.
//
// Environment: LOAD_USERS (PostgreSQL users, 200), LOAD_EMBEDDED_USERS (embedded users, 100),
// LOAD_SECONDS (60), BENCH_DATABASES=postgres|embedded (one of them only), LOAD_CPU_PROF=<dir>
// (the server writes a V8 CPU profile there when it stops: where the time went under load),
// BENCH_SERVER_MAIN=<path of another build's dist/main.js> (a baseline, e.g. the previous commit).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { api, missingIds, onEachDatabase, type Query, signIn, startServer } from './_server.js';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const EMBEDDED_USERS = Number(process.env.LOAD_EMBEDDED_USERS ?? 100);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CPU_PROF = process.env.LOAD_CPU_PROF;

/** The longest a request may take: 5 s on PostgreSQL, 10 s on the embedded database (queueing, not starving). */
const LIMIT_MS = { postgres: 5_000, embedded: 10_000 } as Record<string, number>;

const KINDS = ['sign-in', 'list', 'notices', 'save'] as const;
type Kind = (typeof KINDS)[number];

interface Tally {
  ops: number;
  errors: number;
  saves: number[];
  /** Latency of every operation by kind (ms). */
  latencies: Record<Kind, number[]>;
  /** When (s from the start) the operations over half the limit started, by kind: in the crowd at the start, or later? */
  slow: Map<string, number[]>;
  /** Why operations failed: status code (or the error's message) → count. */
  why: Map<string, number>;
}

async function virtualUser(
  url: string,
  account: string,
  from: string,
  until: number,
  t: Tally,
  slowMs: number,
) {
  const origin = until - SECONDS * 1000;
  let key: string | null = null;
  let i = 0;
  let sinceSignIn = 0;
  while (Date.now() < until) {
    // A person signs in once and again now and then; argon2id makes each sign-in deliberately costly.
    // Each person signs in from a computer of their own (password guesses are counted per
    // user and address: one address signing in as one user 200 times at once is a brute force).
    // A sign-in is an operation of its own, timed apart from the list or save that follows it.
    const signing = !key || sinceSignIn >= 100;
    const step = i % 3;
    const kind: Kind = signing ? 'sign-in' : step === 0 ? 'list' : step === 1 ? 'notices' : 'save';
    const started = performance.now();
    try {
      if (signing) key = await signIn(url, account, from);
      else {
        const r =
          kind === 'list'
            ? await api(url, 'GET', '/api/v0.1/free_access', undefined, key!)
            : kind === 'notices'
              ? await api(url, 'GET', '/api/v0.1/notices', undefined, key!)
              : await api(
                  url,
                  'POST',
                  '/api/v0.1/free_access',
                  { scopeKind: 'term', label: `load ${account} ${i}` },
                  key!,
                );
        if (r.status !== 200) {
          t.errors++;
          const k = `${r.status} ${String((r.json as { errorCode?: string } | undefined)?.errorCode ?? '')}`;
          t.why.set(k, (t.why.get(k) ?? 0) + 1);
        } else if (kind === 'save') t.saves.push((r.json!.data as { id: number }).id);
      }
      t.ops++;
    } catch (e) {
      t.errors++;
      const k = (e as Error).message.slice(0, 80);
      t.why.set(k, (t.why.get(k) ?? 0) + 1);
    }
    const took = performance.now() - started;
    t.latencies[kind].push(took);
    if (took > slowMs) {
      const at = Math.floor((Date.now() - took - origin) / 1000);
      t.slow.set(kind, [...(t.slow.get(kind) ?? []), at]);
    }
    if (signing) sinceSignIn = 0;
    else {
      i++;
      sinceSignIn++;
    }
  }
}

/**
 * CPU time the server process has used (user + system, every thread, ms), from /proc on Linux
 * (null elsewhere): on a shared machine, CPU per operation drifts far less than latency does.
 */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return null;
  }
}

const sorted = (xs: number[]) => Float64Array.from(xs).sort();
const pct = (s: Float64Array, p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
const summary = (xs: number[]) => {
  const s = sorted(xs);
  const f = (v: number) => v.toFixed(0);
  return `n ${s.length}, p50/p95/p99/max ${f(pct(s, 50))} / ${f(pct(s, 95))} / ${f(pct(s, 99))} / ${f(s[s.length - 1] ?? 0)} ms`;
};

async function measure(label: string, env: Record<string, string>, query: Query, port: number) {
  const users = label === 'embedded' ? EMBEDDED_USERS : USERS;
  const limit = LIMIT_MS[label] ?? 5_000;
  const server = await startServer(
    env,
    port,
    CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`, `--cpu-prof-name=load-${label}.cpuprofile`] : [],
  );
  const loadBefore = os.loadavg()[0]!;
  const refCpu = cpuMs(server.child.pid);
  const ref = await autocannon({
    url: `${server.url}/healthz`,
    connections: users,
    duration: Math.min(10, SECONDS),
  });
  const loadCpu = cpuMs(server.child.pid);
  const t: Tally = {
    ops: 0,
    errors: 0,
    saves: [],
    latencies: { 'sign-in': [], list: [], notices: [], save: [] },
    why: new Map(),
    slow: new Map(),
  };
  const until = Date.now() + SECONDS * 1000;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: users }, (_, u) =>
      virtualUser(
        server.url,
        u % 2 ? 'admin' : 'researcher',
        `10.1.${u >> 8}.${u & 255}`,
        until,
        t,
        limit / 2,
      ),
    ),
  );
  const elapsed = (Date.now() - start) / 1000;
  const loadAfter = os.loadavg()[0]!;
  const endCpu = cpuMs(server.child.pid);
  await server.stop('SIGTERM');
  const lost = await missingIds(query, t.saves);
  const opsPerSec = t.ops / elapsed;
  const all = KINDS.flatMap((k) => t.latencies[k]);
  const withoutSignIn = KINDS.filter((k) => k !== 'sign-in').flatMap((k) => t.latencies[k]);
  const over = all.filter((ms) => ms > limit).length;
  console.log(
    `${label}: ${users} users, ${elapsed.toFixed(0)} s, ${t.ops} operations (${opsPerSec.toFixed(0)}/s), ${t.saves.length} saves, ` +
      `errors ${t.errors}, lost writes ${lost.length}; load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} (${os.cpus().length} cores)`,
  );
  console.log(`${label}: all operations: ${summary(all)}`);
  console.log(`${label}: without sign-ins: ${summary(withoutSignIn)}`);
  for (const k of KINDS) console.log(`${label}:   ${k}: ${summary(t.latencies[k])}`);
  console.log(`${label}: requests over ${limit / 1000} s: ${over}`);
  for (const [k, ats] of t.slow) {
    const early = ats.filter((at) => at < 5).length;
    console.log(
      `${label}:   ${k} over ${limit / 2000} s: ${early} started in the first 5 s (the crowd signing in), ${ats.length - early} later`,
    );
  }
  if (refCpu !== null && loadCpu !== null && endCpu !== null) {
    const perOp = (endCpu - loadCpu) / t.ops;
    const perHealthz = (loadCpu - refCpu) / ref.requests.total;
    console.log(
      `${label}: server CPU per operation ${perOp.toFixed(2)} ms (per healthz ${perHealthz.toFixed(3)} ms); cpu ratio=${(perOp / perHealthz).toFixed(1)}`,
    );
  }
  if (t.why.size)
    console.log(`${label}: failures by reason: ${[...t.why].map(([k, n]) => `${k} ×${n}`).join('; ')}`);
  console.log(
    `${label}: healthz reference ${ref.requests.average.toFixed(0)} req/s (p99 ${ref.latency.p99} ms); load ratio=${(opsPerSec / ref.requests.average).toFixed(3)}`,
  );
}

await onEachDatabase('load', 18_301, measure);
