import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_PASSWORD = 'E2e#Demo2024';

/** A port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Waits until a started server answers /readyz (a first start migrates its database first). */
export async function waitReady(base: string, server: ChildProcess, log: () => string, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited early:\n${log()}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`The server did not become ready in ${ms / 1000} s:\n${log()}`);
}

/**
 * Starts the built server on a free port with these environment variables (beside the process's
 * own) and waits until it answers: its address, the process, and what it has printed so far.
 */
export async function startServer(env: NodeJS.ProcessEnv, ms?: number) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => {
    output += d;
  });
  server.stderr?.on('data', (d) => {
    output += d;
  });
  await waitReady(base, server, () => output, ms);
  return { base, server, output: () => output };
}

/** Stops a server: SIGTERM, and SIGKILL when it is still running half a second later. */
export async function stopServer(server: ChildProcess) {
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  if (server.exitCode === null) server.kill('SIGKILL');
}

function readAccounts(dataDir: string) {
  const file = JSON.parse(readFileSync(path.join(dataDir, 'demo-accounts.json'), 'utf8')) as {
    users: Array<{ username: string; password: string; role: string }>;
  };
  return file.users;
}

/** Builds if needed, starts the real server, and hands its address and accounts to the tests. */
export default async function globalSetup(config: FullConfig) {
  // Reuse a server that is already running (while developing tests): E2E_SERVER_URL + E2E_DATA_DIR.
  if (process.env.E2E_SERVER_URL && process.env.E2E_DATA_DIR) {
    process.env.E2E_BASE_URL = process.env.E2E_SERVER_URL;
    process.env.E2E_ACCOUNTS = JSON.stringify(readAccounts(process.env.E2E_DATA_DIR));
    process.env.E2E_COLLECTION_FILES = path.join(process.env.E2E_DATA_DIR, 'collection-files');
    return async () => {};
  }
  const built =
    existsSync(path.join(root, 'apps/server/dist/main.js')) &&
    existsSync(path.join(root, 'apps/web/dist/index.html'));
  if (!built || process.env.E2E_BUILD === '1') {
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crdp-e2e-'));
  // The server serves a private copy of the web build: a rebuild during the run cannot pull it away.
  const webDist = path.join(dataDir, 'web');
  cpSync(path.join(root, 'apps/web/dist'), webDist, { recursive: true });
  // The multi-center story's centers, made the way an operator adds a hospital to a site: the
  // create-admin tool makes the app (with product 22) and its first administrator. Each worker
  // slot gets a leading and a member center of its own, so stories running at the same time
  // never switch each other's multi-center mode or see each other's invitations.
  const centers = Array.from({ length: Math.max(1, config.workers) }, (_, i) => ({
    lead: {
      username: `lead${i + 1}admin`,
      password: DEMO_PASSWORD,
      app: `LEAD${i + 1}`,
      appName: `牵头医院${i + 1}`,
    },
    member: {
      username: `east${i + 1}admin`,
      password: DEMO_PASSWORD,
      app: `EAST${i + 1}`,
      appName: `东部协作医院${i + 1}`,
    },
  }));
  for (const center of centers.flatMap((c) => [c.lead, c.member])) {
    const made = spawnSync(process.execPath, ['apps/server/dist/cli/create-admin.js'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        ADMIN_USER: center.username,
        ADMIN_PASSWORD: center.password,
        ADMIN_APP: center.app,
        ADMIN_APP_NAME: center.appName,
      },
      encoding: 'utf8',
    });
    if (made.status !== 0) throw new Error(`create-admin failed: ${made.stderr}${made.stdout}`);
  }
  const { base, server } = await startServer({
    DATA_DIR: dataDir,
    DEMO_DATA: '1',
    // The shared server holds the accounts only; demo-hospital.spec.ts starts one with the demo.
    DEMO_PATIENTS: '0',
    DEMO_PASSWORD,
    WEB_DIST: webDist,
    // Each worker is a client address of its own (X-Forwarded-For, see fixtures.ts clientAddress).
    TRUST_PROXY: '1',
  });
  process.env.E2E_BASE_URL = base;
  process.env.E2E_ACCOUNTS = JSON.stringify(readAccounts(dataDir));
  // The folder CSV and FHIR collection sources read (the server's default COLLECTION_FILES_ROOT).
  process.env.E2E_COLLECTION_FILES = path.join(dataDir, 'collection-files');
  process.env.E2E_CENTERS = JSON.stringify(centers);

  return async () => {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
