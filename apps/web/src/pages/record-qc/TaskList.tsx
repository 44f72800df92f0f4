import type {
  JobStatus,
  RecordQcDoctorScore,
  RecordQcDocumentScore,
  RecordQcFault,
  RecordQcScore,
  RecordQcTask,
} from '@crdp/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Empty, Space, Table, type TableProps, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import ReactECharts from 'echarts-for-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { JobStatusBadge } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { pagingOf } from '../../components/table/paging';
import { useCan } from '../data-qc/api';
import { recordQcApi } from './api';
import { RQC_NS } from './i18n';

const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '-');

type FaultFilter =
  | { by: 'department'; department: string }
  | { by: 'doctor'; doctor: string }
  | { by: 'document'; document_id: number; title: string };

/** The score per admission month of the task's stays (of the chosen department): a line over the months. */
function TrendCard({ task, department }: { task: RecordQcTask; department?: string }) {
  const { t } = useTranslation(RQC_NS);
  const trend = useQuery({
    queryKey: ['recordQc', 'trend', task.id, task.finishedAt, department],
    queryFn: () => recordQcApi.trend(task.id, department),
  });
  const items = trend.data?.items ?? [];
  return (
    <Card
      size="small"
      title={
        department !== undefined
          ? `${t('tasks.trend')} · ${department || t('tasks.noDepartment')}`
          : t('tasks.trend')
      }
      style={{ marginTop: 16 }}
      loading={trend.isLoading}
      data-testid="record-qc-trend"
    >
      {trend.error && <Typography.Text type="danger">{trend.error.message}</Typography.Text>}
      <Typography.Paragraph type="secondary">{t('tasks.trendHow')}</Typography.Paragraph>
      {items.length ? (
        <ReactECharts
          style={{ height: 240 }}
          notMerge
          option={{
            animation: false,
            tooltip: { trigger: 'axis' },
            legend: { top: 0, data: [t('tasks.score'), t('tasks.faults')] },
            grid: { left: 48, right: 48, top: 36, bottom: 32 },
            xAxis: { type: 'category', name: t('tasks.month'), data: items.map((d) => d.period) },
            yAxis: [
              { type: 'value', name: t('tasks.score'), min: 0, max: 100 },
              { type: 'value', name: t('tasks.faults'), minInterval: 1 },
            ],
            series: [
              {
                name: t('tasks.faults'),
                type: 'bar',
                yAxisIndex: 1,
                barMaxWidth: 40,
                data: items.map((d) => d.faults),
                itemStyle: { color: '#ffa39e' },
              },
              {
                name: t('tasks.score'),
                type: 'line',
                data: items.map((d) => d.score),
                label: { show: true },
                itemStyle: { color: '#1677ff' },
              },
            ],
          }}
        />
      ) : (
        <Empty description={t('tasks.noTrend')} />
      )}
    </Card>
  );
}

/**
 * A tab of scores (per department, per doctor): how they are counted, the table, and a row that
 * filters the faults below when clicked (clicked again, shows them all).
 */
function ScoreTab<B extends 'department' | 'doctor', T extends Record<B, string>>({
  by,
  how,
  query,
  testId,
  pagination,
  filter,
  choose,
  columns,
}: {
  /** What a row is (its key) and what clicking it filters the faults by. */
  by: B;
  how: string;
  query: UseQueryResult<{ items: T[] }, Error>;
  testId: string;
  pagination: TableProps<T>['pagination'];
  filter: FaultFilter | null;
  choose: (f: FaultFilter | null) => void;
  columns: ColumnsType<T>;
}) {
  const isChosen = (r: T) => filter?.by === by && (filter as Record<B, string>)[by] === r[by];
  return (
    <>
      <Typography.Paragraph type="secondary">{how}</Typography.Paragraph>
      {query.error && <Typography.Text type="danger">{query.error.message}</Typography.Text>}
      <Table<T>
        rowKey={by}
        size="small"
        data-testid={testId}
        loading={query.isLoading}
        dataSource={query.data?.items ?? []}
        pagination={pagination}
        onRow={(r) => ({ onClick: () => choose(isChosen(r) ? null : ({ by, [by]: r[by] } as FaultFilter)) })}
        rowClassName={(r) => (isChosen(r) ? 'ant-table-row-selected' : '')}
        columns={columns}
      />
    </>
  );
}

