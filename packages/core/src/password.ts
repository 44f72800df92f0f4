import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';

/** Special characters that count for the password policy (spec 000 section 5). */
export const PASSWORD_SPECIALS = '!@#$%^&*()_+-=';

export interface PasswordPolicyResult {
  ok: boolean;
  /** Which kinds of characters the password holds. */
  kinds: { upper: boolean; lower: boolean; digit: boolean; special: boolean };
  /** Message key when the policy fails: `password.characters`, `password.length` or `password.kinds`. */
  problem?: 'password.characters' | 'password.length' | 'password.kinds';
}

/**
 * Control characters (C0, DEL, C1: nothing a person types, and a line break or NUL in a password
 * breaks terminals and tools) and lone UTF-16 surrogates (not a character: they turn into U+FFFD
 * when the password is hashed, so two different passwords would hash alike).
 */
function hasForbidden(password: string) {
  for (let i = 0; i < password.length; i++) {
    const c = password.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = password.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * No control characters or lone surrogates; 8 to 32 characters, counted as code points (an
 * emoji or a rare CJK character outside the BMP is one character, not two UTF-16 units); at
 * least three of: uppercase, lowercase, digit, special character.
 */
export function checkPasswordPolicy(password: string): PasswordPolicyResult {
  const kinds = {
    upper: /[A-Z]/.test(password),
    lower: /[a-z]/.test(password),
    digit: /[0-9]/.test(password),
    special: [...password].some((c) => PASSWORD_SPECIALS.includes(c)),
  };
  if (hasForbidden(password)) return { ok: false, kinds, problem: 'password.characters' };
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return { ok: false, kinds, problem: 'password.length' };
  }
  const count = Object.values(kinds).filter(Boolean).length;
  if (count < 3) return { ok: false, kinds, problem: 'password.kinds' };
  return { ok: true, kinds };
}
