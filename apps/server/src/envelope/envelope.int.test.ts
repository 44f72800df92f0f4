import { currentUser, productMenusResult } from '@crdp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, productMenus, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { envelopeRegistry } from './envelope.js';

/**
 * The envelope calls of spec 000 §7 declare their answers like REST routes do: each method's
 * result is a contract of @crdp/core, the answer is parsed with it, and the OpenAPI document
 * shows every method's result under its path.
 */
describe('envelope results', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    key = await signIn(t.app, 'admin');
  });
  afterAll(async () => t?.close());

  it('documents every method’s result under its path in the OpenAPI document', () => {
    const doc = t.app.swagger() as {
      paths: Record<string, { post?: { responses?: Record<string, unknown> } }>;
    };
    expect(envelopeRegistry.size).toBeGreaterThanOrEqual(5);
    for (const [path, methods] of envelopeRegistry) {
      const ok = doc.paths[path]?.post?.responses?.['200'] as
        | { content?: Record<string, { schema?: { properties?: Record<string, { anyOf?: unknown[] }> } }> }
        | undefined;
      const result = ok?.content?.['application/json']?.schema?.properties?.result;
      const titles = (result?.anyOf ?? []).map((s) => (s as { title?: string }).title);
      expect(titles, path).toEqual(Object.keys(methods));
    }
  });

  it('answers with exactly the fields of the method’s contract', async () => {
    const user = await envelope(t.app, 'GetCurrentUser', [], key);
    expect(user.status).toBe(200);
    expect(user.body.code).toBe(0);
    expect(Object.keys(user.body.result).sort()).toEqual(Object.keys(currentUser.shape).sort());
    expect(currentUser.parse(user.body.result)).toEqual(user.body.result);

    const menus = await productMenus(t.app, key);
    expect(menus.status).toBe(200);
    expect(productMenusResult.parse(menus.body.result)).toEqual(menus.body.result);
    expect(menus.body.result.ProductMenus.length).toBeGreaterThan(10);
  });

  it('answers an error in the envelope shape, without a result schema getting in the way', async () => {
    const r = await envelope(t.app, 'GetRoleUsers', [2_000_000], key, '/api/merchants/MerchantsPermission');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 1, result: null, error: { field: 'params.0' } });
  });
});
