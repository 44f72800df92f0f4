import { describe, expect, it } from 'vitest';
import { textRule } from './text-rule';

describe('the form rule for text', () => {
  it('refuses a control character with the position, in both languages', async () => {
    await expect(textRule('zh-CN').validator(null, '肝病\u0000')).rejects.toThrow(
      '不能包含控制字符（位置 3）',
    );
    await expect(textRule('en-US').validator(null, 'a\u0007b')).rejects.toThrow(
      'must not contain control characters (position 2)',
    );
  });

  it('refuses a lone surrogate; accepts emoji and CJK outside the basic plane', async () => {
    await expect(textRule('en-US').validator(null, 'x\ud800')).rejects.toThrow(
      'contains an invalid Unicode character (position 2)',
    );
    await expect(textRule('zh-CN').validator(null, '𠀀👩‍⚕️中文')).resolves.toBeUndefined();
  });

  it('allows tab and line breaks only in multi-line text, and names the line', async () => {
    await expect(textRule('zh-CN').validator(null, '第一行\n第二行')).rejects.toThrow('（位置 4）');
    await expect(
      textRule('zh-CN', { multiline: true }).validator(null, '第一行\n第\t二行'),
    ).resolves.toBeUndefined();
    await expect(
      textRule('zh-CN', { multiline: true }).validator(null, '第一行\n第二\u000b行'),
    ).rejects.toThrow('第 2 行第 3 个字符');
  });
});
