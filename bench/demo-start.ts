// The first start of a fresh clone (issue 16): the built server on an empty DATA_DIR, as `npm start`
// runs it, until the demo hospital is ready in every area. The reference, measured in the same run,
// is the first start of the same server with the demo off (migrating an empty database and listening).
// Prints the time to the first sign-in, to ready, and the slowest answer to GET demo/status while the
// demo was made (on the embedded database every query runs on the server's one thread).
// Needs `npm run build` first. DEMO_PATIENTS (default 2000, the product's default) sets the size.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const main = path.join(root, 'apps/server/dist/main.js');
const PATIENTS = Number(process.env.DEMO_PATIENTS ?? 2000);
const PASSWORD = 'Bench#Demo2026';

if (!existsSync(main)) {
  console.error('demo-start: apps/server/dist/main.js is missing; run `npm run build` first');
  process.exit(1);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(demo: boolean, port: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crdp-bench-demo-'));
  const started = performance.now();
  const server = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: '',
      DEMO_DATA: demo ? '1' : '0',
      DEMO_PATIENTS: String(PATIENTS),
      DEMO_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dataDir, started, server, base: `http://127.0.0.1:${port}` };
}

async function stop(s: { server: ChildProcess; dataDir: string }) {
  s.server.kill('SIGTERM');
  await new Promise((r) => s.server.once('exit', r));
  rmSync(s.dataDir, { recursive: true, force: true });
}

async function signIn(base: string): Promise<string | null> {
  try {
    const res = await fetch(`${base}/api/merchants/merchantslogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'Login', params: [{ UserName: 'admin', Password: PASSWORD }] }),
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await res.json()) as { result?: { User?: { SessionKey?: string } } };
    return body.result?.User?.SessionKey ?? null;
  } catch {
    return null;
  }
}

const healthy = (base: string) =>
  fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
    (r) => r.ok,
    () => false,
  );

/** Milliseconds from the process's start until `ask` answers (a session key, or true). */
async function firstAnswer<T>(ask: () => Promise<T | null | false>, started: number) {
  for (;;) {
    const answer = await ask();
    if (answer) return { answer, ms: performance.now() - started };
    if (performance.now() - started > 300_000) throw new Error('demo-start: no answer in 5 minutes');
    await sleep(100);
  }
}

// Reference: the same first start without the demo (no demo accounts either: /healthz answers).
const plain = await start(false, 39101);
const reference = (await firstAnswer(() => healthy(plain.base), plain.started)).ms;
await stop(plain);

const demo = await start(true, 39102);
const { answer: key, ms: answered } = await firstAnswer(() => signIn(demo.base), demo.started);
let slowest = 0;
let ready = 0;
for (;;) {
  const asked = performance.now();
  const res = await fetch(`${demo.base}/api/v0.1/demo/status`, {
    headers: { WeAppAuthorization: key },
    signal: AbortSignal.timeout(60_000),
  });
  const { data } = (await res.json()) as { data: { state: string; progress: number } };
  slowest = Math.max(slowest, performance.now() - asked);
  if (data.state === 'ready') {
    ready = performance.now() - demo.started;
    break;
  }
  if (data.state === 'failed') throw new Error('demo-start: the demo hospital failed');
  if (performance.now() - demo.started > 600_000) throw new Error('demo-start: not ready in 10 minutes');
  await sleep(250);
}
await stop(demo);

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`first start without the demo (reference): first answer ${s(reference)}`);
console.log(
  `first start with the demo, ${PATIENTS} patients: first answer ${s(answered)}, every area ready ${s(ready)}`,
);
console.log(`slowest answer to demo/status while the demo was made: ${Math.round(slowest)} ms`);
console.log(
  `demo-start ready ratio=${(ready / reference).toFixed(3)} first-answer ratio=${(answered / reference).toFixed(3)}`,
);
