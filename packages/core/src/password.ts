import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';

/** Special characters that count for the password policy (spec 000 section 5). */
export const PASSWORD_SPECIALS = '!@#$%^&*()_+-=';

export interface PasswordPolicyResult {
  ok: boolean;
  /** Which kinds of characters the password holds. */
  kinds: { upper: boolean; lower: boolean; digit: boolean; special: boolean };
  /** Message key when the policy fails: `password.length` or `password.kinds`. */
  problem?: 'password.length' | 'password.kinds';
}

/** 8 to 32 characters and at least three of: uppercase, lowercase, digit, special character. */
export function checkPasswordPolicy(password: string): PasswordPolicyResult {
  const kinds = {
    upper: /[A-Z]/.test(password),
    lower: /[a-z]/.test(password),
    digit: /[0-9]/.test(password),
    special: [...password].some((c) => PASSWORD_SPECIALS.includes(c)),
  };
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return { ok: false, kinds, problem: 'password.length' };
  }
  const count = Object.values(kinds).filter(Boolean).length;
  if (count < 3) return { ok: false, kinds, problem: 'password.kinds' };
  return { ok: true, kinds };
}
