import { Button, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { useSite } from './app/queries';
import { createAppRouter } from './app/router';
import { ColorWeak } from './shell/ColorWeak';

export function App({ bootError }: { bootError: string | null }) {
  const { t } = useTranslation();
  const site = useSite();
  const [router] = useState(createAppRouter);
  useEffect(() => {
    document.title = site.documentTitle || t('app.name');
  }, [site.documentTitle, t]);
  if (bootError) {
    return (
      <Result
        status="warning"
        title={t('login.freeAccessFailed')}
        subTitle={bootError}
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
    </>
  );
}
