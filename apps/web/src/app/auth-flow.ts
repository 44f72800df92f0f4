import { type AppSummary, type LoginResult, PRODUCT_ID } from '@crdp/core';
import type { QueryClient } from '@tanstack/react-query';
import { getCurrentUser, getProductMenus, setCurrentApp } from '../api/auth';
import { buildAccess } from './access';
import { clearSession, updateSession } from './session';

/** AppId asked for in the address (`AppId`); applied once when the menus load. */
let pendingAppId: number | null = null;
export const requestApp = (appId: number | null) => {
  pendingAppId = appId;
};

/**
 * "A token without roles": load the current app, switch to the app the address asked for,
 * fetch the product menus and build the user's access (spec 000 section 4).
 */
export async function loadAccess() {
  let user = await getCurrentUser();
  if (pendingAppId && pendingAppId !== user.AppId) {
    await setCurrentApp(pendingAppId);
    user = await getCurrentUser();
  }
  pendingAppId = null;
  const menus = await getProductMenus();
  const access = buildAccess(menus);
  updateSession({ user, access });
  return { user, access };
}

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
