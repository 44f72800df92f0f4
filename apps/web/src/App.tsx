import { App as AntApp } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import type { BootOutcome } from './app/boot';
import { useSite } from './app/queries';
import { createAppRouter } from './app/router';
import { ColorWeak } from './shell/ColorWeak';

// Shown only when the address brought a hand-off code or a free-access key: loaded then, so the
// login page's first download does not carry them (antd Result and Modal with their parts).
const BootFailed = lazy(() => import('./shell/BootFailed'));
const HandoffConfirm = lazy(() =>
  import('./shell/HandoffConfirm').then((m) => ({ default: m.HandoffConfirm })),
);

export function App({ boot }: { boot: BootOutcome }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const site = useSite();
  const [router] = useState(createAppRouter);
  useEffect(() => {
    document.title = site.documentTitle || t('app.name');
  }, [site.documentTitle, t]);
  const notice = boot.kind === 'ready' ? boot.notice : undefined;
  useEffect(() => {
    // A used or expired sign-in link while someone is signed in: say so, change nothing.
    if (notice) message.warning(notice);
  }, [notice, message]);
  if (boot.kind === 'failed') {
    return (
      <Suspense fallback={null}>
        <BootFailed what={boot.what} message={boot.message} />
      </Suspense>
    );
  }
  return (
    <>
      <ColorWeak />
      <RouterProvider router={router} />
      {boot.kind === 'ask' && (
        <Suspense fallback={null}>
          <HandoffConfirm code={boot.code} current={boot.current} next={boot.next} />
        </Suspense>
      )}
    </>
  );
}
