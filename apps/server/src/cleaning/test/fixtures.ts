import type { CleaningTask } from '@crdp/core';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { post, settleJob } from '../../test/helper.js';

/** Runs a cleaning task of the built-in blood-pressure rule over the app's documents: its finished job. */
export async function cleanBloodPressure(app: FastifyInstance, key: string, name: string) {
  const task = await post(app, '/api/v0.1/cleaning/tasks', { name, rules: ['builtin:blood_pressure'] }, key);
  expect(task.status, JSON.stringify(task.body)).toBe(200);
  return settleJob(app, key, (task.body.data as CleaningTask).jobId!);
}

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
