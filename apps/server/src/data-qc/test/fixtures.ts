import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A QC rule, a plan of it and a finished task, in the caller's app (for the authorization matrix). */
export async function makeDataQcObjects(app: FastifyInstance, adminKey: string) {
  const rule = await post(
    app,
    '/api/v0.1/data-qc/rules',
    { name: '矩阵规则', table: 'patients', kind: 'required', column: 'address' },
    adminKey,
  );
  const plan = await post(
    app,
    '/api/v0.1/data-qc/plans',
    { name: '矩阵方案', ruleIds: [rule.body.data.id] },
    adminKey,
  );
  await post(app, '/api/v0.1/data-qc/tasks', { planId: plan.body.data.id }, adminKey);
  await app.jobs.drain();
}
