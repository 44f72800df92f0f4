import { demoStatus as demoStatusSchema, restOk } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn } from '../../http/context.js';
import { ok } from '../../http/reply.js';
import { DEMO_JOB, demoStatus, queueDemoHospital, runDemoPhase } from './job.js';

/**
 * The demo hospital (README.md): its seeding job, queued at every start until it is complete,
 * and the status the workbench banner polls. Registered after every area, whose routes it calls.
 */
export async function demoHospitalRoutes(app: FastifyInstance) {
  app.jobs.handle(DEMO_JOB, (ctx) => runDemoPhase(app, ctx));
  app.addHook('onReady', async () => {
    // The server answers at once: the seeding runs in the background, its progress on the workbench.
    await queueDemoHospital(app);
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v0.1/demo/status',
    {
      config: { access: 'session' },
      schema: {
        tags: ['system'],
        summary:
          "Whether the demo hospital's data is being prepared (progress %), ready, or off for this app",
        response: { 200: restOk(demoStatusSchema) },
      },
    },
    async (req) => {
      const s = signedIn(req.ctx);
      return ok(await demoStatus(app.db, app.config, s.appId));
    },
  );
}
