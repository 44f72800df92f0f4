import { describe, expect, it } from 'vitest';
import { checkPasswordChange } from './password-form';

describe('change-password checks', () => {
  it('reports the first failing check in the spec order', () => {
    expect(checkPasswordChange({})).toBe('oldRequired');
    expect(checkPasswordChange({ passwordO: 'x' })).toBe('newRequired');
    expect(checkPasswordChange({ passwordO: 'x', password: 'Abcdef1!' })).toBe('confirmRequired');
    expect(checkPasswordChange({ passwordO: 'x', password: 'Abcdef1!', confirm: 'Abcdef1?' })).toBe(
      'mismatch',
    );
    expect(checkPasswordChange({ passwordO: 'x', password: 'Abcdef1!', confirm: 'Abcdef1!' })).toBeNull();
  });
});
