import type { FastifyInstance } from 'fastify';
import { get, post } from '../../test/helper.js';

/**
 * Harness objects: a schedule of the demo app's first disease library, on a cron that does not
 * fire during a test run (03:00 on 1 January), so no tick changes the fingerprint.
 */
export async function makeSchedulingObjects(app: FastifyInstance, adminKey: string) {
  const libs = await get(app, '/api/v0.1/diseaselibrary/libraries', adminKey);
  const libraryId = libs.body.data.items[0].id as number;
  const s = await post(
    app,
    '/api/v0.1/task-scheduling/schedules',
    { name: '矩阵调度', kind: 'diseaseLibrary.push', params: { libraryId }, cron: '0 3 1 1 *' },
    adminKey,
  );
  if (s.status !== 200) throw new Error(`schedule fixture: ${JSON.stringify(s.body)}`);
}
