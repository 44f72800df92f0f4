import { type QueryKey, type UseQueryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/**
 * Following background work from the web: one hook for every screen that waits on a job (a
 * job itself, or records that carry a job's status: imports, QC tasks, OMOP tasks, datasets).
 */

/** Statuses of work still under way: a job's (queued, running) and a dataset's (building). */
const UNDER_WAY = new Set(['queued', 'running', 'building']);

/** Whether a status is one of work still under way. */
export const isUnderWay = (status: string | null | undefined) => !!status && UNDER_WAY.has(status);

/** How often work under way is asked about. */
export const JOB_POLL_MS = 1000;

/**
 * The refetch interval of a polled query: every `ms` while what it holds is under way, none once
 * it is over. None after a failed request either: the client's error layer has already shown
 * why, asking every second would repeat it; the screen's reload (`refetch`) asks again.
 */
export function pollInterval<T>(
  state: { status: string; data: T | undefined },
  underWay: (data: T) => boolean,
  ms = JOB_POLL_MS,
): number | false {
  if (state.status === 'error' || state.data === undefined) return false;
  return underWay(state.data) ? ms : false;
}

export interface JobPollOptions<T> extends Omit<UseQueryOptions<T, Error, T, QueryKey>, 'refetchInterval'> {
  /** Whether what the query holds is still under way (keep asking). */
  underWay: (data: T) => boolean;
  /** Once per query key, when what it holds is over (right away if its first answer is). */
  onEnd?: (data: T) => void;
  /** Once per query key, when asking failed (the client's error layer has shown why). */
  onError?: (error: Error) => void;
  intervalMs?: number;
}

/**
 * A query that asks again every second while what it holds is under way and stops when it is
 * over; `onEnd` and `onError` tell the screen once, so it can word the outcome (a failed job's
 * `error` comes worded in the reader's language) and refresh its lists. Errors are never
 * swallowed: the query keeps its `error`, and `onError` is called.
 */
export function useJobPoll<T>({
  underWay,
  onEnd,
  onError,
  intervalMs = JOB_POLL_MS,
  ...options
}: JobPollOptions<T>): UseQueryResult<T, Error> {
  const query = useQuery({
    ...options,
    refetchInterval: (q) => pollInterval(q.state, underWay, intervalMs),
  });
  const told = useRef<string | null>(null);
  const key = JSON.stringify(options.queryKey);
  const { data, error, isError, isFetching } = query;
  const enabled = options.enabled !== false;
  useEffect(() => {
    if (!enabled || told.current === key || isFetching) return;
    if (isError) {
      told.current = key;
      onError?.(error);
    } else if (data !== undefined && !underWay(data)) {
      told.current = key;
      onEnd?.(data);
    }
  });
  return query;
}
