import type {
  CronPreview,
  JobCancelled,
  JobDetail,
  JobKindOption,
  JobList,
  JobListQuery,
  JobQueued,
  JobRetried,
  LibraryPage,
  SchedulableKinds,
  ScheduleDetail,
  ScheduleInputBody,
  ScheduleList,
  ScheduleListQuery,
  SchedulePatch,
  ScheduleSaved,
  ScheduleSwitched,
} from '@crdp/core';
import { RequestError, rest } from '../../api/client';
import { hasApiId } from '../../app/access';
import { useSession } from '../../app/session';

/** Calls of the task-scheduling pages (apps/server/src/scheduling/routes.ts); shapes from @crdp/core. */
export type {
  JobDetail,
  JobListItem as Job,
  JobStatus,
  SchedulableKindInfo as SchedulableKind,
  ScheduleDetail,
  ScheduleView as Schedule,
} from '@crdp/core';
export { JOB_STATUSES } from '@crdp/core';

const P = 'task-scheduling';
export const schedulingApi = {
  jobs: (q: JobListQuery) => rest<JobList>({ url: `${P}/jobs`, params: q }),
  jobKinds: () => rest<JobKindOption[]>({ url: `${P}/job-kinds` }),
  job: (id: number) => rest<JobDetail>({ url: `${P}/jobs/${id}` }),
  retry: (id: number) => rest<JobRetried>({ url: `${P}/jobs/${id}/retry`, method: 'POST' }),
  cancel: (id: number) => rest<JobCancelled>({ url: `${P}/jobs/${id}/cancel`, method: 'POST' }),

  kinds: () => rest<SchedulableKinds>({ url: `${P}/schedulable-kinds` }),
  cronNext: (cron: string, signal?: AbortSignal) =>
    rest<CronPreview>({
      url: `${P}/cron/next`,
      params: { cron, count: 5 },
      signal,
      // The form shows the reason under the field; no toast while someone is typing.
      silent: true,
    }),
  schedules: (q: ScheduleListQuery) => rest<ScheduleList>({ url: `${P}/schedules`, params: q }),
  schedule: (id: number) => rest<ScheduleDetail>({ url: `${P}/schedules/${id}` }),
  create: (body: ScheduleInputBody) =>
    rest<ScheduleSaved>({ url: `${P}/schedules`, method: 'POST', data: body }),
  update: (id: number, body: SchedulePatch) =>
    rest<ScheduleSaved>({ url: `${P}/schedules/${id}`, method: 'PUT', data: body }),
  remove: (id: number) => rest<null>({ url: `${P}/schedules/${id}`, method: 'DELETE' }),
  enable: (id: number) => rest<ScheduleSwitched>({ url: `${P}/schedules/${id}/enable`, method: 'POST' }),
  disable: (id: number) => rest<ScheduleSwitched>({ url: `${P}/schedules/${id}/disable`, method: 'POST' }),
  runNow: (id: number) => rest<JobQueued>({ url: `${P}/schedules/${id}/run`, method: 'POST' }),

  /** The app's disease libraries, for the params of the library kinds. */
  libraries: () => rest<LibraryPage>({ url: 'diseaselibrary/libraries', params: { page: 1, size: 200 } }),
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
