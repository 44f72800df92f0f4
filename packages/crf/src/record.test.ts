import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFormEngine } from './engine.js';
import { mapRecordToAnswers, readRecordEntries } from './record.js';
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
