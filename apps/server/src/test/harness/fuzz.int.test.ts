import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTerminologies } from '../../terminology/seed.js';
import { signIn, startTestApp, type TestApp } from '../helper.js';
import { BAD_PATH_VALUES, badBodies, badQueries, sampledStrings, violations } from './bad-inputs.js';
import { fingerprint } from './fingerprint.js';
import { harnessMethods, harnessRoutes } from './routes.js';

/**
 * Bad input for every route of the OpenAPI document and every envelope method, generated from
 * their own schemas, signed in and not: each answer is a 4xx with a message, never a 5xx, and
 * the database is the same afterwards.
 */
describe('bad input on every route', () => {
  let t: TestApp;
  let adminKey: string;
  const strings = sampledStrings(12);
  let requests = 0;

  beforeAll(async () => {
    t = await startTestApp();
    adminKey = await signIn(t.app, 'admin');
    // The shipped code lists load on the store's first read: load them now, so the fingerprint
    // compares what bad input did, not that first read.
    await ensureTerminologies(t.app.db);
  });
  afterAll(async () => t.close());

  async function send(
    method: string,
    url: string,
    payload: string | undefined,
    contentType: string | undefined,
    key?: string,
  ) {
    requests++;
    const headers: Record<string, string> = {};
    if (key) headers.WeAppAuthorization = key;
    if (contentType) headers['content-type'] = contentType;
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    // REST `{ message }`, envelope `{ error: { message } }`, FHIR OperationOutcome `{ issue: [{ diagnostics }] }`.
    let body: { message?: string; error?: { message?: string }; issue?: Array<{ diagnostics?: string }> } =
      {};
    try {
      body = res.json();
    } catch {
      /* a non-JSON answer fails the message check below */
    }
    return {
      status: res.statusCode,
      message: body.message ?? body.error?.message ?? body.issue?.[0]?.diagnostics ?? '',
    };
  }

  const expectRefused = (r: { status: number; message: string }, what: string) => {
    expect(r.status, what).toBeGreaterThanOrEqual(400);
    expect(r.status, what).toBeLessThan(500);
    expect(r.message.length, `${what}: message`).toBeGreaterThan(0);
  };

  // Every route, many requests each: bounded by the routes, not by a clock.
  const LONG = 900_000;

  it('refuses bad bodies, queries and path values on every REST route and changes nothing', {
    timeout: LONG,
  }, async () => {
    const routes = harnessRoutes(t.app).filter((r) => r.access !== 'envelope');
    expect(routes.length).toBeGreaterThan(10);
    const before = await fingerprint(t.app.db);
    for (const route of routes) {
      const fill = (v: string) => route.url.replace(/:(\w+)/g, encodeURIComponent(v));
      const urls = route.pathParams.length ? BAD_PATH_VALUES.map(fill) : [route.url];
      for (const key of [undefined, adminKey]) {
        if (
          route.method === 'POST' ||
          route.method === 'PUT' ||
          route.method === 'PATCH' ||
          route.method === 'DELETE'
        ) {
          for (const url of urls.slice(0, 3)) {
            for (const bad of badBodies(route.body as never, strings)) {
              const r = await send(route.method, url, bad.payload, bad.contentType, key);
              expectRefused(r, `${route.method} ${url} ${bad.name} ${key ? 'signed in' : 'anonymous'}`);
            }
          }
        }
        if (route.method === 'GET') {
          for (const url of urls) {
            const queries = route.query ? badQueries(route.query as never, strings) : ['x=1'];
            for (const q of queries) {
              const r = await send(
                'GET',
                `${url}${url.includes('?') ? '&' : '?'}${q}`,
                undefined,
                undefined,
                key,
              );
              expect(r.status, `GET ${url}?${q}`).toBeLessThan(500);
              if (r.status >= 400) expect(r.message.length, `GET ${url}?${q}: message`).toBeGreaterThan(0);
            }
          }
        }
      }
    }
    expect(await fingerprint(t.app.db)).toEqual(before);
    console.log(`fuzz: ${routes.length} REST routes, ${requests} requests`);
  });

  it('refuses bad params on every envelope method and changes nothing', { timeout: LONG }, async () => {
    const methods = harnessMethods();
    expect(methods.length).toBeGreaterThanOrEqual(12);
    const before = await fingerprint(t.app.db);
    const start = requests;
    const paths = [...new Set(methods.map((m) => m.path))];
    for (const path of paths) {
      for (const key of [undefined, adminKey]) {
        for (const bad of badBodies(
          {
            type: 'object',
            properties: { method: { type: 'string', maxLength: 100 } },
            required: ['method'],
          },
          strings,
        )) {
          expectRefused(await send('POST', path, bad.payload, bad.contentType, key), `${path} ${bad.name}`);
        }
        for (const name of strings.slice(0, 5)) {
          const r = await send(
            'POST',
            path,
            JSON.stringify({ method: `${name}x`, params: [] }),
            'application/json',
            key,
          );
          expectRefused(r, `${path} unknown method ${JSON.stringify(name)}`);
        }
      }
    }
    for (const m of methods) {
      const items = (m.params.prefixItems as Array<Record<string, unknown>> | undefined) ?? [];
      const first = items[0];
      if (!first) continue; // methods without params accept anything there
      const variants: unknown[] = violations(first as never, strings).map((v) => [v]);
      const props = (first.properties as Record<string, Record<string, unknown>> | undefined) ?? {};
      for (const [k, p] of Object.entries(props))
        for (const v of violations(p as never, strings)) variants.push([{ [k]: v }]);
      for (const key of m.access === 'public' ? [undefined, adminKey] : [adminKey]) {
        for (const params of variants) {
          const r = await send(
            'POST',
            m.path,
            JSON.stringify({ method: m.method, params }),
            'application/json',
            key,
          );
          expectRefused(r, `${m.method} ${JSON.stringify(params).slice(0, 120)}`);
        }
      }
    }
    expect(await fingerprint(t.app.db)).toEqual(before);
    console.log(`fuzz: ${methods.length} envelope methods, ${requests - start} requests`);
  });
});
