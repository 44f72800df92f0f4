// Requests per second of GET /healthz on the CRDP server against a bare Fastify hello-world,
// both started here and loaded with the same autocannon settings, one after the other.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

async function load(url: string) {
  const r = await autocannon({ url, connections: 50, duration: DURATION, pipelining: 1 });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

const bare = Fastify({ logger: false });
bare.get('/healthz', async () => ({ status: 'ok' }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const database = await openDatabase({ dataDir: 'memory' });
const app = await buildApp({
  config: { ...loadConfig({}), demoData: false, logLevel: 'silent' },
  database,
  logger: false,
});
const oursUrl = await app.listen({ port: 0, host: '127.0.0.1' });

// Warm both up, then measure alternately so drift on a shared machine hits both.
await autocannon({ url: `${bareUrl}/healthz`, connections: 10, duration: 2 });
await autocannon({ url: `${oursUrl}/healthz`, connections: 10, duration: 2 });
const b = await load(`${bareUrl}/healthz`);
const o = await load(`${oursUrl}/healthz`);
console.log(`bare fastify: ${b.rps.toFixed(0)} req/s (p99 ${b.p99} ms, errors ${b.errors})`);
console.log(`crdp server:  ${o.rps.toFixed(0)} req/s (p99 ${o.p99} ms, errors ${o.errors})`);
console.log(`healthz ratio=${(o.rps / b.rps).toFixed(3)}`);
await app.close();
await database.close();
await bare.close();
