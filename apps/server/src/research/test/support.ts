import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apps, diagnoses, labResults, patients, visits } from '../../db/schema/index.js';
import { get, post } from '../../test/helper.js';

/**
 * A small synthetic cohort in one app: `n` patients with a fasting glucose (GLU), a first visit,
 * diabetes (E11) more often with high glucose, and myocardial infarction (I21) some days after
 * the first visit for some. Deterministic, so tests can assert exact counts.
 */
export async function seedCohort(app: FastifyInstance, appId: number, n = 40, prefix = 'R') {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const [p] = await app.db
      .insert(patients)
      .values({
        appId,
        mrn: `${prefix}${i}`,
        name: `受试者${prefix}${i}`,
        gender: i % 2 ? 1 : 2,
        birthDate: `${1950 + (i % 30)}-06-15`,
        source: 'synthetic',
        sourceId: `${prefix}${i}`,
      })
      .returning();
    const pid = p!.id;
    ids.push(pid);
    const start = new Date(Date.UTC(2024, 0, 1 + i));
    await app.db.insert(visits).values({
      appId,
      patientId: pid,
      kind: i % 3 ? 'outpatient' : 'inpatient',
      admitAt: start,
      source: 'synthetic',
      sourceId: `${prefix}v${i}`,
    });
    const glucose = 4.5 + (i % 10) * 0.5;
    await app.db.insert(labResults).values({
      appId,
      patientId: pid,
      itemCode: 'GLU',
      itemName: '空腹血糖',
      valueNum: glucose,
      unit: 'mmol/L',
      collectedAt: start,
      source: 'synthetic',
      sourceId: `${prefix}l${i}`,
    });
    // Diabetes mostly with high glucose, with a few exceptions so the fit is not separated.
    const diabetic = (glucose >= 7 && i % 7 !== 0) || i % 11 === 0;
    if (diabetic)
      await app.db.insert(diagnoses).values({
        appId,
        patientId: pid,
        icd10: 'E11.9',
        name: '2型糖尿病',
        diagnosedAt: start,
        source: 'synthetic',
        sourceId: `${prefix}d${i}`,
      });
    const later = new Date(start.getTime() + (30 + i * 10) * 86_400_000);
    await app.db.insert(diagnoses).values({
      appId,
      patientId: pid,
      icd10: i % 3 === 0 ? 'I21.0' : 'Z00.0',
      name: i % 3 === 0 ? '急性心肌梗死' : '健康查体',
      diagnosedAt: later,
      source: 'synthetic',
      sourceId: `${prefix}e${i}`,
    });
  }
  return ids;
}

export async function demoAppId(app: FastifyInstance) {
  const [demo] = await app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  return demo!.appId;
}

/** Runs queued jobs and reads the task through the spec's call until it is done. */
export async function waitForTask(app: FastifyInstance, key: string, taskId: number) {
  for (let i = 0; i < 200; i++) {
    await app.jobs.drain();
    const r = await post(app, '/api/v0.1/get_value_task_result', { task_id: taskId }, key);
    if (r.status !== 200) return r.body;
    if (!['queued', 'running'].includes(r.body.data.status)) return r.body.data;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error(`task ${taskId} did not finish`);
}

export { get };
