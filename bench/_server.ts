// Starts the built CRDP server as a child process (the real thing: its own process, real HTTP),
// on the embedded database in a data directory or on a PostgreSQL database.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PGLITE_EXTENSIONS } from '../apps/server/src/db/client.js';
import { createBenchDatabase, postgresAnswers } from './_database.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_PASSWORD = 'Bench-Pass-2026';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `nodeArgs`: options for node itself, before the script (e.g. `--cpu-prof`, not allowed in NODE_OPTIONS). */
export async function startServer(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  // BENCH_SERVER_MAIN: another build of the server (a baseline to compare with, in the same run).
  const main = process.env.BENCH_SERVER_MAIN ?? path.join(root, 'apps/server/dist/main.js');
  if (!existsSync(main)) throw new Error('Build first: npm run build');
  const child = spawn(process.execPath, [...nodeArgs, main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_DATA: '1',
      DEMO_PATIENTS: '0',
      DEMO_PASSWORD,
      LOGIN_RATE_LIMIT: '100000',
      TRUST_PROXY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => {
    log += d;
  });
  child.stderr!.on('data', (d) => {
    log += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const waitMs = Number(process.env.BENCH_READY_MS ?? 60_000);
  const deadline = Date.now() + waitMs;
  let ready = false;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `the server was not ready in ${waitMs / 1000} s (BENCH_READY_MS sets the wait):\n${log}`,
      );
    }
    try {
      ready = (await fetch(`${url}/readyz`)).ok;
    } catch {
      /* not up yet */
    }
    if (!ready) await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export async function withPostgresDatabase<T>(fn: (url: string) => Promise<T>): Promise<T | null> {
  if (!(await postgresAnswers())) return null;
  const database = await createBenchDatabase();
  try {
    return await fn(database.url);
  } finally {
    await database.drop();
  }
}

/**
 * One call; `from` is the client address the server reads (X-Forwarded-For, the server trusts its
 * proxy here): a load of many people comes from many addresses, as behind a hospital's proxy.
 */
export async function api(
  url: string,
  method: string,
  p: string,
  body?: unknown,
  key?: string,
  from?: string,
) {
  const res = await fetch(`${url}${p}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(key ? { WeAppAuthorization: key } : {}),
      ...(from ? { 'x-forwarded-for': from } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* keep null */
  }
  return { status: res.status, json };
}

export async function signIn(url: string, user: string, from?: string) {
  const r = await api(
    url,
    'POST',
    '/api/v0.1/login',
    { UserName: user, Password: DEMO_PASSWORD },
    undefined,
    from,
  );
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${JSON.stringify(r.json)}`);
  return (r.json!.data as { User: { SessionKey: string } }).User.SessionKey;
}

/** Ids the server acknowledged that are not in the database. */
export async function missingIds(query: (sql: string) => Promise<Array<{ id: number }>>, ids: number[]) {
  const present = new Set((await query('select id from free_access_keys')).map((r) => Number(r.id)));
  return ids.filter((id) => !present.has(id));
}

export type Query = (sql: string) => Promise<Array<{ id: number }>>;
export type Measure = (
  label: string,
  env: Record<string, string>,
  query: Query,
  port: number,
) => Promise<void>;

/**
 * Runs a measurement on the embedded database (a fresh data directory) and then, when one
 * answers on 127.0.0.1:5432, on a fresh PostgreSQL database; `query` reads the data afterwards.
 */
export async function onEachDatabase(name: string, basePort: number, measure: Measure) {
  // BENCH_DATABASES=postgres (or embedded) measures on one of them only.
  const only = process.env.BENCH_DATABASES;
  if (only && only !== 'embedded' && only !== 'postgres')
    throw new Error(`BENCH_DATABASES must be embedded or postgres (got "${only}")`);
  if (only !== 'postgres') await onEmbedded(name, basePort, measure);
  if (only !== 'embedded') await onPostgres(name, basePort + 1, measure);
}

async function onEmbedded(name: string, basePort: number, measure: Measure) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `crdp-${name}-`));
  await measure(
    'embedded',
    { DATA_DIR: dataDir },
    async (sql) => {
      const db = await PGlite.create(path.join(dataDir, 'pgdata'), { extensions: PGLITE_EXTENSIONS });
      const r = await db.query<{ id: number }>(sql);
      await db.close();
      return r.rows;
    },
    basePort,
  );
  await rm(dataDir, { recursive: true, force: true });
}

async function onPostgres(name: string, port: number, measure: Measure) {
  await withPostgresDatabase(async (url) => {
    const pdir = await mkdtemp(path.join(os.tmpdir(), `crdp-${name}-pg-`));
    await measure(
      'postgres',
      { DATABASE_URL: url, DATA_DIR: pdir },
      async (sql) => {
        const c = new pg.Client(url);
        await c.connect();
        const r = await c.query(sql);
        await c.end();
        return r.rows;
      },
      port,
    );
    await rm(pdir, { recursive: true, force: true });
  });
}
