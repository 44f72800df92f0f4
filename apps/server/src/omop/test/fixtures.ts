import type { FastifyInstance } from 'fastify';
import { post } from '../../test/helper.js';

/** For the harness: a mapping, the app's rules written, and a finished export task, in the caller's app. */
export async function makeOmopObjects(app: FastifyInstance, adminKey: string) {
  await post(
    app,
    '/api/v0.1/omop/mappings',
    { kind: 'condition', sourceCode: 'I10', conceptId: 320128, conceptName: 'Essential hypertension' },
    adminKey,
  );
  await post(app, '/api/v0.1/omop/rules/defaults', {}, adminKey);
  await post(app, '/api/v0.1/omop/tasks', { name: 'matrix export' }, adminKey);
  await app.jobs.drain();
}
