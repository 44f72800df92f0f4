import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { downloadWithSession } from '../crf/download';
import { databaseApi } from './api';
import { ADMIN_NS } from './i18n';

/**
 * `/system/exportDatabase`: this hospital's data as a ZIP of CSV files (one per table, its rows
 * only). Whole-site backups hold every hospital's data and stay with the operator's commands.
 */
export default function ExportDatabase() {
  const { t, i18n } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [busy, setBusy] = useState(false);
  const summary = useQuery({ queryKey: ['admin', 'database'], queryFn: databaseApi.summary });
  const data = summary.data;
  if (!data) return <Spin style={{ display: 'block', margin: 48 }} />;

  const start = async () => {
    setBusy(true);
    try {
      const stamp = new Date().toISOString().slice(0, 10);
      await downloadWithSession('/api/v0.1/system/database/export', `crdp-${data.app.id}-${stamp}.zip`);
      message.success(t('exportDb.done'));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title={t('exportDb.title')}
        extra={
          can('SystemExportDatabase', 'export') && (
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              loading={busy}
              onClick={start}
              data-testid="export-db"
            >
              {t('exportDb.export')}
            </Button>
          )
        }
      >
        <Typography.Paragraph type="secondary">{t('exportDb.intro')}</Typography.Paragraph>
        {busy && (
          <Alert type="info" showIcon message={t('exportDb.exporting')} style={{ marginBottom: 16 }} />
        )}
        <Descriptions column={{ xs: 1, md: 3 }} bordered size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('exportDb.hospital')}>{data.app.name}</Descriptions.Item>
          <Descriptions.Item label={t('exportDb.engine')}>{t(`exportDb.${data.engine}`)}</Descriptions.Item>
          <Descriptions.Item label={t('exportDb.totalRows')}>
            <span data-testid="export-db-total">{data.totalRows.toLocaleString()}</span>
          </Descriptions.Item>
        </Descriptions>
        <Table
          rowKey="name"
          size="small"
          data-testid="export-db-tables"
          pagination={false}
          dataSource={data.tables}
          columns={[
            { title: t('exportDb.table'), dataIndex: 'name', render: (v: string) => <code>{v}.csv</code> },
            {
              title: t('exportDb.rows'),
              dataIndex: 'rows',
              align: 'right',
              sorter: (a, b) => a.rows - b.rows,
              render: (v: number) => v.toLocaleString(),
            },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
          {t('exportDb.leftOut', { tables: new Intl.ListFormat(i18n.language).format(data.leftOut) })}{' '}
          {t('exportDb.consistency')}
        </Typography.Paragraph>
      </Card>
      <Alert
        type="warning"
        showIcon
        message={t('exportDb.backupTitle')}
        description={t(data.engine === 'embedded' ? 'exportDb.backupEmbedded' : 'exportDb.backupPostgres')}
      />
    </Space>
  );
}
