import { FREE_ROUTE_SETS, ROUTE_TABLE } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { Exception } from '../pages/exception/Exception';
import { BasicLayout } from '../shell/BasicLayout';
import { FreeLayout } from '../shell/FreeLayout';
import { type Access, firstLeaf, menuTree, NO_ACCESS, resolvePath } from './access';
import { endSession, loadAccess, loginAddress, provisionalAccess } from './auth-flow';
// Before any page: dayjs in the reader's language (not part of the login page's download).
import './dates';
import { PageLoading } from './PageLoading';
import { PAGES } from './pages';
import { useSession } from './session';

const KNOWN = [...ROUTE_TABLE, ...Object.values(FREE_ROUTE_SETS).flatMap((s) => s.routes)];

/**
 * Every address that is not a fixed route: sign-in check, menu loading, then 403 / 404 / page
 * (spec 000 sections 2 and 4).
 */
export function Guard() {
  const session = useSession();
  const location = useLocation();
  if (!session.token) return <Navigate to={loginAddress(location.pathname, location.search)} replace />;
  if (session.ssh) return <FreeArea ssh={session.ssh} />;
  return <MainArea access={session.access} />;
}

/**
 * Loads app and menus for a token without roles; any failure logs out. Returns whether the
 * load failed (the caller then goes to the sign-in page).
 */
function useAccessLoad(needed: boolean) {
  const { token } = useSession();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['access', token],
    queryFn: loadAccess,
    enabled: needed,
    retry: false,
    gcTime: 0,
  });
  const failed = needed && query.isError;
  useEffect(() => {
    if (failed) {
      endSession(queryClient);
      message.error(t('error.loadMenus'));
    }
  }, [failed, queryClient, message, t]);
  return failed;
}

/**
 * The signed-in area. While the menus load (issue 16), once the user is known (stored from the
 * last visit, or GetCurrentUser has answered), a page the user may open by what the browser
 * already knows (the workbench, or the tab's last menus answer) starts at once, its data
 * request beside the menus request, inside the shell with its menu still loading; the 403 page
 * and any other decision wait for the server's answer. The page keeps its place in the tree when
 * the menus arrive, so it is not mounted twice.
 */
function MainArea({ access }: { access: Access | null }) {
  const { pathname, search } = useLocation();
  const failed = useAccessLoad(!access);
  if (failed) return <Navigate to={loginAddress(pathname, search)} replace />;
  const known = access ?? provisionalAccess();
  if (!known) return <PageLoading />;
  const resolved = resolvePath(pathname, known, { routes: ROUTE_TABLE, free: false }, KNOWN);
  if (!access && resolved.kind !== 'allowed') return <PageLoading />;
  if (resolved.kind === 'notFound') return <Navigate to="/404" replace />;
  const { route } = resolved;
  if (resolved.kind === 'forbidden') {
    return (
      <BasicLayout access={access} route={route}>
        <Exception code={403} />
      </BasicLayout>
    );
  }
  if (route.children?.length && !PAGES[route.name]) {
    if (!access) return <PageLoading />;
    // An area's own address opens its first visible child the user may open; a route with
    // children and a page of its own (the subject list) shows that page.
    const [area] = menuTree(access, [route]);
    const target = area ? firstLeaf(area, (e) => !!PAGES[e.name]) : undefined;
    return target && target.path !== route.path ? (
      <Navigate to={target.path} replace />
    ) : (
      <Navigate to="/404" replace />
    );
  }
  const Page = PAGES[route.name];
  return (
    <BasicLayout access={access} route={route}>
      <Suspense fallback={<PageLoading />}>{Page ? <Page /> : <Exception code={404} />}</Suspense>
    </BasicLayout>
  );
}

/** CRF-only or terminology set: open by the free-access scope; every other route is refused. */
function FreeArea({ ssh }: { ssh: string }) {
  const { pathname } = useLocation();
  const set = ssh.includes('crf') ? FREE_ROUTE_SETS.crf : FREE_ROUTE_SETS.term;
  const resolved = resolvePath(pathname, NO_ACCESS, { routes: set.routes, free: true }, KNOWN);
  if (resolved.kind === 'notFound') return <Navigate to="/404" replace />;
  const Page = resolved.kind === 'allowed' ? PAGES[resolved.route.name] : undefined;
  return (
    <FreeLayout set={set} route={resolved.route}>
      <Suspense fallback={<PageLoading />}>
        {resolved.kind === 'forbidden' ? (
          <Exception code={403} />
        ) : Page ? (
          <Page />
        ) : (
          <Exception code={404} />
        )}
      </Suspense>
    </FreeLayout>
  );
}
