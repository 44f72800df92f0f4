import { ProLayout } from '@ant-design/pro-components';
import { deviceMode, HEADER_HEIGHT, type RouteEntry, SIDER_WIDTH } from '@crdp/core';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { type Access, menuTree } from '../app/access';
import { RouteIcon } from '../app/icons';
import { hasPage } from '../app/pages';
import { useSite } from '../app/queries';
import { useSession } from '../app/session';
import { readStored, STORED, writeStored } from '../app/storage';
import { useNarrow } from '../components/table/narrow';
import { AvatarMenu } from './AvatarMenu';
import { Footer } from './Footer';
import { HeaderActions } from './HeaderActions';
import { MultiTabBar } from './MultiTabBar';
import { SettingsDrawer } from './SettingsDrawer';
import { headerVisibleAfterScroll, sidebarCollapsedFor } from './settings';
import { useSettings } from './useSettings';

interface MenuItem {
  path: string;
  name: string;
  icon?: ReactNode;
  routeName: string;
  children?: MenuItem[];
}

const DARK_SIDER = {
  colorMenuBackground: '#001529',
  colorBgMenuItemCollapsedElevated: '#001529',
  colorTextMenu: 'rgba(255,255,255,0.75)',
  colorTextMenuSecondary: 'rgba(255,255,255,0.65)',
  colorTextMenuSelected: '#fff',
  colorTextMenuActive: '#fff',
  colorTextMenuItemHover: '#fff',
  colorTextSubMenuSelected: '#fff',
  colorTextMenuTitle: '#fff',
  colorTextCollapsedButton: 'rgba(255,255,255,0.75)',
  colorTextCollapsedButtonHover: '#fff',
  colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
  colorMenuItemDivider: 'rgba(255,255,255,0.15)',
};

