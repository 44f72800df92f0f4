import { useSyncExternalStore } from 'react';
import { getSession } from '../app/session';
import { EMPTY_TABS, type TabsState } from './tabs';

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
