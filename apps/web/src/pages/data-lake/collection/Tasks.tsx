import { COLLECTION_BATCH_MAX, type CollectionRun, type CollectionTask } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, InputNumber, Progress, Select, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLabel } from '../../../app/labels';
import { Authorized, useHasAction } from '../../../components/Authorized';
import { DefinitionRowActions } from '../../../components/DefinitionsScreen';
import { saveThen } from '../../../components/form/server-errors';
import { JobStatusTag } from '../../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../../components/jobs/useJobPoll';
import { QueryTable } from '../../../components/table/QueryTable';
import { collectionApi } from './api';
import { COLLECTION_NS } from './i18n';
import { CollectionFormModal } from './parts';

const MENU = 'DataLakeCollectTaskList';
/** A watermark as people read it: a time in local time, an id as it is. */
export const watermarkText = (v: string | null) =>
  v === null ? '—' : /^\d{4}-\d{2}-\d{2}T/.test(v) ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : v;

/** A run's state: its status word, progress while it runs, its counts. */
export function RunState({ run }: { run: CollectionRun | null }) {
  const { t } = useTranslation(COLLECTION_NS);
  if (!run) return <Typography.Text type="secondary">{t('tasks.never')}</Typography.Text>;
  return (
    <Space direction="vertical" size={0}>
      <Space>
        <JobStatusTag status={run.status} />
        <Typography.Text type="secondary">
          {dayjs(run.finishedAt ?? run.startedAt ?? run.createdAt).format('MM-DD HH:mm')}
        </Typography.Text>
      </Space>
      {isUnderWay(run.status) && <Progress percent={run.progress} size="small" style={{ width: 160 }} />}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('tasks.counts', {
          read: run.rowsRead,
          inserted: run.rowsInserted,
          updated: run.rowsUpdated,
          rejected: run.rowsRejected,
        })}
      </Typography.Text>
      {run.error && <Typography.Text type="danger">{run.error}</Typography.Text>}
    </Space>
  );
}

/** 采集任务列表 (`/data-lake/collect-task-list`): tasks, run now, follow, cancel, test. */
export default function CollectTaskList() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useHasAction();
  const [form] = Form.useForm();
  const [editing, setEditing] = useState<CollectionTask | 'new' | null>(null);
  const existing = editing && editing !== 'new' ? editing : null;
  const list = useJobPoll({
    queryKey: ['collection-tasks'],
    queryFn: collectionApi.tasks,
    underWay: (d) => d.items.some((x) => isUnderWay(x.lastRun?.status)),
  });
  const templates = useQuery({
    queryKey: ['collection-templates'],
    queryFn: collectionApi.templates,
    enabled: !!editing,
  });

  const save = async () => {
    const v = await form.validateFields();
    const body = { name: v.name, templateIds: v.templateIds, batchSize: v.batchSize };
    await saveThen(
      message,
      () => (existing ? collectionApi.editTask(existing.id, body) : collectionApi.addTask(body)),
      t('common.saved'),
      () => {
        setEditing(null);
        return list.refetch();
      },
    );
  };

  return (
    <Card
      title={t('tasks.title')}
      data-testid="collect-task-list"
      extra={
        <Authorized apiId={`${MENU}.add`}>
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              form.setFieldsValue({ batchSize: 1000 });
              setEditing('new');
            }}
          >
            {t('tasks.add')}
          </Button>
        </Authorized>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('tasks.hint')}</Typography.Text>
        <QueryTable<CollectionTask>
          query={list}
          empty={t('tasks.empty')}
          rowKey="id"
          dataSource={list.data?.items ?? []}
          pagination={false}
          columns={[
            { title: t('common.name'), dataIndex: 'name' },
            {
              title: t('tasks.templates'),
              key: 'templates',
              render: (_, x) => (
                <Space direction="vertical" size={0}>
                  {x.templates.map((tp, i) => (
                    <Typography.Text key={tp.id}>
                      {i + 1}. {tp.name} → {word('cdrTable', tp.target)}
                      {x.watermarks[String(tp.id)] && (
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {' '}
                          ({t('tasks.watermark')}: {watermarkText(x.watermarks[String(tp.id)] ?? null)})
                        </Typography.Text>
                      )}
                    </Typography.Text>
                  ))}
                </Space>
              ),
            },
            { title: t('tasks.batchSize'), dataIndex: 'batchSize', align: 'right' },
            { title: t('tasks.lastRun'), key: 'last', render: (_, x) => <RunState run={x.lastRun} /> },
            {
              title: t('common.actions'),
              key: 'a',
              render: (_, x) => {
                const busy = isUnderWay(x.lastRun?.status);
                return (
                  <DefinitionRowActions
                    menu={MENU}
                    wrap
                    before={
                      <>
                        {can(MENU, 'edit') && !busy && (
                          <Button
                            type="link"
                            size="small"
                            data-testid="run-task"
                            onClick={async () => {
                              await collectionApi.run(x.id);
                              message.info(t('tasks.started'));
                              await list.refetch();
                            }}
                          >
                            {t('tasks.run')}
                          </Button>
                        )}
                        {can(MENU, 'edit') && busy && x.lastRun && (
                          <Button
                            type="link"
                            size="small"
                            danger
                            onClick={async () => {
                              await collectionApi.cancel(x.lastRun!.id);
                              message.info(t('tasks.cancelled'));
                              await list.refetch();
                            }}
                          >
                            {t('tasks.cancel')}
                          </Button>
                        )}
                        {can('DataLakeTaskTest', 'query') && (
                          <Link to={`/data-lake/task-test?taskId=${x.id}`}>
                            <Button type="link" size="small">
                              {t('tasks.test')}
                            </Button>
                          </Link>
                        )}
                        {x.lastRun && can('DataLakeCollectionDetail', 'get') && (
                          <Link to={`/data-lake/collection-detail?runId=${x.lastRun.id}`}>
                            <Button type="link" size="small" data-testid="run-detail">
                              {t('tasks.detail')}
                            </Button>
                          </Link>
                        )}
                      </>
                    }
                    editText={t('common.edit')}
                    onEdit={() => {
                      form.resetFields();
                      form.setFieldsValue({
                        name: x.name,
                        templateIds: x.templateIds,
                        batchSize: x.batchSize,
                      });
                      setEditing(x);
                    }}
                    name={x.name}
                    onDelete={() => collectionApi.removeTask(x.id)}
                    onDeleted={() => list.refetch()}
                  />
                );
              },
            },
          ]}
        />
      </Space>
      <CollectionFormModal
        open={!!editing}
        title={existing ? t('tasks.edit') : t('tasks.add')}
        onClose={() => setEditing(null)}
        onSave={save}
        form={form}
        formName="collectionTask"
        testId="task-form"
      >
        {templates.isError && <Alert type="error" showIcon message={templates.error.message} />}
        <Form.Item
          name="templateIds"
          label={t('tasks.templates')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select
            mode="multiple"
            loading={templates.isLoading}
            optionFilterProp="label"
            options={(templates.data?.items ?? []).map((x) => ({
              value: x.id,
              label: `${x.name} → ${word('cdrTable', x.target)}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="batchSize" label={t('tasks.batchSize')}>
          <InputNumber min={1} max={COLLECTION_BATCH_MAX} />
        </Form.Item>
      </CollectionFormModal>
    </Card>
  );
}
