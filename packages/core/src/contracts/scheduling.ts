import { z } from 'zod';
import { pageQueryFields, stamps, timestamp, timestampOrNull } from './common.js';
import { jobStatus, scheduleTrigger } from './jobs.js';

/**
 * Task scheduling (任务调度, `/api/v0.1/task-scheduling/...`, server: scheduling/): schedules
 * are cron-driven runs of a registered job kind with its params. The job list's shapes are in
 * jobs.ts.
 */

/** Limits of the schedule form (the server's schema and the web's form rules). */
export const SCHEDULE_NAME_MAX = 100;
export const SCHEDULE_CRON_MAX = 200;
export const SCHEDULE_KIND_MAX = 100;

const int = z.number().int();
const serialId = z.coerce.number().int().positive().max(2_147_483_647);

// ---- Requests -------------------------------------------------------------------------------

export const scheduleParams = z.object({ id: serialId });

const name = z.string().trim().min(1).max(SCHEDULE_NAME_MAX);
const cron = z.string().trim().min(1).max(SCHEDULE_CRON_MAX);
const kind = z.string().trim().min(1).max(SCHEDULE_KIND_MAX);
/** The job's params; the kind's own schema checks them on the server. */
const params = z.record(z.string().max(100), z.unknown());

export const scheduleInput = z.object({
  name,
  kind,
  params: params.default({}),
  cron,
  enabled: z.boolean().default(true),
});
/** What the server works with (defaults applied). */
export type ScheduleInput = z.infer<typeof scheduleInput>;
/** What a client sends. */
export type ScheduleInputBody = z.input<typeof scheduleInput>;

export const schedulePatch = z.object({ name, kind, params, cron }).partial();
export type SchedulePatch = z.infer<typeof schedulePatch>;

export const scheduleListQuery = z.object({
  ...pageQueryFields(100),
  name: z.string().trim().max(100).optional(),
  kind: z.string().trim().max(100).optional(),
  enabled: z.enum(['true', 'false']).optional(),
});
export type ScheduleListQuery = z.infer<typeof scheduleListQuery>;

export const cronNextQuery = z.object({
  cron: z.string().max(SCHEDULE_CRON_MAX),
  count: z.coerce.number().int().min(1).max(20).default(5),
});

// ---- Answers --------------------------------------------------------------------------------

/** A job kind a schedule may run: its name and the JSON Schema of its params. */
export const schedulableKind = z.object({
  kind: z.string(),
  label: z.string(),
  /** JSON Schema (draft 2020-12) of the kind's params; `properties` names them. */
  params: z.looseObject({ properties: z.record(z.string(), z.unknown()).optional() }),
});
export type SchedulableKindInfo = z.infer<typeof schedulableKind>;

export const schedulableKinds = z.object({
  /** The IANA time zone new schedules read their cron expressions in. */
  timezone: z.string(),
  kinds: z.array(schedulableKind),
});
export type SchedulableKinds = z.infer<typeof schedulableKinds>;

/** A cron expression's next run times (the form's preview). */
export const cronPreview = z.object({
  /** The expression in its stored form (single spaces). */
  cron: z.string(),
  timezone: z.string(),
  next: z.array(timestamp),
});
export type CronPreview = z.infer<typeof cronPreview>;

/** A schedule as the API shows it, with its kind in words, target, last job and creator. */
export const scheduleView = z.object({
  id: int,
  name: z.string(),
  kind: z.string(),
  kindLabel: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** What the params point at, in words (the library's name...). */
  target: z.string().nullable(),
  cron: z.string(),
  timezone: z.string(),
  enabled: z.boolean(),
  /** Null while disabled. */
  nextRunAt: timestampOrNull,
  lastRunAt: timestampOrNull,
  lastJob: z.object({ id: int, status: jobStatus }).nullable(),
  /** Why the last due run queued nothing, in the reader's language. */
  lastError: z.string().nullable(),
  createdBy: z.string().nullable(),
  ...stamps,
});
export type ScheduleView = z.infer<typeof scheduleView>;

export const scheduleList = z.object({ list: z.array(scheduleView), total: int });
export type ScheduleList = z.infer<typeof scheduleList>;

/** One run of a schedule: the job it queued (null once the job was deleted) and how it went. */
export const scheduleRun = z.object({
  id: int,
  jobId: int.nullable(),
  trigger: scheduleTrigger,
  /** The due time a tick ran it for; null for "run now". */
  dueAt: timestampOrNull,
  createdAt: timestamp,
  status: jobStatus.nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRun>;

/** A schedule with its last 20 runs. */
export const scheduleDetail = scheduleView.extend({ runs: z.array(scheduleRun) });
export type ScheduleDetail = z.infer<typeof scheduleDetail>;

/** Answer of create and change: the schedule and its next due time. */
export const scheduleSaved = z.object({ id: int, nextRunAt: timestampOrNull });
export type ScheduleSaved = z.infer<typeof scheduleSaved>;

/** Answer of enable and disable. */
export const scheduleSwitched = z.object({ id: int, enabled: z.boolean(), nextRunAt: timestampOrNull });
export type ScheduleSwitched = z.infer<typeof scheduleSwitched>;
