import {
  cronNextQuery,
  cronPreview,
  jobCancelled,
  jobDetail as jobDetailSchema,
  jobKindOption,
  jobList,
  jobListQuery,
  jobParams,
  jobQueued,
  jobRetried,
  type Locale,
  schedulableKinds,
  scheduleDetail as scheduleDetailSchema,
  scheduleInput,
  scheduleList,
  scheduleListQuery,
  scheduleParams,
  schedulePatch,
  scheduleSaved,
  scheduleSwitched,
} from '@crdp/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { deleted } from '../http/reply.js';
import { restRoutes } from '../http/route.js';
import { findJob } from '../jobs/runner.js';
import { scheduleTimezone } from './cron.js';
import { cancelJob, jobDetail, jobKinds, listJobs, ownedJobIds, retryJob } from './jobs.js';
import { registerBuiltInKinds } from './kinds.js';
import { SchedulableRegistry } from './registry.js';
import { Scheduler } from './scheduler.js';
import {
  createSchedule,
  deleteSchedule,
  listSchedules,
  ownedScheduleIds,
  previewCron,
  runNow,
  type SchedulingEnv,
  scheduleDetail,
  scheduleOf,
  setEnabled,
  updateSchedule,
} from './schedules.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Job kinds schedules may run; areas add theirs with `app.scheduleKinds.register`. */
    scheduleKinds: SchedulableRegistry;
    /** The scheduler tick of this process (`tick()`, `clock` for tests). */
    scheduler: Scheduler;
  }
}

const P = '/api/v0.1/task-scheduling';
const locale = (req: FastifyRequest) => req.locale as Locale;

/**
 * Task scheduling (任务调度): the app's background jobs (list, detail, retry, cancel) and
 * schedules (cron-driven runs of registered job kinds). Registered after the job runner and the
 * areas whose job kinds it schedules; fastify-plugin so `app.scheduler` is visible to tests.
 */
