import { type JobStatus, type JobView, jobView as jobViewSchema, type Locale, restOk } from '@crdp/core';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jobs } from '../db/schema/index.js';
import { forbiddenFunction, notFound } from '../http/errors.js';
import { notify } from '../notices/routes.js';
import { jobNoticeTitle } from '../notices/wording.js';
import { jobFailureText } from './failure.js';
import { createJobQueue } from './queue.js';
import { findJob, type JobQueue } from './runner.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background job queue of this process; areas register their kinds with `app.jobs.handle`. */
    jobs: JobQueue;
  }
}

/** The function that reads any job of the app (作业管理 detail); a job's starter needs none. */
const JOB_DETAIL_API_ID = 'TaskProjectManagement.get';

/** A job as the API shows it; a failure kept by catalogue key is worded in `locale`. */
export const jobView = (j: typeof jobs.$inferSelect, locale: Locale = 'zh-CN'): JobView => ({
  id: j.id,
  kind: j.kind,
  status: j.status as JobStatus,
  progress: j.progress,
  result: j.result ?? null,
  error: jobFailureText(j, locale),
  createdAt: j.createdAt.toISOString(),
  startedAt: j.startedAt?.toISOString() ?? null,
  finishedAt: j.finishedAt?.toISOString() ?? null,
});

/**
 * The job queue (started when the app is ready, closed with it) and the call that reads a
 * job's status and progress. Registered with fastify-plugin so later areas see `app.jobs`.
 */
export const jobRoutes = fp(async (app: FastifyInstance) => {
  const queue = createJobQueue(app.database, {
    concurrency: app.config.jobConcurrency,
    retentionDays: app.config.jobRetentionDays,
    log: app.log,
    onFinished: async (job) => {
      // A job may have written many rows (an import, synthetic patients): fresh statistics first.
      app.statistics?.nudge();
      if (!job.createdBy) return;
      await notify(app.db, {
        appId: job.appId,
        userId: job.createdBy,
        kind: 'job.finished',
        // Kept as facts; the bell words title and failure in the reader's language (notices/wording.ts).
        title: jobNoticeTitle({ jobId: job.id, kind: job.kind, status: job.status }),
        body: jobFailureText(job, 'zh-CN') ?? '',
        link: '',
      });
    },
  });
  app.decorate('jobs', queue);
  app.addHook('onReady', async () => queue.start());
  app.addHook('onClose', async () => queue.close());

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0.1/jobs/:id',
    {
      config: {
        access: 'session',
        ownedIds: async (db, appId) =>
          (await db.select({ id: jobs.id }).from(jobs).where(eqApp(appId)).limit(3)).map((r) => ({
            id: r.id,
          })),
      },
      schema: {
        tags: ['jobs'],
        summary:
          'Status, progress and result of a background job of the current app (its starter, or TaskProjectManagement.get)',
        params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
        response: { 200: restOk(jobViewSchema) },
      },
    },
    async (req) => {
      const a = req.auth!;
      const job = await findJob(app.db, a.appId, req.params.id);
      if (!job) throw notFound('job');
      // Whoever started a job follows it; anyone else needs the job screen's detail function
      // (a member with no role may not read another's job: its params and result name data).
      if (job.createdBy !== a.userId && !a.apiIds.has(JOB_DETAIL_API_ID))
        throw forbiddenFunction(JOB_DETAIL_API_ID);
      return { code: 200 as const, data: jobView(job, req.locale as Locale), message: 'ok' };
    },
  );
});

const eqApp = (appId: number) => eq(jobs.appId, appId);
