import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVER_FORM } from '../crf/testform.js';
import { auditLog, jobs, users } from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { userWithoutRoles } from '../test/harness/fixtures.js';
import { download, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Reads of patient data leave one audit row each (HIPAA §164.312(b)), 403 refusals leave one,
 * and a member with no role reads neither other people's jobs nor the workbench statistics.
 */
describe('read and refusal audit', () => {
  let t: TestApp;
  let admin: string;
  let nobody: string;
  let patientId: number;
  let formId: number;
  let recordId: number;
  const NAME = '审计测试患者';
  const PHONE = '13912345678';

  /** The highest audit row id before a call; `since` reads the rows the call wrote. */
  const mark = async () => {
    const [last] = await t.app.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .orderBy(desc(auditLog.id))
      .limit(1);
    return last?.id ?? 0;
  };
  const since = (id: number) =>
    t.app.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    nobody = await userWithoutRoles(t.app);
    const p = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'AUD-1', name: NAME, gender: 1, birthDate: '1970-02-03', phone: PHONE, address: '审计路 1 号' },
      admin,
    );
    expect(p.status).toBe(200);
    patientId = p.body.data.id;
    await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      { table: 'visits', row: { kind: 'inpatient', admitAt: '2024-01-02T08:00:00Z' } },
      admin,
    );
    formId = (await post(t.app, '/api/v0.1/crf/forms', { name: '审计表单', definition: LIVER_FORM }, admin))
      .body.data.id;
    await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, admin);
    const rec = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'S-AUD', patientId, answers: { weight: 70, height: 170 } },
      admin,
    );
    expect(rec.status).toBe(200);
    recordId = rec.body.data.id;
  });
  afterAll(async () => t?.close());

  it('a patient 360 view writes one read row (person call and its tabs together), without the patient’s data', async () => {
    const m = await mark();
    expect((await get(t.app, `/api/v0.1/360/person/${patientId}`, admin)).status).toBe(200);
    for (const tab of ['visits', 'diagnoses', 'counts', 'vitalsigns', 'measurementlist'])
      expect((await get(t.app, `/api/v0.1/360/${tab}/${patientId}`, admin)).status).toBe(200);
    expect((await get(t.app, `/api/v0.1/360/druglist?patientId=${patientId}`, admin)).status).toBe(200);
    const rows = (await since(m)).filter((r) => r.entity === 'patient');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'read', entityId: String(patientId), userName: 'admin' });
    const text = JSON.stringify(rows[0]);
    for (const secret of [NAME, PHONE, 'AUD-1', '审计路']) expect(text).not.toContain(secret);
  });

  it('a tab read on its own, without the person call, still leaves one row', async () => {
    const researcher = await signIn(t.app, 'researcher');
    const m = await mark();
    expect((await get(t.app, `/api/v0.1/360/visits/${patientId}`, researcher)).status).toBe(200);
    expect((await get(t.app, `/api/v0.1/360/counts/${patientId}`, researcher)).status).toBe(200);
    const rows = (await since(m)).filter((r) => r.entity === 'patient');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'read', userName: 'researcher', entityId: String(patientId) });
  });

  it('a patient list page writes one read row with the filters’ names and the count, not the keyword', async () => {
    const m = await mark();
    const page = await get(t.app, `/api/v0.1/360?keyword=${encodeURIComponent(NAME)}&size=20`, admin);
    expect(page.status).toBe(200);
    expect(page.body.data.items).toHaveLength(1);
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'read',
      entity: 'patient_list',
      after: { filters: ['keyword'], count: 1, size: 20 },
    });
    expect(JSON.stringify(rows[0])).not.toContain(NAME);
  });

  it('a CRF record and a CRF record list page each write one read row', async () => {
    let m = await mark();
    expect((await get(t.app, `/api/v0.1/crf/records/${recordId}`, admin)).status).toBe(200);
    let rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'read',
      entity: 'crf_record',
      entityId: String(recordId),
      after: { formId, patientId },
    });
    m = await mark();
    expect((await get(t.app, `/api/v0.1/crf/forms/${formId}/records?page=1&size=10`, admin)).status).toBe(
      200,
    );
    rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'read',
      entity: 'crf_record_list',
      after: { count: 1, total: 1 },
    });
  });

  it('downloading an upload writes one download row with ids, not the file', async () => {
    const up = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/uploads`,
      { fileName: `${NAME}.png`, contentType: 'image/png', dataBase64: PNG.toString('base64') },
      admin,
    );
    expect(up.status).toBe(200);
    const m = await mark();
    const file = await download(t.app, `/api/v0.1/crf/uploads/${up.body.data.uploadId}`, admin);
    expect(file.statusCode).toBe(200);
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'download',
      entity: 'crf_upload',
      entityId: String(up.body.data.uploadId),
    });
    expect(JSON.stringify(rows[0])).not.toContain(NAME);
  });

  it('a read row that cannot be written does not fail the read', async () => {
    // The database refuses read rows of patients for a moment (as a full disk or a broken
    // trigger would): the person view still answers, without the row.
    await t.app.db.execute(
      sql`alter table audit_log add constraint no_patient_reads check (entity <> 'patient') not valid`,
    );
    try {
      const m = await mark();
      const view = await get(t.app, `/api/v0.1/360/person/${patientId}`, admin);
      expect(view.status).toBe(200);
      expect(view.body.data).toBeTruthy();
      expect((await since(m)).filter((r) => r.entity === 'patient')).toHaveLength(0);
    } finally {
      await t.app.db.execute(sql`alter table audit_log drop constraint no_patient_reads`);
    }
  });

  it('a 403 writes one access.denied row: user, route pattern, the missing function, no key', async () => {
    const m = await mark();
    const refused = await get(t.app, `/api/v0.1/360/person/${patientId}?SessionKey=${nobody}`, nobody);
    expect(refused.status).toBe(403);
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'access.denied',
      outcome: 'denied',
      userName: 'matrixnobody',
      entity: 'route',
      entityId: 'GET /api/v0.1/360/person/:id',
      after: { apiId: 'PersonalInHospitalView.get', reason: 'auth.forbidden' },
    });
    expect(rows[0]!.appId).not.toBeNull();
    expect(JSON.stringify(rows[0])).not.toContain(nobody);
    // A refused envelope method is audited the same way, naming the method.
    const m2 = await mark();
    const env = await t.app.inject({
      method: 'POST',
      url: '/api/merchants/merchantsuser',
      headers: { WeAppAuthorization: nobody },
      payload: { method: 'GetList', params: [{}] },
    });
    expect(env.statusCode).toBe(403);
    const envRows = await since(m2);
    expect(envRows).toHaveLength(1);
    expect(envRows[0]).toMatchObject({
      action: 'access.denied',
      entityId: 'POST /api/merchants/merchantsuser',
      after: { apiId: 'UserManage.query', envelopeMethod: 'GetList' },
    });
  });

  it('a member with no role gets 403 on another’s job details and on every workbench statistic', async () => {
    const [job] = await t.app.db
      .insert(jobs)
      .values({ appId: await demoAppId(t.app), kind: 'test.noop', params: { secret: NAME }, createdBy: null })
      .returning();
    expect((await get(t.app, `/api/v0.1/jobs/${job!.id}`, admin)).status).toBe(200);
    const refused = await get(t.app, `/api/v0.1/jobs/${job!.id}`, nobody);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(NAME);
    for (const url of [
      'topic_count',
      'topic_count_chart',
      'topic_type_count',
      'data_source_record_statistics',
      'diseaselibrary/disease_library_statistics',
      'diseaselibrary/rdr_statistics',
    ]) {
      const r = await get(t.app, `/api/v0.1/${url}`, nobody);
      expect(r.status, url).toBe(403);
      expect((await get(t.app, `/api/v0.1/${url}`, admin)).status, url).toBe(200);
    }
    const denied = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'access.denied'), eq(auditLog.userName, 'matrixnobody')));
    expect(denied.map((d) => d.entityId)).toContain('GET /api/v0.1/jobs/:id');
  });

  it('the starter of a job still follows it without the job screen’s function', async () => {
    const researcher = await signIn(t.app, 'researcher');
    const [me] = await t.app.db.select().from(users).where(eq(users.userName, 'researcher'));
    const [job] = await t.app.db
      .insert(jobs)
      .values({ appId: await demoAppId(t.app), kind: 'test.noop', params: {}, createdBy: me!.userId })
      .returning();
    expect((await get(t.app, `/api/v0.1/jobs/${job!.id}`, researcher)).status).toBe(200);
  });

  it('reads at the same moment go in together, and each answers only with its own row written', async () => {
    const before = await mark();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.app.inject({ method: 'GET', url: '/api/v0.1/360?size=5', headers: { WeAppAuthorization: admin } }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(200));
    const rows = (await since(before)).filter((r) => r.entity === 'patient_list');
    // One row per read, each with its own request id: no read is left out or written twice.
    expect(rows).toHaveLength(40);
    const ids = answers.map((a) => String(a.headers['x-request-id']));
    expect(new Set(rows.map((r) => r.requestId))).toEqual(new Set(ids));
    expect(rows.every((r) => r.action === 'read' && r.userName === 'admin')).toBe(true);
  });
});
