import type { CollectionReject, CollectionUnitTest } from '@crdp/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, InputNumber, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLabel } from '../../../app/labels';
import { collectionApi } from './api';
import { COLLECTION_NS } from './i18n';

const cell = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Refused rows: key, field, reason and the row as read. */
export function RejectTable({
  rows,
  loading,
  extra,
}: {
  rows: CollectionReject[];
  loading?: boolean;
  extra?: object;
}) {
  const { t } = useTranslation(COLLECTION_NS);
  return (
    <Table
      size="small"
      rowKey={(r, i) => `${r.key}-${i}`}
      loading={loading}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('test.noRejected')} /> }}
      data-testid="reject-table"
      {...extra}
      columns={[
        { title: t('common.key'), dataIndex: 'key' },
        { title: t('common.field'), dataIndex: 'field' },
        {
          title: t('common.reason'),
          dataIndex: 'message',
          render: (m: string) => <Typography.Text type="danger">{m}</Typography.Text>,
        },
        {
          title: t('common.sourceRow'),
          dataIndex: 'row',
          render: (r: Record<string, unknown>) => (
            <Typography.Text code style={{ whiteSpace: 'pre-wrap' }}>
              {Object.entries(r)
                .map(([k, v]) => `${k}=${cell(v)}`)
                .join(', ')}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

/** What a template made of the rows: mapped values per CDR field, and the refused rows. */
function UnitResult({ result }: { result: CollectionUnitTest }) {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const fields = [...new Set(result.mapped.flatMap((m) => Object.keys(m.values)))];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Tag>{t('test.read', { count: result.read })}</Tag>
        <Tag color="green">
          {t('test.mapped')} {result.mapped.length}
        </Tag>
        <Tag color={result.rejected.length ? 'red' : 'default'}>
          {t('test.rejected')} {result.rejected.length}
        </Tag>
      </Space>
      <Tabs
        items={[
          {
            key: 'mapped',
            label: `${t('test.mapped')} (${result.mapped.length})`,
            children: (
              <Table
                size="small"
                rowKey="key"
                dataSource={result.mapped}
                pagination={false}
                scroll={{ x: 'max-content' }}
                locale={{ emptyText: <Empty description={t('test.noMapped')} /> }}
                data-testid="mapped-table"
                columns={[
                  { title: t('common.key'), dataIndex: 'key' },
                  ...fields.map((f) => ({
                    title: word('cdrField', f),
                    key: f,
                    render: (_: unknown, m: (typeof result.mapped)[number]) => cell(m.values[f]),
                  })),
                ]}
              />
            ),
          },
          {
            key: 'rejected',
            label: `${t('test.rejected')} (${result.rejected.length})`,
            children: <RejectTable rows={result.rejected} />,
          },
        ]}
      />
    </Space>
  );
}

function useTemplateParam() {
  const [params] = useSearchParams();
  const id = Number(params.get('templateId'));
  const template = useQuery({
    queryKey: ['collection-template', id],
    queryFn: () => collectionApi.template(id),
    enabled: Number.isInteger(id) && id > 0,
  });
  return {
    id: Number.isInteger(id) && id > 0 ? id : null,
    template,
    keys: params.get('keys')?.split(',').filter(Boolean),
  };
}

/** 单元测试 (`/data-lake/unit-test?templateId=`): a template over the first N rows, or the rows picked, without writing. */
export function UnitTest() {
  const { t } = useTranslation(COLLECTION_NS);
  const { id, template, keys } = useTemplateParam();
  const [limit, setLimit] = useState(20);
  const test = useMutation({
    mutationFn: () => collectionApi.unitTest(id!, keys?.length ? { keys } : { limit }),
  });
  if (!id) return <Alert type="warning" showIcon message={t('common.noTemplate')} />;
  return (
    <Card
      title={`${t('test.unitTitle')} · ${template.data?.name ?? ''}`}
      data-testid="unit-test"
      extra={<Link to="/data-lake/task-config">{t('common.back')}</Link>}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('test.unitHint')}</Typography.Text>
        {template.isError && <Alert type="error" showIcon message={template.error.message} />}
        <Space>
          {keys?.length ? (
            <Tag>{keys.join(', ')}</Tag>
          ) : (
            <>
              {t('test.limit')}
              <InputNumber min={1} max={500} value={limit} onChange={(v) => setLimit(v ?? 20)} />
            </>
          )}
          <Button
            type="primary"
            loading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="run-unit-test"
          >
            {t('test.run')}
          </Button>
        </Space>
        {test.isError && (
          <Alert type="error" showIcon message={test.error.message} data-testid="unit-test-error" />
        )}
        {test.data && <UnitResult result={test.data} />}
      </Space>
    </Card>
  );
}

/** 选择测试 (`/data-lake/chosse-test?templateId=`): pick source rows, then map just those. */
export function ChosseTest() {
  const { t } = useTranslation(COLLECTION_NS);
  const { id, template } = useTemplateParam();
  const [picked, setPicked] = useState<string[]>([]);
  const sample = useQuery({
    queryKey: ['collection-sample', id],
    queryFn: () => collectionApi.sample(id!, 50),
    enabled: !!id,
  });
  const test = useMutation({ mutationFn: () => collectionApi.unitTest(id!, { keys: picked }) });
  if (!id) return <Alert type="warning" showIcon message={t('common.noTemplate')} />;
  return (
    <Card
      title={`${t('test.chooseTitle')} · ${template.data?.name ?? ''}`}
      data-testid="chosse-test"
      extra={<Link to="/data-lake/task-config">{t('common.back')}</Link>}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('test.chooseHint')}</Typography.Text>
        {sample.isError ? (
          <Alert type="error" showIcon message={sample.error.message} data-testid="sample-error" />
        ) : (
          <Table
            size="small"
            rowKey={(_, i) => sample.data?.keys[i ?? 0] ?? String(i)}
            loading={sample.isLoading}
            dataSource={sample.data?.rows ?? []}
            pagination={false}
            scroll={{ x: 'max-content', y: 360 }}
            rowSelection={{ selectedRowKeys: picked, onChange: (k) => setPicked(k.map(String)) }}
            data-testid="sample-table"
            columns={(sample.data?.columns ?? []).map((c) => ({ title: c, dataIndex: c, render: cell }))}
          />
        )}
        <Button
          type="primary"
          disabled={!picked.length}
          loading={test.isPending}
          onClick={() => test.mutate()}
          data-testid="run-chosen"
        >
          {t('test.runChosen', { count: picked.length })}
        </Button>
        {test.isError && <Alert type="error" showIcon message={test.error.message} />}
        {test.data && <UnitResult result={test.data} />}
      </Space>
    </Card>
  );
}

/** 任务测试 (`/data-lake/task-test?taskId=`): every template of the task dry-run after its watermark. */
export function TaskTest() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const [params] = useSearchParams();
  const id = Number(params.get('taskId'));
  const [limit, setLimit] = useState(500);
  const test = useMutation({ mutationFn: () => collectionApi.taskTest(id, limit) });
  if (!Number.isInteger(id) || id <= 0) return <Alert type="warning" showIcon message={t('common.noTask')} />;
  return (
    <Card
      title={t('test.taskTitle')}
      data-testid="task-test"
      extra={<Link to="/data-lake/collect-task-list">{t('common.back')}</Link>}
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('test.taskHint')}</Typography.Text>
        <Space>
          {t('test.limit')}
          <InputNumber min={1} max={5000} value={limit} onChange={(v) => setLimit(v ?? 500)} />
          <Button
            type="primary"
            loading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="run-task-test"
          >
            {t('test.run')}
          </Button>
        </Space>
        {test.isError && <Alert type="error" showIcon message={test.error.message} />}
        {test.data && (
          <Table
            size="small"
            rowKey="templateId"
            dataSource={test.data.templates}
            pagination={false}
            scroll={{ x: 'max-content' }}
            data-testid="task-test-table"
            expandable={{
              expandedRowRender: (r) => <RejectTable rows={r.rejected} />,
              rowExpandable: (r) => r.rejected.length > 0,
            }}
            columns={[
              { title: t('test.template'), dataIndex: 'name' },
              { title: t('config.target'), key: 'target', render: (_, r) => word('cdrTable', r.target) },
              { title: t('test.pending'), dataIndex: 'pending', align: 'right' },
              { title: t('monitor.read'), dataIndex: 'read', align: 'right' },
              { title: t('test.mapped'), dataIndex: 'mapped', align: 'right' },
              {
                title: t('test.rejected'),
                key: 'rej',
                align: 'right',
                render: (_, r) => (r.rejected.length ? <Tag color="red">{r.rejected.length}</Tag> : 0),
              },
            ]}
          />
        )}
      </Space>
    </Card>
  );
}
