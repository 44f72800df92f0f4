import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFormEngine } from './engine.js';
import { mapRecordToAnswers, placeEntries, prefillReasonText, readRecordEntries } from './record.js';
import { parseForm } from './schema.js';
import type { Form } from './types.js';

const xml = readFileSync(new URL('./testdata/hepatitis-record.xml', import.meta.url), 'utf8');

const yesNo = [
  { name: '是', code: 1 },
  { name: '否', code: 0 },
];

/** An intake form whose items the sample record should fill. */
const intake: Form = parseForm({
  pages: [
    {
      key: 'p1',
      items: [
        { key: 'inpatientNo', type: 'textQuestion', title: '住院号', code: 'DE01.00.014.00' },
        {
          key: 'sex',
          type: 'radio',
          title: '性别',
          options: [
            { name: '男性', code: 'M' },
            { name: '女性', code: 'F' },
          ],
        },
        { key: 'birth', type: 'textQuestion', title: '出生日期', textType: 'date' },
        { key: 'height', type: 'textQuestion', title: '身高(cm)', textType: 'number' },
        { key: 'weight', type: 'textQuestion', title: '体重', textType: 'number', unit: 'kg' },
        {
          key: 'bmi',
          type: 'textQuestion',
          title: '体重指数(BMI)',
          fixed: 1,
          fxTopicData: { func: 'bmi', xyValue: ['weight', 'height'] },
        },
        { key: 'alt', type: 'textQuestion', title: '谷丙转氨酶(ALT)', textType: 'number', unit: 'U/L' },
        { key: 'tbil', type: 'textQuestion', title: '总胆红素', textType: 'number', unit: 'μmol/L' },
        {
          key: 'hbsag',
          type: 'radio',
          title: 'HBsAg',
          options: [
            { name: '阳性', code: 'pos' },
            { name: '阴性', code: 'neg' },
          ],
        },
        { key: 'hbvDna', type: 'textQuestion', title: 'HBV DNA定量', textType: 'number', code: '42595-9' },
        { key: 'hypertension', type: 'radio', title: '高血压病史', options: yesNo },
        {
          key: 'smoking',
          type: 'radio',
          title: '吸烟史',
          options: [
            { name: '从不吸烟', code: 1 },
            { name: '已戒烟', code: 2 },
            { name: '吸烟', code: 3 },
          ],
        },
        {
          key: 'marriage',
          type: 'radio',
          title: '婚姻状况',
          options: [
            { name: '未婚', code: 10 },
            { name: '已婚', code: 20 },
          ],
        },
        {
          key: 'drugs',
          type: 'checkbox',
          title: '抗病毒药物',
          code: 'J05AF10|J05AF07',
          options: [
            { name: '恩替卡韦', code: 'ETV' },
            { name: '替诺福韦', code: 'TDF' },
          ],
        },
        { key: 'familyHistory', type: 'textQuestion', title: '家族史', textType: 'textarea' },
        { key: 'ultrasound', type: 'gapFilling', title: '腹部超声', gapFilling: [{ key: 'finding' }] },
        { key: 'plan', type: 'textQuestion', title: '诊疗计划', textType: 'textarea' },
      ],
    },
  ],
});

describe('reading a case record', () => {
  it('reads every section and entry of the sample hepatitis record', () => {
    const entries = readRecordEntries(xml);
    const sections = [...new Set(entries.map((e) => e.section))];
    expect(sections).toEqual([
      '文档属性',
      '临床观察',
      '实验室检查',
      '疾病',
      '用药',
      '既往史',
      '个人史',
      '婚育史',
      '家族史',
      '检查所见',
      '诊疗计划',
    ]);
    expect(entries.find((e) => e.code === '1742-6')).toMatchObject({
      displayName: '丙氨酸氨基转移酶(ALT)',
      value: '186',
      unit: 'U/L',
      codeSystem: 'LOINC',
    });
    expect(entries.find((e) => e.code === 'DE02.01.005.01')!.value).toBe('1978-05-12');
    expect(entries.find((e) => e.code === 'J05AF10')).toMatchObject({
      value: '0.5',
      unit: 'mg',
      text: '恩替卡韦片 0.5mg 口服 每日一次',
    });
    expect(entries.find((e) => e.section === '诊疗计划')!.text).toContain('恩替卡韦');
  });
});

