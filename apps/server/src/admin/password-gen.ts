import { randomBytes } from 'node:crypto';

/** A temporary password that passes the policy: random letters and digits plus one of each kind. */
export function generatePasswordLike() {
  return `${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}Aa1!`;
}
