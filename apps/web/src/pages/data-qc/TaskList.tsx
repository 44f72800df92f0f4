import { ModalForm, ProFormSelect, ProTable } from '@ant-design/pro-components';
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { JobStatusBadge, jobTime as time } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { TwoLines } from '../../components/TwoLines';
import { pagingOf } from '../../components/table/paging';
import { qcApi, type Task, useCan } from './api';
import { QC_NS } from './i18n';

export function TaskStatus({ task }: { task: Task }) {
  return (
    <JobStatusBadge
      status={task.status}
      progress={task.progress}
      error={task.status === 'failed' ? task.error : null}
    />
  );
}

/** 质控任务: runs of the plans, newest first; the list refreshes itself while one is under way. */
export default function TaskList() {
  const { t } = useTranslation(QC_NS);
  const { message } = App.useApp();
  const can = useCan();
  const navigate = useNavigate();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const tasks = useJobPoll({
    queryKey: ['dataQc', 'tasks', page],
    queryFn: () => qcApi.tasks({ page: page.current, size: page.size }),
    underWay: (list) => list.items.some((x) => isUnderWay(x.status)),
  });

  return (
    <ProTable<Task>
      rowKey="id"
      headerTitle={t('tasks.title')}
      search={false}
      options={{ reload: () => tasks.refetch() }}
      loading={tasks.isLoading}
      dataSource={tasks.data?.items ?? []}
      pagination={pagingOf(page, tasks.data?.total, setPage)}
      toolBarRender={() =>
        can('DataQcTask.add')
          ? [
              <ModalForm<{ planId: number }>
                key="run"
                title={t('tasks.run')}
                width={480}
                trigger={<Button type="primary">{t('tasks.run')}</Button>}
                modalProps={{ destroyOnHidden: true }}
                onFinish={async (v) => {
                  try {
                    await qcApi.runPlan(v.planId);
                    message.success(t('plans.started'));
                    await tasks.refetch();
                    return true;
                  } catch (e) {
                    message.error((e as Error).message);
                    return false;
                  }
                }}
              >
                <ProFormSelect
                  name="planId"
                  label={t('tasks.plan')}
                  placeholder={t('tasks.pickPlan')}
                  rules={[{ required: true, message: t('tasks.pickPlan') }]}
                  request={async () => {
                    const r = await qcApi.plans({ page: 1, size: 200, enabled: 'true' });
                    return r.items.map((p) => ({ value: p.id, label: p.name }));
                  }}
                  fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
                />
              </ModalForm>,
            ]
          : []
      }
      columns={[
        { title: '#', dataIndex: 'id', width: 56 },
        { title: t('tasks.plan'), dataIndex: 'planName' },
        { title: t('tasks.status'), key: 'status', width: 170, render: (_, x) => <TaskStatus task={x} /> },
        {
          title: t('tasks.result'),
          key: 'result',
          width: 190,
          render: (_, x) => (
            <Space size={4} wrap split={<Typography.Text type="secondary">·</Typography.Text>}>
              <span>
                {t('tasks.resultRules', { count: x.rules })}
                {x.skipped > 0 && (
                  <Typography.Text type="secondary">
                    {' '}
                    ({t('tasks.skipped', { count: x.skipped })})
                  </Typography.Text>
                )}
              </span>
              <span>{t('tasks.resultChecked', { count: x.checked })}</span>
              <Typography.Text type={x.faults ? 'danger' : undefined}>
                {t('tasks.resultFaults', { count: x.faults })}
              </Typography.Text>
            </Space>
          ),
        },
        { title: t('tasks.createdBy'), dataIndex: 'createdByName', width: 90 },
        {
          title: `${t('tasks.createdAt')} / ${t('tasks.finishedAt')}`,
          key: 'time',
          width: 170,
          render: (_, x) => <TwoLines sub={time(x.finishedAt)}>{time(x.createdAt)}</TwoLines>,
        },
        {
          title: t('common.actions'),
          valueType: 'option',
          width: 130,
          render: (_, x) => (
            <Space size={0}>
              {x.status === 'succeeded' && can('DataQcReport.get') && (
                <Button type="link" size="small" onClick={() => navigate(`/data-qc/report?taskId=${x.id}`)}>
                  {t('tasks.report')}
                </Button>
              )}
              {can('DataQcTask.delete') && x.status !== 'queued' && x.status !== 'running' && (
                <Popconfirm
                  title={t('tasks.deleteConfirm', { id: x.id })}
                  onConfirm={async () => {
                    await qcApi.deleteTask(x.id);
                    message.success(t('common.deleted'));
                    await tasks.refetch();
                  }}
                >
                  <Button type="link" size="small" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
