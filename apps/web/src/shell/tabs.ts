/**
 * The multi-tab bar as pure state (spec 000 section 2): one tab per visited address; close the
 * current, right, left or other tabs; a tab closes only while more than one is open.
 */
export interface Tab {
  /** Full address (path + query): the tab's identity. */
  key: string;
  title: string;
}

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

export function openTab(state: TabsState, tab: Tab): TabsState {
  const existing = state.tabs.findIndex((t) => t.key === tab.key);
  if (existing === -1) return { tabs: [...state.tabs, tab], active: tab.key };
  const tabs = state.tabs.slice();
  tabs[existing] = tab;
  return { tabs, active: tab.key };
}

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
