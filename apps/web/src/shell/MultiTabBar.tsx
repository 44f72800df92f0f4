import { flattenRoutes, type RouteEntry } from '@crdp/core';
import { App, Dropdown, Tabs } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { closeLeft, closeOthers, closeRight, closeTab, openTab, type TabResult } from './tabs';
import { setTabs, useTabs } from './useTabs';

/** Titles by address: a tab shows its title in the language chosen now, not the one it opened in. */
const TITLES = new Map(flattenRoutes().map((r) => [r.path, r.title]));

/** One tab per visited address; right-click closes current, right, left or other tabs. */
export function MultiTabBar({ route, stickyTop }: { route: RouteEntry; stickyTop: number }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const state = useTabs();
  const key = `${location.pathname}${location.search}`;
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const title = route.title[lang];

  useEffect(() => setTabs((s) => openTab(s, { key, title })), [key, title]);

  const apply = ({ state: next, problem }: TabResult) => {
    if (problem) {
      message.warning(t(`tabs.${problem}`));
      return;
    }
    setTabs(() => next);
    if (next.active && next.active !== key) navigate(next.active);
  };

  return (
    <Tabs
      className="crdp-tabs"
      data-testid="multi-tabs"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={state.active ?? key}
      onChange={(k) => navigate(k)}
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
            <span data-tab-key={tab.key}>{TITLES.get(tab.key.split('?')[0]!)?.[lang] ?? tab.title}</span>
          </Dropdown>
        ),
      }))}
    />
  );
}
