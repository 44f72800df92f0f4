import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  diagnoses,
  labResults,
  operations,
  orders,
  patients,
  visits,
} from '../../db/schema/index.js';
import { otherAppAdministrator } from '../../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../../test/helper.js';
import { importTwoPatientsCsv, syntheaBundle, waitForImport } from '../test/support.js';

/**
 * The data manager imports a real Synthea FHIR bundle, runs it again without duplicates, then a
 * CSV of lab results where some rows are bad: good rows are kept, bad ones reported by line and field.
 */
describe('imports: FHIR bundles and CSV files run as jobs', () => {
  let t: TestApp;
  let admin: string;
  const { name, bundle } = syntheaBundle();

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => t.close());

  const countOf = async (table: typeof patients | typeof visits | typeof labResults) =>
    Number((await t.app.db.select({ n: count() }).from(table))[0]!.n);

  it('imports a Synthea bundle: patient, encounters, conditions, observations, drugs, procedures, allergies', async () => {
    const res = await post(t.app, '/api/v0.1/imports/fhir', { fileName: name, bundle }, admin);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('queued');
    const done = await waitForImport(t.app, admin, res.body.data.id);
    expect(done.status).toBe('succeeded');
    expect(done.counts).toMatchObject({
      patients: 1,
      visits: 12,
      diagnoses: 6,
      allergies: 3,
      orders: 6,
      operations: 2,
    });
    expect(done.counts.labResults).toBeGreaterThan(10);
    expect(done.counts.vitalSigns).toBeGreaterThan(0);
    expect(done.progress).toBe(100);

    const job = await get(t.app, `/api/v0.1/jobs/${done.jobId}`, admin);
    expect(job.body.data).toMatchObject({ status: 'succeeded', progress: 100 });

    const list = await get(t.app, '/api/v0.1/360?keyword=Kermit', admin);
    expect(list.body.data.items).toHaveLength(1);
    const person = await get(t.app, `/api/v0.1/360/person/${list.body.data.items[0].id}`, admin);
    expect(person.body.data.patient).toMatchObject({
      name: 'Kermit Trantow',
      gender: 1,
      birthDate: '1993-06-21',
    });
    const trail = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'import'));
    expect(trail).toHaveLength(1);
  });

  it('keeps every coding of the Synthea resources: SNOMED CT conditions and procedures, RxNorm drugs, LOINC labs', async () => {
    const list = await get(t.app, '/api/v0.1/360?keyword=Kermit', admin);
    const person = await get(t.app, `/api/v0.1/360/person/${list.body.data.items[0].id}`, admin);
    const dx = person.body.data.diagnoses as Array<{ name: string; icd10: string; codings: unknown[] }>;
    expect(dx).toHaveLength(6);
    // Synthea codes conditions in SNOMED CT only: no ICD-10 code, the SNOMED coding kept whole.
    expect(dx.find((d) => d.name === 'Hypertension')).toMatchObject({
      icd10: '',
      codings: [{ system: 'http://snomed.info/sct', code: '38341003', display: 'Hypertension' }],
    });
    expect(dx.filter((d) => d.name === 'Viral sinusitis (disorder)').map((d) => d.codings)).toEqual(
      Array(3).fill([
        { system: 'http://snomed.info/sct', code: '444814009', display: 'Viral sinusitis (disorder)' },
      ]),
    );
    const drugs = await t.app.db.select().from(orders).where(eq(orders.source, 'fhir'));
    expect(drugs).toHaveLength(6);
    for (const o of drugs)
      expect(o.codings).toEqual([
        { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: o.code, display: o.name },
      ]);
    const labs = await t.app.db.select().from(labResults).where(eq(labResults.source, 'fhir'));
    expect(labs.length).toBeGreaterThan(10);
    for (const l of labs)
      expect(l.codings).toEqual([{ system: 'http://loinc.org', code: l.itemCode, display: l.itemName }]);
    const ops = await t.app.db.select().from(operations).where(eq(operations.source, 'fhir'));
    expect(ops.map((o) => o.codings)).toEqual(
      Array(2).fill([
        {
          system: 'http://snomed.info/sct',
          code: '428191000124101',
          display: 'Documentation of current medications',
        },
      ]),
    );
  });

  it('runs the same import again without duplicating a row', async () => {
    const before = [await countOf(patients), await countOf(visits), await countOf(labResults)];
    const list = await get(t.app, '/api/v0.1/imports', admin);
    const id = list.body.data.items[0].id;
    const rerun = await post(t.app, `/api/v0.1/imports/${id}/rerun`, {}, admin);
    expect(rerun.status).toBe(200);
    const done = await waitForImport(t.app, admin, id);
    expect(done.status).toBe('succeeded');
    expect([await countOf(patients), await countOf(visits), await countOf(labResults)]).toEqual(before);
    // A second upload of the same file is a new record, and still no duplicate rows.
    const again = await post(t.app, '/api/v0.1/imports/fhir', { fileName: name, bundle }, admin);
    await waitForImport(t.app, admin, again.body.data.id);
    expect([await countOf(patients), await countOf(visits), await countOf(labResults)]).toEqual(before);
  });

  it('reads the ICD-10 code from any coding of a condition and refuses a resource with a bad coding', async () => {
    const patient = {
      resourceType: 'Patient',
      id: 'cp-1',
      name: [{ family: '王', given: ['五'] }],
      birthDate: '1960-02-03',
    };
    const condition = (id: string, coding: unknown[]) => ({
      resourceType: 'Condition',
      id,
      code: { coding, text: '2型糖尿病' },
      subject: { reference: 'Patient/cp-1' },
      onsetDateTime: '2023-05-06T08:00:00+08:00',
    });
    const snomed = {
      system: 'http://snomed.info/sct',
      code: '44054006',
      display: 'Diabetes mellitus type 2',
    };
    const icd = { system: 'http://hl7.org/fhir/sid/icd-10', code: 'E11.9', display: '2型糖尿病' };
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: patient },
        { resource: condition('c-both', [snomed, icd, { system: 'urn:x', display: 'no code' }]) },
        { resource: condition('c-long', [{ ...snomed, display: 'x'.repeat(501) }]) },
        { resource: condition('c-code', [snomed, { system: 'urn:x', code: '9'.repeat(101), display: '' }]) },
      ],
    };
    const res = await post(t.app, '/api/v0.1/imports/fhir', { fileName: 'codings.json', bundle }, admin);
    const done = await waitForImport(t.app, admin, res.body.data.id);
    expect(done.status).toBe('partial');
    expect(done.counts).toMatchObject({ patients: 1, diagnoses: 1 });
    expect(done.errors).toEqual([
      expect.objectContaining({ row: 3, field: 'codings.0.display', ref: 'Condition/c-long' }),
      expect.objectContaining({ row: 4, field: 'codings.1.code', ref: 'Condition/c-code' }),
    ]);
    const [row] = await t.app.db.select().from(diagnoses).where(eq(diagnoses.sourceId, 'c-both'));
    // The ICD-10 coding is the second one: it is still the diagnosis's code; a coding without a code is left out.
    expect(row).toMatchObject({ icd10: 'E11.9', name: '2型糖尿病', codings: [snomed, icd] });
  });

  it('keeps the good rows of a bundle and reports the bad ones by entry and field', async () => {
    const broken = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'Patient',
            id: 'p-1',
            name: [{ family: '张', given: ['三'] }],
            gender: 'male',
            birthDate: '1970-01-01',
          },
        },
        {
          resource: {
            resourceType: 'Encounter',
            id: 'e-1',
            class: { code: 'IMP' },
            subject: { reference: 'Patient/p-1' },
            period: { start: 'yesterday' },
          },
        },
        {
          resource: {
            resourceType: 'Observation',
            id: 'o-1',
            category: [{ coding: [{ code: 'vital-signs' }] }],
            code: { coding: [{ code: '8310-5' }] },
            subject: { reference: 'Patient/p-1' },
            effectiveDateTime: '2024-01-01T08:00:00Z',
            valueQuantity: { value: 37.2, unit: 'Cel' },
          },
        },
        {
          resource: {
            resourceType: 'Observation',
            id: 'o-2',
            category: [{ coding: [{ code: 'laboratory' }] }],
            code: { coding: [{ code: '1742-6', display: 'ALT' }] },
            subject: { reference: 'Patient/nobody' },
            effectiveDateTime: '2024-01-01T08:00:00Z',
            valueQuantity: { value: 40 },
          },
        },
        {
          resource: {
            resourceType: 'Patient',
            id: 'p-2',
            name: [{ family: '李' }],
            identifier: [{ type: { coding: [{ code: 'NI' }] }, value: '110101199003071235' }],
          },
        },
      ],
    };
    const res = await post(
      t.app,
      '/api/v0.1/imports/fhir',
      { fileName: 'broken.json', bundle: broken },
      admin,
    );
    const done = await waitForImport(t.app, admin, res.body.data.id);
    expect(done.status).toBe('partial');
    expect(done.counts).toMatchObject({ patients: 1, vitalSigns: 1 });
    expect(done.errors).toEqual([
      expect.objectContaining({ row: 2, field: 'admitAt', ref: 'Encounter/e-1' }),
      expect.objectContaining({ row: 4, field: 'subject', ref: 'Observation/o-2' }),
      expect.objectContaining({ row: 5, field: 'nationalId', message: '身份证号校验位错误' }),
    ]);
  });

  it('refuses what is not a bundle with a 400 naming the field, and queues nothing', async () => {
    const before = (await get(t.app, '/api/v0.1/imports', admin)).body.data.total;
    const bad = await post(
      t.app,
      '/api/v0.1/imports/fhir',
      { bundle: { resourceType: 'Patient', entry: [{}] } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('bundle.resourceType');
    const empty = await post(
      t.app,
      '/api/v0.1/imports/fhir',
      { bundle: { resourceType: 'Bundle', entry: [] } },
      admin,
    );
    expect(empty.status).toBe(400);
    expect((await get(t.app, '/api/v0.1/imports', admin)).body.data.total).toBe(before);
  });

  it('imports CSV with a column mapping: patients, then lab results by medical record number', async () => {
    const p = await importTwoPatientsCsv(t.app, admin, ['C001', 'C002']);
    const pd = await waitForImport(t.app, admin, p.body.data.id);
    expect(pd.counts.patients).toBe(1);
    expect(pd.errors).toEqual([expect.objectContaining({ row: 2, field: 'birthDate' })]);

    const labs =
      'mrn,code,item,value,unit,low,high,time\nC001,AFP,甲胎蛋白,420,ng/mL,0,7,2024-02-01 08:00\nC001,AFP,甲胎蛋白,abc,ng/mL,0,7,2024-02-08 08:00\nC999,AFP,甲胎蛋白,3,ng/mL,0,7,2024-02-01 08:00\n';
    const mapping = {
      mrn: 'mrn',
      itemCode: 'code',
      itemName: 'item',
      valueNum: 'value',
      unit: 'unit',
      refLow: 'low',
      refHigh: 'high',
      collectedAt: 'time',
    };
    const l = await post(
      t.app,
      '/api/v0.1/imports/csv',
      { fileName: 'labs.csv', table: 'labResults', mapping, text: labs },
      admin,
    );
    const ld = await waitForImport(t.app, admin, l.body.data.id);
    expect(ld.counts.labResults).toBe(1);
    expect(ld.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [2, 'valueNum'],
      [3, 'mrn'],
    ]);
    // Each refused row is worded in the reader's language: Chinese by default, English on request.
    expect(ld.errors.map((e: { message: string }) => e.message)).toEqual([
      '应为数字，收到的是文本',
      '没有病历号为 C999 的患者',
    ]);
    const ldEn = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/imports/${l.body.data.id}`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
    });
    expect(ldEn.json().data.errors.map((e: { message: string }) => e.message)).toEqual([
      expect.stringMatching(/number/i),
      'no patient with medical record number C999',
    ]);
    expect(ldEn.json().data.errors[0].text).toBeUndefined();
    const [row] = await t.app.db
      .select()
      .from(labResults)
      .where(and(eq(labResults.itemCode, 'AFP')));
    expect(row).toMatchObject({ valueNum: 420, abnormalFlag: 'H' });

    const wrongColumn = await post(
      t.app,
      '/api/v0.1/imports/csv',
      { fileName: 'labs.csv', table: 'labResults', mapping: { ...mapping, unit: '单位' }, text: labs },
      admin,
    );
    const wd = await waitForImport(t.app, admin, wrongColumn.body.data.id);
    expect(wd.status).toBe('failed');
    expect(wd.errors[0]).toMatchObject({ field: 'mapping.unit', message: '没有名为 单位 的列' });
    const wdEn = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/imports/${wrongColumn.body.data.id}`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
    });
    expect(wdEn.json().data.errors[0]).toMatchObject({
      field: 'mapping.unit',
      message: 'no column named 单位',
    });
  });

  it("keeps imports to their app: another hospital gets 404 for this one's records and jobs", async () => {
    const other = await otherAppAdministrator(t.app);
    const list = await get(t.app, '/api/v0.1/imports', admin);
    const rec = list.body.data.items[0];
    expect((await get(t.app, `/api/v0.1/imports/${rec.id}`, other.key)).status).toBe(404);
    expect((await get(t.app, `/api/v0.1/jobs/${rec.jobId}`, other.key)).status).toBe(404);
    expect((await post(t.app, `/api/v0.1/imports/${rec.id}/rerun`, {}, other.key)).status).toBe(404);
    expect((await get(t.app, '/api/v0.1/imports', other.key)).body.data.items).toEqual([]);
    const researcher = await signIn(t.app, 'researcher');
    expect((await post(t.app, '/api/v0.1/imports/fhir', { fileName: name, bundle }, researcher)).status).toBe(
      403,
    );
  });
});
