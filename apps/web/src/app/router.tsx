import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { cancelPageRequests } from '../api/client';
import { ApiBridge } from '../shell/ApiBridge';
import { BlankLayout } from '../shell/BlankLayout';
import { UserLayout } from '../shell/UserLayout';
import { menuRoot } from './grants';
import { PageLoading } from './PageLoading';
import { useSession } from './session';

const LoginPage = lazy(() => import('../pages/user/Login'));
const SelfCheckPage = lazy(() => import('../pages/test/Home'));
const NotFoundPage = lazy(() => import('../pages/exception/Exception404'));
// The signed-in shell (ProLayout, menus, tabs) loads only when a page behind the sign-in opens,
// so the login page does not download it.
const Guard = lazy(() => import('./Guard').then((m) => ({ default: m.Guard })));

function Root() {
  return (
    <>
      <ApiBridge />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </>
  );
}

/** `/` opens the menu root: the workbench, or the free set's entry (spec 000 section 2). */
function RootRedirect() {
  const { ssh } = useSession();
  const root = menuRoot(ssh);
  const target = root === '/' ? '/dashboard/workplace' : root === '/crf' ? '/crf' : '/lg/term/view';
  return <Navigate to={`${target}${window.location.search}`} replace />;
}

/**
 * History-mode routes with base `/`: fixed routes first, then the guarded route table.
 * Created after the start-up has read and rewritten the address (SessionKey, key, routerPath),
 * so the router's first location is the rewritten one.
 */
export function createAppRouter() {
  const router = createBrowserRouter([
    {
      element: <Root />,
      children: [
        { index: true, element: <RootRedirect /> },
        {
          path: '/user',
          element: <UserLayout />,
          children: [
            { index: true, element: <Navigate to="/user/login" replace /> },
            { path: 'login', element: <LoginPage /> },
          ],
        },
        {
          element: <BlankLayout />,
          children: [
            { path: '/test/home', element: <SelfCheckPage /> },
            { path: '/404', element: <NotFoundPage /> },
          ],
        },
        { path: '*', element: <Guard /> },
      ],
    },
  ]);

  // A page change cancels the requests of the page being left. The router notifies this
  // subscriber before React renders the new page, so the new page's requests are not touched.
  let lastPath = router.state.location.pathname;
  router.subscribe((state) => {
    if (state.location.pathname !== lastPath) {
      lastPath = state.location.pathname;
      cancelPageRequests();
    }
  });
  return router;
}
