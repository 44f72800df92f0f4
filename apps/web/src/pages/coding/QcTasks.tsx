import { ModalForm, ProFormDigit, ProFormSelect, ProTable } from '@ant-design/pro-components';
import { CODING_KINDS, type CodingAgreement, type CodingKind, type CodingReviewBatch } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Progress, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLabel } from '../../app/labels';
import { saveOrShow } from '../../components/form/server-errors';
import { minuteColumn } from '../../components/table-columns';
import { codingApi, useCan } from './api';
import { CODING_NS } from './i18n';

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

/** 编码质控 · 编码任务: review batches (a sample or all of a coder's or task's mappings) and agreement per coder and task. */
export default function CodingQcTasks() {
  const { t } = useTranslation(CODING_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useCan();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<CodingKind>('disease');
  const batches = useQuery({
    queryKey: ['coding', 'qc', 'batches', page],
    queryFn: () => codingApi.batches({ page, size: 20 }),
  });
  const agreement = useQuery({ queryKey: ['coding', 'qc', 'agreement'], queryFn: codingApi.agreement });
  const reload = () => Promise.all([batches.refetch(), agreement.refetch()]);

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <ProTable<CodingReviewBatch>
        rowKey="id"
        headerTitle={t('qc.batches')}
        search={false}
        options={{ reload }}
        loading={batches.isLoading}
        dataSource={batches.data?.items ?? []}
        pagination={{ current: page, pageSize: 20, total: batches.data?.total ?? 0, onChange: setPage }}
        toolBarRender={() =>
          can('CodingQcTask.add')
            ? [
                <ModalForm<{ kind: CodingKind; taskId?: number; samplePercent: number }>
                  key="add"
                  title={t('qc.addBatch')}
                  width={480}
                  trigger={
                    <Button type="primary" data-testid="coding-qc-add">
                      {t('qc.addBatch')}
                    </Button>
                  }
                  modalProps={{ destroyOnHidden: true }}
                  initialValues={{ kind: 'disease', samplePercent: 100 }}
                  onValuesChange={(v) => v.kind && setKind(v.kind)}
                  onFinish={(v) =>
                    saveOrShow(message, async () => {
                      const made = await codingApi.createBatch({
                        kind: v.kind,
                        taskId: v.taskId ?? null,
                        samplePercent: v.samplePercent,
                      });
                      const drawn = await codingApi.reviews({ page: 1, size: 1, batchId: made.id });
                      message.success(t('qc.sampled', { count: drawn.total }));
                      await reload();
                    })
                  }
                >
                  <ProFormSelect
                    name="kind"
                    label={t('qc.kind')}
                    options={CODING_KINDS.map((k) => ({ value: k, label: word('codingKind', k) }))}
                    allowClear={false}
                  />
                  <ProFormSelect
                    name="taskId"
                    label={t('qc.task')}
                    placeholder={t('qc.anyTask')}
                    params={{ kind }}
                    request={async ({ kind: k }) =>
                      (await codingApi.tasks(k as CodingKind, { page: 1, size: 100 })).items.map((x) => ({
                        value: x.id,
                        label: `#${x.id} ${x.name}`,
                      }))
                    }
                  />
                  <ProFormDigit name="samplePercent" label={t('qc.samplePercent')} min={1} max={100} />
                </ModalForm>,
              ]
            : []
        }
        columns={[
          { title: '#', dataIndex: 'id', width: 56 },
          { title: t('qc.kind'), key: 'kind', width: 100, render: (_, b) => word('codingKind', b.kind) },
          { title: t('qc.task'), key: 'task', render: (_, b) => b.taskName || t('qc.anyTask') },
          { title: t('qc.samplePercent'), dataIndex: 'samplePercent', width: 100 },
          {
            title: `${t('qc.reviewed')} / ${t('qc.size')}`,
            key: 'progress',
            width: 200,
            render: (_, b) => (
              <Progress
                percent={b.size ? Math.round((b.reviewed / b.size) * 100) : 0}
                format={() => `${b.reviewed}/${b.size}`}
                size="small"
              />
            ),
          },
          {
            title: t('qc.rate'),
            key: 'rate',
            width: 90,
            render: (_, b) => pct(b.reviewed ? b.agreed / b.reviewed : null),
          },
          { title: t('qc.createdBy'), dataIndex: 'createdByName', width: 100 },
          minuteColumn(t('qc.createdAt'), 'createdAt', 150),
          {
            title: '',
            valueType: 'option',
            width: 90,
            render: (_, b) =>
              can('CodingQcAudit.query') ? (
                <Button
                  type="link"
                  size="small"
                  onClick={() => navigate(`/coding-qc/coding-audit?batchId=${b.id}`)}
                >
                  {t('qc.openAudit')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Card title={t('qc.agreement')}>
        {agreement.isError && <Alert type="error" showIcon message={(agreement.error as Error).message} />}
        <Table<CodingAgreement>
          rowKey={(r) => `${r.kind}-${r.coderId}-${r.taskId}`}
          size="small"
          pagination={false}
          loading={agreement.isLoading}
          dataSource={agreement.data ?? []}
          columns={[
            { title: t('qc.kind'), key: 'kind', render: (_, r) => word('codingKind', r.kind) },
            { title: t('qc.coder'), dataIndex: 'coderName' },
            { title: t('qc.task'), key: 'task', render: (_, r) => r.taskName || '-' },
            { title: t('qc.reviewed'), dataIndex: 'reviewed' },
            { title: t('qc.agreed'), dataIndex: 'agreed' },
            { title: t('qc.rate'), key: 'rate', render: (_, r) => pct(r.rate) },
          ]}
        />
      </Card>
    </Space>
  );
}