describe('mapRecordToAnswers', () => {
  const { answers, unmatched } = mapRecordToAnswers(xml, intake);

  it('places entries by code', () => {
    expect(answers.inpatientNo).toBe('ZY20240315017');
    expect(answers.hbvDna).toBe(3_200_000);
  });

  it('places entries by display name, including a bracketed abbreviation', () => {
    expect(answers.birth).toBe('1978-05-12');
    expect(answers.alt).toBe(186);
    expect(answers.weight).toBe(68.5);
  });

  it('matches values to options by name, code or yes/no', () => {
    expect(answers.sex).toBe('M');
    expect(answers.hbsag).toBe('pos');
    expect(answers.hypertension).toBe(0);
    expect(answers.smoking).toBe(2);
    expect(answers.marriage).toBe(20);
    expect(answers.drugs).toEqual(['ETV']);
  });

  it('converts units to the item unit, and refuses what needs a molar mass', () => {
    expect(answers.height).toBe(172);
    expect(answers.tbil).toBeUndefined();
    expect(unmatched.find((u) => u.entry.code === '1975-2')!.reason).toMatch(
      /mg\/dL cannot be converted to μmol\/L/,
    );
  });

  it('places narrative text and single-blank gap filling', () => {
    // The section's narrative names the item exactly, so it wins over '乙肝家族史'.
    expect(answers.familyHistory).toBe('母亲患慢性乙型肝炎，父亲体健。');
    expect(unmatched.find((u) => u.entry.displayName === '乙肝家族史')!.reason).toMatch(
      /took a closer match/,
    );
    expect(answers.ultrasound).toEqual({ finding: '肝实质回声增粗，脾稍大，未见占位' });
    expect(answers.plan).toMatch(/^继续恩替卡韦抗病毒治疗/);
  });

  it('never fills a machine-computed item, and lists what it could not place', () => {
    expect(answers).not.toHaveProperty('bmi');
    const names = unmatched.map((u) => u.entry.displayName);
    expect(names).toEqual(expect.arrayContaining(['体温', '甲胎蛋白(AFP)', '多烯磷脂酰胆碱']));
    expect(unmatched.every((u) => u.reason.length > 0)).toBe(true);
  });

  it('the mapped answers feed the engine, which computes from them', () => {
    expect(createFormEngine(intake, answers).getAnswer('bmi')).toBe(23.2);
  });
});

/** The two HL7 C-CDA R2.1 examples (CC0, fixtures/cda, see fixtures/SOURCES.md). */
const ccda = (name: string) =>
  readFileSync(new URL(`../../../fixtures/cda/ccda_${name}.xml`, import.meta.url), 'utf8');

/** An admission form with items carrying the LOINC codes of vital signs and blood counts. */
const vitalsForm: Form = parseForm({
  pages: [
    {
      key: 'p1',
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
          unit: 'kPa',
          textType: 'number',
        },
        {
          key: 'dbp',
          type: 'textQuestion',
          title: '舒张压',
          code: '8462-4',
          unit: 'mmHg',
          textType: 'number',
        },
        {
          key: 'hgb',
          type: 'textQuestion',
          title: '血红蛋白',
          code: '30313-1',
          unit: 'g/L',
          textType: 'number',
        },
        {
          key: 'plt',
          type: 'textQuestion',
          title: '血小板',
          code: '26515-7',
          unit: '10^9/L',
          textType: 'number',
        },
        { key: 'drug', type: 'textQuestion', title: '出院带药', code: '197806' },
        {
          key: 'allergy',
          type: 'checkbox',
          title: '过敏原',
          code: '48765-2',
          options: [
            { name: 'penicillin G', code: 'PCN' },
            { name: 'codeine', code: 'COD' },
            { name: 'Egg', code: 'EGG' },
            { name: 'aspirin', code: 'ASA' },
          ],
        },
      ],
    },
  ],
});

