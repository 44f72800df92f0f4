import { describe, expect, it } from 'vitest';
import { formatAge } from './age.js';
import {
  codeLabel,
  GENDER_TABLE,
  genderLabel,
  isTaskStatus,
  SOLUTION_CATEGORY_TABLE,
  solutionCategoryLabel,
  TASK_STATUS_TABLE,
  TASK_STATUSES,
  taskStatusEntry,
} from './code-tables.js';
import { deviceMode, formatDate, formatNumber } from './format.js';
import { greeting, greetingPeriod } from './greeting.js';
import { paletteColor, TREE_PALETTES } from './palettes.js';
import { ellipsisLength, shortenEventText, truncateText } from './text.js';

describe('formatAge', () => {
  const now = '2024-06-15';
  it('shows whole years from one year on', () => {
    expect(formatAge('1980-06-15', now)).toEqual({
      value: 44,
      unit: 'year',
      text: { 'zh-CN': '44岁', 'en-US': '44 years' },
    });
    expect(formatAge('1980-06-16', now).value).toBe(43);
    expect(formatAge('2023-06-15', now).text).toEqual({ 'zh-CN': '1岁', 'en-US': '1 year' });
  });
  it('shows 30-day months below one year', () => {
    expect(formatAge('2024-05-16', now)).toMatchObject({ value: 1, unit: 'month' });
    expect(formatAge('2023-06-16', now)).toMatchObject({ value: 12, unit: 'month' });
    expect(formatAge('2024-01-15', now).text['zh-CN']).toBe('5个月');
  });
  it('shows days below 30 days, including 0 on the day of birth', () => {
    expect(formatAge('2024-05-17', now)).toMatchObject({ value: 29, unit: 'day' });
    expect(formatAge('2024-06-15 08:00:00', '2024-06-15 20:00:00').text).toEqual({
      'zh-CN': '0天',
      'en-US': '0 days',
    });
  });
  it('is blank for the 0001-01-01 placeholder, empty, invalid and future birth dates', () => {
    for (const birth of [
      '0001-01-01',
      '0001-01-01 00:00:00',
      '',
      null,
      undefined,
      'not a date',
      '2025-01-01',
    ]) {
      expect(formatAge(birth, now)).toEqual({ value: null, unit: null, text: { 'zh-CN': '', 'en-US': '' } });
    }
  });
  it('accepts Date objects', () => {
    expect(formatAge(new Date(2000, 0, 1), new Date(2024, 0, 1)).value).toBe(24);
  });
});

describe('greetingPeriod', () => {
  it.each([
    [0, 'morning'],
    [8, 'morning'],
    [9, 'forenoon'],
    [11, 'forenoon'],
    [12, 'noon'],
    [13, 'noon'],
    [14, 'afternoon'],
    [19, 'afternoon'],
    [20, 'evening'],
    [23, 'evening'],
  ] as const)('hour %i is %s', (hour, period) => {
    expect(greetingPeriod(hour)).toBe(period);
  });
  it('gives the text in both languages', () => {
    expect(greeting(10)).toBe('上午好');
    expect(greeting(new Date(2024, 0, 1, 21), 'en-US')).toBe('Good evening');
  });
});

describe('truncateText', () => {
  it('keeps text within the limit unchanged', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('中文', 4)).toBe('中文');
    expect(truncateText(null, 4)).toBe('');
  });
  it('counts full-width characters as two and adds ...', () => {
    expect(truncateText('abcdef', 4)).toBe('abcd...');
    expect(truncateText('中文字符', 4)).toBe('中文...');
    expect(truncateText('a中文', 4)).toBe('a中...');
    expect(truncateText('中文abc', 5)).toBe('中文a...');
  });
  it('never splits a character made of two UTF-16 units', () => {
    expect(truncateText('😀😀😀', 3)).toBe('😀...');
  });
  it('measures display width', () => {
    expect(ellipsisLength('a中，b')).toBe(6);
    expect(ellipsisLength(undefined)).toBe(0);
  });
  it('cuts event text over 20 characters to 17 plus ...', () => {
    expect(shortenEventText('一二三四五六七八九十一二三四五六七八九十')).toHaveLength(20);
    expect(shortenEventText('一二三四五六七八九十一二三四五六七八九十一')).toBe(
      '一二三四五六七八九十一二三四五六七...',
    );
  });
});

