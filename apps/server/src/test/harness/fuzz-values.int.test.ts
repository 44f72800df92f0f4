import { appendFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.js';
import { apps, users } from '../../db/schema/index.js';
import { signIn, startTestApp, TEST_PASSWORD, type TestApp } from '../helper.js';
import {
  buildValue,
  DEEP_OBJECT,
  type Leaf,
  leafValues,
  leavesOf,
  queryOf,
  RAW,
  REFUSED_URL_VALUES,
  type Schema,
} from './bad-inputs.js';
import { fingerprint } from './fingerprint.js';
import { makeObjectsInDemoApp } from './fixtures.js';
import { type HarnessRoute, harnessMethods, harnessRoutes } from './routes.js';

/**
 * Bad values inside otherwise valid requests, for every route and envelope method, built from
 * their own schemas: the rest of the request is valid and path parameters are real ids of the
 * app's objects, so each value gets as far into the server as the server lets it.
 *
 * - Refused values (NUL and other control characters, lone surrogates in every text value,
 *   query value, path value and key) must each get a 4xx with a message, and the database must
 *   be the same afterwards.
 * - Odd values (SQL-shaped strings, numbers as strings and strings as numbers, `1e309`, long
 *   digit strings, `-0`, impossible dates, `{"$gt":""}` for scalars, arrays of nulls, deep
 *   objects, duplicate keys) may be stored or refused, but never answered with a 5xx.
 *
 * Every 5xx is collected and listed at the end, so one run shows all of them.
 */
/** FUZZ_TRACE=/path/file: one line per request (status, time, what), to follow a long run. */
const TRACE = process.env.FUZZ_TRACE;

describe('bad values inside otherwise valid requests', () => {
  let t: TestApp;
  let adminKey: string;
  let appId: number;
  let requests = 0;
  const serverErrors: string[] = [];
  const unworded: string[] = [];
  /** Requests over 3 s, listed with the counts (a long run is worth knowing about). */
  const slow: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    adminKey = await signIn(t.app, 'admin');
    await makeObjectsInDemoApp(t.app, adminKey);
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    appId = demo!.appId;
  }, 300_000);
  afterAll(async () => {
    if (slow.length) console.log(`fuzz values: ${slow.length} requests over 3 s:\n  ${slow.join('\n  ')}`);
    await t.close();
  });

  /**
   * A request signed the administrator out, or (on code that accepts what it should refuse)
   * changed the administrator's password or disabled the account, or its wrong-password guesses
   * slowed the sign-in down: put the account back and sign in again, so the rest of the routes are still tried as the administrator.
   */
  async function signInAgain() {
    try {
      adminKey = await signIn(t.app, 'admin');
    } catch {
      await t.app.db
        .update(users)
        .set({ passwordHash: await hashPassword(TEST_PASSWORD), enabled: true })
        .where(sql`lower(${users.userName}) = 'admin'`);
      // Wrong-password guesses the odd values made (ChangePwd, Login) may slow the sign-in down.
      await t.app.db.execute(
        sql`do $$ begin if to_regclass('login_throttle') is not null then delete from login_throttle; end if; end $$`,
      );
      adminKey = await signIn(t.app, 'admin');
    }
  }

  async function send(method: string, url: string, payload: string | undefined, what: string) {
    requests++;
    const began = Date.now();
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: {
        WeAppAuthorization: adminKey,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    const took = Date.now() - began;
    if (TRACE) appendFileSync(TRACE, `${res.statusCode} ${took} ms ${what}\n`);
    if (took > 3000) slow.push(`${took} ms ${what}`);
    if (res.statusCode === 401) await signInAgain();
    if (res.statusCode >= 500) serverErrors.push(`${res.statusCode} ${what}`);
    else if (res.statusCode >= 400) {
      let message = '';
      try {
        const b = res.json() as {
          message?: string;
          error?: { message?: string };
          issue?: Array<{ diagnostics?: string }>;
        };
        message = b.message ?? b.error?.message ?? b.issue?.[0]?.diagnostics ?? '';
      } catch {
        /* not JSON: no message */
      }
      if (!message) unworded.push(`${res.statusCode} ${what}`);
    }
    return res.statusCode;
  }

  /** The route's URL with every path parameter filled from its real objects (or 1), one replaced. */
  /** Each value of a kind, in turn, in each leaf of each envelope method's params (but `skip`'s). */
  async function sendToEveryParam(kind: 'refused' | 'odd', skip: (method: string) => boolean = () => false) {
    for (const m of harnessMethods()) {
      if (skip(m.method)) continue;
      const schema = m.params as Schema;
      for (const leaf of leavesOf(schema))
        for (const v of leafValues(leaf)[kind])
          await send(
            'POST',
            m.path,
            JSON.stringify({ method: m.method, params: buildValue(schema, { path: leaf.path, value: v }) }),
            `${m.path} ${m.method} params.${leaf.name}=${JSON.stringify(v).slice(0, 60)}`,
          );
    }
  }

  async function urlsOf(route: HarnessRoute) {
    const ids = route.ownedIds ? ((await route.ownedIds(t.app.db, appId))[0] ?? {}) : {};
    const fill = (replace?: { name: string; value: string }) =>
      route.url.replace(/:(\w+)/g, (_m, name: string) =>
        replace?.name === name ? replace.value : encodeURIComponent(String(ids[name] ?? 1)),
      );
    return { valid: fill(), withBad: (name: string, value: string) => fill({ name, value }) };
  }

  const hasBody = (r: HarnessRoute) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method);

  /** A body with `value` at the leaf; odd numbers are written as raw JSON text. */
  function bodyWith(schema: Schema, leaf: Leaf, value: unknown, raw?: string) {
    const text = JSON.stringify(buildValue(schema, { path: leaf.path, value: raw ? RAW : value }));
    return raw ? text.replace(JSON.stringify(RAW), raw) : text;
  }

  const LONG = 900_000;

  it('refuses control characters and lone surrogates in every text value, query value, path value and key; changes nothing', {
    timeout: LONG,
  }, async () => {
    const started = Date.now();
    const start = requests;
    const routes = harnessRoutes(t.app).filter((r) => r.access !== 'envelope');
    const before = await fingerprint(t.app.db);
    for (const route of routes) {
      const { valid, withBad } = await urlsOf(route);
      const query = queryOf(route);
      for (const name of route.pathParams)
        for (const v of REFUSED_URL_VALUES)
          await send(
            route.method,
            `${withBad(name, v)}${query}`,
            hasBody(route) ? JSON.stringify(buildValue((route.body ?? {}) as Schema)) : undefined,
            `${route.method} ${route.url} path ${name}=${v}`,
          );
      for (const name of Object.keys(route.query?.properties ?? {}))
        for (const v of REFUSED_URL_VALUES.slice(0, 2))
          await send(
            route.method,
            `${valid}${queryOf(route, { name, value: v })}`,
            hasBody(route) ? JSON.stringify(buildValue((route.body ?? {}) as Schema)) : undefined,
            `${route.method} ${route.url} query ${name}=${v}`,
          );
      if (!hasBody(route) || !route.body) continue;
      const schema = route.body as Schema;
      const base = buildValue(schema);
      if (base && typeof base === 'object' && !Array.isArray(base))
        await send(
          route.method,
          `${valid}${query}`,
          JSON.stringify({ ...base, 'bad\u0000key': 1 }),
          `${route.method} ${route.url} body key with NUL`,
        );
      for (const leaf of leavesOf(schema))
        for (const v of leafValues(leaf).refused)
          await send(
            route.method,
            `${valid}${query}`,
            bodyWith(schema, leaf, v),
            `${route.method} ${route.url} body.${leaf.name}=${JSON.stringify(v)}`,
          );
    }
    await sendToEveryParam('refused');
    const after = await fingerprint(t.app.db);
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    console.log(
      `fuzz values (refused): ${routes.length} REST routes, ${harnessMethods().length} envelope methods, ${requests - start} requests, ${((Date.now() - started) / 1000).toFixed(1)} s, ${serverErrors.length} 5xx${serverErrors.length ? `:\n  ${serverErrors.join('\n  ')}` : ''}`,
    );
    expect(serverErrors).toEqual([]);
    expect(unworded).toEqual([]);
    expect(changed, 'tables changed by refused requests').toEqual([]);
  });

  it('odd values (SQL-shaped, numbers as strings, 1e309, objects for scalars, duplicate keys) never give a 5xx', {
    timeout: LONG,
  }, async () => {
    const started = Date.now();
    const start = requests;
    serverErrors.length = 0;
    unworded.length = 0;
    const routes = harnessRoutes(t.app).filter((r) => r.access !== 'envelope');
    for (const route of routes) {
      const { valid } = await urlsOf(route);
      const query = queryOf(route);
      if (route.method === 'GET')
        for (const name of Object.keys(route.query?.properties ?? {}))
          for (const v of [
            "' OR 1=1 --",
            '%25',
            '-0',
            '1e309',
            '99999999999999999999',
            '2026-02-30',
            '{"$gt":""}',
          ])
            await send(
              'GET',
              `${valid}${queryOf(route, { name, value: encodeURIComponent(v) })}`,
              undefined,
              `GET ${route.url} query ${name}=${v}`,
            );
      if (!hasBody(route) || !route.body) continue;
      const schema = route.body as Schema;
      const leaves = leavesOf(schema);
      for (const leaf of leaves) {
        const { odd, oddNumbers } = leafValues(leaf);
        for (const v of odd)
          await send(
            route.method,
            `${valid}${query}`,
            bodyWith(schema, leaf, v),
            `${route.method} ${route.url} body.${leaf.name}=${JSON.stringify(v).slice(0, 60)}`,
          );
        for (const raw of oddNumbers)
          await send(
            route.method,
            `${valid}${query}`,
            bodyWith(schema, leaf, undefined, raw),
            `${route.method} ${route.url} body.${leaf.name}=${raw}`,
          );
      }
      // Duplicate keys: the last one wins in JSON.parse; the first was the valid value.
      const top = leaves.find((l) => l.path.length === 1 && 'prop' in l.path[0]!);
      const base = buildValue(schema);
      if (top && base && typeof base === 'object' && !Array.isArray(base)) {
        const key = (top.path[0] as { prop: string }).prop;
        const text = JSON.stringify({ ...base, [key]: (base as Record<string, unknown>)[key] ?? 'x' });
        await send(
          route.method,
          `${valid}${query}`,
          `${text.slice(0, -1)},${JSON.stringify(key)}:{"$gt":""}}`,
          `${route.method} ${route.url} duplicate key ${key}`,
        );
        await send(
          route.method,
          `${valid}${query}`,
          bodyWith(schema, top, DEEP_OBJECT),
          `${route.method} ${route.url} body.${top.name}=<object nested 64 deep>`,
        );
      }
    }
    await sendToEveryParam('odd', (method) => method === 'Logout' || method === 'LogOut');
    console.log(
      `fuzz values (odd): ${requests - start} requests, ${((Date.now() - started) / 1000).toFixed(1)} s, ${serverErrors.length} 5xx${serverErrors.length ? `:\n  ${serverErrors.join('\n  ')}` : ''}`,
    );
    expect(serverErrors).toEqual([]);
    expect(unworded).toEqual([]);
  });
});
