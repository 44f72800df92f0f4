/**
 * The multi-tab bar as pure state (spec 000 section 2): one tab per route (path); close the
 * current, right, left or other tabs; a tab closes only while more than one is open.
 * A page that only changes its query (another library, another patient) stays in its tab:
 * the tab remembers the last address and names the object the page shows.
 */
export interface Tab {
  /** The route's path without query: the tab's identity. */
  key: string;
  title: string;
  /** The last address (path + query) seen in this tab: where a click on the tab goes. */
  address?: string;
  /** The object the page shows (a library, a form, a patient), set by the page. */
  object?: string;
}

/** The tab key of an address: its path, without query or hash. */
export const tabKeyOf = (address: string) => address.split(/[?#]/)[0] || '/';

/** The address a tab opens: its last address, or its path. */
export const tabAddress = (tab: Tab) => tab.address ?? tab.key;

export interface TabsState {
  tabs: Tab[];
  active: string | null;
}

/** Why an operation changed nothing; the bar turns it into a message. */
export type TabProblem = 'lastTab' | 'noLeft' | 'noRight' | 'noOthers';

export interface TabResult {
  state: TabsState;
  problem?: TabProblem;
}

export const EMPTY_TABS: TabsState = { tabs: [], active: null };

/** Opens the tab of a route, or re-activates it with its new address (the object it named stays). */
export function openTab(state: TabsState, tab: Tab): TabsState {
  const existing = state.tabs.findIndex((t) => t.key === tab.key);
  if (existing === -1) return { tabs: [...state.tabs, tab], active: tab.key };
  const tabs = state.tabs.slice();
  tabs[existing] = { ...tabs[existing], ...tab, object: tab.object ?? tabs[existing]!.object };
  return { tabs, active: tab.key };
}

/** Names the object a tab's page shows (or clears it); unknown tabs are left alone. */
export function nameTab(state: TabsState, key: string, object: string | undefined): TabsState {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index === -1 || state.tabs[index]!.object === object) return state;
  const tabs = state.tabs.slice();
  tabs[index] = { ...tabs[index]!, object };
  return { ...state, tabs };
}

/** What a tab shows: the route's title, and the object's name when the page gave one. */
export const tabLabel = (routeTitle: string, object: string | undefined) =>
  object ? `${routeTitle} · ${object}` : routeTitle;

export function closeTab(state: TabsState, key: string): TabResult {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index === -1) return { state };
  if (state.tabs.length <= 1) return { state, problem: 'lastTab' };
  const tabs = state.tabs.filter((t) => t.key !== key);
  // Closing the active tab activates its right neighbour, or the left one at the end.
  const active = state.active === key ? (tabs[Math.min(index, tabs.length - 1)]?.key ?? null) : state.active;
  return { state: { tabs, active } };
}

export function closeRight(state: TabsState, key: string): TabResult {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index === -1 || index === state.tabs.length - 1) return { state, problem: 'noRight' };
  return keep(state, state.tabs.slice(0, index + 1), key);
}

export function closeLeft(state: TabsState, key: string): TabResult {
  const index = state.tabs.findIndex((t) => t.key === key);
  if (index <= 0) return { state, problem: 'noLeft' };
  return keep(state, state.tabs.slice(index), key);
}

export function closeOthers(state: TabsState, key: string): TabResult {
  const tab = state.tabs.find((t) => t.key === key);
  if (!tab || state.tabs.length === 1) return { state, problem: 'noOthers' };
  return { state: { tabs: [tab], active: key } };
}

/** Keeps the given tabs; the active tab stays if kept, otherwise the clicked tab becomes active. */
function keep(state: TabsState, tabs: Tab[], key: string): TabResult {
  const active = tabs.some((t) => t.key === state.active) ? state.active : key;
  return { state: { tabs, active } };
}
