import type { AssessmentScale, Formula } from '@crdp/core';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecord } from '../clinical/test/support.js';
import { auditLog, scaleAssessments } from '../db/schema/index.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { del, get, patch as patchAs, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { BMI_FORMULA } from './test/fixtures.js';

/**
 * Derived data (公式编辑器, 指标模板, 评估量表): a data manager writes formulas over a patient's
 * CDR data and tests them on a patient, calls the spec's template evaluation, groups formulas
 * into indicator templates, adds the built-in Child-Pugh scale and fills it for a patient.
 * Checked on the embedded database and on PostgreSQL.
 */
describe('formulas, indicator templates and assessment scales', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  let nobody: string;
  let woman: number; // has height, weight, creatinine
  let bare: number; // has nothing
  const patch = (url: string, payload: unknown, key = admin) => patchAs(t.app, url, payload, key);
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);
  const audits = (action: string) =>
    t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, action as never));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    nobody = await userWithoutRoles(t.app);
    const a = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'F01', name: '公式病人甲', gender: 2, birthDate: '1964-01-15' },
      admin,
    );
    woman = a.body.data.id;
    const b = await post(
      t.app,
      '/api/v0.1/cdr/patients',
      { mrn: 'F02', name: '公式病人乙', gender: 1 },
      admin,
    );
    bare = b.body.data.id;
    for (const [item, value, unit, at] of [
      ['身高', '150', 'cm', '2023-01-01'],
      ['体重', '50', 'kg', '2023-01-01'],
      ['体重', '54', 'kg', '2024-03-01'], // the latest weight wins
    ] as const)
      await record(woman, 'physicalExams', { item, value, unit, recordedAt: `${at}T08:00:00+08:00` });
    await record(woman, 'labResults', {
      itemCode: 'CREA',
      itemName: '肌酐',
      valueNum: 120,
      unit: 'μmol/L',
      collectedAt: '2022-05-01T08:00:00+08:00',
    });
    await record(woman, 'labResults', {
      itemCode: 'CREA',
      itemName: '肌酐',
      valueNum: 53.04,
      unit: 'μmol/L',
      collectedAt: '2024-05-01T08:00:00+08:00',
    });
  }, 120_000);
  afterAll(() => t?.close());

  it('adds a formula, tests it on a patient with the inputs it used, and names a missing input', async () => {
    const made = await post(t.app, '/api/v0.1/formulas', { name: 'BMI', decimals: 1, ...BMI_FORMULA }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const f = made.body.data as Formula;
    expect(f).toMatchObject({ name: 'BMI', decimals: 1, builtinKey: '', templates: [] });
    const test = (patientId: number) =>
      post(
        t.app,
        '/api/v0.1/formulas/test',
        { patientId, expression: f.expression, variables: f.variables },
        admin,
      );
    const r = await test(woman);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // 54 kg / 1.5² = 24.0
    expect(r.body.data).toMatchObject({ ok: true, error: null, patient: { mrn: 'F01' } });
    expect(r.body.data.value).toBeCloseTo(24, 10);
    expect(r.body.data.inputs).toEqual([
      { name: '体重', source: 'exam', code: '体重', value: 54, unit: 'kg', at: '2024-03-01T00:00:00.000Z' },
      { name: '身高', source: 'exam', code: '身高', value: 150, unit: 'cm', at: '2023-01-01T00:00:00.000Z' },
    ]);
    const none = await test(bare);
    expect(none.body.data).toMatchObject({ ok: false, value: null });
    expect(none.body.data.error.message).toBe('缺少输入“体重”：该患者没有这项数据');
    expect((await audits('formula.add')).length).toBe(1);
    // The test read the patient's data: one read row naming the inputs, never their values.
    const reads = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'patient'), eq(auditLog.entityId, String(woman))));
    expect(reads.at(-1)?.after).toEqual({ formulaTest: ['exam:体重', 'exam:身高'] });
  });

  it('adds the built-in eGFR (CKD-EPI 2021) and MELD, and works eGFR out from the latest creatinine', async () => {
    const list = await get(t.app, '/api/v0.1/formulas/builtins', admin);
    expect(list.body.data.items.map((b: { key: string }) => b.key)).toEqual([
      'bmi',
      'egfr-ckd-epi-2021',
      'meld',
      'days-diagnosis-to-operation',
    ]);
    const added = await post(t.app, '/api/v0.1/formulas/builtins', { key: 'egfr-ckd-epi-2021' }, admin);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const egfr = added.body.data as Formula;
    expect(egfr).toMatchObject({ name: 'eGFR（CKD-EPI 2021）', builtinKey: 'egfr-ckd-epi-2021' });
    const r = await post(
      t.app,
      '/api/v0.1/formulas/test',
      { patientId: woman, expression: egfr.expression, variables: egfr.variables },
      admin,
    );
    const age = r.body.data.inputs.find((i: { name: string }) => i.name === 'age').value as number;
    expect(r.body.data.inputs.find((i: { name: string }) => i.name === 'crea').value).toBe(53.04);
    // Woman, Scr 0.6 mg/dL: 142 × (0.6/0.7)^-0.241 × 0.9938^age × 1.012.
    expect(r.body.data.value).toBeCloseTo(142 * (0.6 / 0.7) ** -0.241 * 0.9938 ** age * 1.012, 8);
    expect((await get(t.app, '/api/v0.1/formulas/builtins', admin)).body.data.items[1].added).toBe(true);
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/formulas/builtins',
      payload: { key: 'meld' },
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
    });
    expect(en.json().data.name).toBe('MELD score');
    expect((await post(t.app, '/api/v0.1/formulas/builtins', { key: 'apache' }, admin)).status).toBe(404);
  });

  it('answers the spec’s template call with code 200 and the value, and a clear 400 otherwise', async () => {
    const ok = await post(
      t.app,
      '/api/v0.1/formulas/evaluate-template',
      { template_str: '{weight} / ({height} / 100) ^ 2', template_params: { weight: 70, height: 175 } },
      admin,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.code).toBe(200);
    expect(ok.body.data).toBeCloseTo(22.857142857, 8);
    const text = await post(
      t.app,
      '/api/v0.1/formulas/evaluate-template',
      { template_str: 'score >= 10 ? "C" : "B"', template_params: { score: '11' } },
      admin,
    );
    expect(text.body.data).toBe('C');
    for (const [body, words] of [
      [{ template_str: 'a + b', template_params: { a: 1 } }, '变量“b”未定义'],
      [{ template_str: '1 +', template_params: {} }, '公式不完整'],
      [{ template_str: 'x / 0', template_params: { x: 1 } }, '除数为 0'],
      [{ template_str: 'x * 2', template_params: { x: null } }, '缺少输入“x”'],
      [{ template_str: 'eval("1")' }, '没有名为“eval”的函数'],
      [{ template_str: 'a\u0000b', template_params: {} }, 'template_str'],
      [{ template_str: 'a', template_params: { a: { b: 1 } } }, 'template_params'],
      [{ template_str: 12 }, 'template_str'],
    ] as const) {
      const r = await post(t.app, '/api/v0.1/formulas/evaluate-template', body, admin);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message, JSON.stringify(body)).toContain(words);
    }
  });

  it('refuses a formula that does not read, naming the problem, and changes nothing', async () => {
    const before = (await get(t.app, '/api/v0.1/formulas', admin)).body.data.items.length;
    for (const [body, words] of [
      [{ name: 'x', expression: 'a +* b', variables: [] }, '第 4 个字符处不应出现“*”'],
      [{ name: 'x', expression: 'a * 2', variables: [] }, '变量“a”未定义'],
      [{ name: 'x', expression: 'foo(1)' }, '没有名为“foo”的函数'],
      [{ name: 'x', expression: 'a', variables: [{ name: 'a', source: 'lab', code: '' }] }, '需要填写编码'],
      [
        {
          name: 'x',
          expression: 'a',
          variables: [
            { name: 'a', source: 'age' },
            { name: 'a', source: 'gender' },
          ],
        },
        '变量名“a”重复',
      ],
      [{ name: 'x', expression: 'a', variables: [{ name: '1a', source: 'age' }] }, 'variables'],
      [{ name: 'x', expression: 'a', variables: [{ name: 'a', source: 'weather' }] }, 'variables'],
      [{ name: 'x\u0000', expression: '1' }, 'name'],
      [{ name: 'x', expression: '1', decimals: 'two' }, 'decimals'],
      [{ name: '   ', expression: '1' }, 'name'],
    ] as const) {
      const r = await post(t.app, '/api/v0.1/formulas', body, admin);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message, JSON.stringify(body)).toContain(words);
    }
    expect((await get(t.app, '/api/v0.1/formulas', admin)).body.data.items.length).toBe(before);
  });

  it('groups formulas into an ordered indicator template; a formula in use cannot be deleted', async () => {
    const fs = (await get(t.app, '/api/v0.1/formulas', admin)).body.data.items as Formula[];
    const [bmi, egfr] = fs;
    const made = await post(
      t.app,
      '/api/v0.1/indicator-templates',
      { name: '肝病常用指标', description: '肝病专病库', formulaIds: [egfr!.id, bmi!.id] },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.formulas.map((f: { name: string }) => f.name)).toEqual([
      'eGFR（CKD-EPI 2021）',
      'BMI',
    ]);
    const id = made.body.data.id as number;
    const reordered = await patch(`/api/v0.1/indicator-templates/${id}`, { formulaIds: [bmi!.id] });
    expect(reordered.body.data.formulas.map((f: { id: number }) => f.id)).toEqual([bmi!.id]);
    expect(reordered.body.data.description).toBe('肝病专病库');
    const listed = (await get(t.app, '/api/v0.1/formulas', admin)).body.data.items as Formula[];
    expect(listed.find((f) => f.id === bmi!.id)!.templates).toEqual([{ id, name: '肝病常用指标' }]);
    const refused = await del(t.app, `/api/v0.1/formulas/${bmi!.id}`, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('被指标模板 “肝病常用指标” 使用');
    // Another app's formula, a twice-listed one and an unknown one are refused by name.
    const theirs = await post(t.app, '/api/v0.1/formulas', { name: '他院', expression: '1' }, other.key);
    for (const [ids, words] of [
      [[theirs.body.data.id], `公式 ${theirs.body.data.id} 不存在`],
      [[bmi!.id, bmi!.id], 'formulaIds'],
      [['x'], 'formulaIds'],
    ] as const) {
      const r = await patch(`/api/v0.1/indicator-templates/${id}`, { formulaIds: ids });
      expect(r.status, JSON.stringify(ids)).toBe(400);
      expect(r.body.message).toContain(words);
    }
    expect((await del(t.app, `/api/v0.1/indicator-templates/${id}`, admin)).status).toBe(200);
    expect((await del(t.app, `/api/v0.1/formulas/${bmi!.id}`, admin)).status).toBe(200);
    expect((await audits('indicatorTemplate.delete')).length).toBe(1);
    expect((await audits('formula.delete')).length).toBe(1);
  });

  it('adds Child-Pugh with one click, fills it for a patient and lists the patient’s filled scales', async () => {
    const builtins = await get(t.app, '/api/v0.1/scales/builtins', admin);
    expect(builtins.body.data.items.map((b: { key: string }) => b.key)).toEqual([
      'child-pugh',
      'gcs',
      'nrs-2002',
    ]);
    const added = await post(t.app, '/api/v0.1/scales/builtins', { key: 'child-pugh' }, admin);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const scale = added.body.data as AssessmentScale;
    expect(scale).toMatchObject({ name: 'Child-Pugh 肝功能分级', range: { min: 5, max: 15 }, filled: 0 });
    const answers = { bilirubin: '2', albumin: '1', inr: '1', ascites: '2', encephalopathy: '1' };
    const filled = await post(
      t.app,
      `/api/v0.1/scales/${scale.id}/assessments`,
      { patientId: woman, answers },
      admin,
    );
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
    expect(filled.body.data).toMatchObject({
      total: 7,
      band: 'B 级',
      patient: { mrn: 'F01' },
      createdBy: 'admin',
    });
    const mine = await get(t.app, `/api/v0.1/scale-assessments?patientId=${woman}`, admin);
    expect(mine.body.data.items).toHaveLength(1);
    expect(mine.body.data.items[0]).toMatchObject({ scaleName: 'Child-Pugh 肝功能分级', total: 7, answers });
    expect(
      (await get(t.app, `/api/v0.1/scale-assessments?patientId=${bare}`, admin)).body.data.items,
    ).toEqual([]);
    const audit = (await audits('scale.assessment.add'))[0]!;
    expect(audit.after).toMatchObject({ patientId: woman, total: 7, band: 'B 级' });
    expect(JSON.stringify(audit.after)).not.toContain('公式病人甲');

    // A scale with answers cannot be deleted; the filling can.
    expect((await del(t.app, `/api/v0.1/scales/${scale.id}`, admin)).status).toBe(409);
    expect((await del(t.app, `/api/v0.1/scale-assessments/${filled.body.data.id}`, admin)).status).toBe(200);
    expect((await del(t.app, `/api/v0.1/scales/${scale.id}`, admin)).status).toBe(200);
  });

  it('refuses a bad filling or definition, naming the problem, and stores nothing', async () => {
    const gcs = (await post(t.app, '/api/v0.1/scales/builtins', { key: 'gcs' }, admin)).body
      .data as AssessmentScale;
    const url = `/api/v0.1/scales/${gcs.id}/assessments`;
    for (const [body, words] of [
      [{ patientId: woman, answers: { eye: '4', verbal: '5' } }, '未回答：运动反应'],
      [{ patientId: woman, answers: { eye: '4', verbal: '5', motor: '9' } }, '选项不存在：运动反应=9'],
      [{ patientId: woman, answers: { eye: '4', verbal: '5', motor: '6', pain: '1' } }, '量表没有条目 pain'],
      [{ patientId: 999_999, answers: { eye: '4', verbal: '5', motor: '6' } }, '患者 999999 不存在'],
      [
        { patientId: woman, visitId: 999_999, answers: { eye: '4', verbal: '5', motor: '6' } },
        '不是该患者的就诊',
      ],
      [{ patientId: 'abc', answers: {} }, 'patientId'],
      [{ patientId: woman, answers: { eye: '4\u0000' } }, 'answers'],
    ] as const) {
      const r = await post(t.app, url, body, admin);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message, JSON.stringify(body)).toContain(words);
    }
    expect(
      await t.app.db.select().from(scaleAssessments).where(eq(scaleAssessments.scaleId, gcs.id)),
    ).toEqual([]);
    const option = (code: string, points: number) => ({ code, label: `选项${code}`, points });
    const item = { key: 'a', title: '条目', options: [option('1', 0), option('2', 1)] };
    for (const [definition, words] of [
      [{ items: [item, item] }, '条目编码“a”重复'],
      [
        {
          items: [item],
          bands: [
            { min: 0, max: 1, label: '低' },
            { min: 1, max: 2, label: '高' },
          ],
        },
        '重叠',
      ],
      [{ items: [{ ...item, options: [option('1', 0)] }] }, 'definition'],
      [{ items: [] }, 'definition'],
    ] as const) {
      const r = await post(t.app, '/api/v0.1/scales', { name: '自定义', definition }, admin);
      expect(r.status, JSON.stringify(definition)).toBe(400);
      expect(r.body.message).toContain(words);
    }
    const mine = await post(
      t.app,
      '/api/v0.1/scales',
      { name: '自定义量表', definition: { items: [item], bands: [{ min: 0, max: 1, label: '全部' }] } },
      admin,
    );
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data).toMatchObject({ builtinKey: '', range: { min: 0, max: 1 } });
    const renamed = await patch(`/api/v0.1/scales/${mine.body.data.id}`, { name: '自定义量表（改）' });
    expect(renamed.body.data.name).toBe('自定义量表（改）');
    expect((await audits('scale.edit')).length).toBe(1);
  });

  it('keeps each app’s objects to itself and refuses a user without the function', async () => {
    const f = (await get(t.app, '/api/v0.1/formulas', admin)).body.data.items[0] as Formula;
    const s = (await get(t.app, '/api/v0.1/scales', admin)).body.data.items[0] as AssessmentScale;
    expect(
      (await get(t.app, '/api/v0.1/formulas', other.key)).body.data.items.map((x: Formula) => x.name),
    ).toEqual(['他院']);
    expect((await get(t.app, '/api/v0.1/scales', other.key)).body.data.items).toEqual([]);
    const theirs = await patch(`/api/v0.1/formulas/${f.id}`, { name: 'x' }, other.key);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('公式不存在');
    expect((await del(t.app, `/api/v0.1/formulas/${f.id}`, other.key)).status).toBe(404);
    expect((await post(t.app, `/api/v0.1/scales/${s.id}/assessments`, { bad: 1 }, other.key)).status).toBe(
      404,
    );
    // Their patient cannot be tested from here, nor ours from there.
    const test = await post(
      t.app,
      '/api/v0.1/formulas/test',
      { patientId: woman, expression: f.expression, variables: f.variables },
      other.key,
    );
    expect(test.status).toBe(404);
    expect(test.body.message).toBe('患者不存在');
    expect(
      (await get(t.app, `/api/v0.1/scale-assessments?patientId=${woman}`, other.key)).body.data.items,
    ).toEqual([]);
    for (const [method, url] of [
      ['GET', '/api/v0.1/formulas'],
      ['POST', '/api/v0.1/formulas/evaluate-template'],
      ['GET', '/api/v0.1/indicator-templates'],
      ['GET', '/api/v0.1/scales'],
      ['GET', '/api/v0.1/scale-assessments'],
    ] as const) {
      const r = await t.app.inject({
        method,
        url,
        headers: { WeAppAuthorization: nobody },
        ...(method === 'POST' ? { payload: { template_str: '1' } } : {}),
      });
      expect(r.statusCode, url).toBe(403);
    }
    const denied = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'access.denied'), like(auditLog.entityId, '% /api/v0.1/formulas%')));
    expect(denied.map((d) => (d.after as { apiId: string }).apiId).sort()).toEqual([
      'DataLakeFormulaEditor.get',
      'DataLakeFormulaEditor.query',
    ]);
  });
});
