import type { RecordQcFault, RecordQcScore, RecordQcTask } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Badge, Button, Card, Empty, Progress, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { useCan } from '../data-qc/api';
import { recordQcApi } from './api';
import { RQC_NS } from './i18n';

const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '-');
const BADGE: Record<string, 'default' | 'processing' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** One task's results: scores per department, the faults with links to the patient's record, CSV. */
function TaskResult({ task }: { task: RecordQcTask }) {
  const { t } = useTranslation(RQC_NS);
  const word = useLabel();
  const can = useCan();
  const { message } = App.useApp();
  const [department, setDepartment] = useState<string | undefined>(undefined);
  const [page, setPage] = useState({ current: 1, size: 20 });
  const scores = useQuery({
    queryKey: ['recordQc', 'scores', task.id, task.finishedAt],
    queryFn: () => recordQcApi.scores(task.id),
  });
  const faults = useQuery({
    queryKey: ['recordQc', 'faults', task.id, task.finishedAt, department, page],
    queryFn: () => recordQcApi.faults({ task_id: task.id, department, page: page.current, size: page.size }),
  });
  const dept = (d: string) => d || t('tasks.noDepartment');
  return (
    <>
      <Card
        size="small"
        title={`${t('tasks.scores')} · ${task.planName}`}
        style={{ marginTop: 16 }}
        extra={
          can('RecordQcTask.export') && (
            <Button
              onClick={() => recordQcApi.download(task.id).catch((e: Error) => message.error(e.message))}
            >
              {t('tasks.exportCsv')}
            </Button>
          )
        }
      >
        <Typography.Paragraph type="secondary">{t('tasks.scoreHow')}</Typography.Paragraph>
        <Table<RecordQcScore>
          rowKey="department"
          size="small"
          data-testid="record-qc-scores"
          loading={scores.isLoading}
          dataSource={scores.data?.items ?? []}
          pagination={false}
          onRow={(r) => ({
            onClick: () => setDepartment(department === r.department ? undefined : r.department),
          })}
          rowClassName={(r) => (r.department === department ? 'ant-table-row-selected' : '')}
          columns={[
            { title: t('tasks.department'), dataIndex: 'department', render: dept },
            { title: t('tasks.visits'), dataIndex: 'visits' },
            { title: t('tasks.faultyVisits'), dataIndex: 'faultyVisits' },
            { title: t('tasks.faults'), dataIndex: 'faults' },
            { title: t('tasks.deducted'), dataIndex: 'deducted' },
            {
              title: t('tasks.score'),
              dataIndex: 'score',
              render: (s: number) => <Typography.Text strong>{s}</Typography.Text>,
            },
          ]}
        />
      </Card>
      <Card
        size="small"
        title={
          department !== undefined ? `${t('tasks.faultList')} · ${dept(department)}` : t('tasks.faultList')
        }
        style={{ marginTop: 16 }}
      >
        {faults.error && <Typography.Text type="danger">{faults.error.message}</Typography.Text>}
        <Table<RecordQcFault>
          rowKey="id"
          size="small"
          data-testid="record-qc-faults"
          loading={faults.isLoading}
          dataSource={faults.data?.items ?? []}
          pagination={{
            current: page.current,
            pageSize: page.size,
            total: faults.data?.total ?? 0,
            onChange: (current, size) => setPage({ current, size }),
          }}
          columns={[
            { title: t('tasks.department'), dataIndex: 'department', render: dept },
            {
              title: t('tasks.patient'),
              key: 'patient',
              render: (_, f) => `${f.patientName}（${f.mrn}）`,
            },
            { title: t('tasks.admitAt'), dataIndex: 'admitAt', render: time },
            { title: t('rules.check'), dataIndex: 'check', render: (c) => word('recordQcCheck', c) },
            {
              title: t('rules.severity'),
              dataIndex: 'severity',
              render: (s) => (
                <Tag color={s === 'error' ? 'red' : 'orange'}>{word('recordQcSeverity', s)}</Tag>
              ),
            },
            { title: t('tasks.points'), dataIndex: 'points' },
            { title: t('tasks.message'), dataIndex: 'message' },
            {
              title: t('tasks.document'),
              key: 'doc',
              render: (_, f) => (
                <Link
                  to={`/personalInformation/inHospitalView?id=${f.patientId}${f.documentId ? `&doc=${f.documentId}` : ''}`}
                >
                  {f.documentId ? t('tasks.openDocument') : t('tasks.openPatient')}
                </Link>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}

/** 病历质控任务: runs of the plans, newest first (refreshing while one runs), and the chosen task's results. */
export default function TaskList() {
  const { t } = useTranslation(RQC_NS);
  const word = useLabel();
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('task')) || null;
  const tasks = useJobPoll({
    queryKey: ['recordQc', 'tasks'],
    queryFn: recordQcApi.tasks,
    underWay: (list) => list.items.some((x) => isUnderWay(x.status)),
  });
  const task = tasks.data?.items.find((x) => x.id === chosen) ?? null;
  return (
    <>
      <Card title={t('tasks.title')}>
        {tasks.error && <Typography.Text type="danger">{tasks.error.message}</Typography.Text>}
        <Table<RecordQcTask>
          rowKey="id"
          size="small"
          data-testid="record-qc-tasks"
          loading={tasks.isLoading}
          dataSource={tasks.data?.items ?? []}
          pagination={{ pageSize: 10 }}
          rowClassName={(r) => (r.id === chosen ? 'ant-table-row-selected' : '')}
          columns={[
            { title: '#', dataIndex: 'id', width: 60 },
            { title: t('tasks.plan'), dataIndex: 'planName' },
            {
              title: t('tasks.status'),
              dataIndex: 'status',
              render: (s: string, r) =>
                s === 'running' ? (
                  <Space>
                    <Badge status="processing" text={word('jobStatus', s)} />
                    <Progress percent={r.progress} size="small" style={{ width: 80 }} />
                  </Space>
                ) : (
                  <Badge status={BADGE[s] ?? 'default'} text={word('jobStatus', s)} />
                ),
            },
            { title: t('tasks.visits'), dataIndex: 'visits' },
            { title: t('tasks.faults'), dataIndex: 'faults' },
            { title: t('tasks.created'), dataIndex: 'createdAt', render: time },
            { title: t('tasks.finished'), dataIndex: 'finishedAt', render: time },
            {
              title: t('common.actions'),
              key: 'open',
              render: (_, r) => (
                <Button
                  type="link"
                  disabled={!r.finishedAt}
                  onClick={() => setParams({ task: String(r.id) })}
                >
                  {t('tasks.open')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      {task?.finishedAt ? (
        <TaskResult key={task.id} task={task} />
      ) : (
        <Card style={{ marginTop: 16 }}>
          <Empty description={t('tasks.pick')} />
        </Card>
      )}
    </>
  );
}
