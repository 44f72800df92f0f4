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
import { endSession, loadAccess, loginAddress } from './auth-flow';
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
  if (!session.access) return <AccessLoader />;
  return <MainArea access={session.access} />;
}

/** Loads app and menus for a token without roles; any failure logs out. */
function AccessLoader() {
  const { token } = useSession();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();
  const location = useLocation();
  const query = useQuery({ queryKey: ['access', token], queryFn: loadAccess, retry: false, gcTime: 0 });
  const failed = query.isError;
  useEffect(() => {
    if (failed) {
      endSession(queryClient);
      message.error(t('error.loadMenus'));
    }
  }, [failed, queryClient, message, t]);
  if (failed) return <Navigate to={loginAddress(location.pathname, location.search)} replace />;
  return <PageLoading />;
}

function MainArea({ access }: { access: Access }) {
  const { pathname } = useLocation();
  const resolved = resolvePath(pathname, access, { routes: ROUTE_TABLE, free: false }, KNOWN);
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
