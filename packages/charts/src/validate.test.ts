import { hasLabel, label } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { aggregate, quantile } from './aggregate.js';
import type { ChartSpec } from './schema.js';
import { sortIndexes, sortOrSkip } from './sort.js';
import { CHANNELS, CHART_SUBTYPES, type ChartSubtype, SUBTYPE_LABELS, SUBTYPES } from './subtypes.js';
import { validateChart } from './validate.js';

const f = (field: string) => ({ field });
const spec = (subtype: ChartSubtype, channels: ChartSpec['channels'] = {}): ChartSpec => ({
  subtype,
  channels,
});

describe('subtype table', () => {
  it('has every subtype spec 001 lists (26 names, though the brief says 27), with spec channels and labels', () => {
    expect(new Set(CHART_SUBTYPES).size).toBe(26);
    for (const s of CHART_SUBTYPES) {
      expect(SUBTYPE_LABELS[s]['zh-CN']).toBeTruthy();
      // The words are the labelling layer's (family chartSubtype), in both languages.
      expect(hasLabel('chartSubtype', s), s).toBe(true);
      expect(label('chartSubtype', s, 'en-US')).not.toBe(s);
      for (const d of SUBTYPES[s].channels) {
        expect(CHANNELS).toContain(d.channel);
        expect(hasLabel('chartChannel', d.channel), d.channel).toBe(true);
      }
    }
  });
});

describe('validateChart requirements', () => {
  it('refuses every subtype without fields, saying what is missing in both languages', () => {
    for (const s of CHART_SUBTYPES) {
      const v = validateChart(spec(s));
      expect(v.isChart, s).toBe(false);
      expect(v.missing.length, s).toBeGreaterThan(0);
      expect(v.messages['zh-CN'][0]).toMatch(/至少需要 \d 个字段/);
      expect(v.messages['en-US'][0]).toMatch(/needs at least \d field/);
    }
  });

  it('needs one value on the required axis for column, bar, pie', () => {
    expect(validateChart(spec('column', { y: [f('n')] })).isChart).toBe(true);
    expect(validateChart(spec('column', { x: [f('sex')] })).messages['zh-CN']).toEqual([
      '“Y 轴”至少需要 1 个字段',
    ]);
    expect(validateChart(spec('bar', { x: [f('n')] })).isChart).toBe(true);
    expect(validateChart(spec('bar', { y: [f('sex')] })).messages['en-US']).toEqual([
      'X axis needs at least 1 field',
    ]);
    expect(validateChart(spec('pie', { value: [f('n')] })).isChart).toBe(true);
  });

  it.each(['line', 'area', 'stacked-area', 'radar', 'funnel'] as const)('%s needs both axes', (s) => {
    expect(validateChart(spec(s, { x: [f('a')] })).messages['en-US']).toEqual([
      'Y axis needs at least 1 field',
    ]);
    expect(validateChart(spec(s, { y: [f('b')] })).messages['en-US']).toEqual([
      'X axis needs at least 1 field',
    ]);
    expect(validateChart(spec(s, { x: [f('a')], y: [f('b')] })).isChart).toBe(true);
  });

  it('needs two fields for coordinates and venn (sets and conditions count together)', () => {
    expect(validateChart(spec('coordinates', { ys: [f('a')] })).messages['zh-CN']).toEqual([
      '“多个 Y 轴”至少需要 2 个字段',
    ]);
    expect(validateChart(spec('coordinates', { ys: [f('a'), f('b')] })).isChart).toBe(true);
    expect(validateChart(spec('venn', { sets: [f('a')] })).messages['en-US']).toEqual([
      'Sets or Conditions needs at least 2 fields',
    ]);
    expect(validateChart(spec('venn', { sets: [f('a')], conditions: [f('b')] })).isChart).toBe(true);
  });

  it('needs three for bubble', () => {
    const v = validateChart(spec('bubble', { x: [f('a')] }));
    expect(v.missing.map((m) => m.channels[0])).toEqual(['y', 'size']);
    expect(validateChart(spec('bubble', { x: [f('a')], y: [f('b')], size: [f('c')] })).isChart).toBe(true);
  });

  it('accepts authored rich text without any field', () => {
    expect(validateChart({ subtype: 'rich-text', content: '<p>说明</p>' }).isChart).toBe(true);
    expect(validateChart({ subtype: 'rich-text', content: '  ' }).isChart).toBe(false);
  });

  it('reports malformed specs with the path of the fault and lists ignored channels', () => {
    const bad = validateChart({ subtype: 'column', channels: { y: [{ field: 'n', aggregate: 'mode' }] } });
    expect(bad.isChart).toBe(false);
    expect(bad.errors[0]!.path).toBe('channels.y.0.aggregate');
    expect(validateChart({ subtype: 'pyramid' }).errors[0]!.path).toBe('subtype');
    expect(validateChart(spec('pie', { value: [f('n')], sets: [f('s')] })).ignored).toEqual(['sets']);
  });
});

describe('aggregate', () => {
  const rows = [{ v: 1 }, { v: '3' }, { v: 8 }, { v: null }, { v: 'x' }, { v: 3 }];
  it.each([
    ['sum', 15],
    ['average', 3.75],
    ['count', 5],
    ['distinctCount', 4],
    ['min', 1],
    ['max', 8],
    ['median', 3],
  ] as const)('%s', (how, expected) => {
    expect(aggregate(rows, 'v', how)).toBe(expected);
  });
  it('counts rows for *, gives null for numeric aggregates of nothing', () => {
    expect(aggregate(rows, '*', 'count')).toBe(6);
    expect(aggregate([{ v: 'a' }], 'v', 'sum')).toBeNull();
    expect(aggregate([{ v: 1 }, { v: 2 }], 'v', 'median')).toBe(1.5);
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
  });
});

describe('sort', () => {
  const items = [
    { label: '10月', raw: '2024-10-01', value: 5 },
    { label: '2月', raw: '2024-02-01', value: null },
    { label: '1月', raw: '2024-01-01', value: 9 },
  ];
  it('sorts by value with empty values last in both orders', () => {
    expect(sortIndexes(items, { axis: 'value', order: 'asc' })).toEqual([0, 2, 1]);
    expect(sortIndexes(items, { axis: 'value', order: 'desc' })).toEqual([2, 0, 1]);
  });
  it('sorts by category text with numbers in numeric order', () => {
    expect(sortIndexes(items, { axis: 'category', order: 'asc' })).toEqual([2, 1, 0]);
  });
  it('sorts by typed category value: dates as dates, numbers as numbers', () => {
    expect(sortIndexes(items, { axis: 'categoryValue', order: 'desc' })).toEqual([0, 1, 2]);
    const nums = [
      { label: '10', raw: 10, value: 0 },
      { label: '9', raw: '9', value: 0 },
    ];
    expect(sortIndexes(nums, { axis: 'categoryValue', order: 'asc' })).toEqual([1, 0]);
  });
  it('falls back to the unsorted data silently when the sort cannot be done', () => {
    const mixed = [
      { label: 'b', raw: 'b', value: 1 },
      { label: '1', raw: 1, value: 2 },
    ];
    expect(sortOrSkip(mixed, { axis: 'categoryValue', order: 'asc' }, (x) => x)).toEqual({
      items: mixed,
      sorted: false,
    });
    const bogus = { axis: 'nonsense', order: 'asc' } as unknown as Parameters<typeof sortIndexes>[1];
    expect(sortOrSkip(mixed, bogus, (x) => x).sorted).toBe(false);
    expect(sortOrSkip(mixed, undefined, (x) => x).sorted).toBe(false);
  });
});
