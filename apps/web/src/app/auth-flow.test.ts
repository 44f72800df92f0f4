import type { CurrentUser, ProductMenusResult } from '@crdp/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api/auth', () => ({
  getCurrentUser: vi.fn(),
  getProductMenusVersioned: vi.fn(),
  setCurrentApp: vi.fn(),
}));

const api = await import('../api/auth');
const { loadAccess, provisionalAccess, requestApp } = await import('./auth-flow');
const { isRouteAllowed } = await import('./access');
const { clearSession, getSession, updateSession } = await import('./session');
const { readKeptMenus } = await import('./menu-cache');

const getCurrentUser = vi.mocked(api.getCurrentUser);
const getMenus = vi.mocked(api.getProductMenusVersioned);
const setCurrentApp = vi.mocked(api.setCurrentApp);

/** A promise the test settles when it chooses, to see what starts before what. */
function later<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const user = (appId = 7): CurrentUser =>
  ({ UserId: 42, UserName: 'nurse', NickName: '护士', AppId: appId, AppList: [] }) as unknown as CurrentUser;
const menus = (...names: string[]): ProductMenusResult => ({
  ProductMenus: names.map((RouterName, i) => ({ MenuId: i + 1, RouterName, ParentId: null })),
  PermissionFuncs: [],
  Permissions: [],
});

const memory = new Map<string, string>();
beforeEach(() => {
  memory.clear();
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => memory.set(k, v),
    removeItem: (k: string) => memory.delete(k),
  });
  clearSession();
  updateSession({ token: 'key-1' });
  vi.clearAllMocks();
});
afterEach(() => vi.unstubAllGlobals());

describe('loading the session and the menus (issue 16)', () => {
  it('asks for the current user and the menus together, before either answers', async () => {
    const u = later<CurrentUser>();
    const m = later<Awaited<ReturnType<typeof api.getProductMenusVersioned>>>();
    getCurrentUser.mockReturnValue(u.promise);
    getMenus.mockReturnValue(m.promise);
    const loading = loadAccess();
    await Promise.resolve();
    expect(getCurrentUser).toHaveBeenCalledTimes(1);
    expect(getMenus).toHaveBeenCalledTimes(1);
    // The guard joins the load the start-up began: one request each.
    expect(loadAccess()).toBe(loading);
    m.resolve({ changed: true, tag: '"v1"', result: menus('UserManage') });
    u.resolve(user());
    const { access } = await loading;
    expect(isRouteAllowed(access, { name: 'UserManage' })).toBe(true);
    expect(getSession().access).toBe(access);
    expect(readKeptMenus({ userId: 42, appId: 7 })?.tag).toBe('"v1"');
  });

  it('revalidates the kept answer with its version and uses it on a 304', async () => {
    getCurrentUser.mockResolvedValue(user());
    getMenus.mockResolvedValueOnce({ changed: true, tag: '"v1"', result: menus('UserManage') });
    await loadAccess();
    updateSession({ access: null });
    getMenus.mockResolvedValueOnce({ changed: false, tag: '"v1"' });
    const { access } = await loadAccess();
    expect(getMenus).toHaveBeenLastCalledWith('"v1"');
    expect(isRouteAllowed(access, { name: 'UserManage' })).toBe(true);
  });

  it('takes the new answer after a role change and keeps it with the new version', async () => {
    getCurrentUser.mockResolvedValue(user());
    getMenus.mockResolvedValueOnce({ changed: true, tag: '"v1"', result: menus('UserManage') });
    await loadAccess();
    updateSession({ access: null });
    getMenus.mockResolvedValueOnce({ changed: true, tag: '"v2"', result: menus('RoleManage') });
    const { access } = await loadAccess();
    expect(isRouteAllowed(access, { name: 'UserManage' })).toBe(false);
    expect(isRouteAllowed(access, { name: 'RoleManage' })).toBe(true);
    expect(readKeptMenus({ userId: 42, appId: 7 })?.tag).toBe('"v2"');
  });

  it('knows the user as soon as GetCurrentUser answers, before the menus', async () => {
    const m = later<Awaited<ReturnType<typeof api.getProductMenusVersioned>>>();
    getCurrentUser.mockResolvedValue(user());
    getMenus.mockReturnValue(m.promise);
    expect(provisionalAccess()).toBeNull();
    const loading = loadAccess();
    await vi.waitFor(() => expect(getSession().user?.UserId).toBe(42));
    expect(getSession().access).toBeNull();
    expect(isRouteAllowed(provisionalAccess()!, { name: 'Workplace' })).toBe(true);
    m.resolve({ changed: true, tag: '"v1"', result: menus() });
    await loading;
  });

  it('lets a page start before the menus only where the kept answer or the always-open routes allow', async () => {
    // Nothing kept: only the workbench and the error pages.
    updateSession({ user: user() });
    expect(isRouteAllowed(provisionalAccess()!, { name: 'Workplace' })).toBe(true);
    expect(isRouteAllowed(provisionalAccess()!, { name: 'UserManage' })).toBe(false);
    getCurrentUser.mockResolvedValue(user());
    getMenus.mockResolvedValueOnce({ changed: true, tag: '"v1"', result: menus('UserManage') });
    await loadAccess();
    expect(isRouteAllowed(provisionalAccess()!, { name: 'UserManage' })).toBe(true);
    // Another app's kept answer says nothing about this one.
    updateSession({ user: user(8) });
    expect(isRouteAllowed(provisionalAccess()!, { name: 'UserManage' })).toBe(false);
    // A sign-out forgets it.
    clearSession();
    updateSession({ token: 'key-2', user: user() });
    expect(isRouteAllowed(provisionalAccess()!, { name: 'UserManage' })).toBe(false);
  });

  it('starts nothing early while an app switch of the address is pending, and switches first', async () => {
    requestApp(9);
    expect(provisionalAccess()).toBeNull();
    getCurrentUser.mockResolvedValueOnce(user(7)).mockResolvedValueOnce(user(9));
    setCurrentApp.mockResolvedValue({ AppId: 9, AppShortName: 'B', AppName: 'B' });
    getMenus.mockResolvedValueOnce({ changed: true, tag: '"v9"', result: menus('UserManage') });
    const { user: now } = await loadAccess();
    expect(setCurrentApp).toHaveBeenCalledWith(9);
    expect(setCurrentApp.mock.invocationCallOrder[0]!).toBeLessThan(getMenus.mock.invocationCallOrder[0]!);
    expect(now.AppId).toBe(9);
    expect(provisionalAccess()).not.toBeNull();
  });

  it('an answer that arrives after a sign-out is not applied', async () => {
    const u = later<CurrentUser>();
    getCurrentUser.mockReturnValue(u.promise);
    getMenus.mockResolvedValue({ changed: true, tag: '"v1"', result: menus('UserManage') });
    const loading = loadAccess();
    clearSession();
    u.resolve(user());
    await loading;
    expect(getSession().access).toBeNull();
    expect(getSession().user).toBeNull();
    expect(memory.size).toBe(0);
  });
});
