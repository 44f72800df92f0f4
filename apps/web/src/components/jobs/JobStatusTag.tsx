import type { JobStatus } from '@crdp/core';
import { Badge, type BadgeProps, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useLabel } from '../../app/labels';
import { isUnderWay } from './useJobPoll';

/** The colour of a job's status wherever a job or its run is listed. */
export const JOB_STATUS_COLOR: Record<JobStatus, string> = {
  queued: 'default',
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** When a job was created, started or finished, to the second; '-' when it has not. */
export const jobTime = (v: string | null | undefined) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '-');

/** A job's status as a coloured tag in the reader's language. */
export function JobStatusTag({ status, testId }: { status: JobStatus; testId?: string }) {
  const word = useLabel();
  return (
    <Tag color={JOB_STATUS_COLOR[status]} data-testid={testId}>
      {word('jobStatus', status)}
    </Tag>
  );
}

type BadgeStatus = NonNullable<BadgeProps['status']>;

/**
 * A job's status as a badge (a dot and the word in the reader's language): while it runs, its
 * progress beside it (when given); otherwise the reason of a failure on hover (when given).
 */
export function JobStatusBadge({
  status,
  progress,
  error,
  colors = JOB_STATUS_COLOR as Record<JobStatus, BadgeStatus>,
}: {
  status: JobStatus;
  progress?: number;
  error?: string | null;
  colors?: Record<JobStatus, BadgeStatus>;
}) {
  const word = useLabel();
  const badge = <Badge status={colors[status] ?? 'default'} text={word('jobStatus', status)} />;
  if (status === 'running' && progress !== undefined)
    return (
      <Space>
        {badge}
        <Progress percent={progress} size="small" style={{ width: 80 }} />
      </Space>
    );
  return error ? <Tooltip title={error}>{badge}</Tooltip> : badge;
}

/**
 * A run's status in a list of federated or transfer runs, one line under the other: its badge,
 * its progress while under way (when given), and the reason it failed.
 */
export function RunStatusStack({
  status,
  progress,
  error,
}: {
  status: JobStatus;
  progress?: number;
  error: string | null;
}) {
  return (
    <Space direction="vertical" size={0}>
      <JobStatusBadge status={status} />
      {progress !== undefined && isUnderWay(status) && (
        <Progress percent={progress} size="small" style={{ width: 120 }} />
      )}
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Space>
  );
}
