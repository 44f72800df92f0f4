import { type HandoffExchanged, type HandoffIdentity, PRODUCT_ID } from '@crdp/core';
import type { ProductMenusResult } from '../app/access';
import type { AppSummary, CurrentUser } from '../app/session';
import { callEnvelope, rest } from './client';

const LOGIN = 'api/merchants/merchantslogin';
const MENUS = 'api/merchants/MerchantsLogin';

export interface LoginResult {
  User: {
    UserName: string;
    UserId: number;
    SessionKey: string;
    LastTime: string | null;
    NickName?: string;
    HeadImage?: string | null;
  };
  AppList: AppSummary[];
  LoginAppId: number;
}

export const login = (p: { UserName: string; Password: string; AppId?: number }) =>
  callEnvelope<LoginResult>(LOGIN, 'Login', [p], { isLogin: true, silent: true, keepOnPageChange: true });

export const getCurrentUser = () =>
  callEnvelope<CurrentUser>(LOGIN, 'GetCurrentUser', [], { keepOnPageChange: true });

export const setCurrentApp = (appId: number) =>
  callEnvelope<{ AppId: number; AppShortName: string; AppName: string }>(LOGIN, 'SetCurrentApp', [appId], {
    keepOnPageChange: true,
  });

export const logout = () =>
  callEnvelope<boolean>(LOGIN, 'Logout', [], { silent: true, keepOnPageChange: true });

export const changePassword = (p: { oldPwd: string; newPwd: string }) =>
  callEnvelope<boolean>(LOGIN, 'ChangePwd', [p], { silent: true, keepOnPageChange: true });

export const getProductMenus = () =>
  callEnvelope<ProductMenusResult>(MENUS, 'GetProductMenusAndPermissions', [PRODUCT_ID], {
    keepOnPageChange: true,
  });

export interface SiteConfig {
  documentTitle: string;
  menuTitle: string;
  loginTitle: string;
  loginLogo: string | null;
  environment: string | null;
  hiddenEnvironment: string | null;
  company: string;
  multiCenter: boolean;
}

export const getSite = () => rest<SiteConfig>({ url: 'site', keepOnPageChange: true, silent: true });

export interface PublicKey {
  jwk: JsonWebKey;
  modulus: string;
  exponent: number;
}

export const getPublicKey = () =>
  rest<PublicKey>({ url: 'auth/public_key', keepOnPageChange: true, silent: true });

export interface FreeAccessSession {
  SessionKey: string;
  scope: { kind: 'crf' | 'term'; objectId: string | number | null };
  AppId: number;
}

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
