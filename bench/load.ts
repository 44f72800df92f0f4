// Load: 200 concurrent users for 60 s signing in, listing and saving, against the real server on
// the embedded database and on PostgreSQL. Errors are counted, and every save the server
// acknowledged must be in the database afterwards (lost writes: 0). The reference measured in
// the same run is GET /healthz of the same server at the same concurrency:
// ratio=<workload operations per second / healthz requests per second>.
import autocannon from 'autocannon';
import { api, missingIds, onEachDatabase, type Query, signIn, startServer } from './_server.js';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);

interface Tally {
  ops: number;
  errors: number;
  saves: number[];
  latencies: number[];
  /** Why operations failed: status code (or the error's message) → count. */
  why: Map<string, number>;
}

async function virtualUser(url: string, account: string, from: string, until: number, t: Tally) {
  let key: string | null = null;
  let i = 0;
  while (Date.now() < until) {
    const started = performance.now();
    try {
      // A person signs in once and again now and then; argon2id makes each sign-in deliberately costly.
      // Each person signs in from a computer of their own (password guesses are counted per
      // user and address: one address signing in as one user 200 times at once is a brute force).
      if (!key || i % 100 === 99) key = await signIn(url, account, from);
      const step = i % 3;
      const r =
        step === 0
          ? await api(url, 'GET', '/api/v0.1/free_access', undefined, key)
          : step === 1
            ? await api(url, 'GET', '/api/v0.1/notices', undefined, key)
            : await api(
                url,
                'POST',
                '/api/v0.1/free_access',
                { scopeKind: 'term', label: `load ${account} ${i}` },
                key,
              );
      if (r.status !== 200) {
        t.errors++;
        const k = `${r.status} ${String((r.json as { errorCode?: string } | undefined)?.errorCode ?? '')}`;
        t.why.set(k, (t.why.get(k) ?? 0) + 1);
      } else if (step === 2) t.saves.push((r.json!.data as { id: number }).id);
      t.ops++;
    } catch (e) {
      t.errors++;
      const k = (e as Error).message.slice(0, 80);
      t.why.set(k, (t.why.get(k) ?? 0) + 1);
    }
    t.latencies.push(performance.now() - started);
    i++;
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function measure(label: string, env: Record<string, string>, query: Query, port: number) {
  const server = await startServer(env, port);
  const ref = await autocannon({
    url: `${server.url}/healthz`,
    connections: USERS,
    duration: Math.min(10, SECONDS),
  });
  const t: Tally = { ops: 0, errors: 0, saves: [], latencies: [], why: new Map() };
  const until = Date.now() + SECONDS * 1000;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: USERS }, (_, u) =>
      virtualUser(server.url, u % 2 ? 'admin' : 'researcher', `10.1.${u >> 8}.${u & 255}`, until, t),
    ),
  );
  const elapsed = (Date.now() - start) / 1000;
  await server.stop('SIGTERM');
  const lost = await missingIds(query, t.saves);
  const opsPerSec = t.ops / elapsed;
  console.log(
    `${label}: ${USERS} users, ${elapsed.toFixed(0)} s, ${t.ops} operations (${opsPerSec.toFixed(0)}/s), ${t.saves.length} saves, ` +
      `errors ${t.errors}, lost writes ${lost.length}, latency p50 ${pct(t.latencies, 50).toFixed(0)} ms p99 ${pct(t.latencies, 99).toFixed(0)} ms`,
  );
  if (t.why.size)
    console.log(`${label}: failures by reason: ${[...t.why].map(([k, n]) => `${k} ×${n}`).join('; ')}`);
  console.log(
    `${label}: healthz reference ${ref.requests.average.toFixed(0)} req/s; load ratio=${(opsPerSec / ref.requests.average).toFixed(3)}`,
  );
}

await onEachDatabase('load', 18_301, measure);
