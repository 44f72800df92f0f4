import {
  COLLECTION_CHANGE_OPS,
  COLLECTION_REPORT_PERIODS,
  COLLECTION_TARGETS,
  type CollectionChange,
  type CollectionRun,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Input,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import ReactECharts from 'echarts-for-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLabel } from '../../../app/labels';
import { useHasAction } from '../../../components/Authorized';
import { JobStatusTag } from '../../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../../components/jobs/useJobPoll';
import { QueryTable } from '../../../components/table/QueryTable';
import { collectionApi } from './api';
import { COLLECTION_NS } from './i18n';
import { RunState, watermarkText } from './Tasks';
import { RejectTable } from './Tests';

const at = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '—');

/** 采集监控 (`/data-lake/collection-monitoring`): each source and task, the daily trend, the recent runs. */
export function CollectionMonitoring() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const can = useHasAction();
  const m = useJobPoll({
    queryKey: ['collection-monitoring'],
    queryFn: collectionApi.monitoring,
    underWay: (d) => d.tasks.some((x) => isUnderWay(x.lastRun?.status)),
  });
  const [page, setPage] = useState({ page: 1, size: 10 });
  const runs = useQuery({
    queryKey: ['collection-runs', page, m.dataUpdatedAt],
    queryFn: () => collectionApi.runs(page),
  });
  if (m.isError)
    return <Alert type="error" showIcon message={m.error.message} data-testid="monitoring-error" />;
  const trend = m.data?.trend ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="collection-monitoring">
      <Card title={t('monitor.sources')} loading={m.isLoading}>
        <Table
          rowKey="id"
          size="small"
          dataSource={m.data?.sources ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('monitor.empty')} /> }}
          columns={[
            { title: t('common.name'), dataIndex: 'name' },
            {
              title: t('config.kind'),
              dataIndex: 'kind',
              render: (k: string) => word('collectionSourceKind', k),
            },
            {
              title: t('monitor.lastRun'),
              key: 'last',
              render: (_, s) =>
                s.lastStatus ? (
                  <Space>
                    <JobStatusTag status={s.lastStatus} />
                    {at(s.lastRunAt)}
                  </Space>
                ) : (
                  '—'
                ),
            },
            { title: t('monitor.read'), dataIndex: 'rowsRead', align: 'right' },
            { title: t('monitor.written'), dataIndex: 'rowsWritten', align: 'right' },
            {
              title: t('monitor.rejected'),
              dataIndex: 'rowsRejected',
              align: 'right',
              render: (v: number) => (v ? <Tag color="red">{v}</Tag> : 0),
            },
            {
              title: t('monitor.failed'),
              dataIndex: 'failedRuns',
              align: 'right',
              render: (v: number) => (v ? <Tag color="red">{v}</Tag> : 0),
            },
            {
              title: t('monitor.lag'),
              dataIndex: 'lagHours',
              render: (v: number | null) => (v === null ? '—' : t('monitor.lagHours', { hours: v })),
            },
            {
              title: t('monitor.messages'),
              key: 'msg',
              render: (_, s) => (s.kind === 'hl7' ? t('monitor.messagesText', s.messages) : '—'),
            },
          ]}
        />
      </Card>
      <Card title={t('monitor.trend')} loading={m.isLoading}>
        {trend.length ? (
          <ReactECharts
            style={{ height: 280 }}
            notMerge
            option={{
              animation: false,
              tooltip: { trigger: 'axis' },
              legend: { top: 0, data: [t('monitor.written'), t('monitor.rejected')] },
              grid: { left: 48, right: 24, top: 36, bottom: 32 },
              xAxis: { type: 'category', data: trend.map((d) => d.day) },
              yAxis: { type: 'value' },
              series: [
                {
                  name: t('monitor.written'),
                  type: 'bar',
                  data: trend.map((d) => d.written),
                  itemStyle: { color: '#1677ff' },
                },
                {
                  name: t('monitor.rejected'),
                  type: 'bar',
                  data: trend.map((d) => d.rejected),
                  itemStyle: { color: '#ff4d4f' },
                },
              ],
            }}
          />
        ) : (
          <Empty description={t('monitor.noRuns')} />
        )}
      </Card>
      <Card title={t('monitor.recent')}>
        <QueryTable<CollectionRun>
          query={runs}
          empty={t('monitor.noRuns')}
          rowKey="id"
          size="small"
          dataSource={runs.data?.items ?? []}
          pagination={{
            current: page.page,
            pageSize: page.size,
            total: runs.data?.total ?? 0,
            onChange: (p, s) => setPage({ page: p, size: s }),
          }}
          columns={[
            { title: '#', dataIndex: 'id' },
            { title: t('detail.task'), dataIndex: 'taskName' },
            {
              title: t('monitor.trigger'),
              dataIndex: 'trigger',
              render: (v: string) => word('collectionTrigger', v),
            },
            { title: t('detail.status'), key: 's', render: (_, r) => <RunState run={r} /> },
            { title: t('monitor.started'), dataIndex: 'startedAt', render: at },
            { title: t('monitor.finished'), dataIndex: 'finishedAt', render: at },
            {
              title: t('common.actions'),
              key: 'a',
              render: (_, r) =>
                can('DataLakeCollectionDetail', 'get') && (
                  <Link to={`/data-lake/collection-detail?runId=${r.id}`}>{t('tasks.detail')}</Link>
                ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}

/** 采集报告 (`/data-lake/collection-report`): volumes per period, source and table, with CSV/XLSX export. */
export function CollectionReport() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const can = useHasAction();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const [period, setPeriod] = useState<(typeof COLLECTION_REPORT_PERIODS)[number]>('day');
  const q = { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD'), period };
  const r = useQuery({ queryKey: ['collection-report', q], queryFn: () => collectionApi.report(q) });
  const [exportError, setExportError] = useState<string | null>(null);
  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExportError(null);
    try {
      await collectionApi.exportReport(q, format);
    } catch (e) {
      setExportError((e as Error).message);
    }
  };
  return (
    <Card title={t('report.title')} data-testid="collection-report">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('report.hint')}</Typography.Text>
        <Space wrap>
          {t('report.range')}
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          {t('report.period')}
          <Select
            value={period}
            onChange={setPeriod}
            style={{ width: 100 }}
            options={COLLECTION_REPORT_PERIODS.map((p) => ({ value: p, label: t(`report.periods.${p}`) }))}
          />
          {can('DataLakeCollectionReport', 'export') && (
            <>
              <Button onClick={() => exportAs('csv')} data-testid="export-csv">
                {t('report.exportCsv')}
              </Button>
              <Button onClick={() => exportAs('xlsx')}>{t('report.exportXlsx')}</Button>
            </>
          )}
        </Space>
        {exportError && <Alert type="error" showIcon message={exportError} />}
        <QueryTable
          query={r}
          empty={t('report.empty')}
          size="small"
          rowKey={(x) => `${x.period}-${x.sourceId}-${x.table}`}
          dataSource={r.data?.rows ?? []}
          data-testid="report-table"
          columns={[
            { title: t('report.periodCol'), dataIndex: 'period' },
            { title: t('report.source'), dataIndex: 'sourceName' },
            { title: t('report.table'), dataIndex: 'table', render: (v: string) => word('cdrTable', v) },
            { title: t('report.inserted'), dataIndex: 'inserted', align: 'right' },
            { title: t('report.updated'), dataIndex: 'updated', align: 'right' },
            { title: t('report.rejected'), dataIndex: 'rejected', align: 'right' },
          ]}
        />
      </Space>
    </Card>
  );
}

/** 采集详情 (`/data-lake/collection-detail?runId=`): one run, per template, its refused rows. */
export function CollectionDetail() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const [params] = useSearchParams();
  const id = Number(params.get('runId'));
  const ok = Number.isInteger(id) && id > 0;
  const run = useJobPoll({
    queryKey: ['collection-run', id],
    queryFn: () => collectionApi.runOf(id),
    enabled: ok,
    underWay: (r) => isUnderWay(r.status),
  });
  const [page, setPage] = useState({ page: 1, size: 20 });
  const rejects = useQuery({
    queryKey: ['collection-rejects', id, page, run.data?.rowsRejected],
    queryFn: () => collectionApi.rejects(id, page),
    enabled: ok,
  });
  if (!ok) return <Alert type="warning" showIcon message={t('common.noRun')} />;
  if (run.isError) return <Alert type="error" showIcon message={run.error.message} />;
  const r = run.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="collection-detail">
      <Card
        title={`${t('detail.title')} #${id}`}
        loading={run.isLoading}
        extra={<Link to={`/data-lake/change-records?runId=${id}`}>{t('detail.changes')}</Link>}
      >
        {r && (
          <Descriptions column={{ xs: 1, md: 3 }} size="small">
            <Descriptions.Item label={t('detail.task')}>{r.taskName}</Descriptions.Item>
            <Descriptions.Item label={t('detail.status')}>
              <JobStatusTag status={r.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.trigger')}>
              {word('collectionTrigger', r.trigger)}
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.started')}>{at(r.startedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('monitor.finished')}>{at(r.finishedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.progress')}>
              <Progress
                percent={r.progress}
                size="small"
                style={{ width: 160 }}
                status={r.status === 'failed' ? 'exception' : undefined}
              />
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.summary')} span={3}>
              {t('tasks.counts', {
                read: r.rowsRead,
                inserted: r.rowsInserted,
                updated: r.rowsUpdated,
                rejected: r.rowsRejected,
              })}
            </Descriptions.Item>
            {r.error && (
              <Descriptions.Item label={t('detail.error')} span={3}>
                <Typography.Text type="danger">{r.error}</Typography.Text>
              </Descriptions.Item>
            )}
          </Descriptions>
        )}
      </Card>
      <Card title={t('detail.perTemplate')}>
        <Table
          size="small"
          rowKey="templateId"
          dataSource={r?.templates ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('test.template'), dataIndex: 'name' },
            { title: t('config.target'), dataIndex: 'target', render: (v: string) => word('cdrTable', v) },
            { title: t('monitor.read'), dataIndex: 'read', align: 'right' },
            { title: t('report.inserted'), dataIndex: 'inserted', align: 'right' },
            { title: t('report.updated'), dataIndex: 'updated', align: 'right' },
            { title: t('report.rejected'), dataIndex: 'rejected', align: 'right' },
            {
              title: t('tasks.watermark'),
              dataIndex: 'watermark',
              render: (v: string | null) => watermarkText(v),
            },
          ]}
        />
      </Card>
      <Card title={t('detail.rejects')}>
        {rejects.isError ? (
          <Alert type="error" showIcon message={rejects.error.message} />
        ) : (
          <RejectTable
            rows={rejects.data?.items ?? []}
            loading={rejects.isLoading}
            extra={{
              locale: { emptyText: <Empty description={t('detail.noRejects')} /> },
              pagination: {
                current: page.page,
                pageSize: page.size,
                total: rejects.data?.total ?? 0,
                onChange: (p: number, s: number) => setPage({ page: p, size: s }),
              },
            }}
          />
        )}
      </Card>
    </Space>
  );
}

