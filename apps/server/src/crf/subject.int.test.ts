import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crfFormVersions, crfRecordChanges, crfRecords } from '../db/schema/index.js';
import { demoAppId, seedCohort, waitForTask } from '../research/test/support.js';
import { freeAccessKey, get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';

// A small follow-up form: a yes/no group question and a number, enough for a t-test.
const FORM = {
  pages: [
    {
      key: 'p',
      title: '随访',
      items: [
        {
          key: 'q1',
          type: 'radio',
          title: '吸烟',
          isRequired: 1,
          options: [
            { name: '否', code: 0 },
            { name: '是', code: 1 },
          ],
        },
        { key: 'alt', type: 'textQuestion', title: 'ALT', textType: 'number', isRequired: 1 },
      ],
    },
  ],
};

describe('a CRF record is for a patient of the app, so every reader finds it', () => {
  let t: TestApp;
  let admin: string;
  let formId: number;
  let patientIds: number[];
  const records = (q = '') => get(t.app, `/api/v0.1/crf/forms/${formId}/records?size=100${q}`, admin);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    // Patients SUBJ0..SUBJ11 (MRN = code) of the demo app.
    patientIds = await seedCohort(t.app, await demoAppId(t.app), 12, 'SUBJ');
    formId = (await post(t.app, '/api/v0.1/crf/forms', { name: '随访表', definition: FORM }, admin)).body.data
      .id;
    expect((await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'v1' }, admin)).status).toBe(
      200,
    );
  });
  afterAll(async () => t.close());

  it('an unknown subject code is refused naming the field, and nothing is stored', async () => {
    const r = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: '不存在的病人-XYZ', submit: true, answers: { q1: 1, alt: 40 } },
      admin,
    );
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('body.subjectCode');
    expect(r.body.message).toContain('没有病案号为“不存在的病人-XYZ”的患者');
    expect((await records()).body.data.total).toBe(0);
  });

  it('the picker finds patients by name or MRN; a free-access link may not look patients up', async () => {
    const byMrn = await get(t.app, '/api/v0.1/crf/patients?keyword=SUBJ1', admin);
    expect(byMrn.status).toBe(200);
    // SUBJ1 exactly first, then SUBJ10, SUBJ11.
    expect(byMrn.body.data.items.map((p: { mrn: string }) => p.mrn)).toEqual(['SUBJ1', 'SUBJ10', 'SUBJ11']);
    const byName = await get(
      t.app,
      `/api/v0.1/crf/patients?keyword=${encodeURIComponent('受试者SUBJ3')}`,
      admin,
    );
    expect(byName.body.data.items).toEqual([
      expect.objectContaining({ id: patientIds[3], name: '受试者SUBJ3', mrn: 'SUBJ3' }),
    ]);
    const wild = await get(t.app, '/api/v0.1/crf/patients?keyword=%25', admin);
    expect(wild.body.data.items).toEqual([]);
    const free = await freeAccessKey(t.app, admin, { scopeKind: 'crf', objectId: String(formId) });
    expect((await get(t.app, '/api/v0.1/crf/patients?keyword=SUBJ', free)).status).toBe(403);
  });

  it('a record for a picked patient, or for a patient named by MRN, is linked to that patient', async () => {
    const picked = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { patientId: patientIds[0], submit: true, answers: { q1: 0, alt: 30 } },
      admin,
    );
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body.data.patientId).toBe(patientIds[0]);
    const byCode = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'SUBJ1', submit: true, answers: { q1: 1, alt: 60 } },
      admin,
    );
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
    expect(byCode.body.data).toMatchObject({ patientId: patientIds[1], subjectCode: 'SUBJ1' });
    const detail = await get(t.app, `/api/v0.1/crf/records/${byCode.body.data.id}`, admin);
    expect(detail.body.data.patient).toEqual({ id: patientIds[1], name: '受试者SUBJ1', mrn: 'SUBJ1' });
    const list = await records();
    expect(list.body.data.items).toContainEqual(
      expect.objectContaining({ patientId: patientIds[1], patientName: '受试者SUBJ1', patientMrn: 'SUBJ1' }),
    );
    // The patient view's 患者表单 tab asks by patient, whatever the subject code.
    const mine = await records(`&patientId=${patientIds[0]}`);
    expect(mine.body.data.items.map((r: { id: number }) => r.id)).toEqual([picked.body.data.id]);
  });

  it('a free-access answer keeps its code unlinked; staff may then fill for that subject and link it', async () => {
    const free = await freeAccessKey(t.app, admin, { scopeKind: 'crf', objectId: String(formId) });
    const answered = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'WX-07', submit: true, answers: { q1: 1, alt: 55 } },
      free,
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.data.patientId).toBeNull();
    // WX-07 is now a study subject that exists: a second record for it is accepted.
    const again = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'WX-07', answers: { q1: 1 } },
      admin,
    );
    expect(again.status).toBe(200);
    // Linking the submitted answer to its patient: no reason needed for answers, history says so.
    const id = answered.body.data.id as number;
    const linked = await put(
      t.app,
      `/api/v0.1/crf/records/${id}`,
      {
        answers: { q1: 1, alt: 55 },
        submit: false,
        revision: answered.body.data.revision,
        patientId: patientIds[2],
      },
      admin,
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.data.record).toMatchObject({ patientId: patientIds[2], status: 'submitted' });
    const history = await get(t.app, `/api/v0.1/crf/records/${id}/history`, admin);
    expect(history.body.data.map((h: { itemKey: string }) => h.itemKey)).toContain('@link');
  });

  it('migration 0025 links records of before whose code is a patient’s MRN, with an @link event; others stay unlinked', async () => {
    const [v] = await t.app.db.select().from(crfFormVersions).where(eq(crfFormVersions.formId, formId));
    // Two records as they were stored before: codes only.
    const old = await t.app.db
      .insert(crfRecords)
      .values(
        ['SUBJ4', 'OLD-NOBODY'].map((code) => ({
          appId: v!.appId,
          formId,
          versionId: v!.id,
          subjectCode: code,
          answers: { q1: 0, alt: 20 },
          status: 'submitted',
        })),
      )
      .returning({ id: crfRecords.id });
    const migration = readFileSync(
      new URL('../../drizzle/0025_crf_records_link_patients.sql', import.meta.url),
      'utf8',
    );
    await t.app.db.execute(sql.raw(migration));
    const rows = await t.app.db
      .select({ id: crfRecords.id, patientId: crfRecords.patientId })
      .from(crfRecords)
      .where(sql`${crfRecords.id} in (${old[0]!.id}, ${old[1]!.id})`)
      .orderBy(crfRecords.id);
    expect(rows.map((r) => r.patientId)).toEqual([patientIds[4], null]);
    const events = await t.app.db
      .select()
      .from(crfRecordChanges)
      .where(and(eq(crfRecordChanges.recordId, old[0]!.id), eq(crfRecordChanges.itemKey, '@link')));
    expect(events).toHaveLength(1);
    // The dataset test below fills SUBJ4 again: the old record is not data any more.
    await t.app.db.delete(crfRecordChanges).where(eq(crfRecordChanges.recordId, old[0]!.id));
    await t.app.db.delete(crfRecords).where(sql`${crfRecords.id} in (${old[0]!.id}, ${old[1]!.id})`);
  });

  it('a research dataset reads the records filled from the CRF list, and a t-test on a CRF item runs', async () => {
    // Ten more patients filled by MRN code, as the record list does: two groups of q1.
    for (let i = 3; i < 12; i++) {
      const r = await post(
        t.app,
        `/api/v0.1/crf/forms/${formId}/records`,
        { subjectCode: `SUBJ${i}`, submit: true, answers: { q1: i % 2, alt: 30 + i * 3 + (i % 2) * 20 } },
        admin,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const s = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: 'CRF 关联课题', crfFormId: formId, variables: [{ key: 'age', label: '年龄', source: 'age' }] },
      admin,
    );
    const subjectId = s.body.data.id as number;
    const move = (to: string) =>
      post(t.app, `/api/v0.1/research/subjects/${subjectId}/status`, { to, reason: 'test' }, admin);
    await move('recruiting');
    await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'patients', patientIds },
      admin,
    );
    await move('recruitmentStopped');
    await move('dataPreparing');
    const built = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/datasets`,
      { name: '随访数据', crfItems: ['q1', 'alt'] },
      admin,
    );
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect((await waitForTask(t.app, admin, built.body.data.jobId)).status).toBe('succeeded');
    const ds = (
      await get(
        t.app,
        `/api/v0.1/research/subjects/${subjectId}/datasets/${built.body.data.datasetId}`,
        admin,
      )
    ).body.data;
    const filled = (ds.rows as Array<{ q1: number | null }>).filter((r) => r.q1 !== null);
    expect(filled).toHaveLength(12);
    await move('dataPrepared');
    const r = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/analyses`,
      {
        datasetId: built.body.data.datasetId,
        params: { method: 'groupCompare', test: 'ttest', outcome: 'alt', group: 'q1' },
      },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const res = await waitForTask(t.app, admin, r.body.data.task_id);
    expect(res.status, JSON.stringify(res)).toBe('succeeded');
  });
});
