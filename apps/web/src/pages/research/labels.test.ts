import { label } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { cellText, codeText } from './labels';

const zh = (family: Parameters<typeof label>[0], code: string | number | null | undefined) =>
  label(family, code, 'zh-CN');
const en = (family: Parameters<typeof label>[0], code: string | number | null | undefined) =>
  label(family, code, 'en-US');

describe('dataset cells in words (issue 16)', () => {
  const event = { survival: { part: 'event' as const, of: '死亡' } };
  const time = { survival: { part: 'time' as const, of: '死亡' } };

  it('shows a survival event column as event / censored, not 1 / 0', () => {
    expect(cellText(event, 1, 0, zh)).toBe('事件');
    expect(cellText(event, 0, 0, zh)).toBe('删失');
    expect(cellText(event, 1, 0, en)).toBe('Event');
    expect(cellText(event, 0, 0, en)).toBe('Censored');
    expect(codeText(event, '1', en)).toBe('Event');
    expect(cellText(event, null, 0, zh)).toBe('');
  });

  it('keeps the time column a rounded number and sex in words', () => {
    expect(cellText(time, 3.0833333333333335, 2, zh)).toBe('3.08');
    expect(cellText({ codeFamily: 'gender' }, 2, 0, zh)).toBe('女');
  });
});
