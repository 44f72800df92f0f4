import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { openThrowAwayDatabase } from './database.js';

export const TEST_PASSWORD = 'Demo-Pass-2026';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Builds the real app on a throw-away database with the demo accounts (password TEST_PASSWORD).
 * Silent unless `logger` says where lines go (`test/log-capture.ts` collects them).
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  opts: { logger?: BuildOptions['logger'] } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-test-'));
  const { database, drop } = await openThrowAwayDatabase();
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    collectionFilesRoot: path.join(dataDir, 'collection-files'),
    demoData: true,
    // Accounts only: the demo hospital's content (seed/hospital) only where a test asks for it.
    demoPatients: 0,
    demoPassword: TEST_PASSWORD,
    logLevel: 'silent',
    loginRateLimit: 10_000,
    webDist: path.join(dataDir, 'no-web'),
    ...overrides,
  };
  const app = await buildApp({ config, database, logger: opts.logger ?? false });
  await app.ready();
  return {
    app,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls an envelope method the way the browser does. */
export async function envelope(
  app: FastifyInstance,
  method: string,
  params: unknown,
  key?: string,
  path = '/api/merchants/merchantslogin',
) {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: key ? { WeAppAuthorization: key } : {},
    payload: { method, params },
  });
  return { status: res.statusCode, body: res.json() };
}

/** GetProductMenusAndPermissions of the workbench (product 22), called the way the browser does. */
export const productMenus = (app: FastifyInstance, key: string) =>
  envelope(app, 'GetProductMenusAndPermissions', [22], key, '/api/merchants/MerchantsLogin');

/** The router names of the workbench menus the session sees. */
export const menuNames = async (app: FastifyInstance, key: string): Promise<string[]> =>
  (await productMenus(app, key)).body.result.ProductMenus.map((m: { RouterName: string }) => m.RouterName);

export async function signIn(app: FastifyInstance, userName: string, password = TEST_PASSWORD) {
  const r = await envelope(app, 'Login', [{ UserName: userName, Password: password }]);
  if (r.status !== 200) throw new Error(`sign-in of ${userName} failed: ${JSON.stringify(r.body)}`);
  return r.body.result.User.SessionKey as string;
}

/** A GET answered as sent (statusCode, headers, body text, rawPayload): for downloads. */
export const download = (app: FastifyInstance, url: string, key?: string) =>
  app.inject({ method: 'GET', url, headers: key ? { WeAppAuthorization: key } : {} });

export async function get(app: FastifyInstance, url: string, key?: string) {
  const res = await download(app, url, key);
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/**
 * Sends a request (a JSON body when one is given) the way the browser does, answered as status and
 * JSON; `language` is the browser's Accept-Language (the server's default when not given).
 */
export async function send(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  app: FastifyInstance,
  url: string,
  payload?: unknown,
  key?: string,
  language?: string,
) {
  const res = await app.inject({
    method,
    url,
    headers: {
      ...(key ? { WeAppAuthorization: key } : {}),
      ...(language ? { 'accept-language': language } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() };
}

export const post = (app: FastifyInstance, url: string, payload: unknown, key?: string) =>
  send('POST', app, url, payload, key);
export const put = (app: FastifyInstance, url: string, payload: unknown, key?: string) =>
  send('PUT', app, url, payload, key);
export const patch = (app: FastifyInstance, url: string, payload: unknown, key?: string) =>
  send('PATCH', app, url, payload, key);
export const del = (app: FastifyInstance, url: string, key?: string) =>
  send('DELETE', app, url, undefined, key);

/** The session key of a new free-access link to one object (made by `adminKey`). */
export async function freeAccessKey(
  app: FastifyInstance,
  adminKey: string,
  link: { scopeKind: string; objectId: string; label?: string },
): Promise<string> {
  const made = await post(app, '/api/v0.1/free_access', link, adminKey);
  return (await post(app, '/api/v0.1/free_access/session', { key: made.body.data.key })).body.data.SessionKey;
}

/** Runs queued jobs until the job has finished (the runner may have taken it already); its view. */
export async function settleJob(app: FastifyInstance, key: string, jobId: number) {
  for (let i = 0; i < 200; i++) {
    await app.jobs.drain();
    const j = await get(app, `/api/v0.1/jobs/${jobId}`, key);
    if (j.body.data.status === 'succeeded' || j.body.data.status === 'failed') return j.body.data;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${jobId} did not finish`);
}
