import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { post } from '../../test/helper.js';

/** Maps the condition code E11 to the OMOP concept 201826 (Type 2 diabetes mellitus) in the caller's app. */
export async function mapE11ToOmop(app: FastifyInstance, key: string) {
  const map = await post(
    app,
    '/api/v0.1/omop/mappings',
    { kind: 'condition', sourceCode: 'E11', conceptId: 201826, conceptName: 'Type 2 diabetes mellitus' },
    key,
  );
  expect(map.status, JSON.stringify(map.body)).toBe(200);
}

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
