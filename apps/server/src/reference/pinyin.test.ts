import { describe, expect, it } from 'vitest';
import { pinyinInitials } from './pinyin.js';

describe('pinyinInitials', () => {
  it('gives the initials staff type to find a name', () => {
    expect(pinyinInitials('消化内科')).toBe('xhnk');
    expect(pinyinInitials('重庆院区')).toBe('cqyq');
    expect(pinyinInitials('肝胆外科一病区')).toBe('gdwkybq');
  });
  it('keeps letters and digits, drops the rest', () => {
    expect(pinyinInitials('CT 室')).toBe('cts');
    expect(pinyinInitials('mg/dL')).toBe('mgdl');
    expect(pinyinInitials('10*9/L')).toBe('109l');
    expect(pinyinInitials('')).toBe('');
  });
});
