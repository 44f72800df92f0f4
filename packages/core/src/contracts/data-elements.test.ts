import { describe, expect, it } from 'vitest';
import { dataElementDefinition, diffDataElement } from './data-elements.js';

describe('diffDataElement', () => {
  const v1 = dataElementDefinition.parse({
    name: '吸烟状态',
    type: 'code',
    valueSet: [
      { code: '0', label: '从不' },
      { code: '1', label: '吸烟' },
    ],
  });

  it('names each changed field with its old and new text, the value set as a whole', () => {
    const v2 = {
      ...v1,
      unit: '',
      description: '按门诊问诊',
      valueSet: [...v1.valueSet, { code: '2', label: '已戒烟' }],
    };
    expect(diffDataElement(v1, v2)).toEqual([
      { field: 'description', before: '', after: '按门诊问诊' },
      { field: 'valueSet', before: '0=从不; 1=吸烟', after: '0=从不; 1=吸烟; 2=已戒烟' },
    ]);
  });

  it('finds nothing between equal definitions', () => {
    expect(diffDataElement(v1, dataElementDefinition.parse(JSON.parse(JSON.stringify(v1))))).toEqual([]);
  });
});
