import { describe, expect, it } from 'vitest';
import { type CalcInput, createFunctionRegistry, dateDifference } from './functions.js';
import { toDate } from './values.js';

const registry = createFunctionRegistry();
const call = (name: string, input: Partial<CalcInput>) =>
  registry.get(name)!({
    values: [],
    items: [],
    x: undefined,
    y: undefined,
    compare: undefined,
    now: () => new Date(2024, 5, 1),
    ...input,
  });

describe('calculation functions', () => {
  it('sum, average, min and max skip unanswered and non-numeric values', () => {
    const values = ['1', 2, '', 'x', undefined, '3.5'];
    expect(call('sum', { values })).toBe(6.5);
    expect(call('average', { values })).toBeCloseTo(6.5 / 3);
    expect(call('min', { values })).toBe(1);
    expect(call('max', { values })).toBe(3.5);
    expect(call('sum', { values: ['', undefined] })).toBeUndefined();
  });

  it('count counts answered fields, or those holding the compared value', () => {
    expect(call('count', { values: ['a', '', ['x'], undefined] })).toBe(2);
    expect(call('count', { values: ['1', 1, ['1', '2'], '2'], compare: '1' })).toBe(3);
  });

  it('score totals the scores of the chosen options', () => {
    const item = {
      key: 'q',
      type: 'checkbox' as const,
      options: [
        { name: 'a', code: 'a', score: 2 },
        { name: 'b', code: 'b', score: '3' },
      ],
    };
    expect(call('score', { values: [['a', 'b'], 'a'], items: [item, item] })).toBe(7);
    expect(call('score', { values: [4], items: [undefined] })).toBe(4);
    expect(call('score', { values: [undefined], items: [item] })).toBeUndefined();
  });

  it('BMI takes height in cm or m', () => {
    expect(call('bmi', { x: 70, y: 175 })).toBeCloseTo(22.857, 3);
    expect(call('bmi', { x: '70', y: '1.75' })).toBeCloseTo(22.857, 3);
    expect(call('bmi', { x: 70, y: 0 })).toBeUndefined();
  });

  it('date difference in days, months and years', () => {
    expect(call('dateDiff', { x: '2024-01-31', y: '2024-03-01', compare: 'days' })).toBe(30);
    expect(call('dateDiff', { x: '2024-01-31', y: '2024-02-29', compare: 'months' })).toBe(1);
    expect(call('dateDiff', { x: '2024-01-31', y: '2024-02-28', compare: 'months' })).toBe(0);
    expect(call('dateDiff', { x: '2020-02-29', y: '2024-02-28', compare: 'years' })).toBe(3);
    expect(call('dateDiff', { x: '2024-03-01', y: '2024-01-31', compare: 'days' })).toBe(-30);
    expect(call('dateDiff', { x: 'bad', y: '2024-01-31' })).toBeUndefined();
    expect(dateDifference(toDate('2023-01-01')!, toDate('2024-01-01')!, '年')).toBe(1);
  });

  it('age at a date, or today from the injected clock', () => {
    expect(call('age', { x: '1978-05-12', y: '2024-05-11' })).toBe(45);
    expect(call('age', { x: '1978-05-12', y: '2024-05-12' })).toBe(46);
    expect(call('age', { x: '2024-01-15' })).toBe(0);
    expect(call('age', { x: '2024-01-15', compare: 'months' })).toBe(4);
    expect(call('age', { x: '2025-01-01', y: '2024-01-01' })).toBeUndefined();
  });

  it('a study adds its own functions and aliases resolve', () => {
    const own = createFunctionRegistry({ double: ({ values }) => Number(values[0]) * 2 });
    expect(
      own.get('double')!({ values: [4], items: [], x: 0, y: 0, compare: 0, now: () => new Date() }),
    ).toBe(8);
    expect(registry.get('avg')).toBe(registry.get('average'));
    expect(createFunctionRegistry().has('double')).toBe(false);
  });
});