describe('formatNumber', () => {
  it('adds thousands separators and keeps existing decimals', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatNumber(-1234)).toBe('-1,234');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber('12345')).toBe('12,345');
    expect(formatNumber(1e21)).toBe('1,000,000,000,000,000,000,000');
  });
  it('applies decimals, prefix, suffix, multiplier and grouping off', () => {
    expect(formatNumber(1234.5, { decimals: 2 })).toBe('1,234.50');
    expect(formatNumber(0.0712, { multiplier: 100, decimals: 1, suffix: '%' })).toBe('7.1%');
    expect(formatNumber(0.07, { multiplier: 100 })).toBe('7');
    expect(formatNumber(1234567, { grouping: false, prefix: '¥' })).toBe('¥1234567');
    expect(formatNumber(-0.001, { decimals: 2 })).toBe('0.00');
  });
  it('gives empty text for missing values and returns other text unchanged', () => {
    expect(formatNumber(null)).toBe('');
    expect(formatNumber(Number.NaN)).toBe('');
    expect(formatNumber('n/a')).toBe('n/a');
  });
});

describe('formatDate and deviceMode', () => {
  it('formats YYYY-MM-DD HH:mm:ss by default', () => {
    expect(formatDate(new Date(2024, 1, 3, 4, 5, 6))).toBe('2024-02-03 04:05:06');
    expect(formatDate('2024-02-03', 'YYYY/MM/DD')).toBe('2024/02/03');
    expect(formatDate('garbage')).toBe('');
    expect(formatDate(null)).toBe('');
  });
  it.each([
    [0, 'mobile'],
    [575, 'mobile'],
    [576, 'tablet'],
    [1199, 'tablet'],
    [1200, 'desktop'],
  ] as const)('width %i is %s', (width, mode) => {
    expect(deviceMode(width)).toBe(mode);
  });
});

describe('code tables', () => {
  it('labels gender and solution category codes in both languages', () => {
    expect(GENDER_TABLE.map((e) => e.code)).toEqual([0, 1, 2, 3]);
    expect(genderLabel(1)).toBe('男');
    expect(genderLabel('2', 'en-US')).toBe('Female');
    expect(genderLabel(9)).toBe('9');
    expect(SOLUTION_CATEGORY_TABLE.map((e) => e.key)).toEqual([
      'outpatient',
      'admission',
      'surgery',
      'discharge',
    ]);
    expect(solutionCategoryLabel(2, 'en-US')).toBe('Surgery');
    expect(codeLabel(GENDER_TABLE, null)).toBe('');
  });
  it('has the eight task statuses, each styled, the last two sharing one class', () => {
    expect(TASK_STATUS_TABLE.map((e) => e.code)).toEqual([...TASK_STATUSES]);
    const classes = TASK_STATUS_TABLE.map((e) => e.className);
    expect(new Set(classes).size).toBe(7);
    expect(taskStatusEntry('closed')!.className).toBe(taskStatusEntry('topicConcluded')!.className);
    expect(isTaskStatus('recruiting')).toBe(true);
    expect(isTaskStatus('done')).toBe(false);
  });
});

describe('tree palettes', () => {
  it('have 10 colours each and cycle', () => {
    for (const palette of Object.values(TREE_PALETTES)) expect(palette).toHaveLength(10);
    expect(paletteColor(10)).toBe(paletteColor(0));
    expect(paletteColor(-1)).toBe(TREE_PALETTES.default[9]);
  });
});
