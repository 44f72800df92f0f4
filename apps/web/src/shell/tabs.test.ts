import { describe, expect, it } from 'vitest';
import {
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  EMPTY_TABS,
  nameTab,
  openTab,
  type TabsState,
  tabAddress,
  tabKeyOf,
  tabLabel,
} from './tabs';

const three = (): TabsState =>
  ['/a', '/b', '/c'].reduce((s, key) => openTab(s, { key, title: key }), EMPTY_TABS);

describe('multi-tab bar', () => {
  it('opens one tab per address and re-activates an open one', () => {
    const s = openTab(three(), { key: '/a', title: 'A' });
    expect(s.tabs.map((t) => t.key)).toEqual(['/a', '/b', '/c']);
    expect(s.active).toBe('/a');
    expect(s.tabs[0]?.title).toBe('A');
  });

  it('keeps one tab per route when only the query changes, going back to the last address', () => {
    let s = openTab(three(), { key: tabKeyOf('/b?libraryId=1'), title: 'B', address: '/b?libraryId=1' });
    s = nameTab(s, '/b', '肝病库');
    s = openTab(s, {
      key: tabKeyOf('/b?libraryId=2&patientId=7'),
      title: 'B',
      address: '/b?libraryId=2&patientId=7',
    });
    expect(s.tabs.map((t) => t.key)).toEqual(['/a', '/b', '/c']);
    expect(tabAddress(s.tabs[1]!)).toBe('/b?libraryId=2&patientId=7');
    expect(tabLabel('患者列表', s.tabs[1]!.object)).toBe('患者列表 · 肝病库');
    expect(tabAddress(s.tabs[0]!)).toBe('/a');
  });

  it('closes a tab only while more than one is open', () => {
    const one = openTab(EMPTY_TABS, { key: '/a', title: 'a' });
    expect(closeTab(one, '/a')).toEqual({ state: one, problem: 'lastTab' });
    const { state } = closeTab(three(), '/c');
    expect(state.tabs.map((t) => t.key)).toEqual(['/a', '/b']);
    expect(state.active).toBe('/b');
  });

  it('closing the active middle tab activates its right neighbour', () => {
    const s = { ...three(), active: '/b' };
    expect(closeTab(s, '/b').state.active).toBe('/c');
  });

  it('closes tabs to the right, or says there is none', () => {
    expect(closeRight(three(), '/a').state.tabs.map((t) => t.key)).toEqual(['/a']);
    expect(closeRight(three(), '/a').state.active).toBe('/a');
    expect(closeRight(three(), '/c').problem).toBe('noRight');
  });

  it('closes tabs to the left, or says there is none', () => {
    const r = closeLeft(three(), '/b');
    expect(r.state.tabs.map((t) => t.key)).toEqual(['/b', '/c']);
    expect(r.state.active).toBe('/c');
    expect(closeLeft(three(), '/a').problem).toBe('noLeft');
  });

  it('closes all other tabs', () => {
    const r = closeOthers(three(), '/b');
    expect(r.state).toEqual({ tabs: [{ key: '/b', title: '/b' }], active: '/b' });
    expect(closeOthers(r.state, '/b').problem).toBe('noOthers');
  });
});
