import { describe, expect, it } from 'vitest';
import { type DatasetInfo, queryForSpec, rowsForSpec } from './api';

const patients: DatasetInfo = {
  id: 'patients',
  source: 'clinical',
  label: '患者',
  description: '',
  dimensions: [
    { key: 'gender', label: '性别', type: 'string' },
    { key: 'hypertension', label: '高血压', type: 'boolean' },
    { key: 'diabetes', label: '糖尿病', type: 'boolean' },
  ],
  measures: [
    { key: 'count', label: '患者数', rollup: 'sum' },
    { key: 'avg_age', label: '平均年龄', rollup: 'average' },
  ],
};

describe('builder queries', () => {
  it('splits the spec’s fields into the dataset’s dimensions and measures', () => {
    const q = queryForSpec(patients, {
      subtype: 'column',
      channels: { x: [{ field: 'gender' }], y: [{ field: 'avg_age' }, { field: 'count' }] },
    });
    expect(q).toEqual({ dataset: 'patients', dimensions: ['gender'], measures: ['count', 'avg_age'] });
  });

  it('counts venn members from the group sizes of their flags', () => {
    const spec = {
      subtype: 'venn' as const,
      channels: { sets: [{ field: 'hypertension' }, { field: 'diabetes' }] },
    };
    const q = queryForSpec(patients, spec);
    expect(q.measures).toEqual(['count']);
    const rows = rowsForSpec(
      spec,
      [
        { hypertension: true, diabetes: false, count: 2 },
        { hypertension: true, diabetes: true, count: 1 },
      ],
      q,
    );
    expect(rows).toHaveLength(3);
  });
});
