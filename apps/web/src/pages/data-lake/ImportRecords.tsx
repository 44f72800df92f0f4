import { UploadOutlined } from '@ant-design/icons';
import { type ActionType, ProTable } from '@ant-design/pro-components';
import { cdrFieldLabelKey, hasLabel } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Modal,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Upload,
} from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../api/client';
import { useLabel } from '../../app/labels';
import { Authorized } from '../../components/Authorized';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { proPage } from '../../components/table/paging';
import { type ImportRecord, imports } from '../clinical/api';
import { CLINICAL_NS } from '../clinical/i18n';
import { dt } from '../clinical/shared';
import { csvHeader } from './csv-header';
import { SyntheticPatientsButton, SyntheticRuns } from './SyntheticPatients';

const STATUS_COLOR: Record<ImportRecord['status'], string> = {
  queued: 'default',
  running: 'processing',
  succeeded: 'success',
  partial: 'warning',
  failed: 'error',
  cancelled: 'default',
};

const readText = (file: File) => file.text();

/** Import records (`/data-lake/data-resource-maintenance`): FHIR bundles, CSV with a column mapping, progress and refused rows. */
export default function ImportRecords() {
  const { t } = useTranslation(CLINICAL_NS);
  const word = useLabel();
  const { t: tApp } = useTranslation();
  const { message } = App.useApp();
  const table = useRef<ActionType>(null);
  const [detail, setDetail] = useState<number | null>(null);
  const [csv, setCsv] = useState<{ fileName: string; text: string; header: string[] } | null>(null);
  const [form] = Form.useForm();
  const fields = useQuery({ queryKey: ['csv-fields'], queryFn: imports.csvFields, enabled: !!csv });
  const target = Form.useWatch('table', form) as string | undefined;
  const rec = useJobPoll({
    queryKey: ['import', detail],
    queryFn: () => imports.get(detail!),
    enabled: detail !== null,
    underWay: (r) => isUnderWay(r.status),
  });

  const report = (e: unknown) => message.error(e instanceof RequestError ? e.message : String(e));
  const submitted = (r: ImportRecord) => {
    message.success(t('imports.queued'));
    table.current?.reload();
    setDetail(r.id);
  };

  const uploadFhir = async (file: File) => {
    let bundle: unknown;
    try {
      bundle = JSON.parse(await readText(file));
    } catch {
      message.error(t('imports.badJson'));
      return false;
    }
    imports.fhir(file.name, bundle).then(submitted, report);
    return false;
  };
  const uploadCsv = async (file: File) => {
    const text = await readText(file);
    let header: string[];
    try {
      header = csvHeader(text);
    } catch {
      // A header the parser cannot read (an unclosed quote): nothing to map its columns from.
      message.error(tApp('error.badCsvHeader'));
      return false;
    }
    form.resetFields();
    setCsv({ fileName: file.name, text, header });
    return false;
  };

  return (
    <>
      <SyntheticRuns />
      <ProTable<ImportRecord>
        rowKey="id"
        actionRef={table}
        headerTitle={t('imports.title')}
        search={false}
        pagination={{ defaultPageSize: 10 }}
        polling={3000}
        request={async (p) => {
          const r = await imports.list(proPage(p, 10));
          return { data: r.items, total: r.total, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="fhir" apiId="DataLakeDataResourceMaintenance.import">
            <Upload accept=".json,application/json" showUploadList={false} beforeUpload={uploadFhir}>
              <Button type="primary" icon={<UploadOutlined />} data-testid="import-fhir">
                {t('imports.fhir')}
              </Button>
            </Upload>
          </Authorized>,
          <Authorized key="csv" apiId="DataLakeDataResourceMaintenance.import">
            <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={uploadCsv}>
              <Button icon={<UploadOutlined />}>{t('imports.csv')}</Button>
            </Upload>
          </Authorized>,
          <SyntheticPatientsButton key="syn" />,
        ]}
        columns={[
          {
            title: t('imports.file'),
            dataIndex: 'fileName',
            render: (_, r) => (
              <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setDetail(r.id)}>
                {r.fileName}
              </Button>
            ),
          },
          {
            title: t('imports.format'),
            dataIndex: 'format',
            render: (_, r) => <Tag>{r.format.toUpperCase()}</Tag>,
          },
          {
            title: t('imports.status'),
            dataIndex: 'status',
            render: (_, r) => (
              <Tag color={STATUS_COLOR[r.status]} data-testid="import-status">
                {word('cdrImportStatus', r.status)}
              </Tag>
            ),
          },
          { title: t('imports.total'), dataIndex: 'total' },
          { title: t('imports.succeeded'), dataIndex: 'succeeded' },
          {
            title: t('imports.failed'),
            dataIndex: 'failed',
            render: (_, r) => (r.failed ? <Tag color="red">{r.failed}</Tag> : 0),
          },
          { title: t('imports.createdAt'), dataIndex: 'createdAt', render: (_, r) => dt(r.createdAt) },
          {
            title: '',
            valueType: 'option',
            render: (_, r) => [
              <Authorized key="rerun" apiId="DataLakeDataResourceMaintenance.import">
                <Button
                  type="link"
                  size="small"
                  onClick={async () => {
                    await imports.rerun(r.id);
                    message.success(t('imports.rerunDone'));
                    table.current?.reload();
                  }}
                >
                  {t('imports.rerun')}
                </Button>
              </Authorized>,
            ],
          },
        ]}
      />
      <Drawer open={detail !== null} onClose={() => setDetail(null)} width={720} title={rec.data?.fileName}>
        {rec.data ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Progress
              percent={rec.data.progress ?? 0}
              status={rec.data.status === 'failed' ? 'exception' : undefined}
            />
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label={t('imports.status')}>
                <Tag color={STATUS_COLOR[rec.data.status]}>{word('cdrImportStatus', rec.data.status)}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('imports.total')}>{rec.data.total}</Descriptions.Item>
              <Descriptions.Item label={t('imports.succeeded')}>{rec.data.succeeded}</Descriptions.Item>
              <Descriptions.Item label={t('imports.failed')}>{rec.data.failed}</Descriptions.Item>
              <Descriptions.Item label={t('imports.counts')} span={2}>
                {Object.entries(rec.data.counts).map(([k, v]) => (
                  <Tag key={k}>
                    {word('cdrTable', k)}: {v}
                  </Tag>
                ))}
              </Descriptions.Item>
            </Descriptions>
            <Table
              size="small"
              rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
              title={() => t('imports.errors')}
              dataSource={rec.data.errors ?? []}
              columns={[
                { title: t('imports.row'), dataIndex: 'row', width: 70 },
                {
                  title: t('imports.field'),
                  dataIndex: 'field',
                  width: 140,
                  // A mapped field in words; a path or a FHIR element as the server names it.
                  render: (f: string) => (hasLabel('cdrField', f) ? word('cdrField', f) : f),
                },
                { title: t('imports.message'), dataIndex: 'message' },
                { title: 'FHIR', dataIndex: 'ref' },
              ]}
            />
          </Space>
        ) : rec.isError ? (
          <Alert type="error" message={rec.error.message} />
        ) : null}
      </Drawer>
      <Modal
        open={!!csv}
        title={`${t('imports.csv')}: ${csv?.fileName ?? ''}`}
        onCancel={() => setCsv(null)}
        onOk={async () => {
          const v = await form.validateFields();
          const mapping = Object.fromEntries(
            Object.entries(v.mapping ?? {}).filter(([, c]) => !!c),
          ) as Record<string, string>;
          imports.csv({ fileName: csv!.fileName, table: v.table, mapping, text: csv!.text }).then((r) => {
            setCsv(null);
            submitted(r);
          }, report);
        }}
      >
        <Form form={form} layout="horizontal" labelCol={{ span: 8 }}>
          <Form.Item name="table" label={t('imports.table')} rules={[{ required: true }]}>
            <Select
              data-testid="csv-table"
              options={Object.keys(fields.data ?? {}).map((k) => ({ value: k, label: word('cdrTable', k) }))}
            />
          </Form.Item>
          {(fields.data?.[target ?? ''] ?? []).map((f) => (
            <Form.Item
              key={f}
              name={['mapping', f]}
              label={word('cdrField', cdrFieldLabelKey(target ?? '', f))}
            >
              <Select
                allowClear
                placeholder={t('imports.column')}
                options={(csv?.header ?? []).map((h) => ({ value: h, label: h }))}
              />
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </>
  );
}
