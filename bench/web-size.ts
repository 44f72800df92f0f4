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

/** Bytes of JavaScript that crossed the network while the page at `url` loaded and settled. */
async function scriptBytes(browser: Browser, url: string, ready: (p: Page) => Promise<unknown>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, string>();
  let bytes = 0;
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId)) bytes += e.encodedDataLength;
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await context.close();
  return { bytes, files: scripts.size };
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
  console.log(`bare antd page: ${(b.bytes / 1024).toFixed(1)} KiB of JavaScript in ${b.files} files`);
  console.log(`login page:     ${(login.bytes / 1024).toFixed(1)} KiB of JavaScript in ${login.files} files`);
  console.log(`login-js ratio=${(login.bytes / b.bytes).toFixed(2)} (goal ≤ 2)`);

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
    downloadThroughput: (10 * 1024 * 1024) / 8,
    uploadThroughput: (10 * 1024 * 1024) / 8,
  });
  const started = Date.now();
  await page.goto(`${server.url}/dashboard/workplace`);
  await page.waitForLoadState('networkidle');
  const loaded = Date.now() - started;
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  console.log(
    `workbench, 10 Mbit/s 40 ms RTT, no cache: first contentful paint ${fcp.toFixed(0)} ms, network idle after ${loaded} ms (goal: first paint < 1500 ms; recorded, not asserted)`,
  );
  await context.close();
} finally {
  await browser.close();
  await server.stop();
  await bare.close();
  await rm(path.dirname(bareDist), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
}
