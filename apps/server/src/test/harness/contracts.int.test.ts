import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helper.js';

/**
 * Every route declares the shape of its answer (ARCHITECTURE.md: "Every route declares
 * `response`"): the contract lives in @crdp/core, the server's serializer checks each answer
 * against it and the OpenAPI document shows it. A route added without one fails here.
 */
describe('API contracts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('every route declares a response schema for its success answer', () => {
    const missing = t.app.declaredRoutes
      .filter((r) => !r.responds.some((code) => /^(2\d\d|2XX|default)$/.test(code)))
      .map((r) => `${r.method} ${r.url}`);
    expect(t.app.declaredRoutes.length).toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });
});
