import { ModalForm, ProFormCheckbox, ProFormText, ProTable } from '@ant-design/pro-components';
import {
  CODING_NAME_MAX,
  CODING_SCREENS,
  type CodingKind,
  type CodingTask,
  type JobStatus,
} from '@crdp/core';
import { App, Button, Popconfirm, Progress, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { saveOrShow } from '../../components/form/server-errors';
import { JobStatusBadge } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { pagingOf } from '../../components/table/paging';
import { minuteColumn } from '../../components/table-columns';
import { codingApi, useCan } from './api';
import { CODING_NS } from './i18n';
import { CodingReviewScreen } from './Review';

/** Where a task is coded: disease and surgery have their own coding screen; lab and drug code on the task screen. */
export const CODING_PATHS: Record<CodingKind, { tasks: string; coding: string }> = {
  disease: { tasks: '/data-clean/disease-coding-task', coding: '/data-clean/disease-coding' },
  surgery: { tasks: '/data-clean/surgery-coding-task', coding: '/data-clean/surgery-coding' },
  lab: { tasks: '/data-clean/inspection-coding-task', coding: '/data-clean/inspection-coding-task' },
  drug: { tasks: '/data-clean/drug-coding-task', coding: '/data-clean/drug-coding-task' },
};

/** The dialog that starts a task (also the body of 新建手术编码任务). */
export function NewTaskForm({ kind, onMade }: { kind: CodingKind; onMade: (task: CodingTask) => unknown }) {
  const { t } = useTranslation(CODING_NS);
  const { message } = App.useApp();
  return (
    <ModalForm<{ name: string; onlyUnmapped: boolean }>
      title={t('tasks.add')}
      width={480}
      trigger={
        <Button type="primary" data-testid="coding-new-task">
          {t('tasks.add')}
        </Button>
      }
      modalProps={{ destroyOnHidden: true }}
      initialValues={{ name: `${dayjs().format('YYYY-MM-DD')}`, onlyUnmapped: true }}
      onFinish={(v) =>
        saveOrShow(message, async () => {
          const task = await codingApi.createTask(kind, v);
          message.success(t('tasks.started'));
          await onMade(task);
        })
      }
    >
      <ProFormText
        name="name"
        label={t('tasks.name')}
        rules={[
          { required: true, whitespace: true, message: t('tasks.nameRequired') },
          { max: CODING_NAME_MAX },
        ]}
      />
      <ProFormCheckbox name="onlyUnmapped">{t('tasks.onlyUnmapped')}</ProFormCheckbox>
    </ModalForm>
  );
}

export function TaskProgress({ task }: { task: CodingTask }) {
  const { t } = useTranslation(CODING_NS);
  if (task.status !== 'succeeded')
    // The contract types a coding task's status as any string; it is its job's status.
    return <JobStatusBadge status={task.status as JobStatus} progress={task.progress} error={task.error} />;
  const done = task.coded + task.noCode;
  return (
    <Space direction="vertical" size={0} style={{ width: '100%' }}>
      <Progress percent={task.terms ? Math.round((done / task.terms) * 100) : 100} size="small" />
      <Typography.Text type="secondary">
        {t('tasks.counts', { coded: task.coded, noCode: task.noCode, pending: task.pending })}
      </Typography.Text>
    </Space>
  );
}

/** 疾病/手术/检验/药品编码任务: the tasks of one kind, their job's progress and the coding done. */
export function CodingTaskList({ kind }: { kind: CodingKind }) {
  const { t } = useTranslation(CODING_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useCan();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const screen = CODING_SCREENS[kind];
  const [page, setPage] = useState({ current: 1, size: 20 });
  const tasks = useJobPoll({
    queryKey: ['coding', kind, 'tasks', page],
    queryFn: () => codingApi.tasks(kind, { page: page.current, size: page.size }),
    underWay: (list) => list.items.some((x) => isUnderWay(x.status)),
  });
  const kindName = word('codingKind', kind);
  // Lab and drug tasks are coded on this screen.
  if (screen.coding === screen.task && params.get('taskId')) return <CodingReviewScreen kind={kind} />;

  return (
    <ProTable<CodingTask>
      rowKey="id"
      headerTitle={t('tasks.title', { kind: kindName })}
      tooltip={t('tasks.hint')}
      search={false}
      options={{ reload: () => tasks.refetch() }}
      loading={tasks.isLoading}
      dataSource={tasks.data?.items ?? []}
      locale={{ emptyText: t('tasks.empty') }}
      pagination={pagingOf(page, tasks.data?.total, setPage)}
      toolBarRender={() =>
        can(`${screen.task}.add`)
          ? [<NewTaskForm key="add" kind={kind} onMade={() => tasks.refetch()} />]
          : []
      }
      columns={[
        { title: '#', dataIndex: 'id', width: 56 },
        { title: t('tasks.name'), dataIndex: 'name' },
        {
          title: word('codingKind', kind),
          key: 'terms',
          width: 170,
          render: (_, x) => t('tasks.terms', { count: x.terms, rows: x.rows }),
        },
        {
          title: t('tasks.progress'),
          key: 'progress',
          width: 260,
          render: (_, x) => <TaskProgress task={x} />,
        },
        { title: t('tasks.createdBy'), dataIndex: 'createdByName', width: 100 },
        minuteColumn(t('tasks.createdAt'), 'createdAt', 160),
        {
          title: '',
          valueType: 'option',
          width: 150,
          render: (_, x) => (
            <Space size={0}>
              {x.status === 'succeeded' && can(`${screen.coding}.edit`) && (
                <Button
                  type="link"
                  size="small"
                  data-testid={`coding-open-${x.id}`}
                  onClick={() => navigate(`${CODING_PATHS[kind].coding}?taskId=${x.id}`)}
                >
                  {t('tasks.open')}
                </Button>
              )}
              {can(`${screen.task}.delete`) && !isUnderWay(x.status) && (
                <Popconfirm
                  title={t('tasks.deleteConfirm', { name: x.name })}
                  onConfirm={async () => {
                    await codingApi.deleteTask(kind, x.id);
                    message.success(t('tasks.deleted'));
                    await tasks.refetch();
                  }}
                >
                  <Button type="link" size="small" danger>
                    {word('auditAction', 'coding.task.delete')}
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

export const DiseaseCodingTasks = () => <CodingTaskList kind="disease" />;
export const SurgeryCodingTasks = () => <CodingTaskList kind="surgery" />;
export const InspectionCodingTasks = () => <CodingTaskList kind="lab" />;
export const DrugCodingTasks = () => <CodingTaskList kind="drug" />;
