import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy } from './password.js';

const problem = (p: string) => checkPasswordPolicy(p).problem ?? null;

describe('password policy (spec 000 section 5)', () => {
  it('refuses control characters and lone surrogates, whatever else the password holds', () => {
    for (const c of ['\u0000', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f']) {
      expect(problem(`Abcd-123${c}`)).toBe('password.characters');
      expect(problem(`${c}Abcd-123`)).toBe('password.characters');
    }
    // A lone surrogate becomes U+FFFD when hashed, so two passwords would hash alike.
    expect(problem('Abcd-123\ud800')).toBe('password.characters');
    expect(problem('Abcd-123\udc00x')).toBe('password.characters');
    // A whole pair is a character like any other.
    expect(problem('Abcd-123\ud83d\ude00')).toBeNull();
    // Spaces and non-ASCII letters are not control characters.
    expect(problem('Abcd 123 密码')).toBeNull();
  });

  it('counts characters (code points), not UTF-16 units', () => {
    expect(problem('Ab1!😀😀😀')).toBe('password.length'); // 7 characters, 10 units
    expect(problem('Ab1!😀😀😀😀')).toBeNull(); // 8 characters
    expect(problem(`Ab1!${'𠀀'.repeat(28)}`)).toBeNull(); // 32 characters, 60 units
    expect(problem(`Ab1!${'𠀀'.repeat(29)}`)).toBe('password.length'); // 33 characters
  });

  it('still wants three kinds of characters', () => {
    expect(problem('abcdefgh1')).toBe('password.kinds');
    expect(checkPasswordPolicy('Abcdefg1').ok).toBe(true);
    expect(checkPasswordPolicy('abcdef1!').kinds).toEqual({
      upper: false,
      lower: true,
      digit: true,
      special: true,
    });
  });
});
