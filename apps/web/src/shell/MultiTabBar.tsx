import { flattenRoutes, type RouteEntry } from '@crdp/core';
import { App, Dropdown, Tabs } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { confirmLeave } from '../components/useUnsavedChanges';
import {
  closeLeft,
  closeOthers,
  closeRight,
  closeTab,
  openTab,
  type TabResult,
  tabAddress,
  tabLabel,
} from './tabs';
import { setTabs, tabObjectOf, useTabs } from './useTabs';

/** Titles by address: a tab shows its title in the language chosen now, not the one it opened in. */
const TITLES = new Map(flattenRoutes().map((r) => [r.path, r.title]));

/**
 * One tab per route: a change of query only (another library, the next patient) stays in the
 * route's tab, which goes back to its last address; right-click closes current, right, left or
 * other tabs.
 */
export function MultiTabBar({ route, stickyTop }: { route: RouteEntry; stickyTop: number }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const state = useTabs();
  const key = location.pathname;
  const address = `${location.pathname}${location.search}`;
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const title = route.title[lang];

  useEffect(
    () => setTabs((s) => openTab(s, { key, title, address, object: tabObjectOf(key) })),
    [key, title, address],
  );
  const go = (k: string) => {
    const tab = state.tabs.find((x) => x.key === k);
    navigate(tab ? tabAddress(tab) : k);
  };

  const apply = async ({ state: next, problem }: TabResult) => {
    if (problem) {
      message.warning(t(`tabs.${problem}`));
      return;
    }
    const active = next.tabs.find((x) => x.key === next.active);
    const leaves = !!active && active.key !== key;
    // Closing the page on screen with unsaved edits asks first; the tab stays when the person stays.
    if (leaves && !(await confirmLeave())) return;
    setTabs(() => next);
    if (leaves) navigate(tabAddress(active));
  };

  return (
    <Tabs
      className="crdp-tabs"
      data-testid="multi-tabs"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={state.active ?? key}
      onChange={go}
      onEdit={(k, action) => action === 'remove' && typeof k === 'string' && apply(closeTab(state, k))}
      // Sticky under the header, so the tabs stay at hand on long pages.
      style={{ position: 'sticky', top: stickyTop, zIndex: 10, marginBottom: 16 }}
      tabBarStyle={{ margin: 0, padding: '6px 16px 0', background: '#fff' }}
      items={state.tabs.map((tab) => ({
        key: tab.key,
        closable: state.tabs.length > 1,
        label: (
          <Dropdown
            trigger={['contextMenu']}
            menu={{
              items: [
                { key: 'current', label: t('tabs.closeCurrent') },
                { key: 'right', label: t('tabs.closeRight') },
                { key: 'left', label: t('tabs.closeLeft') },
                { key: 'others', label: t('tabs.closeOthers') },
              ],
              onClick: ({ key: op, domEvent }) => {
                domEvent.stopPropagation();
                const ops = { current: closeTab, right: closeRight, left: closeLeft, others: closeOthers };
                apply(ops[op as keyof typeof ops](state, tab.key));
              },
            }}
          >
            <span data-tab-key={tab.key}>
              {tabLabel(TITLES.get(tab.key)?.[lang] ?? tab.title, tab.object)}
            </span>
          </Dropdown>
        ),
      }))}
    />
  );
}
