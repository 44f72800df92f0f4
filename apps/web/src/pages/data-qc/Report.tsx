import { ProCard, ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Empty,
  Input,
  Progress,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CutText } from '../../components/CutText';
import { pagingOf } from '../../components/table/paging';
import { type Fault, qcApi, type ReportRule, useCan } from './api';
import { QC_NS } from './i18n';
import { SeverityTag } from './RuleList';

/** Instants travel in UTC (ISO); the reader sees them in local time. */
const localTimes = (text: string) =>
  text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, (iso) => dayjs(iso).format('YYYY-MM-DD HH:mm'));
const percent = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(1)}%`);

/** The pass rate per rule, the faulty rows with their patients, and the export of a task. */
function TaskReport({ taskId }: { taskId: number }) {
  const { t, i18n } = useTranslation(QC_NS);
  // The server words conditions and messages in the reader's language.
  const lang = i18n.language;
  const can = useCan();
  const [ruleFilter, setRuleFilter] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, size: 20 });
  const report = useQuery({
    queryKey: ['dataQc', 'report', taskId, lang],
    queryFn: () => qcApi.report(taskId),
  });
  const faults = useQuery({
    queryKey: ['dataQc', 'faults', taskId, ruleFilter, keyword, page, lang],
    queryFn: () =>
      qcApi.faults(taskId, {
        page: page.current,
        size: page.size,
        taskRuleId: ruleFilter,
        keyword: keyword || undefined,
      }),
  });
  const r = report.data;
  if (!r) return <ProCard loading={report.isLoading} />;
  const o = r.overall;
  const passColor = (v: number | null) =>
    v === null ? undefined : v >= 0.95 ? '#52c41a' : v >= 0.8 ? '#faad14' : '#ff4d4f';

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} lg={6}>
          <ProCard>
            <div data-testid="qc-pass-rate">
              <Statistic
                title={t('report.passRate')}
                value={percent(o.passRate)}
                valueStyle={{ color: passColor(o.passRate) }}
              />
            </div>
          </ProCard>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <ProCard>
            <Statistic title={t('report.checked')} value={o.checked} />
          </ProCard>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <ProCard>
            <Statistic
              title={t('report.faults')}
              value={o.faults}
              valueStyle={{ color: o.faults ? '#ff4d4f' : undefined }}
            />
            <Typography.Text type="secondary">
              {t('report.errorFaults', { count: o.errorFaults })} ·{' '}
              {t('report.warningFaults', { count: o.warningFaults })}
            </Typography.Text>
          </ProCard>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <ProCard>
            <Statistic title={t('report.patients')} value={o.patientsWithFaults} />
            <Typography.Text type="secondary">
              {t('report.rules')} {o.rules}
              {o.skipped > 0 && ` · ${t('report.skippedRules', { count: o.skipped })}`}
            </Typography.Text>
          </ProCard>
        </Col>
      </Row>
      <ProCard title={t('report.perRule')} bordered>
        <div data-testid="qc-rules">
          <Table<ReportRule>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={r.rules}
            onRow={(x) => ({
              onClick: () => setRuleFilter(x.skipped ? undefined : x.id),
              style: { cursor: 'pointer' },
            })}
            columns={[
              { title: t('rules.title'), dataIndex: 'name', render: (v, x) => (x.ruleId ? v : <i>{v}</i>) },
              {
                title: t('rules.kind'),
                dataIndex: 'kindLabel',
                width: 120,
                render: (v) => <Tag color="blue">{v}</Tag>,
              },
              { title: t('rules.condition'), dataIndex: 'condition' },
              {
                title: t('severity.label'),
                dataIndex: 'severity',
                width: 90,
                render: (v) => <SeverityTag severity={v} />,
              },
              {
                title: t('report.checked'),
                dataIndex: 'checked',
                width: 100,
                render: (v, x) =>
                  x.skipped ? <Typography.Text type="secondary">{t('report.skipped')}</Typography.Text> : v,
              },
              {
                title: t('report.faults'),
                dataIndex: 'faults',
                width: 90,
                render: (v, x) => (
                  <span title={x.stored < x.faults ? t('report.stored', { count: x.stored }) : undefined}>
                    {v}
                  </span>
                ),
              },
              {
                title: t('report.ruleRate'),
                dataIndex: 'passRate',
                width: 180,
                render: (v: number | null) =>
                  v === null ? (
                    '-'
                  ) : (
                    <Progress
                      percent={Math.floor(v * 1000) / 10}
                      size="small"
                      strokeColor={passColor(v)}
                      format={() => percent(v)}
                    />
                  ),
              },
            ]}
          />
        </div>
      </ProCard>
      <ProTable<Fault>
        rowKey="id"
        headerTitle={t('report.faultList')}
        search={false}
        options={false}
        loading={faults.isFetching}
        dataSource={faults.data?.items ?? []}
        pagination={pagingOf(page, faults.data?.total, setPage)}
        toolBarRender={() => [
          <Select
            key="rule"
            allowClear
            style={{ width: 220 }}
            placeholder={t('report.allRules')}
            value={ruleFilter}
            onChange={(v) => {
              setRuleFilter(v);
              setPage((p) => ({ ...p, current: 1 }));
            }}
            options={r.rules.filter((x) => !x.skipped).map((x) => ({ value: x.id, label: x.name }))}
          />,
          <Input.Search
            key="keyword"
            allowClear
            style={{ width: 240 }}
            placeholder={t('report.keyword')}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
          />,
          ...(can('DataQcReport.export')
            ? [
                <Button key="csv" type="primary" onClick={() => qcApi.download(taskId, 'csv')}>
                  {t('report.exportCsv')}
                </Button>,
                <Button key="xlsx" onClick={() => qcApi.download(taskId, 'xlsx')}>
                  {t('report.exportXlsx')}
                </Button>,
              ]
            : []),
        ]}
        columns={[
          { title: t('report.patient'), dataIndex: 'patientName', width: 130 },
          {
            title: t('report.mrn'),
            dataIndex: 'patientMrn',
            width: 140,
            render: (_, r) => <CutText text={r.patientMrn} limit={16} />,
          },
          {
            title: t('rules.title'),
            dataIndex: 'ruleName',
            width: 160,
            render: (_, r) => <CutText text={r.ruleName} limit={18} />,
          },
          {
            title: t('severity.label'),
            dataIndex: 'severity',
            width: 90,
            render: (_, f) => <SeverityTag severity={f.severity} />,
          },
          { title: t('rules.table'), dataIndex: 'tableLabel', width: 100 },
          { title: t('report.rowId'), dataIndex: 'rowId', width: 90 },
          { title: t('report.message'), dataIndex: 'message', render: (_, f) => localTimes(f.message) },
        ]}
      />
    </Space>
  );
}

/** 质控报告: pick a finished task (or arrive with `?taskId=`), read its report. */
export default function Report() {
  const { t } = useTranslation(QC_NS);
  const [params, setParams] = useSearchParams();
  const finished = useQuery({
    queryKey: ['dataQc', 'reports'],
    queryFn: () => qcApi.reports({ page: 1, size: 100 }),
  });
  const fromUrl = Number(params.get('taskId'));
  const taskId = fromUrl > 0 ? fromUrl : finished.data?.items[0]?.id;
  return (
    <ProCard
      title={t('report.title')}
      extra={
        <Select
          style={{ width: 420 }}
          placeholder={t('report.pickTask')}
          value={taskId}
          loading={finished.isLoading}
          onChange={(v) => setParams({ taskId: String(v) })}
          options={(finished.data?.items ?? []).map((x) => ({
            value: x.id,
            label: t('report.task', {
              id: x.id,
              plan: x.planName,
              time: dayjs(x.finishedAt).format('YYYY-MM-DD HH:mm'),
            }),
          }))}
          data-testid="qc-task-picker"
        />
      }
    >
      {taskId ? (
        <TaskReport key={taskId} taskId={taskId} />
      ) : finished.isLoading ? null : (
        <Empty description={t('report.none')} />
      )}
      {finished.isError && <Alert type="error" message={(finished.error as Error).message} />}
    </ProCard>
  );
}
