import { PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormCheckbox, ProFormText } from '@ant-design/pro-components';
import {
  type JobStatus,
  OBSERVATION_DOMAINS,
  type ObservationDomain,
  type ObservationRun,
  type ObservationTask,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Empty, Progress, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel, useLabelOptions } from '../../app/labels';
import { Authorized, useHasAction } from '../../components/Authorized';
import { JobStatusTag, jobTime as time } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { RefreshingDeleteLink } from '../../components/RefreshingDeleteLink';
import { useFirstExpanded } from '../../components/table/useFirstExpanded';
import { observationApi } from './api';
import { OBS_NS } from './i18n';

const PERM = 'ObservationTransformTask';

function RunCounts({ run }: { run: ObservationRun }) {
  const { t } = useTranslation(OBS_NS);
  const word = useLabel();
  if (run.status === 'failed')
    return <Alert type="error" showIcon message={t('tasks.failed', { error: run.error ?? '' })} />;
  if (!run.counts)
    return <Progress percent={run.progress} size="small" status="active" style={{ maxWidth: 240 }} />;
  return (
    <Space wrap size={[4, 4]}>
      {OBSERVATION_DOMAINS.filter((d) => run.counts?.[d])
        .map((d) => [d, run.counts![d]!] as const)
        .map(([d, c]) => (
          <Tag key={d} data-testid={`run-${run.id}-${d}`}>
            {word('observationDomain', d)}: {t('tasks.changed', c)}
          </Tag>
        ))}
    </Space>
  );
}

function TaskRuns({ task }: { task: ObservationTask }) {
  const { t } = useTranslation(OBS_NS);
  const word = useLabel();
  const runs = useQuery({
    queryKey: ['observation', 'runs', task.id, task.lastRun?.id, task.lastRun?.status],
    queryFn: () => observationApi.runs(task.id),
  });
  return (
    <Table<ObservationRun>
      size="small"
      rowKey="id"
      loading={runs.isLoading}
      dataSource={runs.data?.items ?? []}
      pagination={{ pageSize: 5, hideOnSinglePage: true, size: 'small' }}
      columns={[
        { title: t('tasks.created'), dataIndex: 'createdAt', width: 170, render: (v: string) => time(v) },
        {
          title: t('tasks.mode'),
          dataIndex: 'mode',
          width: 90,
          render: (m: string) => word('observationRunMode', m),
        },
        {
          title: t('tasks.status'),
          dataIndex: 'status',
          width: 100,
          render: (s: JobStatus) => <JobStatusTag status={s} />,
        },
        { title: t('tasks.counts'), key: 'counts', render: (_, r) => <RunCounts run={r} /> },
        {
          title: t('tasks.finished'),
          dataIndex: 'finishedAt',
          width: 170,
          render: (v: string | null) => time(v),
        },
      ]}
    />
  );
}

function TaskForm({
  task,
  trigger,
  onDone,
}: {
  task?: ObservationTask;
  trigger: JSX.Element;
  onDone: () => Promise<unknown>;
}) {
  const { t } = useTranslation(OBS_NS);
  const { message } = App.useApp();
  const domainOptions = useLabelOptions('observationDomain');
  return (
    <ModalForm<{ name: string; domains: ObservationDomain[] }>
      title={task ? t('tasks.edit') : t('tasks.add')}
      width={520}
      modalProps={{ destroyOnHidden: true }}
      initialValues={
        task ? { name: task.name, domains: task.domains } : { domains: [...OBSERVATION_DOMAINS] }
      }
      trigger={trigger}
      onFinish={async (v) => {
        try {
          if (task) await observationApi.updateTask(task.id, v);
          else await observationApi.createTask(v);
          message.success(t('tasks.saved'));
          await onDone();
          return true;
        } catch {
          return false;
        }
      }}
    >
      <ProFormText
        name="name"
        label={t('tasks.name')}
        rules={[{ required: true, whitespace: true, max: 60 }]}
      />
      <ProFormCheckbox.Group
        name="domains"
        label={t('tasks.domains')}
        options={domainOptions}
        rules={[{ required: true, type: 'array', min: 1 }]}
      />
    </ModalForm>
  );
}

