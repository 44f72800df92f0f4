import { formatMessage, HANDOFF_RATE_PER_MINUTE, HANDOFF_TTL_MS } from '@crdp/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessionHandoffs, users } from '../db/schema/index.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { hashKey } from './tokens.js';

/** Sign-in hand-off (issue 15 item 1): `?SessionKey=` carries a one-minute, single-use code, never a session key. */
describe('sign-in hand-off codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const make = async (key: string) => {
    const r = await post(t.app, '/api/v0.1/session/handoff', {}, key);
    expect(r.status).toBe(200);
    return r.body.data as { code: string; path: string; expiresAt: string };
  };
  const exchange = (code: string, headers: Record<string, string> = {}) =>
    t.app
      .inject({ method: 'POST', url: '/api/v0.1/session/handoff/exchange', payload: { code }, headers })
      .then((r) => ({ status: r.statusCode, body: r.json() }));
  const peek = (code: string) => post(t.app, '/api/v0.1/session/handoff/peek', { code });
  const invalidZh = formatMessage('auth.handoffInvalid', 'zh-CN');

  it('is made only for a signed-in session, for its own user and app, stored as a hash and audited', async () => {
    expect((await post(t.app, '/api/v0.1/session/handoff', {})).status).toBe(401);
    const key = await signIn(t.app, 'researcher');
    const before = Date.now();
    const made = await make(key);
    expect(Buffer.from(made.code, 'base64url').length).toBe(32);
    expect(made.path).toBe(`/?SessionKey=${made.code}`);
    const expires = Date.parse(made.expiresAt) - before;
    expect(expires).toBeGreaterThan(HANDOFF_TTL_MS - 5_000);
    expect(expires).toBeLessThanOrEqual(HANDOFF_TTL_MS + 1_000);
    const [row] = await t.app.db
      .select()
      .from(sessionHandoffs)
      .where(eq(sessionHandoffs.codeHash, hashKey(made.code)));
    const [researcher] = await t.app.db.select().from(users).where(eq(users.userName, 'researcher'));
    expect(row).toMatchObject({ userId: researcher!.userId, usedAt: null });
    const all = await t.app.db.execute(sql`select * from session_handoffs`);
    expect(JSON.stringify(all)).not.toContain(made.code);
    const audited = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session.handoff.create'), eq(auditLog.entityId, String(row!.id))));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ userName: 'researcher', appId: row!.appId });
  });

  it('peek names the user and app without using the code; the exchange then opens a new session once', async () => {
    const key = await signIn(t.app, 'researcher');
    const { code } = await make(key);
    for (let i = 0; i < 3; i++) {
      const p = await peek(code);
      expect(p.status).toBe(200);
      expect(p.body.data).toMatchObject({ UserName: 'researcher', AppShortName: 'DEMO' });
      expect(p.body.data.AppName.length).toBeGreaterThan(0);
      expect(p.body.data).not.toHaveProperty('SessionKey');
    }
    const [row] = await t.app.db
      .select()
      .from(sessionHandoffs)
      .where(eq(sessionHandoffs.codeHash, hashKey(code)));
    expect(row!.usedAt).toBeNull();

    const ex = await exchange(code);
    expect(ex.status).toBe(200);
    const fresh = ex.body.data.SessionKey as string;
    expect(fresh).not.toBe(key);
    expect(fresh).not.toBe(code);
    expect((await get(t.app, '/api/v0.1/current_user', fresh)).body.data).toMatchObject({
      UserName: 'researcher',
      AppId: row!.appId,
    });
    // The session that asked for the code goes on as it was.
    expect((await get(t.app, '/api/v0.1/current_user', key)).status).toBe(200);

    const again = await exchange(code);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ errorCode: 'auth.handoffInvalid', message: invalidZh });
    expect((await peek(code)).status).toBe(401);
  });

  it('audits the exchange, the winner as the code’s user and a refused one as a failure', async () => {
    const key = await signIn(t.app, 'researcher');
    const { code } = await make(key);
    await exchange(code);
    await exchange(code);
    const [row] = await t.app.db
      .select()
      .from(sessionHandoffs)
      .where(eq(sessionHandoffs.codeHash, hashKey(code)));
    const uses = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session.handoff.use'), eq(auditLog.entityId, String(row!.id))));
    expect(uses.map((u) => u.outcome).sort()).toEqual(['success']);
    expect(uses[0]).toMatchObject({ userName: 'researcher', userId: row!.userId, appId: row!.appId });
    const failures = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session.handoff.use'), eq(auditLog.outcome, 'failure')));
    expect(failures.length).toBeGreaterThan(0);
  });

  it('lets exactly one of many simultaneous exchanges win', async () => {
    const key = await signIn(t.app, 'admin');
    const { code } = await make(key);
    const results = await Promise.all(Array.from({ length: 6 }, () => exchange(code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
  });

  it('gives an expired, used, unknown code and a raw session key one and the same answer, in both languages', async () => {
    const key = await signIn(t.app, 'researcher');
    const expired = (await make(key)).code;
    await t.app.db
      .update(sessionHandoffs)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessionHandoffs.codeHash, hashKey(expired)));
    const used = (await make(key)).code;
    expect((await exchange(used)).status).toBe(200);
    const cases = { expired, used, unknown: 'x'.repeat(43), sessionKey: key };
    for (const [lang, message] of [
      ['zh-CN', invalidZh],
      ['en-US', formatMessage('auth.handoffInvalid', 'en-US')],
    ] as const) {
      for (const [name, code] of Object.entries(cases)) {
        const r = await exchange(code, { 'accept-language': lang });
        expect(r.status, name).toBe(401);
        expect(r.body, name).toMatchObject({ errorCode: 'auth.handoffInvalid', message, field: 'body.code' });
        expect(r.body.data, name).toBeNull();
      }
    }
    expect(invalidZh).toContain('只能使用一次');
    // The raw session key still works as what it is (a header), and opened nothing new.
    expect((await get(t.app, '/api/v0.1/current_user', key)).status).toBe(200);
  });

  it('refuses a code whose user was disabled after it was made', async () => {
    const key = await signIn(t.app, 'researcher');
    const { code } = await make(key);
    await t.app.db.update(users).set({ enabled: false }).where(eq(users.userName, 'researcher'));
    try {
      expect((await peek(code)).status).toBe(401);
      expect((await exchange(code)).body.errorCode).toBe('auth.handoffInvalid');
    } finally {
      await t.app.db.update(users).set({ enabled: true }).where(eq(users.userName, 'researcher'));
    }
  });

  it('limits peeks and exchanges per client address', async () => {
    const from = (url: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url, payload: { code: 'y'.repeat(43) }, remoteAddress });
    for (const url of ['/api/v0.1/session/handoff/exchange', '/api/v0.1/session/handoff/peek']) {
      const statuses: number[] = [];
      for (let i = 0; i <= HANDOFF_RATE_PER_MINUTE; i++)
        statuses.push((await from(url, '10.9.8.7')).statusCode);
      expect(statuses.slice(0, HANDOFF_RATE_PER_MINUTE).every((s) => s === 401)).toBe(true);
      const limited = await from(url, '10.9.8.7');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ errorCode: 'request.rateLimited' });
      expect(limited.json().message).toMatch(/请求过于频繁/);
      // Another address is not held back.
      expect((await from(url, '10.9.8.8')).statusCode).toBe(401);
    }
  });
});
