import { cdrSyntheticBody, cdrSyntheticRun, jobView as jobViewSchema, restOk } from '@crdp/core';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { jobs } from '../../db/schema/index.js';
import { appActor, signedIn } from '../../http/context.js';
import { jobView } from '../../jobs/routes.js';
import { enqueueJob } from '../../jobs/runner.js';
import { CDR_WRITE_API_ID } from '../routes-cdr.js';
import { seedSynthetic } from './seed.js';

export const SYNTHETIC_JOB = 'cdr.synthetic';

/** Synthetic patients for demonstrations and tests, made in the background (at most 5,000 a call). */
export async function syntheticRoutes(app: FastifyInstance) {
  app.jobs.handle(SYNTHETIC_JOB, async ({ db, job, progress }) => {
    const p = job.params as { patients: number; seed: number };
    return seedSynthetic(db, {
      appId: job.appId,
      patients: p.patients,
      seed: p.seed,
      batchSize: 100,
      onProgress: (done) => progress((done / p.patients) * 100),
    });
  });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v0.1/cdr/synthetic',
    {
      config: { access: { apiId: CDR_WRITE_API_ID } },
      schema: {
        tags: ['cdr'],
        summary: 'Generate synthetic patients (a job; the same seed always gives the same patients)',
        body: cdrSyntheticBody,
        response: { 200: restOk(jobViewSchema) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      const job = await app.db.transaction(async (tx) => {
        const j = await enqueueJob(tx, {
          appId: s.appId,
          kind: SYNTHETIC_JOB,
          params: req.body,
          createdBy: s.userId,
        });
        await audit(tx, s, { action: 'synthetic.queue', entity: 'job', entityId: j.id, after: req.body });
        return j;
      });
      app.jobs.nudge();
      return { code: 200 as const, data: jobView(job, req.locale), message: 'ok' };
    },
  );
  // The import list shows these jobs next to the file imports: a generation is an import too.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0.1/cdr/synthetic',
    {
      config: { access: { apiId: 'DataLakeDataResourceMaintenance.query' } },
      schema: {
        tags: ['cdr'],
        summary: "The app's latest synthetic-patients jobs (newest first, at most 20)",
        response: { 200: restOk(z.array(cdrSyntheticRun)) },
      },
    },
    async (req) => {
      const { appId } = appActor(req.ctx);
      const rows = await app.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.appId, appId), eq(jobs.kind, SYNTHETIC_JOB)))
        .orderBy(desc(jobs.id))
        .limit(20);
      const data = rows.map((j) => {
        const p = j.params as { patients?: number; seed?: number };
        return { ...jobView(j, req.locale), patients: p.patients ?? 0, seed: p.seed ?? 0 };
      });
      return { code: 200 as const, data, message: 'ok' };
    },
  );
}
