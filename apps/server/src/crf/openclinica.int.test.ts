import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { validXml } from '../test/xml.js';
import { ELIGIBILITY_SUBJECTS } from './test/openclinica.js';
import { exportedText, publishedImport, publishForm } from './test/support.js';
import { LIVER_FORM, registerPatients } from './testform.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

describe('OpenClinica 3.x study import and ODM ClinicalData into records', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let extract: string;
  const formOf: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    extract = await readFile(path.join(FIXTURES, 'openclinica/openclinica_demo_extract.xml'), 'utf8');
  });
  afterAll(async () => t.close());

  const records = async (formId: number) =>
    (await get(t.app, `/api/v0.1/crf/forms/${formId}/records?page=1&size=100`, admin)).body.data;
  const importRecords = (formId: number, body: Record<string, unknown>, key = admin) =>
    post(t.app, `/api/v0.1/crf/forms/${formId}/import-records`, body, key);

  it('imports every CRF version of the OpenClinica study with sections, headers and conditional display', async () => {
    const res = await post(t.app, '/api/v0.1/crf/forms/import-study', { content: extract }, admin);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.study).toBe('Docetaxel in Patients With Completely Resected NSCLC');
    expect(data.forms).toHaveLength(8);
    for (const f of data.forms) formOf[f.formOid] = f.form.id;
    const es = data.forms.find((f: { formOid: string }) => f.formOid === 'F_PHYSICALEXAM_ESPAOL');
    const definition = (await get(t.app, `/api/v0.1/crf/forms/${es.form.id}`, admin)).body.data;
    const form = definition.draft ?? definition.definition ?? definition;
    expect(JSON.stringify(form)).toContain('Cuerpo del sistema / sitio');
    const en = data.forms.find((f: { formOid: string }) => f.formOid === 'F_PHYSICALEXAM_ENGLISH');
    expect(en.unsupported).toContain(
      'I_PHYSI_BMI: OpenClinica calculation (its formula is not in the ODM metadata) imported as an entry item',
    );
    for (const oid of ['F_ELIGIBILITY_V10', 'F_PHYSICALEXAM_ENGLISH', 'F_AGENTADMINIS_V10'])
      await publishForm(t.app, admin, formOf[oid]!);
  });

  it('stores no record while any subject, code or value is at fault, and names every fault', async () => {
    const eligibility = formOf.F_ELIGIBILITY_V10!;
    // No patient has these MRNs yet: eleven faults, nothing stored.
    const none = await importRecords(eligibility, { content: extract, formOid: 'F_ELIGIBILITY_V10' });
    expect(none.status).toBe(400);
    expect(none.body.field).toBe('body.content');
    expect(none.body.message).toContain('文件有 11 处错误，未导入任何记录');
    for (const s of ELIGIBILITY_SUBJECTS) expect(none.body.message).toContain(`SubjectKey ${s}:`);
    expect((await records(eligibility)).total).toBe(0);

    await registerPatients(t.app, [...ELIGIBILITY_SUBJECTS, 'SS_SMC102']);
    // OpenClinica writes one code list per item: the English CRF's codes (2 = abnormal, 99) are not in it.
    const exam = await importRecords(formOf.F_PHYSICALEXAM_ENGLISH!, {
      content: extract,
      formOid: 'F_PHYSICALEXAM_ENGLISH',
    });
    expect(exam.status).toBe(400);
    // 16 codes, and two values out of the item's range checks (held like a draft saved on screen).
    expect(exam.body.message).toContain('文件有 18 处错误');
    expect(exam.body.message).toContain(
      'SS_CAM101 SE_REGISTRATIONVISIT: I_PHYSI_SKIN: "2" is not a choice of I_PHYSI_SKIN',
    );
    expect((await records(formOf.F_PHYSICALEXAM_ENGLISH!)).total).toBe(0);

    // The file holds data of several forms: which one must be said.
    const which = await importRecords(eligibility, { content: extract });
    expect(which.status).toBe(400);
    expect(which.body.field).toBe('body.formOid');
    // Not an ODM file; a user without the import function may not import.
    expect((await importRecords(eligibility, { content: '<x/>' })).status).toBe(400);
    expect((await importRecords(eligibility, { content: extract }, researcher)).status).toBe(403);
    expect((await records(eligibility)).total).toBe(0);
  });

  it('imports the records of a CRF, a record per FormData matched on SubjectKey', async () => {
    const eligibility = formOf.F_ELIGIBILITY_V10!;
    const res = await importRecords(eligibility, { content: extract, formOid: 'F_ELIGIBILITY_V10' });
    expect(res.status).toBe(200);
    expect(res.body.data.records).toHaveLength(11);
    expect(res.body.data.records.map((r: { subjectCode: string }) => r.subjectCode).sort()).toEqual(
      [...ELIGIBILITY_SUBJECTS].sort(),
    );
    const cam101 = res.body.data.records.find((r: { subjectCode: string }) => r.subjectCode === 'SS_CAM101');
    expect(cam101.patientId).toEqual(expect.any(Number));
    const one = (await get(t.app, `/api/v0.1/crf/records/${cam101.id}`, admin)).body.data.record;
    expect(one.status).toBe('draft');
    expect(one.answers).toMatchObject({
      I_ELIGI_OVER_18: '1',
      I_ELIGI_INFORMED_CONSENT_DAT: '2011-07-01',
      I_ELIGI_HIST_HEART_DISEASE: '0',
    });
    expect((await records(eligibility)).total).toBe(11);

    // The agent administration CRF: six FormData of five subjects over two study events.
    const agent = await importRecords(formOf.F_AGENTADMINIS_V10!, {
      content: extract,
      formOid: 'F_AGENTADMINIS_V10',
    });
    expect(agent.status).toBe(200);
    expect(agent.body.data.records).toHaveLength(6);
    expect(new Set(agent.body.data.records.map((r: { subjectCode: string }) => r.subjectCode)).size).toBe(5);
    expect(agent.body.data.records.map((r: { source: string }) => r.source)).toContain(
      'SE_FOLLOWUPTREATMENT[1]',
    );
  });

  it('a data-only ODM file (OpenEDC) into the form imported from its metadata file', async () => {
    const meta = await readFile(path.join(FIXTURES, 'odm/examples/openedc_metadata.xml'), 'utf8');
    const data = await readFile(
      path.join(FIXTURES, 'odm/examples/openedc_clinicaldata_INVALID_auditrecord_order.xml'),
      'utf8',
    );
    const formId = await publishedImport(t.app, admin, {
      format: 'odm',
      name: 'OpenEDC',
      content: meta,
      formOid: 'F.1',
    });
    // The file's SubjectKeys ("01"…): patients with those MRNs.
    const subjects = [...new Set([...data.matchAll(/SubjectKey="([^"]+)"/g)].map((m) => m[1]!))];
    expect(subjects).toHaveLength(90);
    await registerPatients(t.app, subjects);
    const res = await importRecords(formId, { content: data, formOid: 'F.1' });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data.records).toHaveLength(73);
    const first = (await get(t.app, `/api/v0.1/crf/records/${res.body.data.records[0].id}`, admin)).body.data
      .record;
    expect(first.subjectCode).toBe('01');
    expect(first.answers).toMatchObject({ Age: 72, Gender: 'Male', Pregnant: '0', CountryOfBirth: 'Spain' });
  });

  it("CRDP's own ODM export with its audit trail comes back as records with their history", async () => {
    const formId = (
      await post(t.app, '/api/v0.1/crf/forms', { name: 'ODM 往返', definition: LIVER_FORM }, admin)
    ).body.data.id;
    await publishForm(t.app, admin, formId);
    await registerPatients(t.app, ['RT-1', 'RT-2']);
    const base = { weight: 70, height: 170, hbsag: 'neg' };
    const made = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'RT-1', submit: true, answers: base },
      admin,
    );
    expect(made.status).toBe(200);
    const rec = `/api/v0.1/crf/records/${made.body.data.id}`;
    expect(
      (
        await put(
          t.app,
          rec,
          { answers: { ...base, weight: 72 }, revision: 1, reasons: { weight: '录入错误' } },
          admin,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/crf/forms/${formId}/records`,
          { subjectCode: 'RT-2', submit: false, answers: { weight: 55 } },
          admin,
        )
      ).status,
    ).toBe(200);
    const xml = await exportedText(t.app, admin, formId, 'format=odm');
    // The file the test reads back is valid ODM 1.3.2.
    await validXml(xml);

    const copyId = await publishedImport(t.app, admin, { format: 'odm', name: 'ODM 往返副本', content: xml });
    const res = await importRecords(copyId, { content: xml });
    expect(res.status).toBe(200);
    const byCode = Object.fromEntries(
      res.body.data.records.map((r: { subjectCode: string; id: number; changes: number }) => [
        r.subjectCode,
        r,
      ]),
    );
    expect(Object.keys(byCode).sort()).toEqual(['RT-1', 'RT-2']);
    // The weight changed, and with it the computed BMI.
    expect(byCode['RT-1'].changes).toBe(2);
    expect(byCode['RT-2'].changes).toBe(0);
    const back = (await get(t.app, `/api/v0.1/crf/records/${byCode['RT-1'].id}`, admin)).body.data.record;
    expect(back.answers).toMatchObject({ weight: 72, height: 170, hbsag: 'neg' });
    const history = (await get(t.app, `/api/v0.1/crf/records/${byCode['RT-1'].id}/history`, admin)).body.data;
    const weight = history.find((h: { itemKey: string }) => h.itemKey === 'weight');
    expect(weight).toMatchObject({ oldValue: 70, newValue: 72, reason: '录入错误' });
    expect(weight.userName).toMatch(/\(ODM\)$/);
    expect(history.map((h: { itemKey: string }) => h.itemKey).sort()).toEqual(['bmi', 'weight']);
    // The same change as the original's, at the time the original's history gives.
    const original = (await get(t.app, `${rec}/history`, admin)).body.data.find(
      (h: { itemKey: string }) => h.itemKey === 'weight',
    );
    expect(new Date(weight.changedAt).toISOString()).toBe(new Date(original.changedAt).toISOString());
  });

  it("a REDCap project XML's data, and a REDCap records CSV, into records of the imported forms", async () => {
    // Project XML: the demographics instrument, checkbox choices (var___code) back as one checkbox.
    const xml = await readFile(path.join(FIXTURES, 'redcap/redcapr_longitudinal_project.xml'), 'utf8');
    const study = await post(t.app, '/api/v0.1/crf/forms/import-study', { content: xml }, admin);
    expect(study.status).toBe(200);
    const demographics = study.body.data.forms.find(
      (f: { formOid: string }) => f.formOid === 'Form.demographics',
    ).form.id;
    await publishForm(t.app, admin, demographics);
    const missing = await importRecords(demographics, { content: xml, formOid: 'Form.demographics' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('文件有 3 处错误');
    await registerPatients(t.app, ['100', '220', '304']);
    const res = await importRecords(demographics, { content: xml, formOid: 'Form.demographics' });
    expect(res.status).toBe(200);
    expect(res.body.data.records.map((r: { subjectCode: string }) => r.subjectCode)).toEqual([
      '100',
      '220',
      '304',
    ]);
    const zharko = (await get(t.app, `/api/v0.1/crf/records/${res.body.data.records[0].id}`, admin)).body.data
      .record;
    expect(zharko.answers).toMatchObject({
      first_name: 'Zharko',
      dob: '1983-09-23',
      sex: '1',
      gym: ['0'],
      aerobics: ['1', '2'],
      height: 160,
    });

    // Records CSV: the dictionary imported as one form (a page per instrument), then its records.
    const dictionary = await readFile(
      path.join(FIXTURES, 'redcap/redcapr_longitudinal_dictionary.csv'),
      'utf8',
    );
    const formId = await publishedImport(t.app, admin, {
      format: 'redcap',
      name: 'REDCap 纵向',
      content: dictionary,
    });
    const csv = await readFile(path.join(FIXTURES, 'redcap/redcapr_longitudinal_records.csv'), 'utf8');
    const rows = await importRecords(formId, { format: 'redcap', content: csv });
    expect(rows.status).toBe(200);
    // 18 rows: a record per record and event with a value (two event rows hold none).
    expect(rows.body.data.records).toHaveLength(16);
    expect(rows.body.data.records[0]).toMatchObject({ subjectCode: '100', source: 'enrollment_arm_1' });
    expect(rows.body.data.notes).toEqual([
      'row 13 (record 304 enrollment_arm_2): patient_document: file "levon_and_barry.jpg" left out (the records export does not hold the file)',
    ]);
    const first = (await get(t.app, `/api/v0.1/crf/records/${rows.body.data.records[0].id}`, admin)).body.data
      .record;
    expect(first.answers).toMatchObject({
      first_name: 'Zharko',
      gym: ['0'],
      aerobics: ['1', '2'],
      study_id: '100',
    });

    // Checkbox columns with letter codes (check_two___a): ticked choices back as one checkbox value.
    const boxes = (
      await post(
        t.app,
        '/api/v0.1/crf/forms/import',
        {
          format: 'redcap',
          name: 'REDCap checkboxes',
          content: await readFile(path.join(FIXTURES, 'redcap/redcapr_checkboxes-1_dictionary.csv'), 'utf8'),
        },
        admin,
      )
    ).body.data.form.id;
    await publishForm(t.app, admin, boxes);
    await registerPatients(t.app, ['1', '2', '3', '4', '5']);
    const ticked = await importRecords(boxes, {
      format: 'redcap',
      content: await readFile(path.join(FIXTURES, 'redcap/redcapr_checkboxes-1_records.csv'), 'utf8'),
    });
    expect(ticked.status).toBe(200);
    // Record 4 ticks nothing and writes no other value: no record.
    expect(ticked.body.data.records.map((r: { subjectCode: string }) => r.subjectCode)).toEqual([
      '1',
      '2',
      '3',
    ]);
    const answers = await Promise.all(
      ticked.body.data.records.map(
        async (r: { id: number }) =>
          (await get(t.app, `/api/v0.1/crf/records/${r.id}`, admin)).body.data.record.answers,
      ),
    );
    expect(answers.map((a) => [a.check_one, a.check_two])).toEqual([
      [['1'], ['a', 'c']],
      [undefined, ['b', 'd']],
      [['1', '2', '3', '4'], undefined],
    ]);

    // The "simple" project's records: sex written TRUE/FALSE (not a code of its radio): nothing stored.
    const simpleDictionary = await readFile(
      path.join(FIXTURES, 'redcap/redcapr_simple_dictionary.csv'),
      'utf8',
    );
    const simple = (
      await post(
        t.app,
        '/api/v0.1/crf/forms/import',
        { format: 'redcap', name: 'REDCap simple', content: simpleDictionary },
        admin,
      )
    ).body.data.form.id;
    await publishForm(t.app, admin, simple);
    const simpleCsv = await readFile(path.join(FIXTURES, 'redcap/redcapr_simple_records.csv'), 'utf8');
    const bad = await importRecords(simple, { format: 'redcap', content: simpleCsv });
    expect(bad.status).toBe(400);
    // Five TRUE/FALSE values of a 0/1 radio, and heights and weights under the dictionary's minimum.
    expect(bad.body.message).toContain('文件有 9 处错误，未导入任何记录');
    expect(bad.body.message).toContain('row 1 (record 1): sex: "FALSE" is not a choice of sex');
    expect(bad.body.message).toContain('1 row 1: height: Page 2, question 1: minimum input value 130');
    expect((await records(simple)).total).toBe(0);
    // An unclosed quote: a 400 naming its line, nothing stored.
    const broken = await importRecords(simple, { format: 'redcap', content: 'record_id,name_first\n1,"Nut' });
    expect(broken.status).toBe(400);
    expect(broken.body.field).toBe('body.content');
    expect((await records(simple)).total).toBe(0);
  });
});
