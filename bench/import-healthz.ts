/**
 * Does a 5 MB CDISC ODM import hold up other requests? The built server (its own process, real
 * HTTP, embedded database) answers GET /healthz every 20 ms, first with nothing else to do, then
 * while 5 MB ODM files are imported one after another. Prints the p99 (and the longest) /healthz
 * latency of both and `ratio=<p99 during imports / p99 idle>`; 1 means the imports cost the other
 * requests nothing. Before the parse moved to worker threads, every /healthz sent during an import
 * waited for the whole parse (3.5 to 8.3 s).
 * Run: `npm run build && npm run bench -- import-healthz`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bigOdm } from '../apps/server/src/parsing/test/big-odm.js';
import { signIn, startServer } from './_server.js';

const SAMPLES = Number(process.env.SAMPLES ?? 200);
const GAP_MS = 20;
/** Imports at most: with the parse on the event loop, each gives only one or two samples. */
const MAX_IMPORTS = Number(process.env.IMPORTS ?? 5);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};

async function health(url: string) {
  const t0 = performance.now();
  const r = await fetch(`${url}/healthz`);
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`/healthz answered ${r.status}`);
  return performance.now() - t0;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-import-healthz-'));
const server = await startServer({ DATA_DIR: dataDir }, 18_731);
try {
  const key = await signIn(server.url, 'admin');
  const content = bigOdm();
  const importOnce = async (i: number) => {
    const t0 = performance.now();
    const r = await fetch(`${server.url}/api/v0.1/crf/forms/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', WeAppAuthorization: key },
      body: JSON.stringify({ format: 'odm', name: `WHO-5 bench ${i}`, content, formOid: 'F.4' }),
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`import answered ${r.status}`);
    return performance.now() - t0;
  };
  // Warm-up: the worker threads start and the parse code is compiled.
  await importOnce(0);
  for (let i = 0; i < 20; i++) await health(server.url);

  const idle: number[] = [];
  while (idle.length < SAMPLES) {
    idle.push(await health(server.url));
    await sleep(GAP_MS);
  }

  const busy: number[] = [];
  const imports: number[] = [];
  for (let i = 1; busy.length < SAMPLES && i <= MAX_IMPORTS; i++) {
    let done = false;
    const running = importOnce(i).then((ms) => {
      done = true;
      imports.push(ms);
    });
    while (!done) {
      busy.push(await health(server.url));
      await sleep(GAP_MS);
    }
    await running;
  }

  const idleP99 = pct(idle, 99);
  const busyP99 = pct(busy, 99);
  const f = (n: number) => n.toFixed(1);
  console.log(
    `file=${(content.length / 1024 / 1024).toFixed(2)}MB imports=${imports.length} import=${f(pct(imports, 50))}ms (median)`,
  );
  console.log(
    `/healthz idle: n=${idle.length} p50=${f(pct(idle, 50))}ms p99=${f(idleP99)}ms max=${f(Math.max(...idle))}ms`,
  );
  console.log(
    `/healthz during import: n=${busy.length} p50=${f(pct(busy, 50))}ms p99=${f(busyP99)}ms max=${f(Math.max(...busy))}ms`,
  );
  console.log(`import-healthz p99 ratio=${(busyP99 / idleP99).toFixed(2)}`);
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
