import type { FreeRouteSet, RouteEntry } from '@crdp/core';
import { Layout, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '../app/queries';
import { Footer } from './Footer';
import { LanguageSwitch } from './LanguageSwitch';

/** The reduced shell of a free-access link: title bar only, no menu, no account menu. */
export function FreeLayout({
  set,
  route,
  children,
}: {
  set: FreeRouteSet;
  route: RouteEntry;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const site = useSite();
  const title = route.title[i18n.language === 'en-US' ? 'en-US' : 'zh-CN'];
  return (
    <Layout style={{ minHeight: '100vh' }} data-testid={`free-layout-${set.kind}`}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 12,
          height: 48,
          lineHeight: '48px',
          background: '#fff',
          padding: '0 24px',
        }}
      >
        <img src={site.loginLogo || '/logo.svg'} alt="" width={28} height={28} />
        <Typography.Text strong>{site.menuTitle || t('app.name')}</Typography.Text>
        <Typography.Text type="secondary">/ {title}</Typography.Text>
        <span style={{ flex: 1 }} />
        <LanguageSwitch />
      </Layout.Header>
      <Layout.Content style={{ padding: 24 }}>{children}</Layout.Content>
      <Footer />
    </Layout>
  );
}
