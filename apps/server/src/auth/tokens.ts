import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newSessionKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this hash of a key is stored; the key itself never reaches the database or the logs. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
