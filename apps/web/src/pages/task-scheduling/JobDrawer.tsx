import { Alert, App, Button, Descriptions, Drawer, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { JobStatusBadge, jobTime as time } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { type Job, schedulingApi, useCan } from './api';
import { TS_NS } from './i18n';

export function useDuration() {
  const { t } = useTranslation(TS_NS);
  return (ms: number | null) => {
    if (ms === null) return '-';
    if (ms < 1000) return t('jobs.ms', { n: ms });
    const s = Math.round(ms / 1000);
    if (s < 60) return t('jobs.s', { n: s });
    if (s < 3600) return t('jobs.min', { m: Math.floor(s / 60), s: s % 60 });
    return t('jobs.h', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  };
}

export function StartedBy({ job }: { job: Job }) {
  const { t } = useTranslation(TS_NS);
  const who = job.createdBy ?? t('jobs.system');
  if (!job.schedule) return <>{who}</>;
  const via = t(job.schedule.trigger === 'manual' ? 'jobs.byScheduleManual' : 'jobs.bySchedule', {
    name: job.schedule.name,
  });
  return (
    <Space direction="vertical" size={0}>
      <span>{who}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {via}
      </Typography.Text>
    </Space>
  );
}

/** Retry (failed or cancelled) and cancel (queued) of one job; a running job says why it cannot be cancelled. */
export function JobActions({
  job,
  onDone,
  onOpen,
}: {
  job: Job;
  onDone: () => void;
  onOpen?: (id: number) => void;
}) {
  const { t } = useTranslation(TS_NS);
  const { message } = App.useApp();
  const can = useCan();
  return (
    <Space size={0} wrap>
      {(job.status === 'failed' || job.status === 'cancelled') && can('TaskProjectManagement.add') && (
        <Popconfirm
          title={t('jobs.retryConfirm')}
          onConfirm={async () => {
            try {
              const r = await schedulingApi.retry(job.id);
              message.success(t('jobs.retried', { id: r.jobId }));
              onDone();
              onOpen?.(r.jobId);
            } catch (e) {
              message.error((e as Error).message);
            }
          }}
        >
          <Button type="link" size="small">
            {t('jobs.retry')}
          </Button>
        </Popconfirm>
      )}
      {job.status === 'queued' && can('TaskProjectManagement.edit') && (
        <Popconfirm
          title={t('jobs.cancelConfirm')}
          onConfirm={async () => {
            try {
              await schedulingApi.cancel(job.id);
              message.success(t('jobs.cancelled'));
            } catch (e) {
              message.error((e as Error).message);
            }
            onDone();
          }}
        >
          <Button type="link" size="small" danger>
            {t('jobs.cancelJob')}
          </Button>
        </Popconfirm>
      )}
      {job.status === 'running' && can('TaskProjectManagement.edit') && (
        <Tooltip title={t('jobs.cannotCancelRunning')}>
          <Button type="link" size="small" disabled>
            {t('jobs.cancelJob')}
          </Button>
        </Tooltip>
      )}
    </Space>
  );
}

const json = (v: unknown) => (
  <pre
    data-testid="job-json"
    style={{
      margin: 0,
      maxHeight: 320,
      overflow: 'auto',
      fontSize: 12,
      whiteSpace: 'pre-wrap',
      wordBreak: 'break-all',
    }}
  >
    {JSON.stringify(v, null, 2)}
  </pre>
);

/** A job's details: when, who, how long, params and result as JSON, and the jobs it is linked to by retries. */
export function JobDrawer({
  id,
  onClose,
  onOpen,
  onChanged,
}: {
  id: number | null;
  onClose: () => void;
  onOpen: (id: number) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation(TS_NS);
  const duration = useDuration();
  const job = useJobPoll({
    queryKey: ['taskScheduling', 'job', id],
    queryFn: () => schedulingApi.job(id!),
    enabled: id !== null,
    underWay: (j) => isUnderWay(j.status),
  });
  const j = job.data;
  const link = (n: number) => (
    <Button key={n} type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(n)}>
      #{n}
    </Button>
  );
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width={640}
      title={id !== null ? t('jobs.detailTitle', { id }) : ''}
      loading={job.isLoading}
      extra={
        j && (
          <JobActions
            job={j}
            onOpen={onOpen}
            onDone={() => {
              void job.refetch();
              onChanged();
            }}
          />
        )
      }
    >
      {j && (
        <Descriptions column={1} size="small" bordered labelStyle={{ width: 130 }}>
          <Descriptions.Item label={t('jobs.kind')}>
            {j.kindLabel} <Typography.Text type="secondary">({j.kind})</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('jobs.status')}>
            <JobStatusBadge status={j.status} progress={j.progress} />
          </Descriptions.Item>
          <Descriptions.Item label={t('jobs.startedBy')}>
            <StartedBy job={j} />
          </Descriptions.Item>
          <Descriptions.Item label={t('jobs.createdAt')}>{time(j.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('jobs.startedAt')}>{time(j.startedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('jobs.finishedAt')}>{time(j.finishedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('jobs.duration')}>{duration(j.durationMs)}</Descriptions.Item>
          <Descriptions.Item label={t('jobs.attempts')}>{j.attempts}</Descriptions.Item>
          {j.workerId && <Descriptions.Item label={t('jobs.worker')}>{j.workerId}</Descriptions.Item>}
          {j.retryOf !== null && (
            <Descriptions.Item label={t('jobs.retryOf')}>{link(j.retryOf)}</Descriptions.Item>
          )}
          {j.retriedAs.length > 0 && (
            <Descriptions.Item label={t('jobs.retriedAs')}>
              <Space>{j.retriedAs.map(link)}</Space>
            </Descriptions.Item>
          )}
          {j.error && (
            <Descriptions.Item label={t('jobs.error')}>
              <Typography.Text type="danger">{j.error}</Typography.Text>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('jobs.params')}>{json(j.params)}</Descriptions.Item>
          <Descriptions.Item label={t('jobs.result')}>{json(j.result)}</Descriptions.Item>
        </Descriptions>
      )}
      {job.isError && <Alert type="error" message={job.error.message} />}
    </Drawer>
  );
}
