import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
} from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { serverSecrets } from '../db/schema/index.js';

/**
 * The key pair that carries passwords from the browser (spec 000 section 7: oldPwd and newPwd
 * travel encrypted). Made at first start and kept in the database, so every server process
 * shares it. The browser encrypts with Web Crypto RSA-OAEP (SHA-256).
 */
export interface PasswordKey {
  jwk: { kty: 'RSA'; n: string; e: string; alg: 'RSA-OAEP-256'; use: 'enc' };
  modulus: string;
  exponent: number;
  decrypt(base64: string): string | null;
}

const NAME = 'password-transport-rsa';

export async function loadPasswordKey(db: Db): Promise<PasswordKey> {
  let [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, NAME));
  if (!row) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 65537 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await db.insert(serverSecrets).values({ name: NAME, value: { pem } }).onConflictDoNothing();
    [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, NAME));
  }
  const pem = (row!.value as { pem: string }).pem;
  const privateKey = createPrivateKey(pem);
  const pub = createPublicKey(privateKey).export({ format: 'jwk' }) as { n: string; e: string };
  return {
    jwk: { kty: 'RSA', n: pub.n, e: pub.e, alg: 'RSA-OAEP-256', use: 'enc' },
    modulus: Buffer.from(pub.n, 'base64url').toString('hex'),
    exponent: 65537,
    decrypt(base64: string) {
      try {
        const buf = Buffer.from(base64, 'base64');
        if (buf.length === 0 || buf.length > 1024) return null;
        return privateDecrypt(
          { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          buf,
        ).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
