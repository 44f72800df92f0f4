import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { getSession } from '../app/session';
import { EMPTY_TABS, nameTab, type TabsState } from './tabs';

/**
 * The open tabs, outside React so a layout remount (a 403 page, a lazy page loading) keeps them.
 * They belong to one session: a new session key starts with no tabs.
 */
let owner: string | null = null;
let state: TabsState = EMPTY_TABS;
const listeners = new Set<() => void>();

const current = () => {
  const token = getSession().token;
  if (token !== owner) {
    owner = token;
    state = EMPTY_TABS;
  }
  return state;
};

export function setTabs(update: (s: TabsState) => TabsState) {
  state = update(current());
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useTabs = () => useSyncExternalStore(subscribe, current, current);

/**
 * A page names the object it shows (a library, a form, a patient) in its tab, so one tab per
 * route still tells which object is open. Call with undefined while the object is loading.
 */
export function useTabObject(object: string | undefined) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!object) return;
    objects.set(pathname, object);
    setTabs((s) => nameTab(s, pathname, object));
  }, [pathname, object]);
}

/** The last object named per route, for a tab opened after its page named it. */
const objects = new Map<string, string>();
export const tabObjectOf = (key: string) => objects.get(key);
