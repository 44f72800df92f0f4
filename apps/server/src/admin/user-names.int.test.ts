import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import { appMembers, appProducts, apps, auditLog, roles, roleUsers, users } from '../db/schema/index.js';
import { envelope, get, signIn, startTestApp, TEST_PASSWORD, type TestApp } from '../test/helper.js';
import { NAME_PROBES_PER_HOUR } from './users.js';

const USER = '/api/merchants/merchantsuser';

/**
 * User names are the sign-in identifier and unique on the platform. What an administrator of
 * another hospital can learn about this hospital's names: only "taken", worded as for a name of
 * their own hospital, audited, and not in bulk.
 */
describe("another hospital's user names", () => {
  let t: TestApp;
  let otherKey: string;
  let otherAppId: number;
  beforeAll(async () => {
    t = await startTestApp();
    const [other] = await t.app.db
      .insert(apps)
      .values({ appShortName: 'OTHER', name: '其他医院' })
      .returning();
    otherAppId = other!.appId;
    await t.app.db.insert(appProducts).values({ appId: otherAppId, productId: 22 });
    const [u] = await t.app.db
      .insert(users)
      .values({ userName: 'otheradmin', passwordHash: await hashPassword(TEST_PASSWORD) })
      .returning();
    await t.app.db.insert(appMembers).values({ appId: otherAppId, userId: u!.userId });
    const [demoAdminRole] = await t.app.db.select().from(roles).where(eq(roles.roleName, '系统管理员'));
    const [role] = await t.app.db
      .insert(roles)
      .values({ appId: otherAppId, roleName: '系统管理员' })
      .returning();
    await t.app.db.execute(
      sql`insert into role_functions select ${role!.roleId}, func_id from role_functions where role_id = ${demoAdminRole!.roleId}`,
    );
    await t.app.db.insert(roleUsers).values({ roleId: role!.roleId, userId: u!.userId });
    otherKey = await signIn(t.app, 'otheradmin');
  });
  afterAll(async () => t.close());

  const create = (UserName: string) =>
    envelope(t.app, 'Save', [{ UserName, Password: 'Probe-Pass-2026' }], otherKey, USER);

  it('are not listed or found by search', async () => {
    const list = await envelope(
      t.app,
      'GetList',
      [{ PageIndex: 1, PageSize: 100, Keyword: 'researcher' }],
      otherKey,
      USER,
    );
    expect(list.body.result).toMatchObject({ Total: 0, List: [] });
    const rest = await get(t.app, '/api/v0.1/users?page=1&size=100', otherKey);
    expect(rest.body.data.List.map((u: { UserName: string }) => u.UserName)).toEqual(['otheradmin']);
  });

  it('are "taken" in the same words as a name of one\'s own hospital, each refusal audited, and not in bulk', async () => {
    const foreign = await create('researcher'); // a member of the DEMO hospital only
    const own = await create('OtherAdmin'); // this hospital's own administrator
    expect(foreign.status).toBe(400);
    const words = (r: typeof foreign, name: string) => ({
      ...r.body,
      requestId: undefined,
      error: {
        ...r.body.error,
        message: r.body.error.message.replace(name, '{name}'),
        // The error's values name the user name asked for, so the web can word it in its language.
        ...(r.body.error.values ? { values: { ...r.body.error.values, name: '{name}' } } : {}),
      },
    });
    expect(words(foreign, 'researcher')).toEqual(words(own, 'OtherAdmin'));
    expect(foreign.body.error).toMatchObject({
      errorCode: 'admin.userNameTaken',
      field: 'params.0.UserName',
    });

    const audited = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, otherAppId), eq(auditLog.action, 'user.nameTaken')));
    expect(audited).toHaveLength(2);
    expect(audited.every((a) => a.outcome === 'failure')).toBe(true);
    expect(JSON.stringify(audited)).not.toContain('researcher');

    // Trying names one after another: past the hourly allowance the administrator waits.
    for (let i = 2; i < NAME_PROBES_PER_HOUR; i++) expect((await create(`admin${i}x`)).status).toBe(200);
    for (let i = 2; i < NAME_PROBES_PER_HOUR; i++) expect((await create(`admin${i}x`)).status).toBe(400);
    const waits = await t.app.inject({
      method: 'POST',
      url: USER,
      headers: { WeAppAuthorization: otherKey },
      payload: { method: 'Save', params: [{ UserName: 'researcher', Password: 'Probe-Pass-2026' }] },
    });
    expect(waits.statusCode).toBe(429);
    expect(waits.json().error.errorCode).toBe('request.rateLimited');
    expect(Number(waits.headers['retry-after'])).toBeGreaterThan(3000);
    // A free name is still created: the wait is for taken-name refusals only.
    expect((await create('freshname')).status).toBe(200);
  });
});
