import { type ActionType, ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { labelNow } from '../../app/labels';
import { CutText } from '../../components/CutText';
import { JobStatusBadge, jobTime as time } from '../../components/jobs/JobStatusTag';
import { HeaderHint, HeaderTitle } from '../../components/table/HeaderTitle';
import { proPage } from '../../components/table/paging';
import { JOB_STATUSES, type Job, type JobStatus, schedulingApi, useCan } from './api';
import { TS_NS } from './i18n';
import { JobActions, JobDrawer, StartedBy, useDuration } from './JobDrawer';

/** A time of the same day as `day` as HH:mm:ss, else in full. */
const clock = (v: string | null, day: string) =>
  !v ? '-' : dayjs(v).isSame(dayjs(day), 'day') ? dayjs(v).format('HH:mm:ss') : time(v);

/**
 * 作业管理 (route TaskProjectManagement): every background job of this app, filtered by kind,
 * status and time, with its detail drawer, retry and cancel. Other pages open a job's drawer by
 * navigating here with `state: { job: id }` (not a query string: the tabs are keyed by the URL).
 */
export default function JobList() {
  const { t } = useTranslation(TS_NS);
  const can = useCan();
  const navigate = useNavigate();
  const duration = useDuration();
  const table = useRef<ActionType>(null);
  const location = useLocation();
  const asked = (location.state as { job?: unknown } | null)?.job;
  const [open, setOpen] = useState<number | null>(typeof asked === 'number' ? asked : null);
  // A kept-alive tab gets the next link's job through a new location with the same URL.
  const askedAt = typeof asked === 'number' ? `${location.key}:${asked}` : null;
  useEffect(() => {
    if (askedAt) setOpen(Number(askedAt.split(':').pop()));
  }, [askedAt]);
  const [busy, setBusy] = useState(false);
  const kinds = useQuery({ queryKey: ['taskScheduling', 'jobKinds'], queryFn: schedulingApi.jobKinds });

  return (
    <>
      <ProTable<Job, { kind?: string; status?: JobStatus; createdAt?: [string, string] }>
        rowKey="id"
        actionRef={table}
        headerTitle={
          <HeaderTitle title={t('jobs.title')} hint={t('jobs.hint')}>
            {(kinds.data ?? []).some((k) => k.maxRunning) && (
              <HeaderHint data-testid="job-limits">
                {t('jobs.limits', {
                  list: (kinds.data ?? [])
                    .filter((k) => k.maxRunning)
                    .map((k) => t('jobs.limit', { kind: k.label, max: k.maxRunning }))
                    .join('；'),
                })}
              </HeaderHint>
            )}
          </HeaderTitle>
        }
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        polling={busy ? 2000 : undefined}
        request={async (p) => {
          const r = await schedulingApi.jobs({
            ...proPage(p),
            kind: p.kind || undefined,
            status: p.status || undefined,
            from: p.createdAt?.[0] ? new Date(p.createdAt[0]).toISOString() : undefined,
            to: p.createdAt?.[1] ? new Date(p.createdAt[1]).toISOString() : undefined,
          });
          setBusy(r.list.some((j) => j.status === 'queued' || j.status === 'running'));
          return { data: r.list, total: r.total, success: true };
        }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        toolBarRender={() =>
          can('TaskSchedulingList.query')
            ? [
                <Button key="schedules" onClick={() => navigate('/task-scheduling/task-scheduling')}>
                  {t('jobs.toSchedules')}
                </Button>,
              ]
            : []
        }
        scroll={{ x: 1170 }}
        columns={[
          {
            title: t('jobs.id'),
            dataIndex: 'id',
            width: 80,
            search: false,
            render: (_, j) => (
              <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setOpen(j.id)}>
                #{j.id}
              </Button>
            ),
          },
          {
            title: t('jobs.kind'),
            dataIndex: 'kind',
            width: 130,
            valueType: 'select',
            fieldProps: { showSearch: true, optionFilterProp: 'label', style: { minWidth: 180 } },
            valueEnum: Object.fromEntries((kinds.data ?? []).map((k) => [k.kind, { text: k.label }])),
            render: (_, j) => j.kindLabel,
          },
          {
            title: t('jobs.status'),
            dataIndex: 'status',
            width: 120,
            valueType: 'select',
            valueEnum: Object.fromEntries(JOB_STATUSES.map((s) => [s, { text: labelNow('jobStatus', s) }])),
            render: (_, j) => (
              <Space direction="vertical" size={0}>
                <JobStatusBadge status={j.status} progress={j.progress} />
                {j.attempts > 1 && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('jobs.attemptsN', { n: j.attempts })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('jobs.outcome'),
            key: 'outcome',
            search: false,
            width: 230,
            render: (_, j) => (
              <Space direction="vertical" size={0}>
                {/* Cut by spec 001's rule (full-width characters count 2), whole on hover. */}
                {j.error ? (
                  <Typography.Text type="danger">
                    <CutText text={j.error} limit={28} />
                  </Typography.Text>
                ) : (
                  <Typography.Text>
                    {j.summary ? <CutText text={j.summary} limit={28} /> : '-'}
                  </Typography.Text>
                )}
                {j.retryOf !== null && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('jobs.retryOf')} #{j.retryOf}
                  </Typography.Text>
                )}
                {j.retriedAs.length > 0 && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('jobs.retriedAs')} {j.retriedAs.map((n) => `#${n}`).join(', ')}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('jobs.startedBy'),
            key: 'by',
            width: 150,
            search: false,
            render: (_, j) => <StartedBy job={j} />,
          },
          {
            title: t('jobs.time'),
            dataIndex: 'createdAt',
            valueType: 'dateTimeRange',
            hideInTable: true,
          },
          {
            title: t('jobs.times'),
            key: 'times',
            width: 210,
            search: false,
            render: (_, j) => (
              <Space direction="vertical" size={0}>
                <span>{time(j.createdAt)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('jobs.startedShort')} {clock(j.startedAt, j.createdAt)} · {t('jobs.finishedShort')}{' '}
                  {clock(j.finishedAt, j.createdAt)}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('jobs.duration'),
            key: 'duration',
            width: 100,
            search: false,
            render: (_, j) => duration(j.durationMs),
          },
          {
            title: t('common.actions'),
            valueType: 'option',
            fixed: 'right',
            width: 150,
            render: (_, j) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setOpen(j.id)}>
                  {t('jobs.detail')}
                </Button>
                <JobActions job={j} onDone={() => table.current?.reload()} onOpen={setOpen} />
              </Space>
            ),
          },
        ]}
      />
      <JobDrawer
        id={open}
        onClose={() => setOpen(null)}
        onOpen={setOpen}
        onChanged={() => table.current?.reload()}
      />
    </>
  );
}
