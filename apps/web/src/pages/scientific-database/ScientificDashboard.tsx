import type { SciSnapshot } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Skeleton, Space, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { sciApi } from './api';
import { formatBytes, SnapshotStatus } from './common';
import { SCI_NS } from './i18n';

/** 科研数据看板 (`/scientific-database/scientific-data-dashboard`): the app's scientific database as a whole. */
export default function ScientificDashboard() {
  const { t } = useTranslation(SCI_NS);
  const q = useQuery({ queryKey: ['sci', 'overview'], queryFn: sciApi.overview });
  const o = q.data;
  const spec: ViewSpec = {
    subtype: 'column',
    channels: {
      x: [{ field: 'day', labelOverride: t('overview.day') }],
      y: [
        { field: 'ready', aggregate: 'sum', labelOverride: t('overview.ready') },
        { field: 'failed', aggregate: 'sum', labelOverride: t('overview.failed') },
      ],
    },
    palette: 'theme',
  };
  return (
    <Card title={t('overview.title')} data-testid="sci-overview">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('overview.hint')}</Typography.Text>
        {q.isError ? (
          <Alert type="error" showIcon message={q.error.message} />
        ) : !o ? (
          <Skeleton active />
        ) : (
          <>
            <Row gutter={[16, 16]}>
              {(
                [
                  ['tasks', o.tasks],
                  ['snapshots', o.snapshots],
                  ['ready', o.ready],
                  ['building', o.building],
                  ['failed', o.failed],
                  ['rows', o.rows],
                  ['variables', o.variables],
                ] as const
              ).map(([k, v]) => (
                <Col key={k} xs={12} md={6} xl={3}>
                  <Statistic title={t(`overview.${k}`)} value={v} />
                </Col>
              ))}
              <Col xs={12} md={6} xl={3}>
                <Statistic title={t('overview.bytes')} value={formatBytes(o.bytes)} />
              </Col>
            </Row>
            <Row gutter={[16, 16]}>
              <Col xs={24} xl={14}>
                <Card size="small" title={t('overview.byDay')}>
                  <ChartView
                    spec={spec}
                    rows={o.byDay}
                    locale={currentLocale()}
                    height={260}
                    testId="runs-by-day"
                  />
                </Card>
              </Col>
              <Col xs={24} xl={10}>
                <Card size="small" title={t('overview.bySubject')}>
                  <Table
                    size="small"
                    rowKey="subjectId"
                    pagination={false}
                    dataSource={o.bySubject}
                    columns={[
                      { title: t('overview.subject'), dataIndex: 'subjectName' },
                      { title: t('overview.snapshots'), dataIndex: 'snapshots', align: 'right' },
                      { title: t('runs.rows'), dataIndex: 'rows', align: 'right' },
                    ]}
                  />
                </Card>
              </Col>
            </Row>
            <Card size="small" title={t('overview.recent')}>
              <Table<SciSnapshot>
                size="small"
                rowKey="id"
                pagination={false}
                scroll={{ x: 'max-content' }}
                dataSource={o.recent}
                columns={[
                  { title: t('runs.task'), dataIndex: 'taskName' },
                  { title: t('overview.subject'), dataIndex: 'subjectName' },
                  { title: t('runs.version'), dataIndex: 'version', render: (v) => `v${v}` },
                  { title: t('runs.status'), key: 'status', render: (_, s) => <SnapshotStatus s={s} /> },
                  { title: t('runs.rows'), dataIndex: 'rowCount', align: 'right' },
                  {
                    title: t('runs.createdAt'),
                    key: 'at',
                    render: (_, s) => new Date(s.createdAt).toLocaleString(),
                  },
                  {
                    title: t('actions'),
                    key: 'open',
                    render: (_, s) =>
                      s.status === 'ready' && (
                        <Link to={`/scientific-database/dashboard?snapshot=${s.id}`}>
                          {t('dashboard.title')}
                        </Link>
                      ),
                  },
                ]}
              />
            </Card>
          </>
        )}
      </Space>
    </Card>
  );
}
