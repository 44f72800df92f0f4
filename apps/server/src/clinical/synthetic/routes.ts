import { jobView as jobViewSchema, restOk } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { signedIn } from '../../http/context.js';
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
        body: z.object({
          patients: z.number().int().min(1).max(5000),
          seed: z.number().int().min(0).max(2_147_483_647),
        }),
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
}
