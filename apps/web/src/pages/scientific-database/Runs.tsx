import type { SciSnapshot } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Select, Space, Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useHasAction } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { pollInterval } from '../../components/jobs/useJobPoll';
import { sciApi } from './api';
import { formatBytes, SnapshotStatus } from './common';
import { SCI_NS } from './i18n';

/** 数据转换任务 (`/scientific-database/data-transform-task`): every run, with its progress while building. */
export default function Runs() {
  const { t } = useTranslation(SCI_NS);
  const can = useHasAction();
  const [params, setParams] = useSearchParams();
  const taskId = Number(params.get('task')) || undefined;
  const tasks = useQuery({ queryKey: ['sci', 'tasks'], queryFn: sciApi.tasks });
  const list = useQuery({
    queryKey: ['sci', 'snapshots', taskId],
    queryFn: () => sciApi.snapshots({ taskId }),
    refetchInterval: (q) => pollInterval(q.state, (d) => d.items.some((s) => s.status === 'building')),
  });
  return (
    <Card
      title={t('runs.title')}
      data-testid="sci-runs"
      extra={
        <Space>
          <Select
            allowClear
            style={{ minWidth: 220 }}
            placeholder={t('runs.allTasks')}
            value={taskId}
            onChange={(v?: number) => setParams(v ? { task: String(v) } : {})}
            options={(tasks.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
          />
          <Button onClick={() => list.refetch()}>{t('reload')}</Button>
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('runs.hint')}</Typography.Text>
        {list.isError ? (
          <Alert type="error" showIcon message={list.error.message} />
        ) : (
          <Table<SciSnapshot>
            rowKey="id"
            loading={list.isLoading}
            dataSource={list.data?.items ?? []}
            pagination={{ pageSize: 20 }}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('runs.empty')} /> }}
            columns={[
              { title: t('runs.task'), dataIndex: 'taskName' },
              { title: t('runs.version'), dataIndex: 'version', render: (v) => `v${v}` },
              {
                title: t('runs.status'),
                key: 'status',
                render: (_, s) =>
                  s.status === 'failed' && s.error ? (
                    <Tooltip title={`${t('runs.error')}: ${s.error}`}>
                      <span>
                        <SnapshotStatus s={s} />
                      </span>
                    </Tooltip>
                  ) : (
                    <SnapshotStatus s={s} />
                  ),
              },
              { title: t('runs.rows'), dataIndex: 'rowCount', align: 'right' },
              { title: t('runs.columns'), dataIndex: 'columnCount', align: 'right' },
              {
                title: t('runs.size'),
                key: 'size',
                align: 'right',
                render: (_, s) => (s.status === 'ready' ? formatBytes(s.sizeBytes) : ''),
              },
              {
                title: t('runs.sha256'),
                key: 'sha',
                render: (_, s) =>
                  s.sha256 ? (
                    <Typography.Text code copyable={{ text: s.sha256 }}>
                      {s.sha256.slice(0, 12)}
                    </Typography.Text>
                  ) : (
                    ''
                  ),
              },
              {
                title: t('runs.buildTime'),
                key: 'ms',
                align: 'right',
                render: (_, s) => (s.status === 'building' ? '' : `${(s.buildMs / 1000).toFixed(1)} s`),
              },
              { title: t('runs.createdBy'), dataIndex: 'createdByName' },
              {
                title: t('runs.createdAt'),
                key: 'at',
                render: (_, s) => new Date(s.createdAt).toLocaleString(),
              },
              {
                title: t('actions'),
                key: 'actions',
                render: (_, s) => (
                  <Space size="small">
                    {s.status === 'ready' && (
                      <>
                        <Link to={`/scientific-database/preview?snapshot=${s.id}`}>{t('runs.preview')}</Link>
                        <Link to={`/scientific-database/details?snapshot=${s.id}`}>{t('runs.details')}</Link>
                      </>
                    )}
                    {can('DatabasesDataTransformTask', 'delete') && (
                      <DeleteLink
                        name={`${s.taskName} v${s.version}`}
                        onDelete={() => sciApi.removeSnapshot(s.id)}
                        onDeleted={() => list.refetch()}
                      />
                    )}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}
