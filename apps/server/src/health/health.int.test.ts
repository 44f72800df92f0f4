import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { get, signIn, startTestApp, type TestApp } from '../test/helper.js';

describe('the server itself', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-web-'));
    await writeFile(
      path.join(webDir, 'index.html'),
      '<!doctype html><title>CRDP</title><div id="root"></div>',
    );
    t = await startTestApp({ webDist: webDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('answers /healthz while the process is up and /readyz when the database answers', async () => {
    expect((await get(t.app, '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await get(t.app, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('serves index.html for any non-API address (history-mode routing)', async () => {
    for (const url of ['/', '/data-lake/overviews', '/user/login?redirect=%2F']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('answers unknown /api paths with a JSON 404 that carries the request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v0.1/no-such-thing',
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(res.json()).toMatchObject({ code: 404, errorCode: 'request.notFound', requestId: 'trace-42' });
    expect(res.json().message).toContain('/api/v0.1/no-such-thing');
  });

  it('publishes the OpenAPI document at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/v0.1/login');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers malformed JSON with 400 and a wrong content type with 415', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"UserName": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorCode).toBe('request.malformedJson');
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(wrongType.statusCode).toBe(415);
  });

  it('names each bad field of a request in the reader’s language', async () => {
    const ask = (lang: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v0.1/login',
        headers: { 'content-type': 'application/json', 'accept-language': lang },
        payload: { UserName: 5 },
      });
    const zh = (await ask('zh-CN')).json();
    expect(zh.field).toBe('body.UserName');
    expect(zh.message).toBe(
      '请求参数错误：body.UserName: 应为文本，收到的是数字；body.Password: 必填，不能缺少',
    );
    const en = (await ask('en-US')).json();
    expect(en.message).toMatch(
      /^Invalid request: body\.UserName: Invalid input: expected string, received number; body\.Password: /,
    );
  });

  it('words a domain check (not the schema) in the reader’s language, naming the same field', async () => {
    const key = await signIn(t.app, 'admin');
    const ask = (lang?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v0.1/visualization/dashboards',
        headers: { WeAppAuthorization: key, ...(lang ? { 'accept-language': lang } : {}) },
        payload: { name: '总览', tiles: [{ chartId: 987654, span: 12 }] },
      });
    for (const lang of [undefined, 'zh-CN']) {
      const zh = await ask(lang);
      expect(zh.statusCode).toBe(400);
      expect(zh.json()).toMatchObject({
        errorCode: 'request.invalid',
        field: 'tiles.0.chartId',
        message: '请求参数错误：本应用没有图表 987654',
      });
    }
    const en = await ask('en-US');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({
      errorCode: 'request.invalid',
      field: 'tiles.0.chartId',
      message: 'Invalid request: no chart 987654 in this app',
    });
  });
});

describe('route declarations', () => {
  it('refuses to build an app with an /api route that declares no access', async () => {
    const database = await openDatabase({ dataDir: 'memory' });
    const app = await buildApp({
      config: { ...loadConfig({}), demoData: false, logLevel: 'silent' },
      database,
      logger: false,
    });
    expect(() => app.get('/api/v0.1/undeclared', async () => ({ ok: true }))).toThrow(/declares no access/);
    await app.close();
    await database.close();
  });
});

describe('the embedded database on disk', () => {
  it('keeps data across restarts and does not seed twice', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crdp-persist-'));
    const config = {
      ...loadConfig({}),
      dataDir,
      demoData: true,
      demoPatients: 0,
      logLevel: 'silent' as const,
    };
    const first = await buildApp({ config, logger: false });
    expect(first.demoAccounts?.map((a) => a.role)).toEqual(['admin', 'researcher', 'no-product']);
    await first.close();
    const second = await buildApp({ config, logger: false });
    expect(second.demoAccounts).toBeNull();
    const res = await second.inject({
      method: 'POST',
      url: '/api/v0.1/login',
      payload: { UserName: 'admin', Password: first.demoAccounts![0]!.password },
    });
    expect(res.statusCode).toBe(200);
    await second.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
