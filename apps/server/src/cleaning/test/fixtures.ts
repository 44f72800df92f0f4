import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A cleaning rule and a finished cleaning task of the demo app (for the authorization matrix). */
export async function makeCleaningObjects(app: FastifyInstance, adminKey: string) {
  await post(
    app,
    '/api/v0.1/cleaning/rules',
    {
      name: '矩阵清洗规则',
      definition: {
        kind: 'syntactic',
        triggers: ['血糖'],
        value: 'number',
        outputs: [{ code: 'GLU', name: '血糖', unit: 'mmol/L' }],
      },
    },
    adminKey,
  );
  await post(
    app,
    '/api/v0.1/cleaning/tasks',
    { name: '矩阵清洗任务', rules: ['builtin:blood_pressure'] },
    adminKey,
  );
  await app.jobs.drain();
}
