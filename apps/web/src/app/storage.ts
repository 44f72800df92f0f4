import { STORAGE_PREFIX } from '@crdp/core';

/**
 * Local storage under the product's namespace (`fygo__`), JSON-encoded. Reads never throw:
 * a private window or a corrupt value reads as "not set".
 */
export const storageKey = (key: string) => `${STORAGE_PREFIX}${key}`;

export function readStored<T>(key: string, fallback: T): T {
  try {
    const raw = globalThis.localStorage?.getItem(storageKey(key));
    return raw == null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown) {
  try {
    if (value === undefined || value === null) globalThis.localStorage?.removeItem(storageKey(key));
    else globalThis.localStorage?.setItem(storageKey(key), JSON.stringify(value));
  } catch {
    // Storage full or disabled: the setting lives for this page only.
  }
}

/** Removes every key of the namespace (logout clears local storage, spec 000 section 4). */
export function clearStored(keep: string[] = []) {
  const store = globalThis.localStorage;
  if (!store) return;
  const kept = new Set(keep.map(storageKey));
  for (const k of Object.keys(store)) {
    if (k.startsWith(STORAGE_PREFIX) && !kept.has(k)) store.removeItem(k);
  }
}

/** The stored keys of spec 000 section 3 that the shell uses. */
export const STORED = {
  token: 'ACCESS_TOKEN',
  name: 'DEFAULT_NAME',
  avatar: 'DEFAULT_AVATAR',
  appId: 'APP_ID',
  appName: 'APP_NAME',
  userId: 'USER_ID',
  lastLoginTime: 'LOGIN_LAST_TIME',
  userInfo: 'USER_INFO',
  patientInfo: 'PATIENT_INFO',
  ssh: 'ssh',
  crfObjectId: 'CRF_OBJECT_ID',
  hideMenu: 'HIDE_MENU',
  sidebarCollapsed: 'SIDEBAR_TYPE',
  settings: 'DISPLAY_SETTINGS',
  language: 'LANGUAGE',
  tabs: 'MULTI_TABS',
} as const;
