import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, roles, sessions, users } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import {
  envelope,
  get,
  post,
  productMenus,
  send as sendAs,
  signIn,
  startTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../test/helper.js';

const USER = '/api/merchants/merchantsuser';
const INFO = '/api/merchants/merchantsinfo';
const PERM = '/api/merchants/MerchantsPermission';

describe('administration: users, roles, permissions, settings and the audit trail', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let other: { appId: number; key: string };
  const call = (path: string, method: string, params: unknown, key = admin) =>
    envelope(t.app, method, params, key, path);
  const send = (method: 'PUT' | 'PATCH' | 'DELETE', url: string, payload: unknown, key = admin) =>
    sendAs(method, t.app, url, payload, key);
  const lastAudit = async (action: string) => {
    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.action, action));
    return rows.at(-1);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    other = await otherAppAdministrator(t.app);
  });
  afterAll(async () => t.close());

  describe('roles and permissions (MerchantsPermission)', () => {
    let roleId: number;
    let nurseId: number;

    it('the administrator lists the roles of the current app only', async () => {
      const r = await call(PERM, 'GetRoleList', [{}]);
      expect(r.status).toBe(200);
      expect(r.body.result.map((x: { RoleName: string }) => x.RoleName)).toEqual(['系统管理员', '科研人员']);
      const rest = await get(t.app, '/api/v0.1/role', admin);
      expect(rest.body.data).toHaveLength(2);
      // Each role counts its own members (every role used to show the number of all role members).
      const held = await t.app.db.execute(
        sql`select r.role_name as name, count(ru.user_id)::int as n from roles r left join role_users ru on ru.role_id = r.role_id where r.app_id = (select app_id from roles where role_name = '科研人员' limit 1) group by r.role_name`,
      );
      const expected = Object.fromEntries(
        (held as unknown as { rows: Array<{ name: string; n: number }> }).rows.map((x) => [x.name, x.n]),
      );
      const shown = Object.fromEntries(
        r.body.result.map((x: { RoleName: string; UserCount: number }) => [x.RoleName, x.UserCount]),
      );
      expect(shown).toEqual(expected);
      const foreign = await call(PERM, 'GetRoleList', [{ AppId: other.appId }]);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.field).toBe('params.0.AppId');
    });

    it('adds a role, refuses a duplicate or over-long name with 400 naming the field, and renames it', async () => {
      const added = await call(PERM, 'AddRole', [{ RoleName: '数据录入员', Description: 'CRF 录入' }]);
      expect(added.body.code).toBe(0);
      roleId = added.body.result.RoleId;
      expect((await lastAudit('role.add'))?.after).toMatchObject({ roleName: '数据录入员' });

      const dup = await call(PERM, 'AddRole', [{ RoleName: '数据录入员' }]);
      expect(dup.status).toBe(400);
      expect(dup.body.error).toMatchObject({ errorCode: 'admin.roleNameTaken', field: 'params.0.RoleName' });
      const long = await call(PERM, 'AddRole', [{ RoleName: '长'.repeat(31) }]);
      expect(long.status).toBe(400);
      expect(long.body.error.field).toBe('params.0.RoleName');

      const renamed = await call(PERM, 'AddRole', [{ RoleId: roleId, RoleName: '录入员' }]);
      expect(renamed.body.result.RoleName).toBe('录入员');
      const audited = await lastAudit('role.edit');
      expect(audited?.before).toMatchObject({ roleName: '数据录入员' });
      expect(audited?.after).toMatchObject({ roleName: '录入员' });
    });

    it('a researcher may not add roles (403) and nothing changes', async () => {
      const before = await t.app.db.select().from(roles);
      const r = await call(PERM, 'AddRole', [{ RoleName: '黑客' }], researcher);
      expect(r.status).toBe(403);
      expect(r.body.error.errorCode).toBe('auth.forbidden');
      expect(await t.app.db.select().from(roles)).toHaveLength(before.length);
    });

    it('shows the menu tree with functions and saves a role’s menus and buttons together', async () => {
      const menus = await call(PERM, 'GetPermissionMenus', [22]);
      const userManage = menus.body.result.find((m: { RouterName: string }) => m.RouterName === 'UserManage');
      expect(userManage.Functions.map((f: { Action: string }) => f.Action)).toEqual(
        expect.arrayContaining(['add', 'edit', 'query', 'enable', 'disable']),
      );
      const funcs = await call(PERM, 'GetPermissionFuncs', []);
      const query = funcs.body.result.find((f: { ApiId: string }) => f.ApiId === 'UserManage.query');
      const saved = await call(PERM, 'SaveRolePermissionAndFunctions', [
        { RoleId: roleId, MenuIds: [userManage.MenuId], FuncIds: [query.FuncId] },
      ]);
      expect(saved.status).toBe(200);
      // The area of the menu comes along, so the menu is reachable.
      expect(saved.body.result.MenuIds).toEqual([2100, userManage.MenuId]);
      const read = await call(PERM, 'GetRolePermissions', [roleId]);
      expect(read.body.result).toEqual({ MenuIds: [2100, 2102], FuncIds: [query.FuncId] });
      const rest = await get(t.app, `/api/v0.1/role_permission?role_id=${roleId}`, admin);
      expect(rest.body.data.FuncIds).toEqual([query.FuncId]);
      expect((await get(t.app, '/api/v0.1/menu', admin)).body.data.length).toBeGreaterThan(100);
      const audited = await lastAudit('role.permissions');
      expect(audited?.before).toEqual({ MenuIds: [], FuncIds: [] });

      const bad = await call(PERM, 'SaveRolePermissionAndFunctions', [
        { RoleId: roleId, MenuIds: [999_999], FuncIds: [] },
      ]);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ errorCode: 'admin.unknownMenu', field: 'params.0.MenuIds' });
      expect((await call(PERM, 'GetRolePermissions', [roleId])).body.result.MenuIds).toEqual([2100, 2102]);
    });

    it('creates a user in that role; the user sees exactly that menu and button at the next menu load', async () => {
      const created = await call(USER, 'Save', [
        { UserName: 'nurse1', NickName: '护士一', Password: 'Nurse-Pass-1', RoleIds: [roleId] },
      ]);
      expect(created.body.code).toBe(0);
      nurseId = created.body.result.UserId;
      expect(created.body.result).not.toHaveProperty('passwordHash');
      const nurse = await signIn(t.app, 'nurse1', 'Nurse-Pass-1');
      const perms = await productMenus(t.app, nurse);
      const names = perms.body.result.ProductMenus.map((m: { RouterName: string }) => m.RouterName);
      expect(names).toEqual(expect.arrayContaining(['SystemSettings', 'UserManage']));
      expect(names).not.toContain('RoleManage');
      expect(perms.body.result.PermissionFuncs.map((f: { ApiId: string }) => f.ApiId)).toEqual([
        'UserManage.query',
      ]);
      // The button they do not hold is refused on the server too.
      const denied = await call(USER, 'Save', [{ UserName: 'nurse2', Password: 'Nurse-Pass-2' }], nurse);
      expect(denied.status).toBe(403);
    });

    it('lists role users and user roles, adds and removes role members', async () => {
      expect(
        (await call(PERM, 'GetRoleUsers', [roleId])).body.result.map((u: { UserName: string }) => u.UserName),
      ).toEqual(['nurse1']);
      expect((await get(t.app, `/api/v0.1/role_user?role_id=${roleId}`, admin)).body.data).toHaveLength(1);
      expect((await call(PERM, 'GetUserRoleList', [{ UserId: nurseId }])).body.result).toEqual([
        { RoleId: roleId, RoleName: '录入员' },
      ]);
      const own = await call(PERM, 'GetUserRoleList', []);
      expect(own.body.result[0].RoleName).toBe('系统管理员');

      const [researcherRow] = await t.app.db.select().from(users).where(eq(users.userName, 'researcher'));
      const added = await call(PERM, 'AddRoleUser', [{ RoleId: roleId, UserIds: [researcherRow!.userId] }]);
      expect(added.body.result).toEqual([researcherRow!.userId, nurseId].sort((a, b) => a - b));
      const removed = await call(PERM, 'DeleteRoleUser', [{ RoleId: roleId, UserId: researcherRow!.userId }]);
      expect(removed.body.result).toBe(true);
      expect((await lastAudit('role.users.delete'))?.after).toEqual({ UserIds: [nurseId] });
    });

    it("refuses another app's users and roles with 400 naming the field, and changes nothing", async () => {
      const [matrix] = await t.app.db.select().from(users).where(eq(users.userName, 'matrixadmin'));
      const r = await call(PERM, 'AddRoleUser', [{ RoleId: roleId, UserIds: [matrix!.userId] }]);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ errorCode: 'admin.unknownUser', field: 'params.0.UserIds' });
      // The other app's administrator cannot read or change this app's role.
      for (const [method, params] of [
        ['GetRoleUsers', [roleId]],
        ['GetRoleApps', [roleId]],
        ['GetRolePermissions', [roleId]],
        ['DeleteRole', [roleId]],
        ['AddRole', [{ RoleId: roleId, RoleName: 'stolen' }]],
        ['AddRoleUser', [{ RoleId: roleId, UserIds: [matrix!.userId] }]],
        ['DeleteRoleUser', [{ RoleId: roleId, UserId: nurseId }]],
        ['SaveRolePermissionAndFunctions', [{ RoleId: roleId, MenuIds: [], FuncIds: [] }]],
      ] as const) {
        const res = await call(PERM, method, params, other.key);
        expect(res.status, method).toBe(400);
        expect(res.body.error.errorCode, method).toBe('admin.unknownRole');
      }
      expect((await call(PERM, 'GetRoleUsers', [roleId])).body.result).toHaveLength(1);
      const list = await call(USER, 'GetList', [{}], other.key);
      expect(list.body.result.List.map((u: { UserName: string }) => u.UserName)).toEqual(['matrixadmin']);
    });

    it('shares a role only with apps the administrator belongs to, and stops sharing', async () => {
      const apps = await call(INFO, 'GetRelatedApps', []);
      expect(apps.body.result).toEqual([expect.objectContaining({ AppShortName: 'DEMO', Current: true })]);
      const demoAppId = apps.body.result[0].AppId;
      expect((await call(PERM, 'AddRoleApp', [{ RoleId: roleId, AppIds: [demoAppId] }])).body.result).toEqual(
        [demoAppId],
      );
      expect((await call(PERM, 'GetRoleApps', [roleId])).body.result[0].AppShortName).toBe('DEMO');
      const foreign = await call(PERM, 'AddRoleApp', [{ RoleId: roleId, AppIds: [other.appId] }]);
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.field).toBe('params.0.AppIds');
      expect((await call(PERM, 'DeleteRoleApp', [{ RoleId: roleId, AppId: demoAppId }])).body.result).toBe(
        true,
      );
      expect((await call(PERM, 'GetRoleApps', [roleId])).body.result).toEqual([]);
    });

    it('deletes a role with its memberships in one transaction', async () => {
      const r = await call(PERM, 'DeleteRole', [roleId]);
      expect(r.body.result).toBe(true);
      const audited = await lastAudit('role.delete');
      expect(audited?.before).toMatchObject({ roleName: '录入员', UserIds: [nurseId] });
      expect((await call(PERM, 'GetUserRoleList', [{ UserId: nurseId }])).body.result).toEqual([]);
      expect((await call(PERM, 'DeleteRole', [roleId])).status).toBe(400);
    });
  });

  describe('the last enabled administrator', () => {
    it('cannot be disabled, stripped of the role, or lose the role, and the call says why', async () => {
      const [adminRole] = await t.app.db.select().from(roles).where(eq(roles.roleName, '系统管理员'));
      const [me] = await t.app.db.select().from(users).where(eq(users.userName, 'admin'));
      const disable = await post(t.app, `/api/v0.1/users/${me!.userId}/disable`, {}, admin);
      expect(disable.status).toBe(409);
      expect(disable.body.errorCode).toBe('admin.lastAdministrator');
      expect(disable.body.message).toContain('管理员');
      const strip = await call(PERM, 'DeleteRoleUser', [{ RoleId: adminRole!.roleId, UserId: me!.userId }]);
      expect(strip.status).toBe(409);
      const del = await call(PERM, 'DeleteRole', [adminRole!.roleId]);
      expect(del.status).toBe(409);
      const perms = await call(PERM, 'SaveRolePermissionAndFunctions', [
        { RoleId: adminRole!.roleId, MenuIds: [100], FuncIds: [] },
      ]);
      expect(perms.status).toBe(409);
      const save = await call(USER, 'Save', [{ UserId: me!.userId, UserName: 'admin', RoleIds: [] }]);
      expect(save.status).toBe(409);
      // Nothing changed.
      expect((await call(PERM, 'GetRoleUsers', [adminRole!.roleId])).body.result).toHaveLength(1);
      expect(
        (await call(PERM, 'GetRolePermissions', [adminRole!.roleId])).body.result.FuncIds.length,
      ).toBeGreaterThan(100);
      const [still] = await t.app.db.select().from(users).where(eq(users.userName, 'admin'));
      expect(still!.enabled).toBe(true);
    });
  });

  describe('users (merchantsuser and REST)', () => {
    it('lists members paged and searchable, with their roles', async () => {
      const page = await call(USER, 'GetList', [{ PageIndex: 1, PageSize: 2, Keyword: 'res' }]);
      expect(page.body.result.Total).toBe(1);
      expect(page.body.result.List[0]).toMatchObject({
        UserName: 'researcher',
        Roles: [{ RoleName: '科研人员' }],
      });
      const rest = await get(t.app, '/api/v0.1/users?page=1&size=10&enabled=true', admin);
      expect(rest.body.data.Total).toBeGreaterThanOrEqual(3);
      expect(JSON.stringify(rest.body.data)).not.toContain('argon2');
      expect((await call(USER, 'GetList', [{ PageSize: 1000 }])).status).toBe(400);
    });

    it('refuses a new user with a weak password, a taken name or no password, naming the field', async () => {
      const weak = await call(USER, 'Save', [{ UserName: 'weak', Password: 'abc' }]);
      expect(weak.body.error).toMatchObject({ errorCode: 'password.length', field: 'params.0.Password' });
      const kinds = await call(USER, 'Save', [{ UserName: 'weak', Password: 'abcdefghij' }]);
      expect(kinds.body.error.errorCode).toBe('password.kinds');
      const taken = await call(USER, 'Save', [{ UserName: 'ADMIN', Password: 'Strong-Pass-1' }]);
      expect(taken.body.error).toMatchObject({
        errorCode: 'admin.userNameTaken',
        field: 'params.0.UserName',
      });
      const none = await call(USER, 'Save', [{ UserName: 'nopass' }]);
      expect(none.body.error.field).toBe('params.0.Password');
      const badName = await call(USER, 'Save', [{ UserName: 'a b', Password: 'Strong-Pass-1' }]);
      expect(badName.body.error.field).toBe('params.0.UserName');
      expect(await t.app.db.select().from(users).where(eq(users.userName, 'weak'))).toHaveLength(0);
    });

    it('disabling a user ends their sessions at once; enabling lets them sign in again', async () => {
      const created = await call(USER, 'Save', [{ UserName: 'temp1', Password: 'Temp-Pass-1' }]);
      const id = created.body.result.UserId;
      const key = await signIn(t.app, 'temp1', 'Temp-Pass-1');
      expect((await get(t.app, '/api/v0.1/current_user', key)).status).toBe(200);
      const off = await post(t.app, `/api/v0.1/users/${id}/disable`, {}, admin);
      expect(off.body.data.Enabled).toBe(false);
      expect((await get(t.app, '/api/v0.1/current_user', key)).status).toBe(401);
      expect(await t.app.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
      expect((await lastAudit('user.disable'))?.after).toMatchObject({ Enabled: false, SessionsEnded: 1 });
      const on = await post(t.app, `/api/v0.1/users/${id}/enable`, {}, admin);
      expect(on.body.data.Enabled).toBe(true);
      await signIn(t.app, 'temp1', 'Temp-Pass-1');
    });

    it('resets a password (given or generated once) and edits a member', async () => {
      const [temp] = await t.app.db.select().from(users).where(eq(users.userName, 'temp1'));
      const given = await post(
        t.app,
        `/api/v0.1/users/${temp!.userId}/reset_password`,
        { Password: 'Other-Pass-2' },
        admin,
      );
      expect(given.body.data.Password).toBeNull();
      await signIn(t.app, 'temp1', 'Other-Pass-2');
      const made = await post(t.app, `/api/v0.1/users/${temp!.userId}/reset_password`, {}, admin);
      await signIn(t.app, 'temp1', made.body.data.Password);
      const weak = await post(
        t.app,
        `/api/v0.1/users/${temp!.userId}/reset_password`,
        { Password: 'short' },
        admin,
      );
      expect(weak.status).toBe(400);
      expect(weak.body.field).toBe('Password');
      const edit = await call(USER, 'Save', [
        { UserId: temp!.userId, UserName: 'temp1', NickName: '临时用户' },
      ]);
      expect(edit.body.result.NickName).toBe('临时用户');
      expect((await lastAudit('user.edit'))?.before).toMatchObject({ NickName: '' });
    });

    it("another app's administrator cannot list, edit, disable or reset this app's users", async () => {
      const [temp] = await t.app.db.select().from(users).where(eq(users.userName, 'temp1'));
      for (const action of ['disable', 'enable', 'reset_password']) {
        const r = await post(t.app, `/api/v0.1/users/${temp!.userId}/${action}`, {}, other.key);
        expect(r.status, action).toBe(404);
      }
      const edit = await call(
        USER,
        'Save',
        [{ UserId: temp!.userId, UserName: 'temp1', Enabled: false }],
        other.key,
      );
      expect(edit.status).toBe(400);
      expect(edit.body.error.field).toBe('params.0.UserId');
      const [after] = await t.app.db.select().from(users).where(eq(users.userName, 'temp1'));
      expect(after!.enabled).toBe(true);
    });

    it('a researcher without the functions gets 403 for every user write', async () => {
      const [temp] = await t.app.db.select().from(users).where(eq(users.userName, 'temp1'));
      expect((await post(t.app, `/api/v0.1/users/${temp!.userId}/disable`, {}, researcher)).status).toBe(403);
      expect((await call(USER, 'GetList', [{}], researcher)).status).toBe(403);
      expect((await get(t.app, '/api/v0.1/users', researcher)).status).toBe(403);
    });
  });

  describe('apps (merchantsinfo)', () => {
    it('tells the current app, its members and the app types; never another app', async () => {
      const app = await call(INFO, 'Get', []);
      expect(app.body.result).toMatchObject({ AppShortName: 'DEMO', AppProducts: [{ ProductId: 22 }] });
      expect((await call(INFO, 'Get', [other.appId])).status).toBe(403);
      const members = await call(INFO, 'GetMembers', [{ Keyword: 'nurse' }]);
      expect(members.body.result.map((m: { UserName: string }) => m.UserName)).toEqual(['nurse1']);
      const types = await call(INFO, 'GetAppTypes', []);
      expect(types.body.result.map((x: { AppType: string }) => x.AppType)).toContain('hospital');
    });
  });

  describe('diseases, module settings and the audit trail', () => {
    it('maintains the disease dictionary of the app, refusing bad codes and duplicates', async () => {
      const added = await post(
        t.app,
        '/api/v0.1/disease',
        { name: '原发性高血压', icd10: 'i10', category: '循环系统' },
        admin,
      );
      expect(added.body.data).toMatchObject({ icd10: 'I10', enabled: true });
      const id = added.body.data.id;
      const dup = await post(t.app, '/api/v0.1/disease', { name: '原发性高血压' }, admin);
      expect(dup.status).toBe(400);
      expect(dup.body.field).toBe('body.name');
      const badCode = await post(t.app, '/api/v0.1/disease', { name: '某病', icd10: 'hello' }, admin);
      expect(badCode.status).toBe(400);
      expect(badCode.body.field).toBe('body.icd10');
      const off = await send('PATCH', `/api/v0.1/disease/${id}`, { enabled: false });
      expect(off.body.data.enabled).toBe(false);
      expect((await lastAudit('disease.edit'))?.before).toMatchObject({ enabled: true });
      const list = await get(t.app, '/api/v0.1/disease?keyword=I10', admin);
      expect(list.body.data.total).toBe(1);
      expect((await get(t.app, '/api/v0.1/disease', other.key)).body.data.total).toBe(0);
      expect((await send('DELETE', `/api/v0.1/disease/${id}`, undefined, other.key)).status).toBe(404);
      expect((await send('PATCH', `/api/v0.1/disease/${id}`, { name: 'x' }, researcher)).status).toBe(403);
      expect((await send('DELETE', `/api/v0.1/disease/${id}`, undefined)).body.data).toBe(true);
    });

    it('edits the module settings of the app only, with validation', async () => {
      const current = (await get(t.app, '/api/v0.1/config/module', admin)).body.data;
      expect(current.mode).toBe('single-center');
      const next = { ...current, company: '示范医院', mode: 'multi-center', loginTitle: '示范医院科研平台' };
      const saved = await send('PUT', '/api/v0.1/config/module', next);
      expect(saved.body.data).toMatchObject({ company: '示范医院', mode: 'multi-center' });
      const one = await get(
        t.app,
        '/api/v0.1/cdm/module_config_one?config_group=site&module_name=features&config_name=mode',
        admin,
      );
      expect(one.body.data.value).toBe('multi-center');
      // The other app still sees the site default.
      expect((await get(t.app, '/api/v0.1/config/module', other.key)).body.data.mode).toBe('single-center');
      const bad = await send('PUT', '/api/v0.1/config/module', {
        ...next,
        loginLogo: 'https://evil.example/x.png',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('body.loginLogo');
      expect((await send('PUT', '/api/v0.1/config/module', next, researcher)).status).toBe(403);
      expect((await lastAudit('config.edit'))?.before).toMatchObject({ mode: 'single-center' });
    });

    it('shows each step in the audit trail with before and after, scoped to the app', async () => {
      await envelope(t.app, 'Login', [{ UserName: 'nurse1', Password: 'wrong-password' }]);
      const list = await get(t.app, '/api/v0.1/audit?size=100', admin);
      const actions = list.body.data.items.map((i: { action: string }) => i.action);
      expect(actions).toEqual(
        expect.arrayContaining([
          'login',
          'login.failed',
          'role.add',
          'role.permissions',
          'user.add',
          'user.disable',
          'config.edit',
        ]),
      );
      const filtered = await get(t.app, '/api/v0.1/audit?action=user.&entity=user', admin);
      expect(filtered.body.data.items.every((i: { action: string }) => i.action.startsWith('user.'))).toBe(
        true,
      );
      const disabled = list.body.data.items.find((i: { action: string }) => i.action === 'user.disable');
      const detail = await get(t.app, `/api/v0.1/audit/${disabled.id}`, admin);
      expect(detail.body.data.before).toMatchObject({ Enabled: true });
      expect(detail.body.data.after).toMatchObject({ Enabled: false });
      expect((await get(t.app, `/api/v0.1/audit/${disabled.id}`, other.key)).status).toBe(404);
      const theirs = await get(t.app, '/api/v0.1/audit?size=100', other.key);
      expect(theirs.body.data.items.some((i: { userName: string }) => i.userName === 'admin')).toBe(false);
      expect((await get(t.app, '/api/v0.1/audit?from=yesterday', admin)).status).toBe(400);
      expect((await get(t.app, '/api/v0.1/audit', researcher)).status).toBe(403);
      // Nothing can rewrite the trail, whoever asks.
      await expect(
        t.app.db.execute(sql`update audit_log set action = 'x' where id = ${disabled.id}`),
      ).rejects.toThrow();
    });

    it('asks for a session on every call', async () => {
      expect((await call(PERM, 'GetRoleList', [], '')).status).toBe(401);
      expect((await get(t.app, '/api/v0.1/disease')).status).toBe(401);
      expect(TEST_PASSWORD).toBeTruthy();
    });
  });
});
