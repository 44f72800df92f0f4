import type { ProductMenusResult } from '@crdp/core';
import { storageKey } from './storage';

/**
 * The last menus answer of this tab, with the server's version (ETag) of it, keyed by user and
 * app (issue 16). It only saves the download: the shell always asks the server again with the
 * version and uses the kept answer only on a 304, so a role change is seen on the next load.
 * Session storage: it lives as long as the tab, and a sign-out clears it.
 */
export interface KeptMenus {
  userId: number;
  appId: number;
  tag: string;
  result: ProductMenusResult;
}

const KEY = storageKey('MENUS');
let parsed: { raw: string; kept: KeptMenus } | null = null;

const store = (): Storage | undefined => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
};

/** The kept answer of this user in this app, if any. */
export function readKeptMenus(who: { userId: number; appId: number } | null): KeptMenus | null {
  if (!who) return null;
  try {
    const raw = store()?.getItem(KEY);
    if (!raw) return null;
    // Read on each render of the guard while the menus load: parsed once per stored answer.
    if (parsed?.raw !== raw) parsed = { raw, kept: JSON.parse(raw) as KeptMenus };
    const { kept } = parsed;
    if (kept.userId !== who.userId || kept.appId !== who.appId || typeof kept.tag !== 'string') return null;
    if (!Array.isArray(kept.result?.ProductMenus) || !Array.isArray(kept.result?.PermissionFuncs))
      return null;
    return kept;
  } catch {
    return null;
  }
}

export function keepMenus(kept: KeptMenus | null) {
  try {
    if (kept) store()?.setItem(KEY, JSON.stringify(kept));
    else store()?.removeItem(KEY);
  } catch {
    // Storage full or disabled: the next load downloads the menus again.
  }
}
