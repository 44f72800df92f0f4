import { fileURLToPath } from 'node:url';
import type { DataModel, DataModelStandardDetail, SdtmExportPreview } from '@crdp/core';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecord, demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { BMI_FORMULA } from '../formulas/test/fixtures.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, download, get, post, send, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { readZip } from '../test/unzip.js';
import { hasXmllint, validXml, xpath } from '../test/xml.js';

const DEFINE_XSD = fileURLToPath(
  new URL('../../../../fixtures/define-xml-2.0/cdisc-define-2.0/define2-0-0.xsd', import.meta.url),
);

/**
 * Data models: the built-in CDISC models (SDTMIG 3.4, CDASHIG 2.1 with CDISC CT), a hospital model
 * copied from SDTMIG and changed in a new version, a disease template, indicator groups, coding
 * mappings shared with the coding area, and a research subject exported as SDTM CSV files with a
 * define.xml that the Define-XML 2.0 schema accepts. Embedded database and PostgreSQL.
 */
describe('data models', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  const P = '/api/v0.1/data-models';
  const H = `${P}/hospital`;
  const call = (method: 'PATCH' | 'DELETE' | 'POST', url: string, payload?: object, key = admin) =>
    send(method, t.app, url, payload, key);
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);
  const audits = async (action: string) =>
    (await t.app.db.select().from(auditLog).where(eq(auditLog.action, action))).length;

  let subjectId: number;
  const patientIds: number[] = [];
  let hospitalModel: DataModel;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    reader = await demoUserWith(t.app, 'datamodelreader', ['DataModelCdisc.query', 'DataModelCdisc.get']);

    // Three hepatitis B patients with a diagnosis, labs, vital signs, a height and blood pressure, a drug.
    for (const [mrn, gender, birth] of [
      ['DM01', 1, '1970-05-20'],
      ['DM02', 2, '1985-11-02'],
      ['DM03', 0, null],
    ] as const) {
      const p = await post(
        t.app,
        '/api/v0.1/cdr/patients',
        { mrn, name: `模型病人${mrn}`, gender, ...(birth ? { birthDate: birth } : {}) },
        admin,
      );
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      patientIds.push(p.body.data.id);
    }
    const [a, b] = patientIds as [number, number];
    await record(a, 'diagnoses', {
      name: '慢性乙型肝炎',
      icd10: 'B18.1',
      kind: 'main',
      diagnosedAt: '2024-01-02T08:00:00Z',
    });
    await record(b, 'diagnoses', { name: '慢乙肝', kind: 'main', diagnosedAt: '2024-02-02T08:00:00Z' });
    await record(a, 'labResults', {
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum: 88.5,
      unit: 'U/L',
      refLow: 9,
      refHigh: 50,
      abnormalFlag: 'H',
      collectedAt: '2024-01-03T08:00:00Z',
    });
    await record(b, 'labResults', {
      itemCode: 'HBsAg',
      itemName: '乙肝表面抗原',
      valueText: '阳性',
      collectedAt: '2024-02-03T08:00:00Z',
    });
    await record(a, 'vitalSigns', {
      itemName: '体温',
      value: '36.8',
      itemUnit: '℃',
      recordDt: '2024-01-02T09:00:00Z',
    });
    await record(a, 'vitalSigns', { itemName: '事件', value: '入院', recordDt: '2024-01-02T09:00:00Z' });
    await record(a, 'physicalExams', {
      item: '血压',
      value: '135/85',
      unit: 'mmHg',
      recordedAt: '2024-01-02T09:00:00Z',
    });
    await record(b, 'physicalExams', {
      item: '身高',
      value: '162',
      unit: 'cm',
      recordedAt: '2024-02-02T09:00:00Z',
    });
    await record(a, 'orders', {
      category: 'drug',
      name: '恩替卡韦分散片',
      dose: '0.5',
      doseUnit: 'mg',
      route: '口服',
      frequency: 'qd',
      startAt: '2024-01-03T08:00:00Z',
    });

    const s = await post(t.app, '/api/v0.1/research/subjects', { name: '乙肝抗病毒 SDTM 课题' }, admin);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    subjectId = s.body.data.id;
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/research/subjects/${subjectId}/status`,
          { to: 'recruiting', reason: 'test' },
          admin,
        )
      ).status,
    ).toBe(200);
    const rec = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'patients', patientIds },
      admin,
    );
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('ships SDTMIG 3.4 and CDASHIG 2.1 with their source, version and CDISC CT codelists', async () => {
    const list = await get(t.app, `${P}/standards`, reader);
    expect(list.status).toBe(200);
    const [sdtm, cdash] = list.body.data.items;
    expect(sdtm).toMatchObject({
      key: 'sdtmig',
      standard: 'SDTMIG',
      version: '3.4',
      tables: 8,
      ctVersion: 'SDTM CT 2022-09-30',
    });
    expect(sdtm.variables).toBeGreaterThan(300);
    expect(cdash).toMatchObject({ key: 'cdashig', standard: 'CDASHIG', version: '2.1', tables: 8 });

    const detail = (await get(t.app, `${P}/standard?key=sdtmig`, reader)).body
      .data as DataModelStandardDetail;
    expect(detail.tables.map((x) => x.name)).toEqual(['DM', 'AE', 'CM', 'MH', 'LB', 'VS', 'EX', 'DS']);
    const dm = detail.tables.find((x) => x.name === 'DM')!;
    expect(dm.variables.find((v) => v.name === 'SEX')).toMatchObject({
      label: 'Sex',
      type: 'Char',
      role: 'Record Qualifier',
      core: 'Req',
      codelist: 'C66731',
      codelistName: 'Sex',
    });
    expect(dm.variables.find((v) => v.name === 'AGE')).toMatchObject({ type: 'Num', core: 'Exp' });
    const ae = detail.tables.find((x) => x.name === 'AE')!;
    expect(ae.variables.find((v) => v.name === 'AESEV')).toMatchObject({ codelist: 'C66769', core: 'Perm' });
    expect(ae.variables.find((v) => v.name === 'AEDECOD')).toMatchObject({ codingKind: 'disease' });

    const cd = (await get(t.app, `${P}/standard?key=cdashig`, reader)).body.data as DataModelStandardDetail;
    expect(cd.tables.find((x) => x.name === 'AE')!.variables.find((v) => v.name === 'AESTDAT')).toMatchObject(
      {
        core: 'HR',
        sdtmTarget: 'AESTDTC',
      },
    );

    const sex = await get(t.app, `${P}/codelist?code=C66731`, reader);
    expect(sex.status).toBe(200);
    expect(sex.body.data.terms.map((x: { value: string }) => x.value)).toEqual(
      expect.arrayContaining(['F', 'M', 'U']),
    );
    expect(sex.body.data.terms.find((x: { value: string }) => x.value === 'F').code).toBe('C16576');
    expect((await get(t.app, `${P}/codelist?code=C1`, reader)).status).toBe(404);
    expect((await get(t.app, `${P}/codelist?code=sex`, reader)).status).toBe(400);
    expect((await get(t.app, `${P}/standard?key=omop`, reader)).status).toBe(400);
  });

  it('makes a hospital model from SDTMIG, extends it, and changes only a new version', async () => {
    const before = await audits('dataModel.add');
    const made = await post(
      t.app,
      H,
      {
        code: 'HBV_SDTM',
        name: '乙肝研究 SDTM 模型',
        from: { type: 'standard', key: 'sdtmig', tables: ['DM', 'MH', 'LB', 'VS', 'CM'] },
        subjectId,
      },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    hospitalModel = made.body.data;
    expect(hospitalModel).toMatchObject({
      kind: 'hospital',
      version: 1,
      standard: 'SDTMIG',
      standardVersion: '3.4',
      tables: 5,
    });
    expect(hospitalModel.subjectName).toBe('乙肝抗病毒 SDTM 课题');
    expect(hospitalModel.tableList.find((x) => x.name === 'DM')!.variables.length).toBe(32);
    expect(await audits('dataModel.add')).toBe(before + 1);

    // Bad input: a lower-case table name, an unknown codelist, an unknown source table; nothing changes.
    const id = hospitalModel.id;
    const bad1 = await post(t.app, `${H}/${id}/tables`, { name: 'xh', label: 'x' }, admin);
    expect(bad1.status).toBe(400);
    expect(bad1.body.message).toContain('name');
    const dmId = hospitalModel.tableList.find((x) => x.name === 'DM')!.id;
    const bad2 = await post(
      t.app,
      `${H}/${id}/tables/${dmId}/variables`,
      { name: 'HBVGENO', label: 'HBV genotype', type: 'Char', codelist: 'C999999' },
      admin,
    );
    expect(bad2.status).toBe(400);
    expect(bad2.body.message).toContain('codelist');
    const bad3 = await post(
      t.app,
      H,
      { code: 'X1', name: 'x', from: { type: 'standard', key: 'sdtmig', tables: ['ZZ'] } },
      admin,
    );
    expect(bad3.status).toBe(400);
    const dup = await post(t.app, H, { code: 'HBV_SDTM', name: 'again' }, admin);
    expect(dup.status).toBe(400);
    expect((await get(t.app, `${H}/${id}`, admin)).body.data.variables).toBe(hospitalModel.variables);

    // A hospital table and a variable of its own.
    const tab = await post(
      t.app,
      `${H}/${id}/tables`,
      { name: 'XH', label: 'Hepatitis B markers', tableClass: 'Findings' },
      admin,
    );
    expect(tab.status, JSON.stringify(tab.body)).toBe(200);
    const xh = (tab.body.data as DataModel).tableList.find((x) => x.name === 'XH')!;
    const v = await post(
      t.app,
      `${H}/${id}/tables/${xh.id}/variables`,
      { name: 'XHGENO', label: 'HBV Genotype', type: 'Char', role: 'Result Qualifier', core: 'Perm' },
      admin,
    );
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    const added = (v.body.data as DataModel).tableList.find((x) => x.name === 'XH')!.variables[0]!;
    const edit = await call('PATCH', `${H}/${id}/variables/${added.id}`, { label: 'HBV Genotype (A-H)' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    // Version 2 copies version 1; version 1 no longer changes.
    const v2 = await call('POST', `${H}/${id}/versions`);
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body.data).toMatchObject({
      code: 'HBV_SDTM',
      version: 2,
      basedOn: id,
      latest: true,
      tables: 6,
    });
    const locked = await call('PATCH', `${H}/${id}`, { name: 'renamed' });
    expect(locked.status).toBe(409);
    const list = (await get(t.app, `${P}?q=HBV`, admin)).body.data.items;
    expect(list.map((m: { version: number; latest: boolean }) => [m.version, m.latest])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(await audits('dataModel.version')).toBe(1);
  });

  it('keeps disease templates apart from hospital models, and another app sees none of them', async () => {
    const tpl = await post(
      t.app,
      `${P}/templates`,
      {
        code: 'HBV_TEMPLATE',
        name: '慢性乙型肝炎专病模型',
        description: '乙肝专病库与课题可从此开始',
        from: { type: 'model', id: hospitalModel.id },
      },
      admin,
    );
    expect(tpl.status, JSON.stringify(tpl.body)).toBe(200);
    expect(tpl.body.data).toMatchObject({ kind: 'template', basedOn: hospitalModel.id, standard: 'SDTMIG' });
    const tplId = tpl.body.data.id as number;
    // A hospital model started from the template.
    const fromTpl = await post(
      t.app,
      H,
      { code: 'HBV_STUDY2', name: '第二个乙肝课题模型', from: { type: 'model', id: tplId } },
      admin,
    );
    expect(fromTpl.status).toBe(200);
    // The template is not reachable through the hospital screen's paths, nor by another app.
    expect((await get(t.app, `${H}/${tplId}`, admin)).status).toBe(404);
    expect((await get(t.app, `${P}/templates/${tplId}`, other.key)).status).toBe(404);
    expect((await get(t.app, `${P}/${tplId}`, other.key)).status).toBe(404);
    expect((await get(t.app, `${P}/templates`, other.key)).body.data.items).toEqual([]);
    // No function, no entry.
    expect((await get(t.app, H, reader)).status).toBe(403);
    expect((await get(t.app, H)).status).toBe(401);
    const links = await get(t.app, `${P}/templates/links`, admin);
    expect(links.body.data.subjects.map((s: { name: string }) => s.name)).toContain('乙肝抗病毒 SDTM 课题');
  });

  it('groups computed indicators, in order, for a model', async () => {
    const f = await post(t.app, '/api/v0.1/formulas', { name: 'BMI 指标', ...BMI_FORMULA }, admin);
    expect(f.status, JSON.stringify(f.body)).toBe(200);
    const g = await post(
      t.app,
      '/api/v0.1/indicator-groups',
      { name: '体格指标', modelId: hospitalModel.id, formulaIds: [f.body.data.id] },
      admin,
    );
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    expect(g.body.data).toMatchObject({ name: '体格指标', modelName: '乙肝研究 SDTM 模型 v1' });
    expect(g.body.data.indicators.map((x: { name: string }) => x.name)).toEqual(['BMI 指标']);
    const bad = await post(
      t.app,
      '/api/v0.1/indicator-groups',
      { name: '坏组', formulaIds: [999999] },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('formulaIds');
    expect((await get(t.app, '/api/v0.1/indicator-groups', other.key)).body.data.items).toEqual([]);
    expect((await del(t.app, `/api/v0.1/indicator-groups/${g.body.data.id}`, other.key)).status).toBe(404);
    expect((await del(t.app, `/api/v0.1/indicator-groups/${g.body.data.id}`, admin)).status).toBe(200);
    // The group's trail: one add row with its view, one delete row with what was deleted, both
    // under the entity's one name and id (the refused add and the other app's delete wrote none).
    const trail = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'indicator_group'), eq(auditLog.entityId, String(g.body.data.id))));
    expect(trail.map((r) => r.action).sort()).toEqual(['indicatorGroup.add', 'indicatorGroup.delete']);
    const added = trail.find((r) => r.action === 'indicatorGroup.add')!;
    const deleted = trail.find((r) => r.action === 'indicatorGroup.delete')!;
    expect(added).toMatchObject({ before: null, after: { name: '体格指标' }, outcome: 'success' });
    expect(deleted).toMatchObject({ after: null, before: { name: '体格指标' } });
  });

  it('maps local terms of a model variable through the coding area’s own mappings', async () => {
    const vars = await get(t.app, `${P}/coding/variables?model=model:${hospitalModel.id}`, admin);
    expect(vars.status, JSON.stringify(vars.body)).toBe(200);
    // Version 1 is not the latest any more: only the latest version's variables are listed.
    expect(vars.body.data.items).toEqual([]);
    const std = await get(t.app, `${P}/coding/variables?model=standard:sdtmig`, admin);
    expect(
      std.body.data.items.map((x: { table: string; variable: string }) => `${x.table}.${x.variable}`),
    ).toEqual(['AE.AEDECOD', 'CM.CMDECOD', 'MH.MHDECOD', 'LB.LBLOINC', 'EX.EXTRT']);

    const set = await post(
      t.app,
      `${P}/coding/mappings`,
      { kind: 'disease', term: '慢乙肝', code: 'B18' },
      admin,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // The coding area sees the same row.
    const coding = await get(t.app, '/api/v0.1/coding/disease/mappings?q=慢乙肝', admin);
    expect(coding.body.data.items[0]).toMatchObject({ term: '慢乙肝', code: 'B18', rows: 1 });
    const bad = await post(
      t.app,
      `${P}/coding/mappings`,
      { kind: 'disease', term: '慢乙肝', code: 'Z99.999' },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('code');
    expect(
      (await get(t.app, '/api/v0.1/coding/disease/mappings?q=慢乙肝', admin)).body.data.items[0].code,
    ).toBe('B18');
    const set2 = await post(
      t.app,
      `${P}/coding/mappings`,
      { kind: 'disease', term: '慢性乙型肝炎', code: 'B18' },
      admin,
    );
    expect(set2.status).toBe(200);
    const page = await get(t.app, `${P}/coding/mappings?kind=disease`, admin);
    expect(page.body.data.total).toBe(2);
    // Another app's mappings are its own.
    expect((await get(t.app, `${P}/coding/mappings?kind=disease`, other.key)).body.data.total).toBe(0);
    expect(await audits('dataModel.mapping.set')).toBe(2);
  });

  it('exports the subject as SDTM CSV datasets with a define.xml the Define-XML 2.0 schema accepts', async (ctx) => {
    const latest = (await get(t.app, `${P}?q=HBV_SDTM`, admin)).body.data.items[0];
    const q = `subjectId=${subjectId}&modelId=${latest.id}`;
    const pre = await get(t.app, `${P}/sdtm-export/preview?${q}`, admin);
    expect(pre.status, JSON.stringify(pre.body)).toBe(200);
    const preview = pre.body.data as SdtmExportPreview;
    expect(preview).toMatchObject({ patients: 3, studyId: `CRDP${subjectId}` });
    expect(preview.datasets.map((d) => [d.name, d.rows])).toEqual([
      ['DM', 3],
      ['MH', 2],
      ['LB', 2],
      ['VS', 4],
      ['CM', 1],
    ]);

    const res = await download(t.app, `${P}/sdtm-export?${q}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await readZip(res.rawPayload);
    expect([...files.keys()]).toEqual(['dm.csv', 'mh.csv', 'lb.csv', 'vs.csv', 'cm.csv', 'define.xml']);
    const rows = (name: string) =>
      files
        .get(name)!
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
        .map((l) => l.split(','));
    const dm = rows('dm.csv');
    const col = (table: string[][], name: string) => table[0]!.indexOf(name);
    expect(dm[0]!.slice(0, 4)).toEqual(['STUDYID', 'DOMAIN', 'USUBJID', 'SUBJID']);
    const [a, b, c] = patientIds as [number, number, number];
    const dmA = dm.find((r) => r[col(dm, 'SUBJID')] === String(a))!;
    expect(dmA[col(dm, 'USUBJID')]).toBe(`CRDP${subjectId}-${a}`);
    expect(dmA[col(dm, 'SEX')]).toBe('M');
    expect(dmA[col(dm, 'BRTHDTC')]).toBe('1970-05-20');
    expect(dmA[col(dm, 'COUNTRY')]).toBe('CHN');
    expect(dm.find((r) => r[col(dm, 'SUBJID')] === String(c))![col(dm, 'SEX')]).toBe('U');
    // No name or record number anywhere.
    for (const text of files.values()) expect(text).not.toMatch(/模型病人|DM0\d/);

    const mh = rows('mh.csv');
    expect(
      mh
        .map((r) => r[col(mh, 'MHTERM')])
        .slice(1)
        .sort(),
    ).toEqual(['慢乙肝', '慢性乙型肝炎'].sort());
    // The coding mapping made above decodes both local terms.
    expect(mh.slice(1).every((r) => r[col(mh, 'MHDECOD')] !== '')).toBe(true);
    const lb = rows('lb.csv');
    const alt = lb.find((r) => r[col(lb, 'LBTESTCD')] === 'ALT')!;
    expect([alt[col(lb, 'LBORRES')], alt[col(lb, 'LBSTRESN')], alt[col(lb, 'LBNRIND')]]).toEqual([
      '88.5',
      '88.5',
      'HIGH',
    ]);
    expect(lb.find((r) => r[col(lb, 'LBTESTCD')] === 'HBSAG')![col(lb, 'LBORRES')]).toBe('阳性');
    const vs = rows('vs.csv');
    expect(
      vs
        .slice(1)
        .map((r) => `${r[col(vs, 'VSTESTCD')]}=${r[col(vs, 'VSORRES')]}${r[col(vs, 'VSORRESU')]}`)
        .sort(),
    ).toEqual(['DIABP=85mmHg', 'HEIGHT=162cm', 'SYSBP=135mmHg', 'TEMP=36.8℃'].sort());
    const cm = rows('cm.csv');
    expect([
      cm[1]![col(cm, 'CMTRT')],
      cm[1]![col(cm, 'CMDOSE')],
      cm[1]![col(cm, 'CMROUTE')],
      cm[1]![col(cm, 'CMDOSFRQ')],
    ]).toEqual(['恩替卡韦分散片', '0.5', 'ORAL', 'QD']);
    void b;

    const define = files.get('define.xml')!;
    expect(define).toContain('def:DefineVersion="2.0.0"');
    expect(define).toContain('<CodeListItem CodedValue="M"');
    expect(define).toContain('Name="C66731"');
    expect(define).toContain('xlink:href="dm.csv"');
    expect(await audits('dataModel.sdtm.export')).toBe(1);
    if (!hasXmllint) {
      ctx.skip('xmllint is not installed (Debian: libxml2-utils); define.xml not checked against its schema');
      return;
    }
    const file = await validXml(define, DEFINE_XSD);
    expect(xpath(file, 'count(//*[local-name()="ItemGroupDef"])')).toBe('5');
    expect(
      xpath(
        file,
        'string(//*[local-name()="ItemGroupDef"][@Name="LB"]/*[local-name()="ItemRef"][1]/@ItemOID)',
      ),
    ).toBe('IT.LB.STUDYID');
  });

  it('refuses an export by a model not copied from SDTMIG, of another app’s subject, and without the function', async () => {
    const own = await post(t.app, H, { code: 'EMPTY_ONE', name: '空模型' }, admin);
    const r = await get(
      t.app,
      `${P}/sdtm-export/preview?subjectId=${subjectId}&modelId=${own.body.data.id}`,
      admin,
    );
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('modelId');
    expect((await get(t.app, `${P}/sdtm-export/preview?subjectId=${subjectId}`, other.key)).status).toBe(404);
    expect((await get(t.app, `${P}/sdtm-export?subjectId=${subjectId}`, reader)).status).toBe(403);
    const n = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'dataModel.sdtm.export'), like(auditLog.entityId, '%')));
    expect(n.length).toBe(1);
  });
});
