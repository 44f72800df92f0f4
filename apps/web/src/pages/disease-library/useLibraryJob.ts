import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { type Job, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';

/** What a library job did, in words, once it succeeded (push, fill or export). */
export type JobDone = 'push' | 'fill' | 'export';

/**
 * Follows one job of a library (null: none) until it ends, then says how it went (failed,
 * cancelled, or what it did) and calls `over`; when the job cannot be followed the client's error
 * layer has said why, and `over` is called too. Returns the job's progress while it runs.
 */
export function useLibraryJob(jobId: number | null, done: JobDone, over: () => void): number | null {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const running = useJobPoll({
    queryKey: ['job', jobId],
    queryFn: () => libraryApi.job(jobId!),
    enabled: jobId !== null,
    underWay: (j: Job) => isUnderWay(j.status),
    onEnd: (job: Job) => {
      if (job.status === 'failed') message.error(t('list.failed', { error: job.error ?? '' }));
      else if (job.status === 'cancelled') message.warning(t('list.cancelled'));
      else if (done === 'push') message.success(t('list.pushed', job.result as Record<string, number>));
      else if (done === 'fill')
        message.success(t('list.filled', (job.result as { counts: Record<string, number> }).counts));
      else message.success(t('export.done', { rows: (job.result as { rows?: number })?.rows ?? 0 }));
      over();
    },
    onError: over,
  });
  return jobId === null ? null : (running.data?.progress ?? 0);
}
