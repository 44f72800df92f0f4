import { describe, expect, it } from 'vitest';
import { isApplicable, OPERATORS, parseCondition, parseOperator, runCondition } from './conditions.js';

const run = (condition: string, indicatorVal: unknown, value: unknown, asSet?: boolean) => {
  const parsed = parseCondition({ condition, indicatorVal });
  if (!parsed) throw new Error(`unknown ${condition}`);
  return runCondition(parsed, value, asSet);
};

describe('condition operators', () => {
  it('reads every spelling of the spec list, symbols and Chinese labels', () => {
    const spec = [
      'equals',
      'not equals',
      'less than',
      'greater than',
      'less or equal',
      'greater or equal',
      'contains',
      'not contains',
      'starts with',
      'ends with',
      'null or empty',
      'in list',
      'not in list',
      'exists',
      'field type',
    ];
    expect(spec.map(parseOperator)).toEqual([...OPERATORS]);
    expect(parseOperator('>=')).toBe('greaterOrEqual');
    expect(parseOperator('不等于')).toBe('notEquals');
    expect(parseOperator('notInList')).toBe('notInList');
    expect(parseOperator('resembles')).toBeUndefined();
  });

  it('equals compares numbers as numbers and dates as dates', () => {
    expect(run('equals', '1', 1)).toBe(true);
    expect(run('equals', '1.0', '1')).toBe(true);
    expect(run('equals', '2024-01-05', '2024/1/5')).toBe(true);
    expect(run('equals', 'abc', ' abc ')).toBe(true);
    expect(run('equals', 'abc', 'abd')).toBe(false);
    expect(run('not equals', '1', 2)).toBe(true);
    expect(run('not equals', '1', undefined)).toBe(true);
  });

  it('orders numbers numerically, not as text', () => {
    expect(run('less than', '10', '9')).toBe(true);
    expect(run('greater than', 9, '10')).toBe(true);
    expect(run('less or equal', 5, 5)).toBe(true);
    expect(run('greater or equal', 5, 4.99)).toBe(false);
    expect(run('greater than', 5, 'abc')).toBe(false);
    expect(run('less than', 5, undefined)).toBe(false);
  });

  it('orders dates by time', () => {
    expect(run('less than', '2024-03-01', '2024-02-29')).toBe(true);
    expect(run('greater or equal', '2024-03-01', '2024-03-01 08:00')).toBe(true);
    expect(run('greater than', '2024-03-01', 'not a date')).toBe(false);
  });

  it('text operators: contains, not contains, starts with, ends with', () => {
    expect(run('contains', '乙肝', '慢性乙肝')).toBe(true);
    expect(run('not contains', '丙肝', '慢性乙肝')).toBe(true);
    expect(run('starts with', '慢性', '慢性乙肝')).toBe(true);
    expect(run('ends with', '乙肝', '慢性乙肝')).toBe(true);
    expect(run('ends with', '慢性', '慢性乙肝')).toBe(false);
  });

  it('in list and not in list take arrays or separated text', () => {
    expect(run('in list', '1,2,3', 2)).toBe(true);
    expect(run('in list', ['a', 'b'], 'c')).toBe(false);
    expect(run('not in list', 'a；b', 'c')).toBe(true);
    expect(run('not in list', 'a,b', 'a')).toBe(false);
  });

  it('null or empty and exists, with an explicit false to negate', () => {
    expect(run('null or empty', undefined, '  ')).toBe(true);
    expect(run('null or empty', undefined, [])).toBe(true);
    expect(run('null or empty', undefined, 0)).toBe(false);
    expect(run('null or empty', false, 'x')).toBe(true);
    expect(run('exists', undefined, '')).toBe(true);
    expect(run('exists', undefined, null)).toBe(false);
    expect(run('exists', false, undefined)).toBe(true);
  });

  it('field type recognises numbers, integers, dates, text and lists', () => {
    expect(run('field type', 'number', '3.5')).toBe(true);
    expect(run('field type', 'integer', '3.5')).toBe(false);
    expect(run('field type', 'date', '2023-02-30')).toBe(false);
    expect(run('field type', 'date', '2024-02-29')).toBe(true);
    expect(run('field type', 'text', 'abc')).toBe(true);
    expect(run('field type', 'array', ['a'])).toBe(true);
    expect(run('field type', 'unicorn', 'a')).toBe(false);
  });

  it('checkbox answers compare as sets', () => {
    expect(run('equals', ['b', 'a'], ['a', 'b'], true)).toBe(true);
    expect(run('equals', 'a', ['a', 'b'], true)).toBe(false);
    expect(run('contains', 'a', ['a', 'b'], true)).toBe(true);
    expect(run('contains', ['a', 'c'], ['a', 'b'], true)).toBe(false);
    expect(run('not contains', 'c', ['a', 'b'], true)).toBe(true);
    expect(run('in list', 'c,b', ['a', 'b'], true)).toBe(true);
    expect(run('not in list', 'c,d', ['a', 'b'], true)).toBe(true);
    expect(run('greater than', 1, ['a'], true)).toBe(false);
    expect(run('null or empty', undefined, [], true)).toBe(true);
  });

  it('knows which operators can apply to which answer kinds', () => {
    expect(isApplicable('startsWith', 'set')).toBe(false);
    expect(isApplicable('lessThan', 'number')).toBe(true);
    expect(isApplicable('contains', 'number')).toBe(false);
    expect(isApplicable('contains', 'text')).toBe(true);
  });
});
