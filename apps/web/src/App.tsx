import { App as AntApp, Button, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import type { BootOutcome } from './app/boot';
import { useSite } from './app/queries';
import { createAppRouter } from './app/router';
import { ColorWeak } from './shell/ColorWeak';
import { HandoffConfirm } from './shell/HandoffConfirm';

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
      <Result
        status="warning"
        title={t(boot.what === 'handoff' ? 'handoff.failed' : 'login.freeAccessFailed')}
        subTitle={boot.message}
        extra={
          <Button type="primary" href="/user/login">
            {t('login.toLogin')}
          </Button>
        }
      />
    );
  }
  return (
    <>
      <ColorWeak />
      <RouterProvider router={router} />
      {boot.kind === 'ask' && <HandoffConfirm code={boot.code} current={boot.current} next={boot.next} />}
    </>
  );
}
