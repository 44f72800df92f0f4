import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, auditLog, loginThrottle, users } from '../db/schema/index.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../test/helper.js';
import { passwordChecks } from './passwords.js';
import { reserveGuess, throttleKey } from './throttle.js';

const ATTACKER = '203.0.113.7';
const OFFICE = '198.51.100.20';

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

/**
 * Password guesses are counted per (user name, client address). Each test uses its own addresses
 * (TEST-NET ranges) so the per-address minute limit, left at its default here, never interferes.
 */
describe('password guesses per user and address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ loginRateLimit: 30 });
  });
  afterAll(async () => t.close());

  const login = (
    remoteAddress: string,
    UserName: string,
    Password: string,
    extra: object = {},
    lang = 'zh-CN',
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v0.1/login',
      remoteAddress,
      headers: { 'accept-language': lang },
      payload: { UserName, Password, ...extra },
    });
  /** The error body without the per-request id, to compare answers. */
  const shape = (r: { statusCode: number; json(): Record<string, unknown> }) => {
    const { requestId: _id, ...rest } = r.json() as Record<string, unknown>;
    return { status: r.statusCode, ...rest };
  };
  const rowOf = async (userName: string, ip: string) =>
    (
      await t.app.db
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.userKey, throttleKey(userName)))
    ).find((r) => r.ip === ip);

  it('an attacker address cannot lock out the right password from another address', async () => {
    for (let i = 0; i < 8; i++) {
      const r = await login(ATTACKER, 'admin', `guess-${i}`);
      expect([401, 429]).toContain(r.statusCode);
    }
    const fromOffice = await login(OFFICE, 'admin', TEST_PASSWORD);
    expect(fromOffice.statusCode).toBe(200);
    expect(fromOffice.json().data.User.UserName).toBe('admin');
    // The office's success does not clear the attacker's count.
    expect((await login(ATTACKER, 'admin', TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('slows the attacker address down, progressively, with a wait in seconds in both languages', async () => {
    const ip = '203.0.113.21';
    for (let i = 0; i < 5; i++) expect((await login(ip, 'researcher', `guess-${i}`)).statusCode).toBe(401);
    // Past the threshold even the right password waits: the address has to slow down.
    const slowed = await login(ip, 'researcher', TEST_PASSWORD);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().errorCode).toBe('auth.tooManyGuesses');
    const first = Number(slowed.headers['retry-after']);
    expect(first).toBeGreaterThan(25);
    expect(first).toBeLessThanOrEqual(30);
    expect(slowed.json().message).toBe(`密码错误次数过多，请 ${first} 秒后再试`);
    const en = await login(ip, 'researcher', TEST_PASSWORD, {}, 'en-US');
    expect(en.json().message).toMatch(/^Too many wrong passwords; try again in \d+ seconds$/);
    // The wait ends (moved into the past here); the next wrong guess doubles it.
    await t.app.db.execute(
      sql`update login_throttle set blocked_until = now() - interval '1 second', last_at = now() - interval '31 seconds' where ip = ${ip}`,
    );
    expect((await login(ip, 'researcher', 'guess-again')).statusCode).toBe(401);
    const second = await login(ip, 'researcher', TEST_PASSWORD);
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(55);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Once the wait is over, the right password signs in and the count starts afresh.
    await t.app.db.execute(
      sql`update login_throttle set blocked_until = now() - interval '1 second' where ip = ${ip}`,
    );
    expect((await login(ip, 'researcher', TEST_PASSWORD)).statusCode).toBe(200);
    expect(await rowOf('researcher', ip)).toBeUndefined();
  });

  it('forgets failures 15 minutes after the last guess', async () => {
    const ip = '203.0.113.91';
    for (let i = 0; i < 4; i++) expect((await login(ip, 'admin', 'old-guess')).statusCode).toBe(401);
    await t.app.db.execute(
      sql`update login_throttle set last_at = now() - interval '16 minutes' where ip = ${ip}`,
    );
    for (let i = 0; i < 4; i++) expect((await login(ip, 'admin', 'new-guess')).statusCode).toBe(401);
    expect((await rowOf('admin', ip))?.failures).toBe(4);
    expect((await login(ip, 'admin', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('counts case and space variants of a name as one user, and keeps only a hash of the name', async () => {
    const ip = '203.0.113.33';
    for (const name of ['ADMIN', 'Admin ', ' admin', 'aDmIn', 'admin'])
      expect((await login(ip, name, 'nope')).statusCode).toBe(401);
    expect((await login(ip, 'Admin', TEST_PASSWORD)).statusCode).toBe(429);
    const row = await rowOf('admin', ip);
    expect(row?.failures).toBe(5);
    expect(row?.userKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets at most the threshold of a parallel burst reach the password check', async () => {
    const ip = '203.0.113.44';
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(ip, 'researcher', `parallel-${i}`)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    expect((await rowOf('researcher', ip))?.failures).toBe(5);
  });

  it('answers parallel right sign-ins of one user from one address without an error', async () => {
    // A right password clears the counter while parallel sign-ins still look for it: each must
    // find or make its row (a 500 on PostgreSQL before, when the row vanished between the two).
    const ip = '203.0.113.45';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(ip, 'researcher', TEST_PASSWORD)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(
      codes.every((c) => c === 200 || c === 429),
      codes.join(','),
    ).toBe(true);
    expect(codes).toContain(200);
  });

  it.runIf(process.env.DATABASE_URL)(
    'finds or makes its row when a right password deletes it while the guess waits for it',
    async () => {
      const ip = '203.0.113.46';
      const key = throttleKey('researcher');
      await reserveGuess(t.app.db, 'researcher', ip);
      // Another sign-in holds the row (its password is being checked), then clears it.
      const other = await t.app.database.pool!.connect();
      try {
        await other.query('begin');
        await other.query('select 1 from login_throttle where user_key = $1 and ip = $2 for update', [
          key,
          ip,
        ]);
        const waiting = reserveGuess(t.app.db, 'researcher', ip);
        await new Promise((r) => setTimeout(r, 300));
        await other.query('delete from login_throttle where user_key = $1 and ip = $2', [key, ip]);
        await other.query('commit');
        // Counted afresh on a row of its own (before: no row found, a TypeError and a 500).
        expect(await waiting).toMatchObject({ allowed: true, failures: 1 });
      } finally {
        other.release();
      }
      expect((await rowOf('researcher', ip))?.failures).toBe(1);
    },
  );

  it('answers an unknown name, a wrong password and a user of another hospital alike, and audits no typed name', async () => {
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    const cases: Array<[string, string, object]> = [
      ['no-such-Secret-Pass-1', 'Wrong-Pass-1', {}],
      ['researcher', 'Wrong-Pass-1', {}],
      ['lab', 'Wrong-Pass-1', { AppId: demo!.appId }], // belongs to the LAB app only
    ];
    const answers = [];
    const checks: number[] = [];
    for (const [i, [name, password, extra]] of cases.entries()) {
      const ip = `192.0.2.${10 + i}`;
      const first = await login(ip, name, password, extra);
      const before = passwordChecks.verified;
      await login(ip, name, password, extra);
      checks.push(passwordChecks.verified - before);
      for (let n = 0; n < 3; n++) await login(ip, name, password, extra);
      const slowed = await login(ip, name, password, extra);
      answers.push({
        first: shape(first),
        slowed: { ...shape(slowed), retry: slowed.headers['retry-after'] },
      });
    }
    expect(answers[0]!.first).toEqual({
      status: 401,
      code: 401,
      data: null,
      errorCode: 'auth.badCredentials',
      message: '用户名或密码错误',
    });
    expect(answers[0]!.slowed).toMatchObject({ status: 429, errorCode: 'auth.tooManyGuesses' });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // The same work: an unknown name is checked against a dummy argon2id hash, a user of another
    // hospital against their own: one argon2id verification each, as for a wrong password.
    expect(checks).toEqual([1, 1, 1]);
    // A name that matches no account may be a password typed in the wrong field: not kept.
    const rows = await t.app.db.execute(
      sql`select count(*)::int as n from audit_log where audit_log::text like '%no-such-Secret%'`,
    );
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    const attempts = await t.app.db.execute(
      sql`select count(*)::int as n from login_attempts where user_name like '%no-such%'`,
    );
    expect((attempts as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
  });

  it('audits failures and waits without the typed password', async () => {
    const ip = '203.0.113.55';
    for (let i = 0; i < 6; i++) await login(ip, 'admin', 'Typed-Secret-77');
    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.ip, ip));
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['login.failed', 'login.lockout', 'login.locked']),
    );
    expect(rows.every((r) => r.userName === 'admin')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain('Typed-Secret-77');
  });
});

describe('old-password guesses (ChangePwd) and an administrator resetting their own password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const call = (
    remoteAddress: string,
    method: string,
    params: unknown,
    key?: string,
    url = '/api/merchants/merchantslogin',
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: key ? { WeAppAuthorization: key } : {},
      payload: { method, params },
    });
  const signInFrom = async (ip: string, name: string, password = TEST_PASSWORD) => {
    const r = await call(ip, 'Login', [{ UserName: name, Password: password }]);
    expect(r.statusCode).toBe(200);
    return r.json().result.User.SessionKey as string;
  };
  const encryptor = async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/v0.1/auth/public_key' });
    const key = createPublicKey({ key: r.json().data.jwk, format: 'jwk' });
    return (text: string) =>
      publicEncrypt(
        { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(text),
      ).toString('base64');
  };

  it('throttles old-password guesses per address like sign-in', async () => {
    const enc = await encryptor();
    const ip = '203.0.113.66';
    const key = await signInFrom(ip, 'researcher');
    for (let i = 0; i < 5; i++) {
      const r = await call(
        ip,
        'ChangePwd',
        [{ oldPwd: enc(`Guess-${i}-Pass`), newPwd: enc('New-Pass-2027') }],
        key,
      );
      expect(r.statusCode).toBe(400);
      expect(r.json().error.errorCode).toBe('password.oldWrong');
    }
    const slowed = await call(
      ip,
      'ChangePwd',
      [{ oldPwd: enc(TEST_PASSWORD), newPwd: enc('New-Pass-2027') }],
      key,
    );
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().error.errorCode).toBe('auth.tooManyGuesses');
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.ip, ip));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['password.lockout', 'password.locked']),
    );
    // The same user at another address changes the password with the right old one.
    const office = '198.51.100.66';
    const officeKey = await signInFrom(office, 'researcher');
    const ok = await call(
      office,
      'ChangePwd',
      [{ oldPwd: enc(TEST_PASSWORD), newPwd: enc('New-Pass-2027') }],
      officeKey,
    );
    expect(ok.json()).toEqual({ code: 0, result: true });
  });

  it('asks an administrator resetting their own password for the old one', async () => {
    const ip = '198.51.100.77';
    const key = await signInFrom(ip, 'admin');
    const [admin] = await t.app.db.select().from(users).where(eq(users.userName, 'admin'));
    const reset = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v0.1/users/${admin!.userId}/reset_password`,
        remoteAddress: ip,
        headers: { WeAppAuthorization: key },
        payload: body,
      });
    const missing = await reset({ Password: 'Self-Reset-2026' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('OldPassword');
    expect(missing.json().message).toBe('旧密码不能为空');
    const wrong = await reset({ Password: 'Self-Reset-2026', OldPassword: 'Not-The-Pass-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ errorCode: 'password.oldWrong', field: 'OldPassword' });
    // Nothing changed: the old password still signs in.
    await signInFrom('198.51.100.78', 'admin');
    // The user edit form is no way around it either.
    const edit = await call(
      ip,
      'Save',
      [{ UserId: admin!.userId, UserName: 'admin', Password: 'Self-Reset-2026' }],
      key,
      '/api/merchants/merchantsuser',
    );
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error.field).toBe('params.0.OldPassword');
    const ok = await reset({ Password: 'Self-Reset-2026', OldPassword: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    await signInFrom('198.51.100.79', 'admin', 'Self-Reset-2026');
  });
});
