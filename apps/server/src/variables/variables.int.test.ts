import type { Variable, VariableDistribution } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRecord, demoUserWith } from '../clinical/test/support.js';
import { LIVER_FORM } from '../crf/testform.js';
import { auditLog } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, patch as patchAs, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { SEX_VARIABLE } from './test/fixtures.js';

/**
 * The variable library: a researcher defines variables from the clinical data (a patient field,
 * a lab item in a window after the first visit or after a T0, a cleaned value, a CRF item) and
 * reads each one's distribution over the app's patients. Checked on the embedded database and on
 * PostgreSQL.
 */
describe('variable library', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  const P = '/api/v0.1/variables';
  const patch = (url: string, payload: object, key = admin) => patchAs(t.app, url, payload, key);
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);
  const add = async (body: object, key = admin) => post(t.app, P, body, key);
  const dist = async (id: number, key = admin) => get(t.app, `${P}/${id}/distribution`, key);
  let baseline: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    // A reader who may list variables and see distributions, not change them.
    reader = await demoUserWith(t.app, 'variablereader', ['VariableList.query', 'VariableList.get']);

    // Three patients: two with a first visit and ALT results, one with nothing.
    const ids: number[] = [];
    for (const [mrn, gender] of [
      ['V01', 1],
      ['V02', 2],
      ['V03', 2],
    ] as const) {
      const p = await post(t.app, '/api/v0.1/cdr/patients', { mrn, name: `变量病人${mrn}`, gender }, admin);
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      ids.push(p.body.data.id);
    }
    const [a, b] = ids as [number, number];
    await record(a, 'visits', { kind: 'outpatient', admitAt: '2024-01-01T08:00:00Z' });
    await record(b, 'visits', { kind: 'outpatient', admitAt: '2024-03-01T08:00:00Z' });
    for (const [p, v, d] of [
      [a, 40, '2024-01-05'],
      [a, 90, '2024-01-20'],
      [a, 300, '2024-06-01'], // outside 30 days
      [b, 60, '2024-03-10'],
      [b, 20, '2023-12-01'], // before the first visit
    ] as const)
      await record(p, 'labResults', {
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶',
        valueNum: v,
        unit: 'U/L',
        collectedAt: `${d}T08:00:00Z`,
      });
  }, 120_000);
  afterAll(() => t?.close());

  it('defines a lab variable and shows its distribution over the app’s patients', async () => {
    const r = await add({
      code: 'alt_first_30d',
      labelZh: '首次就诊 30 天内最大 ALT',
      labelEn: 'Max ALT within 30 days of the first visit',
      type: 'number',
      unit: 'U/L',
      derivation: { kind: 'lab', itemCode: 'ALT', aggregate: 'max', anchor: 'first_visit', withinDays: 30 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const v = r.body.data as Variable;
    baseline = v.id;
    expect(v.ruleText).toBe('max lab.value where code = "ALT" after first_visit within 30 days');
    const d = (await dist(v.id)).body.data as VariableDistribution;
    expect(d.patients).toBeGreaterThanOrEqual(3);
    expect(d.present).toBe(2);
    expect(d.missing).toBe(d.patients - 2);
    expect(d).toMatchObject({ min: 60, max: 90, median: 75, mean: 75 });

    // The mean of every value in the window, and the count.
    const mean = await patch(`${P}/${v.id}`, {
      derivation: { kind: 'lab', itemCode: 'ALT', aggregate: 'mean', anchor: 'first_visit', withinDays: 30 },
    });
    expect(mean.status, JSON.stringify(mean.body)).toBe(200);
    expect((await dist(v.id)).body.data).toMatchObject({ present: 2, min: 60, max: 65 });
  });

  it('counts a lab item in a window after a T0 event, and keeps that event from being deleted', async () => {
    const e = await post(
      t.app,
      '/api/v0.1/t0-events',
      { name: '首次 ALT>50', rule: { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 50 } },
      admin,
    );
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    const t0 = e.body.data.id as number;
    expect((await post(t.app, `/api/v0.1/t0-events/${t0}/run`, {}, admin)).status).toBe(200);
    await t.app.jobs.drain();
    /** The first ALT within so many days after the event. */
    const altAfterT0 = (withinDays: number) => ({
      code: 'alt_after_t0',
      labelZh: 'T0 后首次 ALT',
      type: 'number',
      derivation: {
        kind: 'lab',
        itemCode: 'ALT',
        aggregate: 'first',
        anchor: 't0',
        t0EventId: t0,
        withinDays,
      },
    });
    const r = await add(altAfterT0(200));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.ruleText).toBe(`first lab.value where code = "ALT" after t0 ${t0} within 200 days`);
    // V01's T0 is its ALT of 90 (2024-01-20), V02's its ALT of 60.
    expect((await dist(r.body.data.id)).body.data).toMatchObject({ present: 2, min: 60, max: 90 });
    const refused = await del(t.app, `/api/v0.1/t0-events/${t0}`, admin);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('alt_after_t0');
    // Another hospital cannot anchor a variable at this app's event.
    const foreign = await add(altAfterT0(9), other.key);
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('body.derivation.t0EventId');
  });

  it('counts the categories of a patient field with the value set’s labels', async () => {
    const r = await add(SEX_VARIABLE);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = (await dist(r.body.data.id)).body.data as VariableDistribution;
    const women = d.categories.find((c) => c.value === '2')!;
    expect(women.label).toBe('女');
    expect(women.count).toBeGreaterThanOrEqual(2);
    // The list finds it by label; the reader may read it.
    const list = await get(t.app, `${P}?q=${encodeURIComponent('性别')}`, reader);
    expect(list.status).toBe(200);
    expect((list.body.data.items as Variable[]).map((x) => x.code)).toEqual(['sex']);
    expect((await dist(r.body.data.id, reader)).status).toBe(200);
  });

  it('spreads a date variable from min to max', async () => {
    const r = await add({
      code: 'first_alt_date',
      labelZh: '首次 ALT 日期',
      type: 'date',
      derivation: { kind: 'field', rule: 'first lab.date where code = "ALT"' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await dist(r.body.data.id)).body.data).toMatchObject({
      present: 2,
      min: '2023-12-01',
      max: '2024-01-05',
      mean: null,
      categories: [],
    });
    // A text variable lists values several patients share; one patient's own text is not listed.
    const unit = await add({
      code: 'alt_unit',
      labelZh: 'ALT 单位',
      type: 'text',
      derivation: { kind: 'field', rule: 'latest lab.unit where code = "ALT"' },
    });
    expect((await dist(unit.body.data.id)).body.data).toMatchObject({
      present: 2,
      categories: [{ value: 'U/L', label: 'U/L', count: 2 }],
    });
    const lone = await add({
      code: 'first_alt_day',
      labelZh: '首次 ALT 日期（文本）',
      type: 'text',
      derivation: { kind: 'field', rule: 'first lab.date where code = "ALT"' },
    });
    expect((await dist(lone.body.data.id)).body.data).toMatchObject({ present: 2, categories: [] });
  });

  it('reads a CRF item and a cleaned value', async () => {
    const form = await post(
      t.app,
      '/api/v0.1/crf/forms',
      { name: '变量表单', definition: LIVER_FORM },
      admin,
    );
    expect(form.status).toBe(200);
    const crf = await add({
      code: 'hbsag',
      labelZh: 'HBsAg',
      type: 'category',
      derivation: { kind: 'crf', formId: form.body.data.id, item: 'hbsag' },
    });
    expect(crf.status, JSON.stringify(crf.body)).toBe(200);
    expect((await dist(crf.body.data.id)).body.data).toMatchObject({ present: 0, categories: [] });
    const cleaned = await add({
      code: 'sbp_last',
      labelZh: '末次收缩压',
      type: 'number',
      unit: 'mmHg',
      derivation: { kind: 'cleaned', name: '收缩压', aggregate: 'last' },
    });
    expect(cleaned.status, JSON.stringify(cleaned.body)).toBe(200);
    expect(cleaned.body.data.ruleText).toBe('latest cleaned.value where name = "收缩压"');
    expect((await dist(cleaned.body.data.id)).body.data.present).toBe(0);
  });

  it('collects variables in a group for a study, in order, within the app', async () => {
    const G = '/api/v0.1/variable-groups';
    const all = (await get(t.app, P, admin)).body.data.items as Variable[];
    const sex = all.find((v) => v.code === 'sex')!;
    const sbp = all.find((v) => v.code === 'sbp_last')!;
    const g = await post(t.app, G, { name: '基线变量', variableIds: [sbp.id, sex.id] }, admin);
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    expect(g.body.data.variables.map((v: { code: string }) => v.code)).toEqual(['sbp_last', 'sex']);
    const reordered = await patch(`${G}/${g.body.data.id}`, { variableIds: [sex.id] });
    expect(reordered.body.data.variables.map((v: { code: string }) => v.code)).toEqual(['sex']);
    // Names are unique in the app; another app's variable or a repeated one is refused.
    expect(JSON.stringify((await post(t.app, G, { name: '基线变量' }, admin)).body)).toContain('body.name');
    const twice = await post(t.app, G, { name: '重复', variableIds: [sex.id, sex.id] }, admin);
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('variableIds');
    const foreign = await post(t.app, G, { name: '他院', variableIds: [sex.id] }, other.key);
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('body.variableIds');
    expect((await get(t.app, G, other.key)).body.data.items).toEqual([]);
    expect((await post(t.app, G, { name: '读者' }, reader)).status).toBe(403);
    expect((await del(t.app, `${G}/${g.body.data.id}`, other.key)).status).toBe(404);
    expect((await del(t.app, `${G}/${g.body.data.id}`, admin)).status).toBe(200);
    const audits = await t.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'variable_group'), eq(auditLog.entityId, String(g.body.data.id))));
    expect(audits.map((a) => a.action).sort()).toEqual([
      'variableGroup.add',
      'variableGroup.delete',
      'variableGroup.edit',
    ]);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const ok = {
      code: 'bad_one',
      labelZh: '坏',
      type: 'number',
      derivation: { kind: 'field', rule: 'value patient.age' },
    };
    const cases: Array<[object, string]> = [
      [{ ...ok, code: '1abc' }, 'code'],
      [{ ...ok, type: 'colour' }, 'type'],
      [{ ...ok, derivation: { kind: 'field', rule: 'median lab.value' } }, 'body.derivation.rule'],
      // SQL does not reach the database through a rule.
      [
        { ...ok, derivation: { kind: 'field', rule: 'latest lab.value where code = "x" or 1=1' } },
        'body.derivation.rule',
      ],
      [
        { ...ok, derivation: { kind: 'field', rule: 'value patient.age; DROP TABLE patients' } },
        'body.derivation.rule',
      ],
      [
        {
          ...ok,
          derivation: { kind: 'lab', itemCode: 'ALT', aggregate: 'max', anchor: 't0', withinDays: 30 },
        },
        'body.derivation.t0EventId',
      ],
      [
        {
          ...ok,
          derivation: {
            kind: 'lab',
            itemCode: 'ALT',
            aggregate: 'max',
            anchor: 't0',
            t0EventId: 99999,
            withinDays: 3,
          },
        },
        'body.derivation.t0EventId',
      ],
      [
        {
          ...ok,
          derivation: {
            kind: 'lab',
            itemCode: 'A"LT',
            aggregate: 'max',
            anchor: 'first_visit',
            withinDays: 3,
          },
        },
        'itemCode',
      ],
      [{ ...ok, derivation: { kind: 'crf', formId: 99999, item: 'x' } }, 'body.derivation.formId'],
      [
        { ...ok, type: 'text', derivation: { kind: 'field', rule: 'value patient.name' } },
        'body.derivation.rule',
      ],
      [{ ...ok, valueSet: [{ code: '1' }] }, 'body.valueSet'],
      [{ ...ok, code: 'sex' }, 'body.code'],
      [
        {
          ...ok,
          type: 'category',
          valueSet: [{ code: '1' }, { code: '1' }],
        },
        'valueSet',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await add(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body), JSON.stringify(body)).toContain(field);
    }
    const list = (await get(t.app, P, admin)).body.data.items as Variable[];
    expect(list.some((v) => v.code === 'bad_one')).toBe(false);
  });

  it('enforces each function, keeps apps apart and audits every write', async () => {
    expect(
      (
        await add(
          {
            code: 'nope',
            labelZh: '无',
            type: 'number',
            derivation: { kind: 'field', rule: 'value patient.age' },
          },
          reader,
        )
      ).status,
    ).toBe(403);
    expect((await patch(`${P}/${baseline}`, { labelZh: '改' }, reader)).status).toBe(403);
    expect((await del(t.app, `${P}/${baseline}`, reader)).status).toBe(403);
    // Another hospital sees none of it.
    expect(((await get(t.app, P, other.key)).body.data.items as Variable[]).length).toBe(0);
    expect((await dist(baseline, other.key)).status).toBe(404);
    expect((await patch(`${P}/${baseline}`, { labelZh: '改' }, other.key)).status).toBe(404);
    expect((await del(t.app, `${P}/${baseline}`, other.key)).status).toBe(404);
    // The other hospital may use the same code for its own variable.
    expect(
      (
        await add(
          {
            code: 'sex',
            labelZh: '性别',
            type: 'text',
            derivation: { kind: 'field', rule: 'value patient.gender' },
          },
          other.key,
        )
      ).status,
    ).toBe(200);

    const renamed = await patch(`${P}/${baseline}`, { labelZh: '基线 ALT' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.code).toBe('alt_first_30d');
    expect((await del(t.app, `${P}/${baseline}`, admin)).status).toBe(200);
    const audits = await t.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'variable'), eq(auditLog.entityId, String(baseline))));
    expect(audits.map((a) => a.action).sort()).toEqual(
      ['variable.add', 'variable.delete', 'variable.edit', 'variable.edit'].sort(),
    );
    expect((await dist(baseline)).status).toBe(404);
  });
});
