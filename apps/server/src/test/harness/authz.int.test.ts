import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps } from '../../db/schema/index.js';
import { freeAccessKey, signIn, startTestApp, type TestApp } from '../helper.js';
import { queryOf } from './bad-inputs.js';
import { makeObjectsInDemoApp, otherAppAdministrator, userWithoutRoles } from './fixtures.js';
import { harnessMethods, harnessRoutes } from './routes.js';

/**
 * The authorization matrix, generated from the route declarations: no session, a session
 * without the function, a free-access link of each scope, and another app's administrator
 * asking for this app's real object ids.
 */
describe('authorization matrix of every route', () => {
  let t: TestApp;
  let adminKey: string;
  let noRolesKey: string;
  let freeKeys: Record<'crf' | 'term', string>;
  let other: { appId: number; key: string };
  let checks = 0;

  beforeAll(async () => {
    t = await startTestApp();
    adminKey = await signIn(t.app, 'admin');
    noRolesKey = await userWithoutRoles(t.app);
    await makeObjectsInDemoApp(t.app, adminKey);
    other = await otherAppAdministrator(t.app);
    freeKeys = { crf: '', term: '' };
    for (const kind of ['crf', 'term'] as const) {
      freeKeys[kind] = await freeAccessKey(t.app, adminKey, {
        scopeKind: kind,
        objectId: 'x',
        label: 'matrix',
      });
    }
  });
  afterAll(async () => t.close());

  async function call(method: string, url: string, key?: string) {
    checks++;
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: key ? { WeAppAuthorization: key } : {},
      ...(method === 'GET' ? {} : { payload: {} }),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('every REST route: 401 without a session, 403 without the function, free links only in scope', async () => {
    const routes = harnessRoutes(t.app).filter((r) => r.access !== 'envelope');
    for (const r of routes) {
      const url = r.url.replace(/:(\w+)/g, '1');
      const what = `${r.method} ${r.url}`;
      if (r.access === 'public') continue;
      expect((await call(r.method, url)).status, `${what} without a session`).toBe(401);
      if (typeof r.access === 'object') {
        const denied = await call(r.method, url, noRolesKey);
        expect(denied.status, `${what} without ${r.access.apiId}`).toBe(403);
        expect(denied.body.errorCode).toBe('auth.forbidden');
      }
      for (const kind of ['crf', 'term'] as const) {
        const res = await call(r.method, url, freeKeys[kind]);
        if (r.freeScope === kind) expect(res.status, `${what} with a ${kind} link`).not.toBe(403);
        else expect(res.status, `${what} with a ${kind} link`).toBe(403);
      }
    }
  });

  it('every envelope method: 401 without a session, 403 for free-access links', async () => {
    for (const m of harnessMethods()) {
      if (m.access === 'public') continue;
      const anonymous = await t.app.inject({
        method: 'POST',
        url: m.path,
        payload: { method: m.method, params: [] },
      });
      checks++;
      expect(anonymous.statusCode, `${m.method} without a session`).toBe(401);
      const free = await t.app.inject({
        method: 'POST',
        url: m.path,
        headers: { WeAppAuthorization: freeKeys.crf },
        payload: { method: m.method, params: [] },
      });
      checks++;
      expect(free.statusCode, `${m.method} with a free link`).toBe(403);
    }
  });

  it("another app's administrator gets 404 or 403 and no data for this app's real object ids", async () => {
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    const owned = harnessRoutes(t.app).filter((r) => r.pathParams.length > 0);
    for (const r of owned) {
      expect(r.ownedIds, `${r.method} ${r.url} has path parameters but declares no ownedIds`).toBeDefined();
      const ids = await r.ownedIds!(t.app.db, demo!.appId);
      expect(ids.length, `${r.url}: the fixture made no objects of this kind`).toBeGreaterThan(0);
      for (const params of ids) {
        const url =
          r.url.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(params[name]))) +
          queryOf(r);
        const res = await call(r.method, url, other.key);
        expect([403, 404], `${r.method} ${url} from another app`).toContain(res.status);
        expect(res.body.data ?? null).toBeNull();
      }
    }
    console.log(
      `authorization matrix: ${harnessRoutes(t.app).length} routes, ${harnessMethods().length} envelope methods, ${checks} requests`,
    );
  });
});