export const schedulingRoutes = fp(async (app: FastifyInstance) => {
  const timezone = scheduleTimezone();
  const registry = new SchedulableRegistry();
  registerBuiltInKinds(registry);
  const scheduler = new Scheduler(app.db, registry, {
    intervalMs: app.config.scheduleTickSeconds * 1000,
    onQueued: () => app.jobs.nudge(),
    log: app.log,
  });
  app.decorate('scheduleKinds', registry);
  app.decorate('scheduler', scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());
  const env = (): SchedulingEnv => ({ db: app.db, registry, clock: scheduler.clock, timezone });

  // Another app's schedule or job is not found, whatever the body says: ownership is checked
  // before the body is validated.
  const ownSchedule = async (req: FastifyRequest) => {
    const id = (req.params as { id?: string }).id;
    if (req.auth?.kind === 'login' && id && /^\d{1,10}$/.test(id))
      await scheduleOf(app.db, req.auth.appId, Number(id));
  };
  const ownJob = async (req: FastifyRequest) => {
    const id = (req.params as { id?: string }).id;
    if (
      req.auth?.kind === 'login' &&
      id &&
      /^\d{1,15}$/.test(id) &&
      !(await findJob(app.db, req.auth.appId, Number(id)))
    )
      throw notFound('job');
  };
  const tags = ['task-scheduling'];
  const api = restRoutes(app, { tags });
  const jobsFn = (action: string) => ({ apiId: `TaskProjectManagement.${action}` });
  const schedFn = (action: string) => ({ apiId: `TaskSchedulingList.${action}` });

  // ---- jobs (作业管理, TaskProjectManagement) ----
  api.get(
    `${P}/jobs`,
    {
      access: jobsFn('query'),
      summary: 'Background jobs of the app, newest first',
      query: jobListQuery,
      answer: jobList,
    },
    (req) => listJobs(app.db, req.auth!.appId, req.query, locale(req)),
  );
  api.get(
    `${P}/job-kinds`,
    {
      access: jobsFn('query'),
      summary: 'Job kinds with their names (list filter)',
      answer: z.array(jobKindOption),
    },
    (req) => jobKinds(app.db, req.auth!.appId, locale(req)),
  );
  api.get(
    `${P}/jobs/:id`,
    {
      access: jobsFn('get'),
      ownedIds: ownedJobIds,
      summary: 'A job with its params and result',
      params: jobParams,
      answer: jobDetailSchema,
    },
    (req) => jobDetail(app.db, req.auth!.appId, req.params.id, locale(req)),
  );
  api.post(
    `${P}/jobs/:id/retry`,
    {
      access: jobsFn('add'),
      ownedIds: ownedJobIds,
      summary: 'Queue a failed or cancelled job again (same kind and params)',
      params: jobParams,
      preValidation: ownJob,
      answer: jobRetried,
    },
    async (req) => {
      const out = await retryJob(app.db, signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return out;
    },
  );
  api.post(
    `${P}/jobs/:id/cancel`,
    {
      access: jobsFn('edit'),
      ownedIds: ownedJobIds,
      summary: 'Cancel a queued job (a running job cannot be cancelled)',
      params: jobParams,
      preValidation: ownJob,
      answer: jobCancelled,
    },
    (req) => cancelJob(app.db, signedIn(req.ctx), app.jobs, req.params.id),
  );

  // ---- schedules (调度任务, TaskSchedulingList) ----
  api.get(
    `${P}/schedulable-kinds`,
    {
      access: schedFn('query'),
      summary: 'Job kinds a schedule may run, with their names',
      answer: schedulableKinds,
    },
    (req) => ({
      timezone,
      kinds: registry.list().map((k) => ({
        kind: k.kind,
        label: k.label[locale(req)],
        params: z.toJSONSchema(k.params, { io: 'input', unrepresentable: 'any' }),
      })),
    }),
  );
  api.get(
    `${P}/cron/next`,
    {
      access: schedFn('query'),
      summary: 'Check a cron expression and give its next run times (server time zone)',
      query: cronNextQuery,
      answer: cronPreview,
    },
    (req) => previewCron(env(), req.query.cron, req.query.count),
  );
  api.get(
    `${P}/schedules`,
    {
      access: schedFn('query'),
      summary: 'Schedules of the app',
      query: scheduleListQuery,
      answer: scheduleList,
    },
    (req) => listSchedules(env(), req.auth!.appId, req.query, locale(req)),
  );
  api.post(
    `${P}/schedules`,
    {
      access: schedFn('add'),
      summary: 'Create a schedule (kind, params, cron)',
      body: scheduleInput,
      answer: scheduleSaved,
    },
    (req) => createSchedule(env(), signedIn(req.ctx), req.body),
  );
  api.get(
    `${P}/schedules/:id`,
    {
      access: schedFn('get'),
      ownedIds: ownedScheduleIds,
      summary: 'A schedule with its recent runs',
      params: scheduleParams,
      answer: scheduleDetailSchema,
    },
    (req) => scheduleDetail(env(), req.auth!.appId, req.params.id, locale(req)),
  );
  api.put(
    `${P}/schedules/:id`,
    {
      access: schedFn('edit'),
      ownedIds: ownedScheduleIds,
      summary: 'Change a schedule',
      params: scheduleParams,
      body: schedulePatch,
      preValidation: ownSchedule,
      answer: scheduleSaved,
    },
    (req) => updateSchedule(env(), signedIn(req.ctx), req.params.id, req.body),
  );
  api.delete(
    `${P}/schedules/:id`,
    {
      access: schedFn('delete'),
      ownedIds: ownedScheduleIds,
      summary: 'Delete a schedule (its jobs stay)',
      params: scheduleParams,
      answer: z.null(),
    },
    (req) => deleted(deleteSchedule(env(), signedIn(req.ctx), req.params.id)),
  );
  api.post(
    `${P}/schedules/:id/enable`,
    {
      access: schedFn('enable'),
      ownedIds: ownedScheduleIds,
      summary: 'Enable a schedule (next run counted from now)',
      params: scheduleParams,
      preValidation: ownSchedule,
      answer: scheduleSwitched,
    },
    (req) => setEnabled(env(), signedIn(req.ctx), req.params.id, true),
  );
  api.post(
    `${P}/schedules/:id/disable`,
    {
      access: schedFn('disable'),
      ownedIds: ownedScheduleIds,
      summary: 'Disable a schedule',
      params: scheduleParams,
      preValidation: ownSchedule,
      answer: scheduleSwitched,
    },
    (req) => setEnabled(env(), signedIn(req.ctx), req.params.id, false),
  );
  api.post(
    `${P}/schedules/:id/run`,
    {
      access: schedFn('edit'),
      ownedIds: ownedScheduleIds,
      summary: 'Queue one run of the schedule now',
      params: scheduleParams,
      preValidation: ownSchedule,
      answer: jobQueued,
    },
    async (req) => {
      const out = await runNow(env(), signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return out;
    },
  );
});
