import { constants, publicEncrypt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appMembers,
  appProducts,
  apps,
  auditLog,
  loginAttempts,
  notices,
  roles,
  roleUsers,
  sessions,
  users,
} from '../db/schema/index.js';
import {
  envelope,
  get,
  menuNames,
  post,
  signIn,
  startTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../test/helper.js';
import { hashPassword } from './passwords.js';

/** Encrypts the way the browser does: RSA-OAEP with SHA-256 under the server's public key. */
async function encryptor(t: TestApp) {
  const { body } = await get(t.app, '/api/v0.1/auth/public_key');
  const { createPublicKey } = await import('node:crypto');
  const key = createPublicKey({ key: body.data.jwk, format: 'jwk' });
  return (text: string) =>
    publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(text),
    ).toString('base64');
}

describe('sign-in, sessions and permissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  describe('Login (envelope and REST)', () => {
    it('signs the administrator in with the spec field names and a 256-bit key', async () => {
      const r = await envelope(t.app, 'Login', [{ UserName: 'admin', Password: TEST_PASSWORD }]);
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(0);
      const { User, AppList, LoginAppId } = r.body.result;
      expect(User).toMatchObject({
        UserName: 'admin',
        UserId: expect.any(Number),
        SessionKey: expect.any(String),
      });
      expect(Buffer.from(User.SessionKey, 'base64url').length).toBeGreaterThanOrEqual(32);
      expect(AppList[0]).toMatchObject({
        AppId: LoginAppId,
        AppShortName: 'DEMO',
        AppProducts: [{ ProductId: 22 }],
      });
    });

    it('accepts a single param without the array and is case-insensitive on the user name', async () => {
      const r = await envelope(t.app, 'Login', { UserName: 'ADMIN', Password: TEST_PASSWORD });
      expect(r.body.code).toBe(0);
    });

    it('stores only a hash of the session key', async () => {
      const key = await signIn(t.app, 'researcher');
      const rows = await t.app.db.select({ h: sessions.tokenHash }).from(sessions);
      expect(rows.some((r) => r.h === key)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.h))).toBe(true);
    });

    it('refuses a wrong password with 401 and code 1, and audits it', async () => {
      const r = await envelope(t.app, 'Login', [{ UserName: 'researcher', Password: 'wrong-password' }]);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 1, error: { errorCode: 'auth.badCredentials' } });
      expect(r.body.error.message).toBe('用户名或密码错误');
      const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'login.failed'));
      expect(audited.length).toBeGreaterThan(0);
    });

    it('answers in English when the browser asks for it', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v0.1/login',
        headers: { 'accept-language': 'en-US,en;q=0.9' },
        payload: { UserName: 'nobody', Password: 'x' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Wrong user name or password');
    });

    it('names the missing field on bad input and changes nothing', async () => {
      const before = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(loginAttempts);
      const r = await envelope(t.app, 'Login', [{ Password: 'x' }]);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(1);
      expect(r.body.error.message).toBe('请求参数错误：params[0].UserName: 必填，不能缺少');
      expect(r.body.error.field).toBe('params.0.UserName');
      const after = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(loginAttempts);
      expect(after[0]!.n).toBe(before[0]!.n);
    });

    it('refuses a user whose apps hold no product 22, without a session', async () => {
      const before = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
      const r = await envelope(t.app, 'Login', [{ UserName: 'lab', Password: TEST_PASSWORD }]);
      expect(r.status).toBe(403);
      expect(r.body.error.errorCode).toBe('auth.noProduct');
      expect(r.body.error.message).toBe('您尚未获得该产品的访问权限！');
      const after = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(sessions);
      expect(after[0]!.n).toBe(before[0]!.n);
    });

    it('signs in over REST POST /api/v0.1/login with code 0', async () => {
      const r = await post(t.app, '/api/v0.1/login', { UserName: 'researcher', Password: TEST_PASSWORD });
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(0);
      expect(r.body.data.User.UserName).toBe('researcher');
    });

    it('answers an unknown method with a clear 400', async () => {
      const r = await envelope(t.app, 'DropAllTables', []);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain('DropAllTables');
    });
  });

  describe('session calls', () => {
    it('GetCurrentUser, GET user, current_user and user_permission need a session', async () => {
      for (const url of ['/api/v0.1/user', '/api/v0.1/current_user', '/api/v0.1/user_permission']) {
        const r = await get(t.app, url);
        expect(r.status).toBe(401);
        expect(r.body.errorCode).toBe('auth.required');
      }
      expect((await envelope(t.app, 'GetCurrentUser', [])).status).toBe(401);
      const bogus = await get(t.app, '/api/v0.1/user', 'not-a-real-key');
      expect(bogus.status).toBe(401);
    });

    it('returns the user and the current app to a signed-in session', async () => {
      const key = await signIn(t.app, 'admin');
      const cu = await envelope(t.app, 'GetCurrentUser', [], key);
      expect(cu.body.result).toMatchObject({
        UserName: 'admin',
        AppShortName: 'DEMO',
        NickName: '系统管理员',
      });
      expect(cu.body.result.LastTime).not.toBeNull();
      expect((await get(t.app, '/api/v0.1/user', key)).body.data).toMatchObject({ UserName: 'admin' });
      expect((await get(t.app, '/api/v0.1/current_user', key)).body.data).toMatchObject({
        AppShortName: 'DEMO',
      });
      const perm = await get(t.app, '/api/v0.1/user_permission', key);
      expect(perm.body.data.RouterNames).toContain('UserManage');
      expect(perm.body.data.ApiIds).toContain('UserManage.add');
    });

    it('GET getekuser names the user of a hand-off code given in the address, and refuses a session key', async () => {
      const key = await signIn(t.app, 'researcher');
      // A session key in the address no longer names (or signs in) anyone: it is an unknown code.
      const raw = await get(t.app, `/api/v0.1/getekuser?SessionKey=${encodeURIComponent(key)}`);
      expect(raw.status).toBe(401);
      expect(raw.body.errorCode).toBe('auth.handoffInvalid');
      const made = await post(t.app, '/api/v0.1/session/handoff', {}, key);
      const r = await get(t.app, `/api/v0.1/getekuser?SessionKey=${encodeURIComponent(made.body.data.code)}`);
      expect(r.status).toBe(200);
      expect(r.body.data.UserName).toBe('researcher');
      expect((await get(t.app, '/api/v0.1/getekuser?SessionKey=nope')).status).toBe(401);
      expect((await get(t.app, '/api/v0.1/getekuser')).status).toBe(400);
    });

    it('GetProductMenusAndPermissions gives the administrator every menu and the researcher a subset', async () => {
      const adminKey = await signIn(t.app, 'admin');
      const researcherKey = await signIn(t.app, 'researcher');
      const a = await envelope(
        t.app,
        'GetProductMenusAndPermissions',
        22,
        adminKey,
        '/api/merchants/MerchantsLogin',
      );
      expect(a.body.code).toBe(0);
      const adminNames = a.body.result.ProductMenus.map((m: { RouterName: string }) => m.RouterName);
      const researcherNames = await menuNames(t.app, researcherKey);
      expect(adminNames).toContain('UserManage');
      expect(researcherNames).not.toContain('UserManage');
      expect(researcherNames).toContain('Workplace');
      expect(researcherNames.length).toBeLessThan(adminNames.length);
      expect(a.body.result.PermissionFuncs[0]).toEqual({
        FuncId: expect.any(Number),
        MenuId: expect.any(Number),
        ApiId: expect.any(String),
      });
      expect(a.body.result.Permissions).toEqual(
        a.body.result.PermissionFuncs.map((f: { FuncId: number }) => f.FuncId),
      );
    });

    it('applies a role change at the next request, in every process (cache keyed by the ACL version)', async () => {
      const key = await signIn(t.app, 'researcher');
      const before = await get(t.app, '/api/v0.1/user_permission', key);
      expect(before.body.data.RouterNames).not.toContain('UserManage');
      const [role] = await t.app.db.select().from(roles).where(eq(roles.roleName, '科研人员'));
      await t.app.db.execute(
        sql`insert into role_menus (role_id, menu_id) select ${role!.roleId}, menu_id from menus where router_name = 'UserManage'`,
      );
      const after = await get(t.app, '/api/v0.1/user_permission', key);
      expect(after.body.data.RouterNames).toContain('UserManage');
      await t.app.db.execute(
        sql`delete from role_menus where role_id = ${role!.roleId} and menu_id = (select menu_id from menus where router_name = 'UserManage')`,
      );
      expect((await get(t.app, '/api/v0.1/user_permission', key)).body.data.RouterNames).not.toContain(
        'UserManage',
      );
    });

    it('answers 403 when the session lacks the route function', async () => {
      const [u] = await t.app.db
        .insert(users)
        .values({ userName: 'noroles', passwordHash: await hashPassword(TEST_PASSWORD) })
        .returning();
      const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
      await t.app.db.insert(appMembers).values({ appId: demo!.appId, userId: u!.userId });
      const key = await signIn(t.app, 'noroles');
      const r = await post(t.app, '/api/v0.1/free_access', { scopeKind: 'term' }, key);
      expect(r.status).toBe(403);
      expect(r.body.errorCode).toBe('auth.forbidden');
      // The function is named as the permission tree names it, never by its ApiId.
      expect(r.body.message).toBe('没有“CRF 列表 · 编辑”的权限，请联系管理员分配');
      expect(r.body.message).not.toMatch(/[A-Za-z]+\.[a-z]+/);
    });

    it('reads module configuration, and the multi-center switch', async () => {
      const key = await signIn(t.app, 'admin');
      const q = '/api/v0.1/cdm/module_config_one?config_group=site&module_name=features&config_name=mode';
      expect((await get(t.app, q)).status).toBe(401);
      const r = await get(t.app, q, key);
      expect(r.body).toMatchObject({ code: 200, data: { value: 'single-center' } });
      const site = await get(t.app, '/api/v0.1/site');
      expect(site.body.data).toMatchObject({ multiCenter: false, company: expect.any(String) });
      expect((await get(t.app, '/api/v0.1/cdm/module_config_one?config_group=site', key)).status).toBe(400);
    });

    it('SetCurrentApp switches only to an app of the user that holds product 22', async () => {
      const key = await signIn(t.app, 'admin');
      const [second] = await t.app.db
        .insert(apps)
        .values({ appShortName: 'SECOND', name: '第二医院' })
        .returning();
      const [lab] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'LAB'));
      const denied = await envelope(t.app, 'SetCurrentApp', [second!.appId], key);
      expect(denied.status).toBe(403);
      const [adminUser] = await t.app.db.select().from(users).where(eq(users.userName, 'admin'));
      await t.app.db.insert(appMembers).values({ appId: second!.appId, userId: adminUser!.userId });
      await t.app.db.insert(appProducts).values({ appId: second!.appId, productId: 22 });
      const ok = await envelope(t.app, 'SetCurrentApp', second!.appId, key);
      expect(ok.body.result).toMatchObject({ AppId: second!.appId, AppShortName: 'SECOND' });
      const cu = await envelope(t.app, 'GetCurrentUser', [], key);
      expect(cu.body.result.AppId).toBe(second!.appId);
      // In the new app the administrator has no roles yet: no system menus.
      expect(await menuNames(t.app, key)).not.toContain('UserManage');
      await t.app.db.insert(appMembers).values({ appId: lab!.appId, userId: adminUser!.userId });
      expect((await envelope(t.app, 'SetCurrentApp', [lab!.appId], key)).body.error.errorCode).toBe(
        'auth.noProduct',
      );
    });

    it('Logout ends the session: the old key gets 401', async () => {
      const key = await signIn(t.app, 'researcher');
      const out = await envelope(t.app, 'Logout', [], key);
      expect(out.body).toMatchObject({ code: 0, result: true });
      expect((await get(t.app, '/api/v0.1/user', key)).status).toBe(401);
      expect((await envelope(t.app, 'Logout', [], key)).status).toBe(401);
    });
  });

  describe('ChangePwd', () => {
    it('checks presence, decryption, old password and policy; success ends other sessions', async () => {
      const enc = await encryptor(t);
      const hash = await hashPassword(TEST_PASSWORD);
      const [u] = await t.app.db.insert(users).values({ userName: 'pwuser', passwordHash: hash }).returning();
      const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
      await t.app.db.insert(appMembers).values({ appId: demo!.appId, userId: u!.userId });
      const key = await signIn(t.app, 'pwuser');
      const other = await signIn(t.app, 'pwuser');
      const change = (oldPwd: string, newPwd: string) =>
        envelope(t.app, 'ChangePwd', [{ oldPwd, newPwd }], key);

      expect((await change('', enc('Abcdef12!'))).body.error.message).toBe('旧密码不能为空');
      expect((await change(enc(TEST_PASSWORD), '')).body.error.message).toBe('新密码不能为空');
      expect((await change('not-encrypted', enc('Abcdef12!'))).body.error.errorCode).toBe('password.decrypt');
      const wrongOld = await change(enc('Wrong-Pass-1'), enc('Abcdef12!'));
      expect(wrongOld.status).toBe(400);
      expect(wrongOld.body).toMatchObject({ code: 1, error: { errorCode: 'password.oldWrong' } });
      expect((await change(enc(TEST_PASSWORD), enc('Ab1!'))).body.error.errorCode).toBe('password.length');
      expect((await change(enc(TEST_PASSWORD), enc('abcdefgh1'))).body.error.errorCode).toBe(
        'password.kinds',
      );
      const ok = await change(enc(TEST_PASSWORD), enc('New-Pass-2026'));
      expect(ok.body).toEqual({ code: 0, result: true });
      expect((await get(t.app, '/api/v0.1/user', other)).status).toBe(401);
      expect((await get(t.app, '/api/v0.1/user', key)).status).toBe(200);
      expect((await envelope(t.app, 'Login', [{ UserName: 'pwuser', Password: TEST_PASSWORD }])).status).toBe(
        401,
      );
      expect(
        (await envelope(t.app, 'Login', [{ UserName: 'pwuser', Password: 'New-Pass-2026' }])).status,
      ).toBe(200);
    });
  });

  describe('free-access links', () => {
    it('open only their scope, expire with the link and end when it is revoked', async () => {
      const admin = await signIn(t.app, 'admin');
      const made = await post(
        t.app,
        '/api/v0.1/free_access',
        { scopeKind: 'crf', objectId: 'form-7', hours: 1 },
        admin,
      );
      expect(made.status).toBe(200);
      // The key rides in the fragment, which browsers never send: it reaches no request line or log.
      expect(made.body.data.path).toBe(`/crf?id=form-7#key=${made.body.data.key}`);
      expect(made.body.data.path.split('#')[0]).not.toContain(made.body.data.key);
      const ex = await post(t.app, '/api/v0.1/free_access/session', { key: made.body.data.key });
      expect(ex.body.data.scope).toMatchObject({ kind: 'crf', objectId: 'form-7' });
      const free = ex.body.data.SessionKey as string;
      // In scope: a call declared for CRF links.
      expect(
        (
          await get(
            t.app,
            '/api/v0.1/cdm/module_config_one?config_group=site&module_name=features&config_name=mode',
            free,
          )
        ).status,
      ).toBe(200);
      // Out of scope: everything else.
      expect((await get(t.app, '/api/v0.1/user', free)).status).toBe(403);
      expect((await get(t.app, '/api/v0.1/free_access', free)).status).toBe(403);
      expect((await envelope(t.app, 'GetCurrentUser', [], free)).status).toBe(403);
      const revoke = await post(t.app, `/api/v0.1/free_access/${made.body.data.id}/revoke`, {}, admin);
      expect(revoke.status).toBe(200);
      expect(
        (await get(t.app, '/api/v0.1/cdm/module_config_one?config_group=a&module_name=b&config_name=c', free))
          .status,
      ).toBe(401);
      expect((await post(t.app, '/api/v0.1/free_access/session', { key: made.body.data.key })).status).toBe(
        401,
      );
    });

    it('refuses a CRF link without an object and an unknown key', async () => {
      const admin = await signIn(t.app, 'admin');
      const r = await post(t.app, '/api/v0.1/free_access', { scopeKind: 'crf' }, admin);
      expect(r.status).toBe(400);
      expect(r.body.field).toBe('body.objectId');
      expect((await post(t.app, '/api/v0.1/free_access/session', { key: 'x'.repeat(43) })).status).toBe(401);
    });
  });

  describe('apps are isolated', () => {
    it("an administrator of another app sees and changes none of this app's data", async () => {
      const admin = await signIn(t.app, 'admin');
      const link = await post(
        t.app,
        '/api/v0.1/free_access',
        { scopeKind: 'term', label: 'DEMO only' },
        admin,
      );
      const [adminUser] = await t.app.db.select().from(users).where(eq(users.userName, 'admin'));
      const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
      await t.app.db
        .insert(notices)
        .values({ appId: demo!.appId, userId: adminUser!.userId, kind: 'system', title: 'DEMO notice' });

      // A second hospital with its own administrator holding the same role rights.
      const [other] = await t.app.db
        .insert(apps)
        .values({ appShortName: 'OTHER', name: '其他医院' })
        .returning();
      await t.app.db.insert(appProducts).values({ appId: other!.appId, productId: 22 });
      const [u] = await t.app.db
        .insert(users)
        .values({ userName: 'otheradmin', passwordHash: await hashPassword(TEST_PASSWORD) })
        .returning();
      await t.app.db.insert(appMembers).values({ appId: other!.appId, userId: u!.userId });
      const [demoAdminRole] = await t.app.db.select().from(roles).where(eq(roles.roleName, '系统管理员'));
      const [role] = await t.app.db
        .insert(roles)
        .values({ appId: other!.appId, roleName: '系统管理员' })
        .returning();
      await t.app.db.execute(
        sql`insert into role_menus select ${role!.roleId}, menu_id from role_menus where role_id = ${demoAdminRole!.roleId}`,
      );
      await t.app.db.execute(
        sql`insert into role_functions select ${role!.roleId}, func_id from role_functions where role_id = ${demoAdminRole!.roleId}`,
      );
      await t.app.db.insert(roleUsers).values({ roleId: role!.roleId, userId: u!.userId });
      const otherKey = await signIn(t.app, 'otheradmin');

      const list = await get(t.app, '/api/v0.1/free_access', otherKey);
      expect(list.status).toBe(200);
      expect(list.body.data.items.map((i: { id: number }) => i.id)).not.toContain(link.body.data.id);
      const revoke = await post(t.app, `/api/v0.1/free_access/${link.body.data.id}/revoke`, {}, otherKey);
      expect(revoke.status).toBe(404);
      const n = await get(t.app, '/api/v0.1/notices', otherKey);
      expect(n.body.data.items).toEqual([]);
      // The DEMO link still works: nothing was changed by the other app.
      expect((await post(t.app, '/api/v0.1/free_access/session', { key: link.body.data.key })).status).toBe(
        200,
      );
    });
  });

  describe('notices', () => {
    it('lists the user notices with the unread count and marks them read', async () => {
      const key = await signIn(t.app, 'researcher');
      const [u] = await t.app.db.select().from(users).where(eq(users.userName, 'researcher'));
      const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
      await t.app.db.insert(notices).values([
        { appId: demo!.appId, userId: u!.userId, kind: 'job.finished', title: '导入完成' },
        { appId: demo!.appId, userId: u!.userId, kind: 'record.assigned', title: '新分配的记录' },
      ]);
      const before = await get(t.app, '/api/v0.1/notices', key);
      expect(before.body.data.unread).toBe(2);
      const first = before.body.data.items[0].id;
      await post(t.app, '/api/v0.1/notices/read', { ids: [first] }, key);
      expect((await get(t.app, '/api/v0.1/notices', key)).body.data.unread).toBe(1);
      await post(t.app, '/api/v0.1/notices/read', {}, key);
      expect((await get(t.app, '/api/v0.1/notices', key)).body.data.unread).toBe(0);
    });
  });

  describe('the audit trail', () => {
    it('is append-only', async () => {
      const failure = async (q: ReturnType<typeof sql>) => {
        try {
          await t.app.db.execute(q);
          return 'accepted';
        } catch (e) {
          const err = e as Error & { cause?: Error };
          return `${err.message} ${err.cause?.message ?? ''}`;
        }
      };
      expect(await failure(sql`update audit_log set action = 'x'`)).toMatch(/append-only/);
      expect(await failure(sql`delete from audit_log`)).toMatch(/append-only/);
      expect(await failure(sql`truncate audit_log`)).toMatch(/append-only/);
    });
  });
});

describe('session expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ sessionTtlMs: 1500 });
  });
  afterAll(async () => t.close());

  it('refuses a key after the time-to-live with auth.expired, and slides while in use', async () => {
    const key = await signIn(t.app, 'admin');
    expect((await get(t.app, '/api/v0.1/user', key)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1700));
    const r = await get(t.app, '/api/v0.1/user', key);
    expect(r.status).toBe(401);
    expect(r.body.errorCode).toBe('auth.expired');
  });
});
