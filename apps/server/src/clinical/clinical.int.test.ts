import { randomNationalId } from '@crdp/core';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, patients } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { demoUserWith } from './test/support.js';

/**
 * The story of a patient entered by hand: the registrar creates her, adds a visit, results and
 * a document; a clinician without the identity function sees her ID masked; another hospital
 * cannot see her at all.
 */
describe('clinical repository: manual entry and patient 360', () => {
  let t: TestApp;
  let admin: string;
  let clinician: string;
  let other: { appId: number; key: string };
  let patientId: number;
  const nid = randomNationalId(() => 0.42, { birthDate: '1968-04-12' });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    clinician = await demoUserWith(t.app, 'clinician', [
      'PersonalInHospitalView.get',
      'PersonalCheckout.get',
      'PersonalSeeADoctor.get',
    ]);
    other = await otherAppAdministrator(t.app);
  });
  afterAll(async () => t.close());

  it('registers a patient, audited, and refuses a bad national ID naming the field without writing', async () => {
    const before = await t.app.db.select({ n: count() }).from(patients);
    const bad = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'M001', name: '王秀英', gender: 2, nationalId: '110101199003071235' },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('nationalId');
    expect(bad.body.message).toContain('身份证号校验位错误');
    expect((await t.app.db.select({ n: count() }).from(patients))[0]!.n).toBe(before[0]!.n);

    const res = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      {
        mrn: 'M001',
        name: '王秀英',
        gender: 2,
        birthDate: '1968-04-12',
        nationalId: nid,
        phone: '13812345678',
      },
      admin,
    );
    expect(res.status).toBe(200);
    patientId = res.body.data.id;
    expect(res.body.data.nationalId).toBe(nid);
    const trail = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'patient'), eq(auditLog.entityId, String(patientId))));
    expect(trail.map((a) => a.action)).toContain('create');

    const dup = await post(t.app, '/api/v0.1/cdr/patients', { mrn: 'M001', name: '李四', gender: 1 }, admin);
    expect(dup.status).toBe(400);
    expect(dup.body.field).toBe('mrn');
    expect(dup.body.message).toBe('请求参数错误：body.mrn: 病案号 M001 已被使用');
  });

  it('adds a visit, lab results with abnormal flags, vital signs and a document', async () => {
    const visit = await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      {
        table: 'visits',
        row: { kind: 'inpatient', department: '感染科', admitAt: '2024-03-01T08:00:00+08:00' },
      },
      admin,
    );
    expect(visit.status).toBe(200);
    const visitId = visit.body.data.id;
    for (const [value, at] of [
      [186, '2024-03-02T07:00:00+08:00'],
      [35, '2024-03-09T07:00:00+08:00'],
    ] as const) {
      const r = await post(
        t.app,
        `/api/v0.1/cdr/patients/${patientId}/records`,
        {
          table: 'labResults',
          row: {
            visitId,
            itemCode: 'ALT',
            itemName: '丙氨酸氨基转移酶',
            valueNum: value,
            unit: 'U/L',
            refLow: 9,
            refHigh: 50,
            collectedAt: at,
          },
        },
        admin,
      );
      expect(r.status).toBe(200);
    }
    await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      {
        table: 'vitalSigns',
        row: {
          visitId,
          itemName: '体温',
          value: '38.5',
          itemUnit: '℃',
          recordDt: '2024-03-02T06:00:00+08:00',
        },
      },
      admin,
    );
    await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      {
        table: 'vitalSigns',
        row: { visitId, itemName: '事件', value: '开呼吸机', recordDt: '2024-03-02T10:00:00+08:00' },
      },
      admin,
    );
    const doc = await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      {
        table: 'documents',
        row: {
          visitId,
          kind: 'admission',
          title: '入院记录',
          body: '患者因乏力、纳差1月入院，既往慢性乙型肝炎病史10年。',
          writtenAt: '2024-03-01T10:00:00+08:00',
        },
      },
      admin,
    );
    expect(doc.status).toBe(200);

    const wrongVisit = await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      { table: 'diagnoses', row: { visitId: 999999, name: '肝硬化', diagnosedAt: '2024-03-01' } },
      admin,
    );
    expect(wrongVisit.status).toBe(400);
    expect(wrongVisit.body.message).toBe('请求参数错误：body.row.visitId: 就诊 999999 不属于该患者');

    const badDate = await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      {
        table: 'labResults',
        row: { itemCode: 'AST', itemName: 'AST', valueNum: 1, collectedAt: '2024-13-45' },
      },
      admin,
    );
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toContain('collectedAt');
  });

  it('shows the patient 360 view: person, labs with flags and trend, vital signs, visits', async () => {
    const person = await get(t.app, `/api/v0.1/360/person/${patientId}`, admin);
    expect(person.status).toBe(200);
    expect(person.body.data.patient.name).toBe('王秀英');
    expect(person.body.data.counts.labResults).toBe(2);
    expect(person.body.data.visits[0].department).toBe('感染科');

    const labs = await get(t.app, `/api/v0.1/360/measurementlist/${patientId}?itemCode=ALT`, admin);
    expect(labs.body.data.items.map((r: { abnormalFlag: string }) => r.abnormalFlag)).toEqual(['H', 'N']);
    expect(labs.body.data.labItems[0]).toMatchObject({ itemCode: 'ALT', n: 2, abnormal: 1 });

    const vitals = await get(t.app, `/api/v0.1/360/vitalsigns/${patientId}`, admin);
    expect(vitals.body.data.points.map((p: { value: string }) => p.value)).toEqual(['38.5', '开呼吸机']);
    expect(vitals.body.data.points[0]).toHaveProperty('Record_dt');

    const list = await get(t.app, '/api/v0.1/360?keyword=王', admin);
    expect(list.body.data.items.map((p: { id: number }) => p.id)).toContain(patientId);
  });

  it('masks the national ID and phone for a clinician without the patient-details function', async () => {
    const list = await get(t.app, '/api/v0.1/360?keyword=M001', clinician);
    expect(list.status).toBe(200);
    const p = list.body.data.items[0];
    expect(p.nationalId).toBe(`${nid.slice(0, 6)}********${nid.slice(-4)}`);
    expect(p.phone).toBe('138****5678');
    const person = await get(t.app, `/api/v0.1/360/person/${patientId}`, clinician);
    expect(person.body.data.patient.nationalId).not.toBe(nid);
    // Searching by the full number still finds her: the number is compared, not shown.
    const byId = await get(t.app, `/api/v0.1/360?keyword=${nid}`, clinician);
    expect(byId.body.data.items).toHaveLength(1);
  });

  it('refuses a tab without its function (403) and writes without the import function', async () => {
    expect((await get(t.app, `/api/v0.1/360/operationlist/${patientId}`, clinician)).status).toBe(403);
    expect((await get(t.app, `/api/v0.1/360/druglist?patientId=${patientId}`, clinician)).status).toBe(403);
    const write = await post(t.app, '/api/v0.1/cdr/patients', { mrn: 'X', name: '某', gender: 0 }, clinician);
    expect(write.status).toBe(403);
    const researcher = await signIn(t.app, 'researcher');
    expect(
      (await post(t.app, '/api/v0.1/cdr/patients', { mrn: 'X', name: '某', gender: 0 }, researcher)).status,
    ).toBe(403);
  });

  it("hides one hospital's patient from another hospital (404, no data)", async () => {
    for (const url of [
      `/api/v0.1/360/person/${patientId}`,
      `/api/v0.1/360/measurementlist/${patientId}`,
      `/api/v0.1/360/vitalsigns/${patientId}`,
      `/api/v0.1/360/druglist?patientId=${patientId}`,
    ]) {
      const r = await get(t.app, url, other.key);
      expect(r.status, url).toBe(404);
      expect(r.body.data).toBeNull();
    }
    const list = await get(t.app, '/api/v0.1/360?keyword=王', other.key);
    expect(list.body.data.items).toEqual([]);
    const rows = await get(t.app, '/api/v0.1/cdr/rows?table=labResults', other.key);
    expect(rows.body.data.items).toEqual([]);
    const add = await post(
      t.app,
      `/api/v0.1/cdr/patients/${patientId}/records`,
      { table: 'allergies', row: { substance: '青霉素', recordedAt: '2024-01-01' } },
      other.key,
    );
    expect(add.status).toBe(404);
  });

  it('pages the patient list by keyset: pages do not overlap and end with no cursor', async () => {
    for (let i = 0; i < 5; i++) {
      await post(t.app, '/api/v0.1/cdr/patients', { mrn: `P${i}`, name: `测试${i}`, gender: 1 }, admin);
    }
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const r = await get(t.app, `/api/v0.1/360?size=2${cursor ? `&cursor=${cursor}` : ''}`, admin);
      seen.push(...r.body.data.items.map((p: { id: number }) => p.id));
      cursor = r.body.data.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(6);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });
});
