import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';
import { hisTemplates } from './his.js';

/**
 * One of each collection object in the demo app, for the route-generated matrices: a source (its
 * host answers nothing, so a run fails fast with a reason), a template, a task and a run.
 */
export async function makeCollectionObjects(app: FastifyInstance, adminKey: string) {
  const source = await post(
    app,
    '/api/v0.1/collection/sources',
    {
      name: '矩阵数据源',
      kind: 'postgresql',
      config: { host: '127.0.0.1', port: 1, database: 'his', user: 'reader' },
      password: 'matrix-secret',
    },
    adminKey,
  );
  const sourceId = source.body.data.id as number;
  const template = await post(
    app,
    '/api/v0.1/collection/templates',
    hisTemplates(sourceId).patients,
    adminKey,
  );
  const task = await post(
    app,
    '/api/v0.1/collection/tasks',
    { name: '矩阵采集', templateIds: [template.body.data.id] },
    adminKey,
  );
  await post(app, `/api/v0.1/collection/tasks/${task.body.data.id}/run`, {}, adminKey);
  await app.jobs.drain();
}
