/** The change-password fields of spec 000 section 5. */
export interface PasswordChangeValues {
  passwordO?: string;
  password?: string;
  confirm?: string;
}

export type PasswordChangeProblem = 'oldRequired' | 'newRequired' | 'confirmRequired' | 'mismatch';

/** The four checks, in the spec's order; the first failing one is reported. */
export function checkPasswordChange(v: PasswordChangeValues): PasswordChangeProblem | null {
  if (!v.passwordO) return 'oldRequired';
  if (!v.password) return 'newRequired';
  if (!v.confirm) return 'confirmRequired';
  if (v.password !== v.confirm) return 'mismatch';
  return null;
}
