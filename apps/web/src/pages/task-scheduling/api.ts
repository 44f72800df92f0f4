import { RequestError, rest } from '../../api/client';
import { hasApiId } from '../../app/access';
import { useSession } from '../../app/session';

/** Calls of the task-scheduling pages (apps/server/src/scheduling/routes.ts). */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const JOB_STATUSES: JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export interface Job {
  id: number;
  kind: string;
  kindLabel: string;
  status: JobStatus;
  progress: number;
  attempts: number;
  createdBy: string | null;
  schedule: { id: number; name: string; trigger: 'schedule' | 'manual' } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  error: string | null;
  summary: string | null;
  retryOf: number | null;
  retriedAs: number[];
}
export interface JobDetail extends Job {
  params: Record<string, unknown>;
  result: unknown;
  workerId: string | null;
}
export interface JobQuery {
  page: number;
  size: number;
  kind?: string;
  status?: JobStatus;
  from?: string;
  to?: string;
}

export interface Schedule {
  id: number;
  name: string;
  kind: string;
  kindLabel: string;
  params: Record<string, unknown>;
  target: string | null;
  cron: string;
  timezone: string;
  enabled: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastJob: { id: number; status: JobStatus } | null;
  lastError: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface ScheduleDetail extends Schedule {
  runs: Array<{
    id: number;
    jobId: number | null;
    trigger: 'schedule' | 'manual';
    dueAt: string | null;
    createdAt: string;
    status: JobStatus | null;
  }>;
}
export interface ScheduleInput {
  name: string;
  kind: string;
  params: Record<string, unknown>;
  cron: string;
  enabled?: boolean;
}
export interface SchedulableKind {
  kind: string;
  label: string;
  params: { properties?: Record<string, unknown> };
}

const P = 'task-scheduling';
export const schedulingApi = {
  jobs: (q: JobQuery) => rest<{ list: Job[]; total: number }>({ url: `${P}/jobs`, params: q }),
  jobKinds: () => rest<Array<{ kind: string; label: string }>>({ url: `${P}/job-kinds` }),
  job: (id: number) => rest<JobDetail>({ url: `${P}/jobs/${id}` }),
  retry: (id: number) =>
    rest<{ jobId: number; retryOf: number }>({ url: `${P}/jobs/${id}/retry`, method: 'POST' }),
  cancel: (id: number) => rest<{ id: number }>({ url: `${P}/jobs/${id}/cancel`, method: 'POST' }),

  kinds: () => rest<{ timezone: string; kinds: SchedulableKind[] }>({ url: `${P}/schedulable-kinds` }),
  cronNext: (cron: string, signal?: AbortSignal) =>
    rest<{ cron: string; timezone: string; next: string[] }>({
      url: `${P}/cron/next`,
      params: { cron, count: 5 },
      signal,
      // The form shows the reason under the field; no toast while someone is typing.
      silent: true,
    }),
  schedules: (q: { page: number; size: number; name?: string; kind?: string; enabled?: string }) =>
    rest<{ list: Schedule[]; total: number }>({ url: `${P}/schedules`, params: q }),
  schedule: (id: number) => rest<ScheduleDetail>({ url: `${P}/schedules/${id}` }),
  create: (body: ScheduleInput) =>
    rest<{ id: number; nextRunAt: string | null }>({ url: `${P}/schedules`, method: 'POST', data: body }),
  update: (id: number, body: Partial<ScheduleInput>) =>
    rest<{ id: number }>({ url: `${P}/schedules/${id}`, method: 'PUT', data: body }),
  remove: (id: number) => rest<null>({ url: `${P}/schedules/${id}`, method: 'DELETE' }),
  enable: (id: number) => rest<unknown>({ url: `${P}/schedules/${id}/enable`, method: 'POST' }),
  disable: (id: number) => rest<unknown>({ url: `${P}/schedules/${id}/disable`, method: 'POST' }),
  runNow: (id: number) => rest<{ jobId: number }>({ url: `${P}/schedules/${id}/run`, method: 'POST' }),

  /** The app's disease libraries, for the params of the library kinds. */
  libraries: () =>
    rest<{ items: Array<{ id: number; name: string; status: string }> }>({
      url: 'diseaselibrary/libraries',
      params: { page: 1, size: 200 },
    }),
};

/** The server's 400 names the field (`body.cron`, `body.params.libraryId`): the form shows it there. */
export function fieldError(e: unknown): { field: string; message: string } | null {
  if (!(e instanceof RequestError)) return null;
  const body = e.body as { field?: string; message?: string } | undefined;
  return body?.field ? { field: body.field, message: body?.message ?? e.message } : null;
}

/** Whether the user holds a function of these menus (the server checks it again). */
export function useCan() {
  const { access } = useSession();
  return (apiId: string) => !!access && hasApiId(access, apiId);
}

/** A time in the given zone (the server's, for schedules), as YYYY-MM-DD HH:mm and the weekday. */
export function timeIn(iso: string | null, timeZone: string, locale: string, weekday = true) {
  if (!iso) return '-';
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const hour = get('hour') === '24' ? '00' : get('hour');
  const text = `${get('year')}-${get('month')}-${get('day')} ${hour}:${get('minute')}`;
  if (!weekday) return text;
  return `${text} ${new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short' }).format(new Date(iso))}`;
}
