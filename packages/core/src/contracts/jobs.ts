import { z } from 'zod';
import { jsonValue, timestamp, timestampOrNull } from './common.js';

/**
 * Background jobs (`GET /api/v0.1/jobs/:id`, server: jobs/routes.ts) and the job screen of task
 * scheduling (作业管理, `/api/v0.1/task-scheduling/jobs...`, server: scheduling/jobs.ts).
 */

/** Every status a job may have; `cancelled` is set only on a job that was still queued. */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const jobStatus = z.enum(JOB_STATUSES);

/**
 * Every kind of background job the server runs (its queue name); the job list, the bell's
 * notices and the scheduler word them with `label('jobKind', …)` of the labelling layer.
 */
export const JOB_KINDS = [
  'diseaseLibrary.push',
  'diseaseLibrary.fill',
  'diseaseLibrary.export',
  'research.dataset',
  'research.analysis',
  'cdr.import',
  'cdr.synthetic',
  'omop.export',
  'dataQc.run',
  't0.materialize',
  'collection.run',
  'hl7.process',
  'demo.seed',
  'rules.run',
  'coding.suggest',
  'cleaning.run',
  'recordQc.run',
  'observation.transform',
  'odm.generate',
  'variable.transfer',
  'research.externalAnalysis',
  'multicenter.federated',
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

const int = z.number().int();
const jobId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Path of a job call: `/jobs/:id`. */
export const jobParams = z.object({ id: jobId });

/** A job's status, progress and result as its starter follows it (`GET /jobs/:id`). */
export const jobView = z.object({
  id: int,
  kind: z.string(),
  status: jobStatus,
  /** 0 to 100. */
  progress: int,
  /** What the job's kind returned (its shape is the kind's); null until it succeeded. */
  result: jsonValue,
  /** Why it failed, in the reader's language. */
  error: z.string().nullable(),
  createdAt: timestamp,
  startedAt: timestampOrNull,
  finishedAt: timestampOrNull,
});
export type JobView = z.infer<typeof jobView>;

// ---- 作业管理 (task scheduling's job list) ----------------------------------------------------

export const jobListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
  kind: z.string().trim().max(100).optional(),
  status: jobStatus.optional(),
  /** Created at or after / at or before (ISO 8601 with offset). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type JobListQuery = z.infer<typeof jobListQuery>;

/** schedule: queued by the schedule's tick; manual: "run now". */
export const SCHEDULE_TRIGGERS = ['schedule', 'manual'] as const;
export const scheduleTrigger = z.enum(SCHEDULE_TRIGGERS);
export type ScheduleTrigger = z.infer<typeof scheduleTrigger>;

/** A job as the job list shows it: who started it, which schedule, retry links. */
export const jobListItem = z.object({
  id: int,
  kind: z.string(),
  /** The kind in the reader's language. */
  kindLabel: z.string(),
  status: jobStatus,
  progress: int,
  attempts: int,
  /** The starter's user name; null for a schedule's run or a deleted user. */
  createdBy: z.string().nullable(),
  schedule: z.object({ id: int, name: z.string(), trigger: scheduleTrigger }).nullable(),
  createdAt: timestamp,
  startedAt: timestampOrNull,
  finishedAt: timestampOrNull,
  durationMs: int.nullable(),
  error: z.string().nullable(),
  /** A one-line summary of a succeeded job's result in the reader's language. */
  summary: z.string().nullable(),
  /** The failed or cancelled job this one retries. */
  retryOf: int.nullable(),
  /** The jobs that retried this one. */
  retriedAs: z.array(int),
});
export type JobListItem = z.infer<typeof jobListItem>;

/** One page of the job list: `{ list, total }` (the screen's wire shape since it was built). */
export const jobList = z.object({ list: z.array(jobListItem), total: int });
export type JobList = z.infer<typeof jobList>;

/** One job with its params, result and the process that ran it. */
export const jobDetail = jobListItem.extend({
  params: z.record(z.string(), z.unknown()),
  result: jsonValue,
  /** The process that ran it (host:pid). */
  workerId: z.string().nullable(),
});
export type JobDetail = z.infer<typeof jobDetail>;

/** A job kind with its name, for the list's filter. */
export const jobKindOption = z.object({
  kind: z.string(),
  label: z.string(),
  /** How many jobs of the kind the app runs at once, when it set a limit (job_kind_settings; the runner keeps it). */
  maxRunning: int.optional(),
});
export type JobKindOption = z.infer<typeof jobKindOption>;

/** Answer of a retry: the new job and the one it retries. */
export const jobRetried = z.object({ jobId: int, retryOf: int });
export type JobRetried = z.infer<typeof jobRetried>;

/** Answer of a cancel. */
export const jobCancelled = z.object({ id: int, status: z.literal('cancelled') });
export type JobCancelled = z.infer<typeof jobCancelled>;

/** The id of a queued job. */
export const jobQueued = z.object({ jobId: int });
export type JobQueued = z.infer<typeof jobQueued>;