const show = (v: unknown) =>
  v === null || v === undefined || v === '' ? '∅' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** 变更记录 (`/data-lake/change-records`): what each run inserted or updated, by table, patient or run. */
export function ChangeRecords() {
  const { t } = useTranslation(COLLECTION_NS);
  const word = useLabel();
  const [params, setParams] = useSearchParams();
  const num = (k: string) => {
    const n = Number(params.get(k));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const filters = {
    table: params.get('table') ?? undefined,
    op: params.get('op') ?? undefined,
    runId: num('runId'),
    patientId: num('patientId'),
  };
  const [page, setPage] = useState({ page: 1, size: 20 });
  const q = useQuery({
    queryKey: ['collection-changes', filters, page],
    queryFn: () => collectionApi.changes({ ...page, ...filters }),
  });
  const set = (k: string, v: string | undefined) => {
    const next = new URLSearchParams(window.location.search);
    if (v) next.set(k, v);
    else next.delete(k);
    setParams(next);
    setPage((p) => ({ ...p, page: 1 }));
  };
  return (
    <Card title={t('changes.title')} data-testid="change-records">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('changes.hint')}</Typography.Text>
        <Space wrap>
          <Select
            allowClear
            placeholder={t('changes.table')}
            style={{ width: 150 }}
            value={filters.table}
            onChange={(v) => set('table', v)}
            options={COLLECTION_TARGETS.map((x) => ({ value: x, label: word('cdrTable', x) }))}
          />
          <Select
            allowClear
            placeholder={t('changes.op')}
            style={{ width: 120 }}
            value={filters.op}
            onChange={(v) => set('op', v)}
            options={COLLECTION_CHANGE_OPS.map((x) => ({ value: x, label: word('collectionChangeOp', x) }))}
          />
          <Input.Search
            allowClear
            placeholder={t('changes.patientId')}
            style={{ width: 160 }}
            defaultValue={filters.patientId ? String(filters.patientId) : ''}
            onSearch={(v) => set('patientId', v.trim() || undefined)}
          />
          <Input.Search
            allowClear
            placeholder={t('changes.runId')}
            style={{ width: 140 }}
            defaultValue={filters.runId ? String(filters.runId) : ''}
            onSearch={(v) => set('runId', v.trim() || undefined)}
          />
        </Space>
        <QueryTable<CollectionChange>
          query={q}
          empty={t('changes.empty')}
          rowKey="id"
          size="small"
          dataSource={q.data?.items ?? []}
          pagination={{
            current: page.page,
            pageSize: page.size,
            total: q.data?.total ?? 0,
            onChange: (p, s) => setPage({ page: p, size: s }),
          }}
          data-testid="changes-table"
          columns={[
            { title: t('changes.at'), dataIndex: 'at', render: (v: string) => at(v) },
            {
              title: t('changes.origin'),
              key: 'origin',
              render: (_, c) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text>{c.sourceName || '—'}</Typography.Text>
                  {c.runId !== null ? (
                    <Link to={`/data-lake/collection-detail?runId=${c.runId}`}>
                      {t('changes.run', { id: c.runId })}
                    </Link>
                  ) : c.messageId !== null ? (
                    <Typography.Text type="secondary">
                      {t('changes.message', { id: c.messageId })}
                    </Typography.Text>
                  ) : null}
                </Space>
              ),
            },
            { title: t('changes.table'), dataIndex: 'table', render: (v: string) => word('cdrTable', v) },
            {
              title: t('changes.op'),
              dataIndex: 'op',
              render: (v: string) => (
                <Tag color={v === 'insert' ? 'green' : 'blue'}>{word('collectionChangeOp', v)}</Tag>
              ),
            },
            {
              title: t('changes.patient'),
              key: 'p',
              render: (_, c) =>
                c.patientId ? (
                  <Link to={`/data-lake/patientDetails?id=${c.patientId}`}>
                    {c.patientName || `#${c.patientId}`}
                  </Link>
                ) : (
                  '—'
                ),
            },
            { title: t('changes.record'), dataIndex: 'recordId' },
            {
              title: t('changes.diff'),
              key: 'd',
              render: (_, c) =>
                c.diff.length ? (
                  <Space direction="vertical" size={0}>
                    {c.diff.map((d) => (
                      <Typography.Text key={d.field}>
                        {word('cdrField', d.field)}:{' '}
                        <Typography.Text delete type="secondary">
                          {show(d.before)}
                        </Typography.Text>{' '}
                        → <Typography.Text strong>{show(d.after)}</Typography.Text>
                      </Typography.Text>
                    ))}
                  </Space>
                ) : (
                  '—'
                ),
            },
          ]}
        />
        {filters.runId && (
          <Button type="link" onClick={() => set('runId', undefined)}>
            {t('changes.all')}
          </Button>
        )}
      </Space>
    </Card>
  );
}
