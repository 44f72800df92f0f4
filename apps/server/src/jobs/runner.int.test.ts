import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, patients } from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { get, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { enqueueJob } from './runner.js';

/**
 * A job that fails on a database error keeps the database's own message as its reason, never
 * the values of the failed query (drizzle's message lists them: a bulk insert's patients).
 */
describe('a failed job’s reason', () => {
  let t: TestApp;
  let admin: string;
  let appId: number;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    appId = await demoAppId(t.app);
  });
  afterAll(async () => t.close());

  it('names the constraint and holds none of the patient data the failed insert carried', async () => {
    t.app.jobs.handle('test.bulkInsert', async ({ db, job }) => {
      await db.insert(patients).values([
        {
          appId: job.appId,
          sourceId: 'JOBSRC-1',
          mrn: 'JOBMRN-1',
          name: '诸葛春华',
          phone: '13611112222',
          address: '和平里九号',
        },
        {
          appId: job.appId,
          sourceId: 'JOBSRC-2',
          mrn: 'JOBMRN-1',
          name: '上官秋月',
          phone: '13633334444',
          address: '光明路七号',
        },
      ]);
    });
    const job = await enqueueJob(t.app.db, { appId, kind: 'test.bulkInsert' });
    await t.app.jobs.drain();
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row!.status).toBe('failed');
    expect(row!.error).toBe('duplicate key value violates unique constraint "patients_app_mrn"');
    const shown = await get(t.app, `/api/v0.1/jobs/${job.id}`, admin);
    expect(shown.status).toBe(200);
    const text = JSON.stringify(shown.body);
    for (const phi of [
      '诸葛春华',
      '上官秋月',
      '13611112222',
      '13633334444',
      '和平里',
      '光明路',
      'JOBMRN-1',
      'JOBSRC-2',
    ])
      expect(text, phi).not.toContain(phi);
    expect(shown.body.data.error).toContain('patients_app_mrn');
  });
});