/** One task's results: scores per department, doctor and document, the trend, the faults with links to the record, CSV and XLSX. */
function TaskResult({ task }: { task: RecordQcTask }) {
  const { t } = useTranslation(RQC_NS);
  const word = useLabel();
  const can = useCan();
  const { message } = App.useApp();
  const [filter, setFilter] = useState<FaultFilter | null>(null);
  const [page, setPage] = useState({ current: 1, size: 20 });
  const [docPage, setDocPage] = useState({ current: 1, size: 10 });
  const choose = (f: FaultFilter | null) => {
    setFilter(f);
    setPage((p) => ({ ...p, current: 1 }));
  };
  const scores = useQuery({
    queryKey: ['recordQc', 'scores', task.id, task.finishedAt],
    queryFn: () => recordQcApi.scores(task.id),
  });
  const doctors = useQuery({
    queryKey: ['recordQc', 'doctors', task.id, task.finishedAt],
    queryFn: () => recordQcApi.doctors(task.id),
  });
  const documents = useQuery({
    queryKey: ['recordQc', 'documents', task.id, task.finishedAt, docPage],
    queryFn: () => recordQcApi.documents({ task_id: task.id, page: docPage.current, size: docPage.size }),
  });
  const faultQuery = {
    task_id: task.id,
    department: filter?.by === 'department' ? filter.department : undefined,
    doctor: filter?.by === 'doctor' ? filter.doctor : undefined,
    document_id: filter?.by === 'document' ? filter.document_id : undefined,
  };
  const faults = useQuery({
    queryKey: ['recordQc', 'faults', task.finishedAt, faultQuery, page],
    queryFn: () => recordQcApi.faults({ ...faultQuery, page: page.current, size: page.size }),
  });
  const dept = (d: string) => d || t('tasks.noDepartment');
  const doc = (d: string) => d || t('tasks.noDoctor');
  const scoreCell = (s: number) => <Typography.Text strong>{s}</Typography.Text>;
  const download = (format: 'csv' | 'xlsx') =>
    recordQcApi.download(task.id, format).catch((e: Error) => message.error(e.message));
  const filterText =
    filter?.by === 'department'
      ? dept(filter.department)
      : filter?.by === 'doctor'
        ? doc(filter.doctor)
        : filter?.by === 'document'
          ? filter.title
          : null;
  const countColumns = [
    { title: t('tasks.visits'), dataIndex: 'visits' },
    { title: t('tasks.faultyVisits'), dataIndex: 'faultyVisits' },
    { title: t('tasks.faults'), dataIndex: 'faults' },
    { title: t('tasks.deducted'), dataIndex: 'deducted' },
    { title: t('tasks.score'), dataIndex: 'score', render: scoreCell },
  ];
  return (
    <>
      <Card
        size="small"
        title={task.planName}
        style={{ marginTop: 16 }}
        extra={
          can('RecordQcTask.export') && (
            <Space>
              <Button onClick={() => download('csv')}>{t('tasks.exportCsv')}</Button>
              <Button onClick={() => download('xlsx')}>{t('tasks.exportXlsx')}</Button>
            </Space>
          )
        }
      >
        <Tabs
          items={[
            {
              key: 'department',
              label: t('tasks.byDepartment'),
              children: (
                <ScoreTab<'department', RecordQcScore>
                  by="department"
                  how={t('tasks.scoreHow')}
                  query={scores}
                  testId="record-qc-scores"
                  pagination={false}
                  filter={filter}
                  choose={choose}
                  columns={[
                    { title: t('tasks.department'), dataIndex: 'department', render: dept },
                    ...countColumns,
                  ]}
                />
              ),
            },
            {
              key: 'doctor',
              label: t('tasks.byDoctor'),
              children: (
                <ScoreTab<'doctor', RecordQcDoctorScore>
                  by="doctor"
                  how={t('tasks.doctorHow')}
                  query={doctors}
                  testId="record-qc-doctors"
                  pagination={{ pageSize: 10, hideOnSinglePage: true }}
                  filter={filter}
                  choose={choose}
                  columns={[{ title: t('tasks.doctor'), dataIndex: 'doctor', render: doc }, ...countColumns]}
                />
              ),
            },
            {
              key: 'document',
              label: t('tasks.byDocument'),
              children: (
                <>
                  <Typography.Paragraph type="secondary">{t('tasks.docHow')}</Typography.Paragraph>
                  {documents.error && (
                    <Typography.Text type="danger">{documents.error.message}</Typography.Text>
                  )}
                  <Table<RecordQcDocumentScore>
                    rowKey="documentId"
                    size="small"
                    data-testid="record-qc-documents"
                    loading={documents.isLoading}
                    dataSource={documents.data?.items ?? []}
                    pagination={pagingOf(docPage, documents.data?.total, setDocPage)}
                    rowClassName={(r) =>
                      filter?.by === 'document' && r.documentId === filter.document_id
                        ? 'ant-table-row-selected'
                        : ''
                    }
                    columns={[
                      {
                        title: t('tasks.docTitle'),
                        key: 'title',
                        render: (_, d) => (
                          <Link
                            to={`/personalInformation/inHospitalView?id=${d.patientId}&doc=${d.documentId}`}
                          >
                            {d.title}
                          </Link>
                        ),
                      },
                      {
                        title: t('tasks.patient'),
                        key: 'patient',
                        render: (_, d) => `${d.patientName}（${d.mrn}）`,
                      },
                      { title: t('tasks.department'), dataIndex: 'department', render: dept },
                      { title: t('tasks.author'), dataIndex: 'author', render: doc },
                      { title: t('tasks.writtenAt'), dataIndex: 'writtenAt', render: time },
                      { title: t('tasks.faults'), dataIndex: 'faults' },
                      { title: t('tasks.deducted'), dataIndex: 'deducted' },
                      { title: t('tasks.score'), dataIndex: 'score', render: scoreCell },
                      {
                        title: t('common.actions'),
                        key: 'faults',
                        render: (_, d) => (
                          <Button
                            type="link"
                            size="small"
                            onClick={() =>
                              choose({ by: 'document', document_id: d.documentId, title: d.title })
                            }
                          >
                            {t('tasks.showFaults')}
                          </Button>
                        ),
                      },
                    ]}
                  />
                </>
              ),
            },
          ]}
        />
      </Card>
      <TrendCard task={task} department={filter?.by === 'department' ? filter.department : undefined} />
      <Card
        size="small"
        title={filterText !== null ? `${t('tasks.faultList')} · ${filterText}` : t('tasks.faultList')}
        style={{ marginTop: 16 }}
        extra={
          filter && (
            <Button size="small" onClick={() => choose(null)}>
              {t('tasks.clearFilter')}
            </Button>
          )
        }
      >
        {faults.error && <Typography.Text type="danger">{faults.error.message}</Typography.Text>}
        <Table<RecordQcFault>
          rowKey="id"
          size="small"
          data-testid="record-qc-faults"
          loading={faults.isLoading}
          dataSource={faults.data?.items ?? []}
          pagination={pagingOf(page, faults.data?.total, setPage)}
          columns={[
            { title: t('tasks.department'), dataIndex: 'department', render: dept },
            { title: t('tasks.doctor'), dataIndex: 'doctor', render: doc },
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
                  {f.documentId ? f.documentTitle || t('tasks.openDocument') : t('tasks.openPatient')}
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
              render: (s: JobStatus, r) => <JobStatusBadge status={s} progress={r.progress} />,
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