describe('prefill from C-CDA (issue 21)', () => {
  it('reads each observation of the vital-sign and result organizers, not the panel', () => {
    const entries = readRecordEntries(ccda('History_and_Physical'));
    const of = (code: string) => entries.filter((e) => e.code === code).map((e) => `${e.value} ${e.unit}`);
    expect(of('8302-2')).toEqual(['177 cm', '177 cm']);
    expect(of('3141-9')).toEqual(['86 kg', '88 kg']);
    expect(of('8480-6')).toEqual(['132 mm[Hg]', '145 mm[Hg]']);
    expect(of('30313-1')).toEqual(['13.2 g/dl']);
    expect(of('26515-7')).toEqual(['123 10+3/ul']);
    // The panel itself is no entry of its own any more.
    expect(entries.find((e) => e.code === '74728-7')).toBeUndefined();
  });

  it('fills every vital sign and blood count that has an item, converted to the item’s unit', () => {
    const ds = mapRecordToAnswers(ccda('Discharge_Summary'), vitalsForm);
    expect(ds.answers).toMatchObject({ height: 1.77, weight: 86, sbp: 10.66576, dbp: 55 });
    const hp = mapRecordToAnswers(ccda('History_and_Physical'), vitalsForm);
    expect(hp.answers).toMatchObject({ height: 1.77, hgb: 132, plt: 123 });
    // Two measurements of one item: the first stays, the second is listed as not placed.
    expect(hp.answers.weight).toBe(86);
    expect(hp.unmatched.some((u) => u.entry.code === '3141-9' && u.entry.value === '88')).toBe(true);
  });

  it('fills a medication item with the drug, not its dose, and ticks the allergens', () => {
    const ds = mapRecordToAnswers(ccda('Discharge_Summary'), vitalsForm);
    expect(ds.answers.drug).toBe('ibuprofen 600 MG Oral Tablet');
    expect(ds.answers.allergy).toEqual(['PCN', 'COD', 'EGG']);
    const entries = readRecordEntries(ccda('Discharge_Summary'));
    expect(entries.find((e) => e.code === '197806')).toMatchObject({
      drug: 'ibuprofen 600 MG Oral Tablet',
      value: '1',
    });
  });

  it('converts pounds, inches and Fahrenheit', () => {
    const form = parseForm({
      pages: [
        {
          key: 'p',
          items: [
            { key: 'w', type: 'textQuestion', title: '体重', code: 'W', unit: 'kg', textType: 'number' },
            { key: 'h', type: 'textQuestion', title: '身高', code: 'H', unit: 'cm', textType: 'number' },
            { key: 't', type: 'textQuestion', title: '体温', code: 'T', unit: '℃', textType: 'number' },
          ],
        },
      ],
    });
    const doc = `<ClinicalDocument><component><structuredBody><component><section><title>Vitals</title>
      <entry><observation><code code="W"/><value value="176.4" unit="[lb_av]"/></observation></entry>
      <entry><observation><code code="H"/><value value="70" unit="[in_i]"/></observation></entry>
      <entry><observation><code code="T"/><value value="98.6" unit="[degF]"/></observation></entry>
      </section></component></structuredBody></component></ClinicalDocument>`;
    const { answers } = mapRecordToAnswers(doc, form);
    expect(answers.w).toBeCloseTo(80.0137, 4);
    expect(answers).toMatchObject({ h: 177.8, t: 37 });
  });
});

describe('placing entries from any source', () => {
  const form: Form = parseForm({
    pages: [
      {
        key: 'p1',
        items: [
          {
            key: 'alt',
            type: 'textQuestion',
            title: '谷丙转氨酶',
            code: '1742-6',
            unit: 'U/L',
            textType: 'number',
          },
          { key: 'bp', type: 'textQuestion', title: '血压', textType: 'number' },
          {
            key: 'hbsag',
            type: 'radio',
            title: 'HBsAg',
            options: [
              { name: '阳性', code: 1 },
              { name: '阴性', code: 0 },
            ],
          },
        ],
      },
    ],
  });

  it('matches an item by any of an entry’s codes and names the entry behind each answer', () => {
    const alt = {
      section: '检验',
      code: 'ALT',
      otherCodes: ['1742-6'],
      displayName: 'ALT',
      value: '88',
      unit: 'U/L',
    };
    const m = placeEntries([alt], form);
    expect(m.answers).toEqual({ alt: 88 });
    expect(m.placed).toEqual({ alt });
    expect(m.unmatched).toEqual([]);
  });

  it('refuses, with a code and its English, what does not fit: not a number, not an option, no item', () => {
    const m = placeEntries(
      [
        { section: '体格检查', displayName: '血压', value: '150/90' },
        { section: '检验', displayName: 'HBsAg', value: '待复查' },
        { section: '诊断', code: 'K74.6', displayName: '肝硬化', value: '肝硬化' },
      ],
      form,
    );
    expect(m.answers).toEqual({});
    expect(m.unmatched.map((u) => u.why)).toEqual([
      { code: 'notANumber', item: 'bp', value: '150/90' },
      { code: 'notAnOption', item: 'hbsag', value: '待复查' },
      { code: 'noItem' },
    ]);
    for (const u of m.unmatched) expect(u.reason).toBe(prefillReasonText(u.why));
    expect(m.unmatched[0]!.reason).toBe("value '150/90' is not a number, as 'bp' needs");
  });
});
