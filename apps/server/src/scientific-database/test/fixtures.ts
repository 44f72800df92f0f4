import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** A transform task of the demo app and one built snapshot (for the authorization matrix). */
export async function makeScientificDatabaseObjects(app: FastifyInstance, adminKey: string) {
  const v = await post(
    app,
    '/api/v0.1/variables',
    {
      code: 'matrix_sci_sex',
      labelZh: '矩阵性别',
      type: 'number',
      derivation: { kind: 'field', rule: 'value patient.gender' },
    },
    adminKey,
  );
  if (v.status !== 200) throw new Error(`scientific database fixture: ${JSON.stringify(v.body)}`);
  const s = await post(app, '/api/v0.1/research/subjects', { name: '矩阵科研库课题' }, adminKey);
  const task = await post(
    app,
    '/api/v0.1/scientific-database/tasks',
    { name: '矩阵转换任务', subjectId: s.body.data.id, cohort: 'subject', variableIds: [v.body.data.id] },
    adminKey,
  );
  if (task.status !== 200) throw new Error(`scientific database fixture: ${JSON.stringify(task.body)}`);
  await post(app, `/api/v0.1/scientific-database/tasks/${task.body.data.id}/run`, {}, adminKey);
  await app.jobs.drain();
}
