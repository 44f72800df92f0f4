// How much JavaScript the login page makes a browser download, against a bare antd page with one
// Form, Input and Button built by the same Vite config and served the same way (pre-compressed,
// by Accept-Encoding). Counted in Chromium from the bytes that crossed the network. Then the
// workbench's first paint and first data on a throttled link (10 Mbit/s, 40 ms RTT), recorded.
// Needs `npm run build` and the system Chromium.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { type Browser, chromium, type Page } from '@playwright/test';
import Fastify from 'fastify';
import { build } from 'vite';
import { findChromium } from '../scripts/chromium.mjs';
import { DEMO_PASSWORD, startServer } from './_server.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = findChromium();
if (!CHROMIUM) {
  console.log('web-size: no Chromium found (set CHROMIUM_PATH); skipped');
  process.exit(0);
}

/** Builds a bare antd page (one Form, Input, Button) with the web app's own Vite config. */
async function buildBarePage(): Promise<string> {
  // Inside apps/web so it resolves antd and React from the same node_modules as the app.
  const dir = await mkdtemp(path.join(root, 'apps/web/.bench-bare-'));
  await mkdir(path.join(dir, 'src'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
  );
  await writeFile(
    path.join(dir, 'src/main.tsx'),
    `import { Button, Form, Input } from 'antd';
import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('root')!).render(
  <Form layout="vertical" onFinish={() => undefined}>
    <Form.Item label="用户名" name="u" rules={[{ required: true }]}><Input /></Form.Item>
    <Button type="primary" htmlType="submit">登录</Button>
  </Form>,
);
`,
  );
  const out = path.join(dir, 'dist');
  await build({
    configFile: path.join(root, 'apps/web/vite.config.ts'),
    root: dir,
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true },
  });
  return out;
}

/**
 * JavaScript that crossed the network while the page at `url` loaded and settled: the encoded
 * (Brotli) bodies, and the same with each response's header bytes. The login page's server adds
 * its security headers (helmet) to every file, the bare page's plain server does not, so the
 * ratio is taken on the bodies; the header bytes are printed beside it.
 */
async function scriptBytes(browser: Browser, url: string, ready: (p: Page) => Promise<unknown>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const headerBytes = new Map<string, number>();
  const encodings = new Set<string>();
  let body = 0;
  let total = 0;
  cdp.on('Network.responseReceived', (e) => {
    if (e.type !== 'Script') return;
    // What had arrived when the response started: its status line and headers.
    headerBytes.set(e.requestId, e.response.encodedDataLength);
    const enc = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding');
    encodings.add(enc ? String(enc[1]) : 'none');
  });
  cdp.on('Network.loadingFinished', (e) => {
    const headers = headerBytes.get(e.requestId);
    if (headers === undefined) return;
    total += e.encodedDataLength;
    body += e.encodedDataLength - headers;
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await context.close();
  return { body, total, files: headerBytes.size, encodings: [...encodings].join(',') };
}

const bareDist = await buildBarePage();
const bare = Fastify({ logger: false });
await bare.register(fastifyStatic, { root: bareDist, preCompressed: true });
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const a = probe.address();
    probe.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
  });
});
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-bench-web-'));
const server = await startServer({ DATA_DIR: dataDir }, port);
// startServer gives up waiting after a minute; on a loaded machine the first start takes longer.
for (let i = 0; i < 600; i++) {
  if (
    await fetch(`${server.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 500));
}
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const b = await scriptBytes(browser, `${bareUrl}/`, (p) => p.getByRole('button').waitFor());
  const login = await scriptBytes(browser, `${server.url}/user/login`, (p) =>
    p.locator('input[type=password]').waitFor(),
  );
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  for (const [name, m] of [
    ['bare antd page', b],
    ['login page    ', login],
  ] as const)
    console.log(
      `${name}: ${kib(m.body)} of JavaScript in ${m.files} files (${m.encodings}); with response headers ${kib(m.total)}`,
    );
  console.log(`login-js with headers: ${(login.total / b.total).toFixed(2)}`);
  console.log(`login-js ratio=${(login.body / b.body).toFixed(2)} (goal ≤ 2)`);

  // The workbench on a throttled link, signed in: first contentful paint and first data.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/user/login`);
  await page.locator('input[autocomplete=username]').fill('admin');
  await page.locator('input[type=password]').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
  await page.waitForURL('**/dashboard/workplace');
  await page.waitForLoadState('networkidle');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: 10_000_000 / 8,
    uploadThroughput: 10_000_000 / 8,
  });
  // The JSON answers the workbench reads, kept to weigh compressing dynamic answers below.
  const answers: Promise<Buffer | null>[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/') && r.status() === 200)
      answers.push(r.body().catch(() => null));
  });
  const started = Date.now();
  await page.goto(`${server.url}/dashboard/workplace`);
  // Network idle alone can come early on a busy machine (no request while the code still runs):
  // wait for the workbench's greeting first.
  await page.getByTestId('greeting').waitFor({ timeout: 120_000 });
  const drawn = Date.now() - started;
  await page.waitForLoadState('networkidle');
  const loaded = Date.now() - started;
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  console.log(
    `workbench, 10 Mbit/s 40 ms RTT, no cache: first contentful paint ${fcp.toFixed(0)} ms, workbench drawn after ${drawn} ms, network idle after ${loaded} ms (goal: first paint < 1500 ms; recorded, not asserted)`,
  );
  await context.close();

  // Would compressing dynamic JSON answers pay? What the workbench's answers weigh, what gzip
  // (level 6) and Brotli (quality 4, the levels a server uses per answer) make of them, and the
  // CPU each costs, against the time the saved bytes take on the throttled link.
  const bodies = (await Promise.all(answers)).filter((x): x is Buffer => !!x && x.length > 0);
  const raw = bodies.reduce((n, x) => n + x.length, 0);
  const squeeze = (name: string, fn: (x: Buffer) => Buffer) => {
    let out = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) for (const x of bodies) out += fn(x).length;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6 / 20;
    out /= 20;
    const savedMs = (((raw - out) * 8) / 10_000_000) * 1000;
    console.log(
      `  ${name}: ${kib(out)} (${((out / raw) * 100).toFixed(0)}%), ${ms.toFixed(2)} ms CPU for all, ${((ms / bodies.length) * 1000).toFixed(0)} µs per answer; saves ${savedMs.toFixed(0)} ms at 10 Mbit/s`,
    );
  };
  console.log(`workbench JSON answers: ${bodies.length}, ${kib(raw)} uncompressed`);
  squeeze('gzip 6  ', (x) => gzipSync(x, { level: 6 }));
  squeeze('brotli 4', (x) => brotliCompressSync(x, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }));
} finally {
  await browser.close();
  await server.stop();
  await bare.close();
  await rm(path.dirname(bareDist), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
