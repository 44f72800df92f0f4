import type { JobStatus } from '@crdp/core';
import { Tag } from 'antd';
import dayjs from 'dayjs';
import { useLabel } from '../../app/labels';

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
