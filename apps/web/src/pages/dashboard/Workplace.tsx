import { UserOutlined } from '@ant-design/icons';
import { PageContainer, ProCard } from '@ant-design/pro-components';
import { DATE_TIME_FORMAT, greeting } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Avatar,
  Button,
  Col,
  Descriptions,
  Empty,
  List,
  Row,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { setCurrentApp } from '../../api/auth';
import { firstLeaf, menuTree } from '../../app/access';
import { productApps } from '../../app/auth-flow';
import { currentLocale } from '../../app/i18n';
import { RouteIcon } from '../../app/icons';
import { hasPage } from '../../app/pages';
import { updateSession, useSession } from '../../app/session';
import { DemoBanner } from './DemoBanner';

// The statistics draw ECharts (about 1 MB): loaded after the greeting and shortcuts paint.
const WorkbenchStatistics = lazy(() =>
  import('./WorkbenchStatistics').then((m) => ({ default: m.WorkbenchStatistics })),
);
const SavedCharts = lazy(() => import('./SavedCharts').then((m) => ({ default: m.SavedCharts })));

/**
 * The workbench: greeting by hour, the person's apps, last sign-in and quick links to the
 * areas they may open. Statistics cards come with the statistics issue; no sample numbers here.
 */
export default function Workplace() {
  const { t } = useTranslation();
  const { user, access, token, loginLastTime } = useSession();
  // The previous sign-in comes from the login result; a SessionKey address only knows the session's time.
  const lastTime = loginLastTime ?? (token ? user?.LastTime : null) ?? '';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const locale = currentLocale();
  const name = user?.NickName || user?.UserName || '';
  const areas = access ? menuTree(access, undefined, hasPage).filter((a) => a.name !== 'dashboard') : [];
  const apps = productApps(user?.AppList);

  const switchApp = async (appId: number, appName: string) => {
    await setCurrentApp(appId);
    // Menus and functions belong to the app: load them again.
    updateSession({ access: null });
    await queryClient.invalidateQueries();
    message.success(t('workplace.switched', { name: appName }));
  };

  return (
    <PageContainer
      title={false}
      content={
        <Space size={16} align="center">
          <Avatar size={64} src={user?.HeadImage || undefined} icon={<UserOutlined />} />
          <div>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="greeting">
              {t('workplace.greetingLine', { greeting: greeting(new Date(), locale), name })}
            </Typography.Title>
            <Typography.Text type="secondary">
              {t('workplace.currentApp')}: {user?.AppName || user?.AppShortName || '-'}
            </Typography.Text>
          </div>
        </Space>
      }
    >
      <DemoBanner />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <ProCard title={t('workplace.quickLinks')} data-testid="quick-links">
            {areas.length === 0 ? (
              <Empty description={t('workplace.noAreas')} />
            ) : (
              <Row gutter={[12, 12]}>
                {areas.map((a) => (
                  <Col key={a.name} xs={12} sm={8} xl={6}>
                    <Link to={firstLeaf(a).path}>
                      <ProCard bordered hoverable size="small" style={{ textAlign: 'center' }}>
                        <div style={{ fontSize: 22, color: 'rgb(76,132,255)' }}>
                          <RouteIcon name={a.icon} />
                        </div>
                        <Typography.Text>{a.title[locale]}</Typography.Text>
                      </ProCard>
                    </Link>
                  </Col>
                ))}
              </Row>
            )}
          </ProCard>
        </Col>
        <Col xs={24} lg={8}>
          <ProCard title={t('workplace.account')} style={{ marginBottom: 16 }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('login.username')}>{user?.UserName}</Descriptions.Item>
              <Descriptions.Item label={t('workplace.lastLogin')}>
                <span data-testid="last-login">
                  {lastTime ? dayjs(lastTime).format(DATE_TIME_FORMAT) : t('workplace.firstLogin')}
                </span>
              </Descriptions.Item>
            </Descriptions>
          </ProCard>
          <ProCard title={t('workplace.myApps')}>
            <List
              size="small"
              dataSource={apps}
              locale={{ emptyText: t('common.none') }}
              renderItem={(a) => (
                <List.Item
                  actions={
                    a.AppId === user?.AppId
                      ? [
                          <Tag key="current" color="blue">
                            {t('workplace.current')}
                          </Tag>,
                        ]
                      : [
                          <Button
                            key="switch"
                            type="link"
                            size="small"
                            onClick={() => void switchApp(a.AppId, a.AppName || a.AppShortName)}
                          >
                            {t('workplace.switchApp')}
                          </Button>,
                        ]
                  }
                >
                  {a.AppName || a.AppShortName}
                </List.Item>
              )}
            />
          </ProCard>
        </Col>
      </Row>
      <Suspense fallback={<Skeleton active style={{ marginTop: 16 }} />}>
        <WorkbenchStatistics />
        <SavedCharts />
      </Suspense>
    </PageContainer>
  );
}
