import type { PasswordPublicKey } from '@crdp/core';

/**
 * Encrypts a password for `ChangePwd` with the server's public key: RSA-OAEP with SHA-256,
 * base64 of the ciphertext. Web Crypto needs a secure context (HTTPS or localhost).
 */
export async function encryptPassword(key: PasswordPublicKey, text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('insecure-context');
  const cryptoKey = await subtle.importKey(
    'jwk',
    { ...key.jwk, alg: 'RSA-OAEP-256', ext: true, key_ops: ['encrypt'] },
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, cryptoKey, new TextEncoder().encode(text));
  let binary = '';
  for (const b of new Uint8Array(cipher)) binary += String.fromCharCode(b);
  return btoa(binary);
}
