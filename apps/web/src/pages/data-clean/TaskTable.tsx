import type { CleanedValue, CleaningTask } from '@crdp/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Progress, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { Authorized } from '../../components/Authorized';
import { DeleteLink } from '../../components/DeleteLink';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { Qualifiers, valueText } from './shared';

/** Stored values with their source document and sentence (task results, the patient's tab). */
export function ValuesTable({ values, loading }: { values: CleanedValue[]; loading?: boolean }) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  return (
    <Table<CleanedValue>
      data-testid="cleaned-values"
      size="small"
      rowKey="id"
      loading={loading}
      dataSource={values}
      pagination={false}
      columns={[
        { title: t('common.name'), render: (_, v) => `${v.name} (${v.code})` },
        {
          title: t('common.value'),
          render: (_, v) => (
            <Typography.Text strong>
              {valueText(v)} {v.unit}
            </Typography.Text>
          ),
        },
        {
          title: t('common.document'),
          render: (_, v) => `${v.documentTitle} · ${v.observedAt.slice(0, 10)}`,
        },
        { title: t('common.section'), render: (_, v) => word('cleaningSection', v.section) },
        {
          title: t('common.sentence'),
          render: (_, v) => {
            const a = v.spanStart - v.sentenceStart;
            const b = v.spanEnd - v.sentenceStart;
            return (
              <span>
                {v.sentence.slice(0, a)}
                <mark style={{ background: '#b7eb8f' }}>{v.sentence.slice(a, b)}</mark>
                {v.sentence.slice(b)}
              </span>
            );
          },
        },
        { title: '', render: (_, v) => <Qualifiers e={{ ...v, fault: v.fault || null }} /> },
      ]}
    />
  );
}

function TaskValues({ task, onClose }: { task: CleaningTask; onClose: () => void }) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const [page, setPage] = useState(1);
  const [faultsOnly, setFaultsOnly] = useState(false);
  const q = useQuery({
    queryKey: ['cleaning', 'values', task.id, page, faultsOnly],
    queryFn: () => cleaningApi.taskValues(task.id, { page, size: 50, faultsOnly }),
  });
  return (
    <Drawer open width="80%" title={task.name} onClose={onClose}>
      <Space style={{ marginBottom: 12 }}>
        <Switch checked={faultsOnly} onChange={setFaultsOnly} /> {t('tasks.faultsOnly')}
      </Space>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      <ValuesTable values={q.data?.items ?? []} loading={q.isLoading} />
      {q.data && q.data.total > 50 && (
        <Space style={{ marginTop: 12 }}>
          <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
            ‹
          </Button>
          {page} / {Math.ceil(q.data.total / 50)}
          <Button disabled={page * 50 >= q.data.total} onClick={() => setPage(page + 1)}>
            ›
          </Button>
        </Space>
      )}
    </Drawer>
  );
}

/** Cleaning tasks with status and progress (asked every second while one is under way). */
export function TaskTable() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const word = useLabel();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<CleaningTask | null>(null);
  const tasks = useJobPoll({
    queryKey: ['cleaning', 'tasks', page],
    queryFn: () => cleaningApi.tasks({ page, size: 20 }),
    underWay: (d) => d.items.some((x) => isUnderWay(x.status)),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['cleaning', 'tasks'] });
  const act = useMutation({
    mutationFn: (v: { id: number; what: 'rerun' | 'cancel' }) =>
      v.what === 'rerun' ? cleaningApi.rerun(v.id) : cleaningApi.cancel(v.id),
    onSuccess: refresh,
  });
  return (
    <>
      {(tasks.error || act.error) && (
        <Alert type="error" showIcon message={(tasks.error ?? act.error)!.message} />
      )}
      <Table<CleaningTask>
        data-testid="cleaning-tasks"
        rowKey="id"
        size="small"
        loading={tasks.isLoading}
        dataSource={tasks.data?.items ?? []}
        pagination={{ current: page, pageSize: 20, total: tasks.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: t('tasks.name'), dataIndex: 'name' },
          { title: t('common.rules'), render: (_, x) => x.rules.map((r) => r.name).join('、') },
          {
            title: t('tasks.status'),
            render: (_, x) => (
              <span data-testid={`task-status-${x.id}`} data-status={x.status}>
                {word('jobStatus', x.status)}
                {x.error ? <Typography.Text type="danger"> {x.error}</Typography.Text> : null}
              </span>
            ),
          },
          {
            title: t('tasks.progress'),
            render: (_, x) => <Progress percent={x.status === 'succeeded' ? 100 : x.progress} size="small" />,
          },
          { title: t('tasks.documents'), dataIndex: 'documents' },
          { title: t('tasks.values'), dataIndex: 'values' },
          { title: t('tasks.faults'), dataIndex: 'faults' },
          { title: t('tasks.createdBy'), dataIndex: 'createdByName' },
          { title: t('tasks.createdAt'), render: (_, x) => x.createdAt.slice(0, 16).replace('T', ' ') },
          {
            title: '',
            render: (_, x) => (
              <Space>
                <Authorized apiId="DataCleanTasksList.get">
                  <Button type="link" size="small" onClick={() => setOpen(x)}>
                    {t('tasks.view')}
                  </Button>
                </Authorized>
                <Authorized apiId="DataCleanTasksList.edit">
                  {isUnderWay(x.status) ? (
                    <Button type="link" size="small" onClick={() => act.mutate({ id: x.id, what: 'cancel' })}>
                      {t('tasks.cancel')}
                    </Button>
                  ) : (
                    <Button type="link" size="small" onClick={() => act.mutate({ id: x.id, what: 'rerun' })}>
                      {t('tasks.rerun')}
                    </Button>
                  )}
                </Authorized>
                {!isUnderWay(x.status) && (
                  <Authorized apiId="DataCleanTasksList.delete">
                    <DeleteLink
                      name={x.name}
                      onDelete={() => cleaningApi.deleteTask(x.id)}
                      onDeleted={refresh}
                    />
                  </Authorized>
                )}
              </Space>
            ),
          },
        ]}
      />
      {open && <TaskValues task={open} onClose={() => setOpen(null)} />}
    </>
  );
}
