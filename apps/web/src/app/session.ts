import type { AppSummary, CurrentUser } from '@crdp/core';
import { useSyncExternalStore } from 'react';
import type { Access } from './grants';
import { keepMenus } from './menu-cache';
import { clearStored, readStored, STORED, writeStored } from './storage';

/** The signed-in user as `GetCurrentUser` returns it, and an app of theirs (contracts of @crdp/core). */
export type { AppSummary, CurrentUser };

export interface SessionState {
  token: string | null;
  user: CurrentUser | null;
  /** Menus and functions; null until loaded ("a token without roles"). */
  access: Access | null;
  /** `crf` or `lg` while a free-access session is active (spec 000 section 2, `ssh`). */
  ssh: string | null;
  hideMenu: boolean;
  crfObjectId: string | null;
  /** The sign-in before this one (login result): '' on a first sign-in, null when unknown. */
  loginLastTime: string | null;
}

let state: SessionState = {
  token: readStored<string | null>(STORED.token, null),
  user: readStored<CurrentUser | null>(STORED.userInfo, null),
  access: null,
  ssh: readStored<string | null>(STORED.ssh, null),
  hideMenu: readStored<boolean>(STORED.hideMenu, false),
  crfObjectId: readStored<string | null>(STORED.crfObjectId, null),
  loginLastTime: readStored<string | null>(STORED.lastLoginTime, null),
};
const listeners = new Set<() => void>();

export const getSession = () => state;

export function updateSession(patch: Partial<SessionState>) {
  state = { ...state, ...patch };
  if ('token' in patch) writeStored(STORED.token, patch.token);
  if ('ssh' in patch) writeStored(STORED.ssh, patch.ssh);
  if ('hideMenu' in patch) writeStored(STORED.hideMenu, patch.hideMenu || null);
  if ('crfObjectId' in patch) writeStored(STORED.crfObjectId, patch.crfObjectId);
  if ('loginLastTime' in patch) writeStored(STORED.lastLoginTime, patch.loginLastTime);
  if ('user' in patch) {
    const u = patch.user;
    writeStored(STORED.userInfo, u);
    writeStored(STORED.name, u?.NickName || u?.UserName);
    writeStored(STORED.avatar, u?.HeadImage);
    writeStored(STORED.userId, u?.UserId);
    writeStored(STORED.appId, u?.AppId);
    writeStored(STORED.appName, u?.AppName);
  }
  for (const l of listeners) l();
}

/**
 * Ends the session in the browser: token, user, menus and stored values go (spec 000 section 4);
 * display settings and the language are the person's, not the session's, so they stay.
 */
export function clearSession() {
  clearStored([STORED.settings, STORED.language, STORED.sidebarCollapsed]);
  keepMenus(null);
  updateSession({
    token: null,
    user: null,
    access: null,
    ssh: null,
    hideMenu: false,
    crfObjectId: null,
    loginLastTime: null,
  });
}

export function subscribeSession(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
