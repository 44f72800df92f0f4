import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rowsOf } from '../../db/rows.js';
import { post } from '../../test/helper.js';

/**
 * For the authorization matrix: an observation transform task with a run, and an ODM topic (a
 * research subject with one enrolled patient) with one generated file, in the demo app.
 */
export async function makeObservationOdmObjects(app: FastifyInstance, adminKey: string, appId: number) {
  const fail = (what: string, body: unknown) => {
    throw new Error(`observation/ODM fixture, ${what}: ${JSON.stringify(body)}`);
  };
  const task = await post(
    app,
    '/api/v0.1/observation/tasks',
    { name: '矩阵观察库任务', domains: ['lab'] },
    adminKey,
  );
  if (task.status !== 200) fail('task', task.body);
  await post(app, `/api/v0.1/observation/tasks/${task.body.data.id}/run`, {}, adminKey);
  await app.jobs.drain();

  const subject = await post(app, '/api/v0.1/research/subjects', { name: '矩阵 ODM 课题' }, adminKey);
  if (subject.status !== 200) fail('subject', subject.body);
  const [patient] = rowsOf<{ id: number }>(
    await app.db.execute(sql`select id from patients where app_id = ${appId} order by id limit 1`),
  );
  if (patient)
    await app.db.execute(
      sql`insert into research_enrolments (app_id, subject_id, patient_id) values (${appId}, ${subject.body.data.id}, ${patient.id})`,
    );
  const topic = await post(app, '/api/v0.1/odm/topics', { subjectId: subject.body.data.id }, adminKey);
  if (topic.status !== 200) fail('topic', topic.body);
  await post(app, `/api/v0.1/odm/topics/${topic.body.data.id}/generate`, {}, adminKey);
  await app.jobs.drain();
}
