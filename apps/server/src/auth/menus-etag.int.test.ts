import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { matchesTag } from './routes.js';

const USER = '/api/merchants/merchantsuser';
const PERM = '/api/merchants/MerchantsPermission';
const MENUS = '/api/v0.1/product_menus';

/**
 * The menus answer carries a version (issue 16): the browser keeps the last answer and asks
 * again with If-None-Match; the server answers 304 while nothing changed, and a new answer once
 * a role of the user changed, so nobody keeps stale menus after a role edit.
 */
describe('menus and permissions with a version (GET product_menus)', () => {
  let t: TestApp;
  let admin: string;
  let nurse: string;
  let roleId: number;
  let userManageMenu: number;
  let queryFunc: number;
  let roleManageMenu: number;
  const call = (path: string, method: string, params: unknown, key = admin) =>
    envelope(t.app, method, params, key, path);
  const menus = async (key: string, tag?: string, language = 'zh-CN') => {
    const res = await t.app.inject({
      method: 'GET',
      url: MENUS,
      headers: {
        WeAppAuthorization: key,
        'accept-language': language,
        ...(tag ? { 'if-none-match': tag } : {}),
      },
    });
    return {
      status: res.statusCode,
      tag: res.headers.etag as string | undefined,
      cache: res.headers['cache-control'],
      body: res.body,
      names: () =>
        (res.json().data.ProductMenus as Array<{ RouterName: string }>).map((m) => m.RouterName).sort(),
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const tree = await call(PERM, 'GetPermissionMenus', [22]);
    const find = (name: string) =>
      tree.body.result.find((m: { RouterName: string }) => m.RouterName === name) as {
        MenuId: number;
        Functions: Array<{ FuncId: number; Action: string }>;
      };
    userManageMenu = find('UserManage').MenuId;
    queryFunc = find('UserManage').Functions.find((f) => f.Action === 'query')!.FuncId;
    roleManageMenu = find('RoleManage').MenuId;
    const role = await call(PERM, 'AddRole', [{ RoleName: '版本测试员' }]);
    roleId = role.body.result.RoleId;
    await call(PERM, 'SaveRolePermissionAndFunctions', [
      { RoleId: roleId, MenuIds: [userManageMenu], FuncIds: [queryFunc] },
    ]);
    const user = await call(USER, 'Save', [
      { UserName: 'etagnurse', NickName: '护士', Password: 'Nurse-Pass-1', RoleIds: [roleId] },
    ]);
    expect(user.body.code).toBe(0);
    nurse = await signIn(t.app, 'etagnurse', 'Nurse-Pass-1');
  });
  afterAll(async () => t.close());

  it('answers like GetProductMenusAndPermissions, with a tag the web app revalidates', async () => {
    const first = await menus(nurse);
    expect(first.status).toBe(200);
    expect(first.tag).toMatch(/^"m[\w-]{22}"$/);
    // No HTTP cache keeps it: the web app keeps the answer and asks with If-None-Match.
    expect(first.cache).toBe('no-store');
    const envelopeAnswer = await call(
      '/api/merchants/MerchantsLogin',
      'GetProductMenusAndPermissions',
      [22],
      nurse,
    );
    expect(JSON.parse(first.body).data).toEqual(envelopeAnswer.body.result);
    expect(first.names()).toEqual(expect.arrayContaining(['SystemSettings', 'UserManage', 'Workplace']));
  });

  it('answers 304 without a body while nothing changed, in either language', async () => {
    const { tag } = await menus(nurse);
    const again = await menus(nurse, tag);
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.tag).toBe(tag);
    // The answer holds no words: the same version in English.
    expect((await menus(nurse, tag, 'en-US')).status).toBe(304);
    // A list of tags, a weak form and a stale tag.
    expect((await menus(nurse, `"old", W/${tag}`)).status).toBe(304);
    expect((await menus(nurse, '"old"')).status).toBe(200);
  });

  it('is per user: another user never gets a 304 on the nurse’s tag', async () => {
    const { tag } = await menus(nurse);
    const other = await menus(admin, tag);
    expect(other.status).toBe(200);
    expect(other.tag).not.toBe(tag);
    expect(other.names()).toContain('RoleManage');
  });

  it('keeps the nurse’s tag while somebody else’s roles and users change (a busy site)', async () => {
    const { tag } = await menus(nurse);
    const other = await call(PERM, 'AddRole', [{ RoleName: '无关角色' }]);
    expect(other.status).toBe(200);
    await call(PERM, 'SaveRolePermissionAndFunctions', [
      { RoleId: other.body.result.RoleId, MenuIds: [roleManageMenu], FuncIds: [] },
    ]);
    const made = await call(USER, 'Save', [
      {
        UserName: 'etagother',
        NickName: '旁人',
        Password: 'Other-Pass-1',
        RoleIds: [other.body.result.RoleId],
      },
    ]);
    expect(made.body.code).toBe(0);
    expect((await menus(nurse, tag)).status).toBe(304);
  });

  it('a role edit changes the version: the next revalidation gets the new menus', async () => {
    const before = await menus(nurse);
    expect(before.names()).not.toContain('RoleManage');
    const saved = await call(PERM, 'SaveRolePermissionAndFunctions', [
      { RoleId: roleId, MenuIds: [userManageMenu, roleManageMenu], FuncIds: [queryFunc] },
    ]);
    expect(saved.status).toBe(200);
    const after = await menus(nurse, before.tag);
    expect(after.status).toBe(200);
    expect(after.tag).not.toBe(before.tag);
    expect(after.names()).toContain('RoleManage');
    expect((await menus(nurse, after.tag)).status).toBe(304);
  });

  it('leaving a role changes the version too', async () => {
    const before = await menus(nurse);
    const me = await call(USER, 'GetList', [{ PageIndex: 1, PageSize: 10, Keyword: 'etagnurse' }]);
    const userId = me.body.result.List[0].UserId;
    const removed = await call(PERM, 'DeleteRoleUser', [{ RoleId: roleId, UserId: userId }]);
    expect(removed.status).toBe(200);
    const after = await menus(nurse, before.tag);
    expect(after.status).toBe(200);
    expect(after.names()).not.toContain('UserManage');
  });

  it('needs a session, like the envelope call', async () => {
    const res = await t.app.inject({ method: 'GET', url: MENUS });
    expect(res.statusCode).toBe(401);
  });

  it('reads If-None-Match as HTTP does', () => {
    expect(matchesTag('"a"', '"a"')).toBe(true);
    expect(matchesTag('W/"a"', '"a"')).toBe(true);
    expect(matchesTag('"b", "a"', '"a"')).toBe(true);
    expect(matchesTag('*', '"a"')).toBe(true);
    expect(matchesTag('"b"', '"a"')).toBe(false);
    expect(matchesTag(undefined, '"a"')).toBe(false);
  });
});
