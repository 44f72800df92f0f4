import { ExperimentOutlined } from '@ant-design/icons';
import type { CdrSyntheticRun } from '@crdp/core';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Modal, Progress, Table } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addScreenTexts } from '../../app/i18n';
import { Authorized } from '../../components/Authorized';
import { JobStatusTag } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { imports } from '../clinical/api';
import { CLINICAL_NS } from '../clinical/i18n';

const NS = addScreenTexts(
  'synthetic',
  {
    runs: '模拟患者生成',
    hint: '按随机种子生成确定的模拟患者（同一种子得到同样的患者），用于演示和培训；生成在后台进行，进度见导入记录。',
    asked: '患者数',
    made: '已生成 {{n}} 位患者',
    queued: '已提交，后台生成中；进度见“导入记录”',
    openImports: '查看导入记录',
  },
  {
    runs: 'Synthetic patients',
    hint: 'Generates the same synthetic patients for the same seed, for demonstrations and training; it runs in the background, its progress is in the import records.',
    asked: 'Patients',
    made: '{{n}} patients generated',
    queued: 'Submitted; generating in the background (see Import records)',
    openImports: 'Open import records',
  },
);

const RUNS_KEY = ['synthetic-runs'];

/**
 * The synthetic-patients generator: a button and its dialog, where people look for data (the
 * import records, the CDR browser). The job it starts shows in the import records' list.
 */
export function SyntheticPatientsButton({ primary, onQueued }: { primary?: boolean; onQueued?: () => void }) {
  const { t } = useTranslation(CLINICAL_NS);
  const { t: ts } = useTranslation(NS);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ patients: number; seed: number }>();
  return (
    <Authorized apiId="DataLakeDataResourceMaintenance.import">
      <Button
        type={primary ? 'primary' : 'default'}
        icon={<ExperimentOutlined />}
        onClick={() => setOpen(true)}
        data-testid="synthetic-open"
      >
        {t('imports.synthetic')}
      </Button>
      <Modal
        open={open}
        title={t('imports.synthetic')}
        confirmLoading={saving}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          const v = await form.validateFields();
          setSaving(true);
          try {
            await imports.synthetic(v.patients, v.seed);
            message.success(ts('queued'));
            setOpen(false);
            await qc.invalidateQueries({ queryKey: RUNS_KEY });
            onQueued?.();
          } finally {
            setSaving(false);
          }
        }}
      >
        <p style={{ color: 'rgba(0,0,0,0.55)' }}>{ts('hint')}</p>
        <Form form={form} initialValues={{ patients: 100, seed: 1 }}>
          <Form.Item name="patients" label={t('imports.patients')} rules={[{ required: true }]}>
            <InputNumber min={1} max={5000} data-testid="synthetic-patients" />
          </Form.Item>
          <Form.Item name="seed" label={t('imports.seed')} rules={[{ required: true }]}>
            <InputNumber min={0} />
          </Form.Item>
        </Form>
      </Modal>
    </Authorized>
  );
}

/** The app's generation jobs in the import records: asked for, status, progress, what was made. */
export function SyntheticRuns() {
  const { t } = useTranslation(CLINICAL_NS);
  const { t: ts } = useTranslation(NS);
  const runs = useJobPoll({
    queryKey: RUNS_KEY,
    queryFn: imports.syntheticRuns,
    underWay: (d) => d.some((r) => isUnderWay(r.status)),
    intervalMs: 2000,
  });
  if (!runs.data?.length) return null;
  return (
    <Card size="small" title={ts('runs')} style={{ marginBottom: 16 }} data-testid="synthetic-runs">
      <Table<CdrSyntheticRun>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={runs.data}
        columns={[
          {
            title: t('imports.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          { title: ts('asked'), dataIndex: 'patients' },
          { title: t('imports.seed'), dataIndex: 'seed' },
          {
            title: t('imports.status'),
            dataIndex: 'status',
            render: (v: CdrSyntheticRun['status']) => <JobStatusTag status={v} />,
          },
          {
            title: t('imports.progress'),
            dataIndex: 'progress',
            render: (_, r) =>
              r.error ? (
                r.error
              ) : isUnderWay(r.status) ? (
                <Progress percent={Math.round(r.progress)} size="small" style={{ width: 120 }} />
              ) : r.status === 'succeeded' ? (
                ts('made', { n: (r.result as { patients?: number } | null)?.patients ?? r.patients })
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Card>
  );
}
