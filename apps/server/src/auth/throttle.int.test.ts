import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../test/helper.js';

describe('sign-in throttling per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ loginRateLimit: 5 });
  });
  afterAll(async () => t.close());

  const attempt = (remoteAddress: string, UserName: string, Password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v0.1/login', remoteAddress, payload: { UserName, Password } });

  it('refuses an address that tries too often, with a message, and lets the user in from elsewhere', async () => {
    // An attacker sprays guesses over many names from one address (so no single name is locked).
    for (let i = 0; i < 5; i++)
      expect((await attempt('203.0.113.7', `user${i}`, 'guess')).statusCode).toBe(401);
    const blocked = await attempt('203.0.113.7', 'admin', TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errorCode).toBe('request.rateLimited');
    expect(blocked.json().message).toMatch(/60/);
    // The real administrator at another address is not affected by the attacker's address limit.
    expect((await attempt('198.51.100.20', 'admin', TEST_PASSWORD)).statusCode).toBe(200);
  });
});