/** transform-task: tasks that turn the CDR into the observation store, run as jobs, incremental after the first run. */
export default function TransformTasks() {
  const { t } = useTranslation(OBS_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const tasks = useJobPoll({
    queryKey: ['observation', 'tasks'],
    queryFn: () => observationApi.tasks(),
    underWay: (list) => list.items.some((x) => isUnderWay(x.lastRun?.status)),
  });
  const items = tasks.data?.items ?? [];
  const rows = useFirstExpanded(items);
  const start = async (task: ObservationTask, full: boolean) => {
    try {
      await observationApi.run(task.id, { full });
      message.success(t('tasks.started'));
      rows.open(task.id);
    } finally {
      await tasks.refetch();
    }
  };

  return (
    <Card
      title={t('tasks.title')}
      extra={
        <Authorized apiId={`${PERM}.add`}>
          <TaskForm
            onDone={tasks.refetch}
            trigger={
              <Button type="primary" icon={<PlusOutlined />} data-testid="obs-task-add">
                {t('tasks.add')}
              </Button>
            }
          />
        </Authorized>
      }
    >
      <Typography.Paragraph type="secondary">{t('tasks.hint')}</Typography.Paragraph>
      <Descriptions
        size="small"
        bordered
        column={6}
        title={t('tasks.store')}
        style={{ marginBottom: 16 }}
        data-testid="obs-store"
      >
        {OBSERVATION_DOMAINS.map((d) => (
          <Descriptions.Item key={d} label={word('observationDomain', d)}>
            <span data-testid={`store-${d}`}>{(tasks.data?.store[d] ?? 0).toLocaleString()}</span>
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Table<ObservationTask>
        rowKey="id"
        loading={tasks.isLoading}
        dataSource={items}
        pagination={false}
        locale={{ emptyText: <Empty description={t('tasks.empty')} /> }}
        expandable={{
          expandedRowKeys: rows.expandedRowKeys,
          onExpandedRowsChange: rows.onExpandedRowsChange,
          expandedRowRender: (task) => <TaskRuns task={task} />,
        }}
        columns={[
          { title: t('tasks.name'), dataIndex: 'name' },
          {
            title: t('tasks.domains'),
            dataIndex: 'domains',
            render: (ds: ObservationDomain[]) => (
              <Space wrap size={[4, 4]}>
                {ds.map((d) => (
                  <Tag key={d}>{word('observationDomain', d)}</Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t('tasks.lastRun'),
            key: 'last',
            width: 260,
            render: (_, r) =>
              r.lastRun ? (
                <Space>
                  <JobStatusTag status={r.lastRun.status} testId={`obs-status-${r.id}`} />
                  {isUnderWay(r.lastRun.status) ? (
                    <Progress percent={r.lastRun.progress} size="small" style={{ width: 90 }} />
                  ) : (
                    <Typography.Text type="secondary">{time(r.lastRun.finishedAt)}</Typography.Text>
                  )}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('tasks.never')}</Typography.Text>
              ),
          },
          { title: t('tasks.creator'), dataIndex: 'createdByName', width: 110 },
          {
            title: '',
            key: 'op',
            width: 280,
            render: (_, r) => {
              const busy = isUnderWay(r.lastRun?.status);
              return (
                <Space size={0}>
                  {can(PERM, 'edit') && (
                    <>
                      <Button
                        size="small"
                        type="link"
                        icon={<PlayCircleOutlined />}
                        disabled={busy}
                        onClick={() => start(r, false)}
                        data-testid={`obs-run-${r.id}`}
                      >
                        {t('tasks.run')}
                      </Button>
                      {r.hasWatermark && (
                        <Button size="small" type="link" disabled={busy} onClick={() => start(r, true)}>
                          {t('tasks.runFull')}
                        </Button>
                      )}
                      <TaskForm
                        task={r}
                        onDone={tasks.refetch}
                        trigger={
                          <Button size="small" type="link">
                            {t('tasks.edit')}
                          </Button>
                        }
                      />
                    </>
                  )}
                  {can(PERM, 'delete') && !busy && (
                    <RefreshingDeleteLink
                      title={t('tasks.confirmDelete', { name: r.name })}
                      text={t('tasks.delete')}
                      onDelete={() => observationApi.removeTask(r.id)}
                      onDone={tasks.refetch}
                    />
                  )}
                </Space>
              );
            },
          },
        ]}
      />
    </Card>
  );
}
