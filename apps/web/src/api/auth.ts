import {
  API_BASE,
  type ChangePasswordInput,
  type CurrentAppSwitched,
  type CurrentUser,
  type FreeAccessSession,
  type HandoffExchanged,
  type HandoffIdentity,
  type LoginInput,
  type LoginResult,
  type PasswordPublicKey,
  PRODUCT_ID,
  type ProductMenusResult,
  type SiteSettings,
} from '@crdp/core';
import { callEnvelope, http, RequestError, rest } from './client';

/** Shapes of the sign-in and session calls: contracts of @crdp/core (spec 000 §3, §7). */
export type { FreeAccessSession, LoginResult, PasswordPublicKey, SiteSettings };

const LOGIN = 'api/merchants/merchantslogin';
const MENUS = 'api/merchants/MerchantsLogin';

export const login = (p: LoginInput) =>
  callEnvelope<LoginResult>(LOGIN, 'Login', [p], { isLogin: true, silent: true, keepOnPageChange: true });

export const getCurrentUser = () =>
  callEnvelope<CurrentUser>(LOGIN, 'GetCurrentUser', [], { keepOnPageChange: true });

export const setCurrentApp = (appId: number) =>
  callEnvelope<CurrentAppSwitched>(LOGIN, 'SetCurrentApp', [appId], {
    keepOnPageChange: true,
  });

export const logout = () => callEnvelope<true>(LOGIN, 'Logout', [], { silent: true, keepOnPageChange: true });

export const changePassword = (p: ChangePasswordInput) =>
  callEnvelope<true>(LOGIN, 'ChangePwd', [p], { silent: true, keepOnPageChange: true });

export const getProductMenus = () =>
  callEnvelope<ProductMenusResult>(MENUS, 'GetProductMenusAndPermissions', [PRODUCT_ID], {
    keepOnPageChange: true,
  });

/** A menus answer and its version, or "unchanged" when the kept version is still current. */
export type VersionedMenus =
  | { changed: true; tag: string | null; result: ProductMenusResult }
  | { changed: false; tag: string };

/**
 * The menus and functions (REST form of `GetProductMenusAndPermissions`) with their version:
 * with the tag of a kept answer the server says 304 while it is current, so the 49 KB answer
 * crosses the network only after a change of roles (issue 16).
 */
export async function getProductMenusVersioned(kept?: string | null): Promise<VersionedMenus> {
  const res = await http.get<{ code: number; data: ProductMenusResult; message?: string } | ''>(
    `${API_BASE}/product_menus`,
    {
      params: { product_id: PRODUCT_ID },
      headers: kept ? { 'If-None-Match': kept } : {},
      validateStatus: (s) => (s >= 200 && s < 300) || (s === 304 && !!kept),
      keepOnPageChange: true,
    },
  );
  const tag = typeof res.headers.etag === 'string' ? res.headers.etag : null;
  if (res.status === 304 && kept) return { changed: false, tag: tag ?? kept };
  const body = res.data || null;
  if (body?.code !== 0) throw new RequestError(body?.message || 'menus', res.status, body);
  return { changed: true, tag, result: body.data };
}

export const getSite = () => rest<SiteSettings>({ url: 'site', keepOnPageChange: true, silent: true });

export const getPublicKey = () =>
  rest<PasswordPublicKey>({ url: 'auth/public_key', keepOnPageChange: true, silent: true });

export const openFreeAccess = (key: string) =>
  rest<FreeAccessSession>({
    url: 'free_access/session',
    method: 'POST',
    data: { key },
    isLogin: true,
    silent: true,
    keepOnPageChange: true,
  });

/** Whose sign-in hand-off code this is (spec 000 §7 `getekuser`); the page uses the POST form below. */
export const getEkUser = (code: string) =>
  rest<HandoffIdentity>({ url: 'getekuser', params: { SessionKey: code }, keepOnPageChange: true });

/** Whose hand-off code this is (user and app), without using it; the code travels in the body. */
export const peekHandoff = (code: string) =>
  rest<HandoffIdentity>({
    url: 'session/handoff/peek',
    method: 'POST',
    data: { code },
    isLogin: true,
    silent: true,
    keepOnPageChange: true,
  });

/** Uses a hand-off code once: a new session of its user and app. */
export const exchangeHandoff = (code: string) =>
  rest<HandoffExchanged>({
    url: 'session/handoff/exchange',
    method: 'POST',
    data: { code },
    isLogin: true,
    silent: true,
    keepOnPageChange: true,
  });
