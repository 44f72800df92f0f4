import { describe, expect, it } from 'vitest';
import { parseItems } from './items';

describe('items typed one a line for a template', () => {
  it('reads code=中文=English, names optional, blank lines skipped', () => {
    expect(parseItems('ALT=丙氨酸氨基转移酶=ALT\n\n AST \nGGT=谷氨酰转移酶')).toEqual({
      items: [
        { code: 'ALT', labelZh: '丙氨酸氨基转移酶', labelEn: 'ALT' },
        { code: 'AST', labelZh: '', labelEn: '' },
        { code: 'GGT', labelZh: '谷氨酰转移酶', labelEn: '' },
      ],
      bad: null,
    });
  });
  it('names the first line without a code', () => {
    expect(parseItems('ALT\n=无编码\nAST').bad).toBe(2);
  });
});