function useDeviceMode() {
  const [mode, setMode] = useState(() => deviceMode(window.innerWidth));
  useEffect(() => {
    const onResize = () => setMode(deviceMode(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mode;
}

/** Hides the fixed header after 300 px of downward scrolling; shows it again on scrolling up. */
function useAutoHideHeader(enabled: boolean) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (!enabled) {
      setVisible(true);
      return;
    }
    let last = window.scrollY;
    const onScroll = () => {
      const top = window.scrollY;
      setVisible(headerVisibleAfterScroll(last, top));
      last = top;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return visible;
}

/**
 * The main shell: menu built from the user's routes, header, multi-tab bar, footer, and the
 * settings drawer in development builds (spec 000 section 2).
 */
export function BasicLayout({
  access,
  route,
  children,
}: {
  /** Null while the menus load: the page may already run, the menu shows its skeleton. */
  access: Access | null;
  route: RouteEntry;
  children: ReactNode;
}) {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const settings = useSettings();
  const site = useSite();
  const { hideMenu } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const mode = useDeviceMode();
  const narrow = useNarrow();
  const [storedCollapsed, setStoredCollapsed] = useState(() => readStored(STORED.sidebarCollapsed, false));
  const [collapsed, setCollapsed] = useState(() => sidebarCollapsedFor(mode, storedCollapsed));
  // Device mode decides the sidebar state on each change of mode; the user's toggle is kept.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run on mode changes only
  useEffect(() => setCollapsed(sidebarCollapsedFor(mode, storedCollapsed)), [mode]);
  // The drawer lives here, not in the header: switching side/top menu re-creates the header.
  const [settingsOpen, setSettingsOpen] = useState(false);
  const headerVisible = useAutoHideHeader(settings.fixedHeader && settings.autoHideHeader);

  const menuData = useMemo(() => {
    const toItem = (e: RouteEntry): MenuItem => {
      const only = e.children?.length === 1 ? e.children[0] : undefined;
      // An area whose one page carries the area's own title (the workbench) is a single entry.
      if (only && !only.children?.length && only.title[lang] === e.title[lang]) {
        return {
          path: only.path,
          name: e.title[lang],
          routeName: only.name,
          icon: <RouteIcon name={e.icon} />,
        };
      }
      return {
        path: e.path,
        name: e.title[lang],
        routeName: e.name,
        icon: e.icon ? <RouteIcon name={e.icon} /> : undefined,
        children: e.children?.map(toItem),
      };
    };
    return access ? menuTree(access, undefined, hasPage).map(toItem) : [];
  }, [access, lang]);

  const dark = settings.navTheme === 'dark';
  const top = settings.layout === 'topmenu';
  const title = site.menuTitle || i18n.t('app.name');

  return (
    <div
      className={
        [headerVisible ? '' : 'crdp-header-hidden', dark ? 'crdp-sider-dark' : ''].join(' ').trim() ||
        undefined
      }
      style={{ minHeight: '100%' }}
    >
      <ProLayout
        title={title}
        logo={site.loginLogo || '/logo.svg'}
        // 'mix' is the side menu under a full-width header (avatar, notices, environment on the right).
        layout={top ? 'top' : 'mix'}
        splitMenus={false}
        navTheme="light"
        contentWidth={settings.contentWidth}
        fixedHeader={settings.fixedHeader}
        fixSiderbar={settings.fixSiderbar}
        colorPrimary={settings.primaryColor}
        siderWidth={SIDER_WIDTH}
        breakpoint={false}
        collapsed={collapsed}
        onCollapse={(c) => {
          setCollapsed(c);
          if (mode === 'desktop') {
            setStoredCollapsed(c);
            writeStored(STORED.sidebarCollapsed, c);
          }
        }}
        location={{ pathname: location.pathname }}
        route={{ path: '/', children: menuData }}
        menu={{ locale: false, defaultOpenAll: false, loading: !access }}
        menuRender={hideMenu ? false : undefined}
        menuItemRender={(item, dom) => (item.path ? <Link to={item.path}>{dom}</Link> : dom)}
        onMenuHeaderClick={() => navigate('/dashboard/workplace')}
        // The logo links to the route named dashboard; it sits in the header, not again above the menu.
        headerTitleRender={(logo, titleDom) => (
          <Link
            to="/dashboard/workplace"
            data-testid="logo-link"
            style={{ display: 'flex', alignItems: 'center' }}
          >
            {logo}
            {titleDom}
          </Link>
        )}
        menuHeaderRender={false}
        avatarProps={{ render: () => <AvatarMenu dark={dark && top} /> }}
        actionsRender={() => [<HeaderActions key="actions" onOpenSettings={() => setSettingsOpen(true)} />]}
        footerRender={() => <Footer />}
        itemRender={(item) => {
          // The 'project list' page: no link; a click reloads the page (spec 000 section 2).
          if (item.title === '课题列表' || item.title === 'Project list') {
            return (
              <button
                type="button"
                className="crdp-plain-button"
                style={{ padding: 0 }}
                onClick={() => window.location.reload()}
              >
                {item.title}
              </button>
            );
          }
          return item.path ? <Link to={item.path}>{item.title}</Link> : <span>{item.title}</span>;
        }}
        token={{
          header: {
            heightLayoutHeader: 48,
            // Opaque: ProLayout's default header is translucent and shows the dark sider through it.
            colorBgHeader: '#fff',
            ...(dark && top
              ? {
                  colorBgHeader: '#001529',
                  colorHeaderTitle: '#fff',
                  colorTextMenu: 'rgba(255,255,255,0.75)',
                  colorTextMenuSelected: '#fff',
                  colorTextRightActionsItem: 'rgba(255,255,255,0.85)',
                }
              : {}),
          },
          sider: dark ? DARK_SIDER : {},
          // A phone keeps its width for the page (ProLayout's default is 40 px each side).
          pageContainer: route.wide || narrow ? { paddingInlinePageContainerContent: narrow ? 12 : 8 } : {},
        }}
        siderMenuType="sub"
      >
        {settings.multiTab && !hideMenu && (
          <MultiTabBar route={route} stickyTop={settings.fixedHeader ? HEADER_HEIGHT : 0} />
        )}
        <div data-testid="page-content" data-route={route.name}>
          {children}
        </div>
      </ProLayout>
      {import.meta.env.DEV && <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
