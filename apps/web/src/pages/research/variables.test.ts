import type { ResearchCatalogueItem } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { variableKey, variablesOf } from './variables';

const item = (kind: 'lab' | 'diagnosis', code: string, name: string): ResearchCatalogueItem => ({
  kind,
  code,
  name,
  unit: '',
  patients: 1,
});
const words = {
  computed: (c: string) => ({ age: '年龄', gender: '性别', visitCount: '就诊次数' })[c] ?? c,
  diagnosis: (name: string, code: string) => `${name}（${code}）`,
  survival: (name: string, code: string) => `${name}生存（${code}）`,
};

describe('research variables from the catalogue', () => {
  it('keys are column names made from codes, unique, starting with a letter', () => {
    expect(variableKey('GLU', '', new Set())).toBe('glu');
    expect(variableKey('E11', 'dx', new Set())).toBe('dx_e11');
    expect(variableKey('25-OH-D', '', new Set())).toBe('v_25_oh_d');
    expect(variableKey('GLU', '', new Set(['glu', 'glu_2']))).toBe('glu_3');
    expect(variableKey('血糖', '', new Set())).toBe('v');
    expect(variableKey('A'.repeat(80), '', new Set())).toHaveLength(36);
  });

  it('builds the variables the server reads: computed, lab, diagnosis and survival', () => {
    const vars = variablesOf(
      ['age', 'gender'],
      [
        { source: 'lab', item: item('lab', 'GLU', '空腹血糖'), aggregate: 'last' },
        { source: 'diagnosis', item: item('diagnosis', 'E11', '2型糖尿病') },
        { source: 'survival', item: item('diagnosis', 'I21', '急性心肌梗死') },
        { source: 'diagnosis', item: item('diagnosis', 'I21', '急性心肌梗死') },
      ],
      words,
    );
    expect(vars).toEqual([
      { key: 'age', label: '年龄', source: 'age' },
      { key: 'sex', label: '性别', source: 'gender' },
      { key: 'glu', label: '空腹血糖', source: 'lab', itemCode: 'GLU', aggregate: 'last' },
      { key: 'dx_e11', label: '2型糖尿病（E11）', source: 'diagnosis', codes: ['E11'] },
      { key: 'surv_i21', label: '急性心肌梗死生存（I21）', source: 'survival', codes: ['I21'] },
      { key: 'dx_i21', label: '急性心肌梗死（I21）', source: 'diagnosis', codes: ['I21'] },
    ]);
  });
});
