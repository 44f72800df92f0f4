import {
  type AppSummary,
  type CurrentUser,
  type LoginResult,
  PRODUCT_ID,
  type ProductMenusResult,
} from '@crdp/core';
import type { QueryClient } from '@tanstack/react-query';
import { getCurrentUser, getProductMenusVersioned, setCurrentApp } from '../api/auth';
import { type Access, buildAccess, NO_ACCESS } from './grants';
import { keepMenus, readKeptMenus } from './menu-cache';
import { clearSession, getSession, updateSession } from './session';

/** AppId asked for in the address (`AppId`); applied once when the menus load. */
let pendingAppId: number | null = null;
export const requestApp = (appId: number | null) => {
  pendingAppId = appId;
};

export interface LoadedAccess {
  user: CurrentUser;
  access: Access;
}

/** The load under way, shared by the start-up and the guard; one per session key. */
let running: { token: string | null; promise: Promise<LoadedAccess> } | null = null;

/**
 * "A token without roles": load the current app, switch to the app the address asked for,
 * fetch the product menus and build the user's access (spec 000 section 4). The current user
 * and the menus are asked for together (issue 16); the menus come with their version, and the
 * tab's kept answer is used only when the server says it is still current (304). One load runs
 * at a time: the start-up begins it before the shell's code has arrived, and the guard joins it.
 */
export function loadAccess(): Promise<LoadedAccess> {
  const token = getSession().token;
  if (running && running.token === token) return running.promise;
  const entry = { token, promise: fetchAccess(token) };
  running = entry;
  const done = () => {
    if (running === entry) running = null;
  };
  entry.promise.then(done, done);
  return entry.promise;
}

async function fetchAccess(token: string | null): Promise<LoadedAccess> {
  if (pendingAppId) {
    const now = await getCurrentUser();
    if (pendingAppId !== now.AppId) await setCurrentApp(pendingAppId);
    pendingAppId = null;
  }
  const kept = readKeptMenus(whoIsKnown());
  // The user is known as soon as this answers: the page may start before the menus arrive.
  const knownUser = getCurrentUser().then((u) => {
    if (getSession().token === token) updateSession({ user: u });
    return u;
  });
  const [user, menus] = await Promise.all([knownUser, getProductMenusVersioned(kept?.tag)]);
  let result: ProductMenusResult;
  if (menus.changed) result = menus.result;
  else if (kept) result = kept.result;
  // A 304 is accepted only when a kept answer was named: never here.
  else throw new Error('menus: 304 without a kept answer');
  const access = buildAccess(result);
  // A sign-out or another sign-in while this ran: its answer is not for the session of now.
  if (getSession().token !== token) return { user, access };
  if (menus.changed)
    keepMenus(menus.tag ? { userId: user.UserId, appId: user.AppId, tag: menus.tag, result } : null);
  updateSession({ user, access });
  return { user, access };
}

/** The user and app the browser knew from the last visit (stored user), before it is asked again. */
function whoIsKnown() {
  const u = getSession().user;
  return u ? { userId: u.UserId, appId: u.AppId } : null;
}

/**
 * What the page may go by before the menus have arrived: the always-allowed pages, and those
 * the tab's last menus answer allowed. It only lets the page start (and ask for its data, which
 * the server checks anyway); menus, buttons and the 403 page wait for the server's answer.
 * Null while the user is not known yet (a fresh sign-in, until GetCurrentUser answers) and
 * while an app switch asked for in the address is pending: nothing starts in the old app.
 */
export function provisionalAccess(): Access | null {
  if (pendingAppId || !getSession().user) return null;
  const kept = readKeptMenus(whoIsKnown());
  if (!kept) return NO_ACCESS;
  if (provisional?.tag !== kept.tag) provisional = { tag: kept.tag, access: buildAccess(kept.result) };
  return provisional.access;
}
let provisional: { tag: string; access: Access } | null = null;

/** Apps the person may open in this product (those holding product 22). */
export function productApps(apps: AppSummary[] | undefined): AppSummary[] {
  return (apps ?? []).filter((a) => a.AppProducts.some((p) => p.ProductId === PRODUCT_ID));
}

/** Stores a fresh sign-in; menus load on the next guarded page. */
export function startSession(result: LoginResult) {
  updateSession({
    token: result.User.SessionKey,
    user: null,
    access: null,
    ssh: null,
    crfObjectId: null,
    // '' marks a first sign-in; null (address SessionKey) means unknown.
    loginLastTime: result.User.LastTime ?? '',
  });
}

/** Clears everything the browser holds about the session. */
export function endSession(queryClient: QueryClient) {
  clearSession();
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'site' });
}

/** The login address that brings the person back to where they were. */
export function loginAddress(pathname: string, search: string) {
  const q = new URLSearchParams(search);
  if (pathname && pathname !== '/' && !pathname.startsWith('/user/')) q.set('redirect', pathname);
  const s = q.toString();
  return `/user/login${s ? `?${s}` : ''}`;
}

/** Where a successful sign-in goes: the redirect target if it is a local path, else the workbench. */
export function afterLoginAddress(search: string) {
  const q = new URLSearchParams(search);
  const redirect = q.get('redirect');
  q.delete('redirect');
  const path = redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : '/dashboard/workplace';
  const s = q.toString();
  return `${path}${s ? `?${s}` : ''}`;
}
