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
  restOk,
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
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { ok } from '../http/reply.js';
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
  const scheduler = new Scheduler(app.db, registry, { onQueued: () => app.jobs.nudge(), log: app.log });
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

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['task-scheduling'];
  const jobsFn = (action: string) => ({ apiId: `TaskProjectManagement.${action}` });
  const schedFn = (action: string) => ({ apiId: `TaskSchedulingList.${action}` });

  // ---- jobs (作业管理, TaskProjectManagement) ----
  r.get(
    `${P}/jobs`,
    {
      config: { access: jobsFn('query') },
      schema: {
        tags,
        summary: 'Background jobs of the app, newest first',
        querystring: jobListQuery,
        response: { 200: restOk(jobList) },
      },
    },
    async (req) => ok(await listJobs(app.db, req.auth!.appId, req.query, locale(req))),
  );
  r.get(
    `${P}/job-kinds`,
    {
      config: { access: jobsFn('query') },
      schema: {
        tags,
        summary: 'Job kinds with their names (list filter)',
        response: { 200: restOk(z.array(jobKindOption)) },
      },
    },
    async (req) => ok(await jobKinds(app.db, req.auth!.appId, locale(req))),
  );
  r.get(
    `${P}/jobs/:id`,
    {
      config: { access: jobsFn('get'), ownedIds: ownedJobIds },
      schema: {
        tags,
        summary: 'A job with its params and result',
        params: jobParams,
        response: { 200: restOk(jobDetailSchema) },
      },
    },
    async (req) => ok(await jobDetail(app.db, req.auth!.appId, req.params.id, locale(req))),
  );
  r.post(
    `${P}/jobs/:id/retry`,
    {
      config: { access: jobsFn('add'), ownedIds: ownedJobIds },
      preValidation: ownJob,
      schema: {
        tags,
        summary: 'Queue a failed or cancelled job again (same kind and params)',
        params: jobParams,
        response: { 200: restOk(jobRetried) },
      },
    },
    async (req) => {
      const out = await retryJob(app.db, signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return ok(out);
    },
  );
  r.post(
    `${P}/jobs/:id/cancel`,
    {
      config: { access: jobsFn('edit'), ownedIds: ownedJobIds },
      preValidation: ownJob,
      schema: {
        tags,
        summary: 'Cancel a queued job (a running job cannot be cancelled)',
        params: jobParams,
        response: { 200: restOk(jobCancelled) },
      },
    },
    async (req) => ok(await cancelJob(app.db, signedIn(req.ctx), app.jobs, req.params.id)),
  );

  // ---- schedules (调度任务, TaskSchedulingList) ----
  r.get(
    `${P}/schedulable-kinds`,
    {
      config: { access: schedFn('query') },
      schema: {
        tags,
        summary: 'Job kinds a schedule may run, with their names',
        response: { 200: restOk(schedulableKinds) },
      },
    },
    async (req) =>
      ok({
        timezone,
        kinds: registry.list().map((k) => ({
          kind: k.kind,
          label: k.label[locale(req)],
          params: z.toJSONSchema(k.params, { io: 'input', unrepresentable: 'any' }),
        })),
      }),
  );
  r.get(
    `${P}/cron/next`,
    {
      config: { access: schedFn('query') },
      schema: {
        tags,
        summary: 'Check a cron expression and give its next run times (server time zone)',
        querystring: cronNextQuery,
        response: { 200: restOk(cronPreview) },
      },
    },
    async (req) => ok(previewCron(env(), req.query.cron, req.query.count)),
  );
  r.get(
    `${P}/schedules`,
    {
      config: { access: schedFn('query') },
      schema: {
        tags,
        summary: 'Schedules of the app',
        querystring: scheduleListQuery,
        response: { 200: restOk(scheduleList) },
      },
    },
    async (req) => ok(await listSchedules(env(), req.auth!.appId, req.query, locale(req))),
  );
  r.post(
    `${P}/schedules`,
    {
      config: { access: schedFn('add') },
      schema: {
        tags,
        summary: 'Create a schedule (kind, params, cron)',
        body: scheduleInput,
        response: { 200: restOk(scheduleSaved) },
      },
    },
    async (req) => ok(await createSchedule(env(), signedIn(req.ctx), req.body)),
  );
  r.get(
    `${P}/schedules/:id`,
    {
      config: { access: schedFn('get'), ownedIds: ownedScheduleIds },
      schema: {
        tags,
        summary: 'A schedule with its recent runs',
        params: scheduleParams,
        response: { 200: restOk(scheduleDetailSchema) },
      },
    },
    async (req) => ok(await scheduleDetail(env(), req.auth!.appId, req.params.id, locale(req))),
  );
  r.put(
    `${P}/schedules/:id`,
    {
      config: { access: schedFn('edit'), ownedIds: ownedScheduleIds },
      preValidation: ownSchedule,
      schema: {
        tags,
        summary: 'Change a schedule',
        params: scheduleParams,
        body: schedulePatch,
        response: { 200: restOk(scheduleSaved) },
      },
    },
    async (req) => ok(await updateSchedule(env(), signedIn(req.ctx), req.params.id, req.body)),
  );
  r.delete(
    `${P}/schedules/:id`,
    {
      config: { access: schedFn('delete'), ownedIds: ownedScheduleIds },
      schema: {
        tags,
        summary: 'Delete a schedule (its jobs stay)',
        params: scheduleParams,
        response: { 200: restOk(z.null()) },
      },
    },
    async (req) => {
      await deleteSchedule(env(), signedIn(req.ctx), req.params.id);
      return ok(null);
    },
  );
  r.post(
    `${P}/schedules/:id/enable`,
    {
      config: { access: schedFn('enable'), ownedIds: ownedScheduleIds },
      preValidation: ownSchedule,
      schema: {
        tags,
        summary: 'Enable a schedule (next run counted from now)',
        params: scheduleParams,
        response: { 200: restOk(scheduleSwitched) },
      },
    },
    async (req) => ok(await setEnabled(env(), signedIn(req.ctx), req.params.id, true)),
  );
  r.post(
    `${P}/schedules/:id/disable`,
    {
      config: { access: schedFn('disable'), ownedIds: ownedScheduleIds },
      preValidation: ownSchedule,
      schema: {
        tags,
        summary: 'Disable a schedule',
        params: scheduleParams,
        response: { 200: restOk(scheduleSwitched) },
      },
    },
    async (req) => ok(await setEnabled(env(), signedIn(req.ctx), req.params.id, false)),
  );
  r.post(
    `${P}/schedules/:id/run`,
    {
      config: { access: schedFn('edit'), ownedIds: ownedScheduleIds },
      preValidation: ownSchedule,
      schema: {
        tags,
        summary: 'Queue one run of the schedule now',
        params: scheduleParams,
        response: { 200: restOk(jobQueued) },
      },
    },
    async (req) => {
      const out = await runNow(env(), signedIn(req.ctx), req.params.id);
      app.jobs.nudge();
      return ok(out);
    },
  );
});
