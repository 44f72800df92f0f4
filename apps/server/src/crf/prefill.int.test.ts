import { readFileSync } from 'node:fs';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecord, demoUserWith } from '../clinical/test/support.js';
import { auditLog, crfRecords, labResults, patients } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { ageOn } from './prefill-cdr.js';

/** The HL7 C-CDA R2.1 Discharge Summary example (CC0, fixtures/cda, see fixtures/SOURCES.md). */
const dischargeSummary = readFileSync(
  new URL('../../../../fixtures/cda/ccda_Discharge_Summary.xml', import.meta.url),
  'utf8',
);

const FORM = {
  pages: [
    {
      key: 'p1',
      title: '入院信息',
      items: [
        { key: 'height', type: 'textQuestion', title: '身高', code: '8302-2', unit: 'm', textType: 'number' },
        {
          key: 'weight',
          type: 'textQuestion',
          title: '体重',
          code: '3141-9',
          unit: 'kg',
          textType: 'number',
        },
        {
          key: 'sbp',
          type: 'textQuestion',
          title: '收缩压',
          code: '8480-6',
          unit: 'mmHg',
          textType: 'number',
        },
        { key: 'drug', type: 'textQuestion', title: '出院带药', code: '197806' },
      ],
    },
  ],
};

/** Prefill as a server call (issue 21): the answers a C-CDA document gives a form, nothing stored. */
describe('CRF prefill from a case record', () => {
  let t: TestApp;
  let admin: string;
  let formId: number;
  const url = () => `/api/v0.1/crf/forms/${formId}/prefill`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const made = await post(t.app, '/api/v0.1/crf/forms', { name: '出院小结预填', definition: FORM }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    formId = made.body.data.id;
    expect(
      (await post(t.app, `${url().replace('/prefill', '')}/publish`, { note: 'v1' }, admin)).status,
    ).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('answers the vital signs and the drug of a C-CDA discharge summary, converted, and stores nothing', async () => {
    const [before] = await t.app.db.select({ n: count() }).from(crfRecords);
    const r = await post(t.app, url(), { xml: dischargeSummary }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.answers).toEqual({
      height: 1.77,
      weight: 86,
      sbp: 80,
      drug: 'ibuprofen 600 MG Oral Tablet',
    });
    // What has no item is listed with its reason.
    expect(r.body.data.unmatched.length).toBeGreaterThan(0);
    expect(r.body.data.unmatched[0].reason).toBeTruthy();
    const [after] = await t.app.db.select({ n: count() }).from(crfRecords);
    expect(after!.n).toBe(before!.n);
  });

  it('refuses what is not a CDA document, naming the field, and checks the caller', async () => {
    const bad = await post(t.app, url(), { xml: '<html><body>入院记录</body></html>' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'body.xml' });
    expect(bad.body.message).toContain('ClinicalDocument');
    expect((await post(t.app, url(), { xml: '' }, admin)).status).toBe(400);
    const other = await otherAppAdministrator(t.app);
    expect((await post(t.app, url(), { xml: dischargeSummary }, other.key)).status).toBe(404);
    const reader = await demoUserWith(t.app, 'prefill-reader', ['CrfHepatopathyPoc.query']);
    expect((await post(t.app, url(), { xml: dischargeSummary }, reader)).status).toBe(403);
  });
});

/** The form of a hepatology admission, as a hospital would code it (LOINC, names, units). */
const ADMISSION = {
  pages: [
    {
      key: 'p1',
      title: '入院评估',
      items: [
        {
          key: 'sex',
          type: 'radio',
          title: '性别',
          options: [
            { code: 'M', name: '男' },
            { code: 'F', name: '女' },
          ],
        },
        { key: 'age', type: 'textQuestion', title: '年龄', textType: 'number' },
        // Coded by LOINC: the lab's own item code is ALT, its LOINC coding 1742-6.
        {
          key: 'alt',
          type: 'textQuestion',
          title: '谷丙转氨酶',
          code: '1742-6',
          unit: 'U/L',
          textType: 'number',
        },
        // By name, converted: the lab reports albumin in g/dL.
        { key: 'alb', type: 'textQuestion', title: '白蛋白', unit: 'g/L', textType: 'number' },
        { key: 'sbp', type: 'textQuestion', title: '收缩压', unit: 'kPa', textType: 'number' },
        { key: 'dbp', type: 'textQuestion', title: '舒张压', unit: 'mmHg', textType: 'number' },
        { key: 'temp', type: 'textQuestion', title: '体温', unit: '℃', textType: 'number' },
        { key: 'weight', type: 'textQuestion', title: '体重（kg）', textType: 'number' },
        {
          key: 'ascites',
          type: 'radio',
          title: '腹水',
          options: [
            { code: '0', name: '无' },
            { code: '1', name: '少量' },
          ],
        },
      ],
    },
  ],
};

/** Prefill from the patient's clinical data (CDR): what the chart holds, as of a day, into the form. */
describe('CRF prefill from clinical data', () => {
  let t: TestApp;
  let admin: string;
  let formId: number;
  let patientId: number;
  const url = () => `/api/v0.1/crf/forms/${formId}/prefill/cdr`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const made = await post(
      t.app,
      '/api/v0.1/crf/forms',
      { name: '入院评估预填', definition: ADMISSION },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    formId = made.body.data.id;
    expect((await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'v1' }, admin)).status).toBe(
      200,
    );
    const p = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'PF-CDR-1', name: '预填病人', gender: 2, birthDate: '1970-06-15' },
      admin,
    );
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    patientId = p.body.data.id;
    // The lab's own code, with its LOINC coding as a FHIR import stores it (the records call
    // takes no codings).
    const [owner] = await t.app.db
      .select({ appId: patients.appId })
      .from(patients)
      .where(eq(patients.id, patientId));
    const appId = owner!.appId;
    await t.app.db.insert(labResults).values(
      [
        [40, '2026-03-01'],
        [88, '2026-03-05'],
      ].map(([valueNum, day]) => ({
        appId,
        patientId,
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶',
        codings: [{ system: 'http://loinc.org', code: '1742-6', display: 'ALT' }],
        valueNum: Number(valueNum),
        unit: 'U/L',
        collectedAt: new Date(`${day}T08:00:00+08:00`),
        source: 'fhir',
        sourceId: `prefill-alt-${day}`,
      })),
    );
    await addRecord(t.app, admin, patientId, 'labResults', {
      itemCode: 'ALB',
      itemName: '白蛋白',
      valueNum: 3.5,
      unit: 'g/dL',
      collectedAt: '2026-03-05T08:00:00+08:00',
    });
    for (const [item, value, unit] of [
      ['血压', '150/90', 'mmHg'],
      ['体重', '61.5', 'kg'],
    ])
      await addRecord(t.app, admin, patientId, 'physicalExams', {
        item,
        value,
        unit,
        recordedAt: '2026-03-04T09:00:00+08:00',
      });
    await addRecord(t.app, admin, patientId, 'vitalSigns', {
      itemName: '体温',
      value: '38.2',
      itemUnit: '℃',
      recordDt: '2026-03-05T10:00:00+08:00',
    });
    await addRecord(t.app, admin, patientId, 'diagnoses', {
      icd10: 'K74.6',
      name: '肝硬化',
      diagnosedAt: '2026-03-04T10:00:00+08:00',
    });
  }, 120_000);
  afterAll(() => t?.close());

  it("places the patient's latest values by code, name and unit, as of a day, stores nothing and audits the read", async () => {
    const [before] = await t.app.db.select({ n: count() }).from(crfRecords);
    const r = await post(t.app, url(), { patient_id: patientId, as_of: '2026-03-10' }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { answers, placed, unmatched } = r.body.data;
    expect(answers).toEqual({
      sex: 'F',
      age: 55,
      alt: 88,
      alb: 35,
      sbp: 19.9983,
      dbp: 90,
      temp: 38.2,
      weight: 61.5,
    });
    // Each answer names the entry behind it: where it came from and when.
    expect(placed.alt).toMatchObject({
      section: 'labResults',
      code: 'ALT',
      otherCodes: ['1742-6'],
      value: '88',
    });
    expect(placed.alt.at).toBe('2026-03-05T00:00:00.000Z');
    expect(placed.sbp).toMatchObject({
      section: 'physicalExams',
      displayName: '收缩压',
      value: '150',
      unit: 'mmHg',
    });
    // The diagnosis has no item: listed, coded, with its English reason beside.
    expect(unmatched).toContainEqual(
      expect.objectContaining({
        entry: expect.objectContaining({ code: 'K74.6', displayName: '肝硬化' }),
        why: { code: 'noItem' },
        reason: 'no item matches its code or name',
      }),
    );
    const [after] = await t.app.db.select({ n: count() }).from(crfRecords);
    expect(after!.n).toBe(before!.n);
    const audited = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'crf_prefill_cdr'), eq(auditLog.entityId, String(formId))));
    expect(audited.at(-1)?.after).toMatchObject({ patientId, asOf: '2026-03-10', placed: 8 });
  });

  it('reads only what was there by the end of the day asked for', async () => {
    const r = await post(t.app, url(), { patient_id: patientId, as_of: '2026-03-02' }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.answers).toEqual({ sex: 'F', age: 55, alt: 40 });
    const early = await post(t.app, url(), { patient_id: patientId, as_of: '1970-06-14' }, admin);
    // Before the patient was born: no age, nothing measured.
    expect(early.body.data.answers).toEqual({ sex: 'F' });
  });

  it('refuses a patient of another app or none, a bad day, and callers without the function, naming the field', async () => {
    const none = await post(t.app, url(), { patient_id: 987654 }, admin);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ field: 'body.patient_id' });
    const day = await post(t.app, url(), { patient_id: patientId, as_of: '2026-02-30' }, admin);
    expect(day.status).toBe(400);
    expect(day.body.field).toMatch(/as_of/);
    expect((await post(t.app, url(), { patient_id: patientId, extra: 1 }, admin)).status).toBe(400);
    const other = await otherAppAdministrator(t.app);
    expect((await post(t.app, url(), { patient_id: patientId }, other.key)).status).toBe(404);
    const reader = await demoUserWith(t.app, 'cdr-prefill-reader', ['CrfHepatopathyPoc.query']);
    expect((await post(t.app, url(), { patient_id: patientId }, reader)).status).toBe(403);
  });

  it('counts age in whole years to the day', () => {
    expect(ageOn('1970-06-15', '2026-06-14')).toBe(55);
    expect(ageOn('1970-06-15', '2026-06-15')).toBe(56);
    expect(ageOn('2000-02-29', '2001-02-28')).toBe(0);
    expect(ageOn('2000-02-29', '2001-03-01')).toBe(1);
  });
});
