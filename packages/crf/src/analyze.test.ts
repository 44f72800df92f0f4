import { describe, expect, it } from 'vitest';
import { analyzeForm } from './analyze.js';
import { sampleForm } from './testdata/sample-form.js';
import type { Form } from './types.js';

const codes = (form: Form) => analyzeForm(form).map((p) => p.code);

describe('analyzeForm', () => {
  it('finds nothing wrong in the sample form', () => {
    expect(analyzeForm(sampleForm())).toEqual([]);
  });

  it('reports unknown keys in rules, calculations and required rules', () => {
    const form = sampleForm();
    form.showRules!.push({
      indicatorName: 'ghost',
      condition: 'equals',
      indicatorVal: 1,
      selectItems: ['name', 'phantom'],
    });
    form.pages[0]!.items!.push(
      { key: 'c', type: 'textQuestion', fxTopicData: { func: 'sum', fields: ['height', 'nowhere'] } },
      {
        key: 'r',
        type: 'textQuestion',
        requiredRule: { rules: [{ indicatorName: 'void', condition: 'exists' }] },
      },
    );
    const problems = analyzeForm(form);
    expect(problems.filter((p) => p.code === 'unknownKey').map((p) => p.keys![0])).toEqual([
      'ghost',
      'phantom',
      'nowhere',
      'void',
    ]);
  });

  it('reports unknown conditions and functions', () => {
    const form = sampleForm();
    form.showRules!.push({ indicatorName: 'name', condition: 'resembles', selectItems: ['birth'] });
    form.pages[0]!.items!.push({
      key: 'c',
      type: 'textQuestion',
      fxTopicData: { func: 'median', fields: ['height'] },
    });
    expect(codes(form)).toEqual(['unknownCondition', 'unknownFunction']);
  });

  it('reports cycles among computed fields and show rules', () => {
    const form = sampleForm();
    form.pages[0]!.items!.push(
      { key: 'x', type: 'textQuestion', fxTopicData: { func: 'sum', fields: ['y'] } },
      { key: 'y', type: 'textQuestion', fxTopicData: { func: 'sum', fields: ['x'] } },
    );
    // A rule whose indicator sits inside the panel it hides.
    form.showRules!.push({ indicatorName: 'hbvDna', condition: 'exists', selectPanel: ['hbvPanel'] });
    const cycles = analyzeForm(form).filter((p) => p.code === 'cycle');
    expect(cycles.map((c) => [...c.keys!].sort())).toEqual([
      ['x', 'y'],
      ['hbvDna', 'hbvPanel'],
    ]);
  });

  it('reports a condition that cannot apply to the indicator', () => {
    const form = sampleForm();
    form.showRules!.push(
      { indicatorName: 'symptoms', condition: 'starts with', indicatorVal: 'a', selectItems: ['birth'] },
      { indicatorName: 'hbsag', condition: 'greater than', indicatorVal: 'neg', selectItems: ['birth'] },
      { indicatorName: 'height', condition: 'less than', indicatorVal: 'tall', selectItems: ['birth'] },
      {
        indicatorName: 'birth',
        condition: 'greater than',
        indicatorVal: 'yesterday',
        selectItems: ['weight'],
      },
      { indicatorName: 'height', condition: 'contains', indicatorVal: '1', selectItems: ['birth'] },
      { indicatorName: 'hbsag', condition: 'equals', indicatorVal: 'positive', selectItems: ['birth'] },
    );
    expect(codes(form)).toEqual(Array(6).fill('conditionNotApplicable'));
    // Each says what exactly is wrong with the words a screen needs, so it can be read in any language.
    expect(analyzeForm(form).map((p) => [p.detail, p.params])).toEqual([
      ['kindMismatch', { condition: 'startsWith', key: 'symptoms', type: 'checkbox' }],
      ['noOrder', { condition: 'greaterThan', key: 'hbsag' }],
      ['notNumber', { condition: 'lessThan', key: 'height', value: 'tall' }],
      ['notDate', { condition: 'greaterThan', key: 'birth', value: 'yesterday' }],
      ['kindMismatch', { condition: 'contains', key: 'height', type: 'textQuestion' }],
      ['notOption', { condition: 'equals', key: 'hbsag', value: 'positive' }],
    ]);
    // Option codes that are numbers have an order. (A fresh form: compiled forms are cached.)
    const form1 = sampleForm();
    form1.showRules!.push({
      indicatorName: 'sex',
      condition: '>',
      indicatorVal: '1',
      selectItems: ['birth'],
    });
    expect(codes(form1)).toEqual([]);
    const form2 = sampleForm();
    form2.showRules!.push({
      indicatorName: 'fatigue',
      condition: '>',
      indicatorVal: 0,
      selectItems: ['birth'],
    });
    expect(codes(form2)).toEqual([]);
  });

  it('reports bounds where min exceeds max', () => {
    const form = sampleForm();
    form.pages[0]!.items!.push(
      {
        key: 'g',
        type: 'gapFilling',
        gapFilling: [
          { minVal: 10, maxVal: 5 },
          { minNub: 4, maxNub: 2 },
        ],
      },
      { key: 'm', type: 'matrix', rows: [{ key: 'r', minVal: '3', maxVal: '1' }] },
      {
        key: 'cb',
        type: 'checkbox',
        options: [{ name: 'a', code: 'a' }],
        selectLeastValue: 3,
        selectMostValue: 2,
      },
    );
    expect(analyzeForm(form).map((p) => [p.code, p.at])).toEqual([
      ['minExceedsMax', 'g.gapFilling.0'],
      ['minExceedsMax', 'g.gapFilling.1'],
      ['minExceedsMax', 'm.rows.0'],
      ['minExceedsMax', 'cb'],
    ]);
  });

  it('reports duplicate keys that parseForm would refuse', () => {
    const form = sampleForm();
    form.pages[0]!.items!.push({ key: 'name', type: 'textQuestion' });
    expect(codes(form)).toEqual(['duplicateKey']);
  });
});
