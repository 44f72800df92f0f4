import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema/index.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../test/helper.js';

describe('the request context', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it("keeps the browser's user agent, cut to 300 characters, with the session a sign-in opens", async () => {
    const agent = `Mozilla/5.0 (CRDP test) ${'x'.repeat(400)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/merchants/merchantslogin',
      headers: { 'user-agent': agent },
      payload: { method: 'Login', params: [{ UserName: 'admin', Password: TEST_PASSWORD }] },
    });
    expect(res.statusCode).toBe(200);
    const [s] = await t.app.db.select().from(sessions).orderBy(desc(sessions.sessionId)).limit(1);
    expect(s?.userAgent).toBe(agent.slice(0, 300));
    expect(s?.kind).toBe('login');
  });
});
