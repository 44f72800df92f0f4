import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, bilingual } from '../http/errors.js';

/**
 * Collection sources' passwords, encrypted with AES-256-GCM. The key comes from
 * COLLECTION_SECRET_KEY; without it (the embedded default), from `collection-secret.key` in the
 * data folder, made once with mode 0600. A stored secret is `v1.<iv>.<tag>.<ciphertext>`
 * (base64url); the password itself is never returned by the API nor written to a log.
 */
export class SecretBox {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly configured: Buffer | undefined,
    private readonly dataDir: string,
  ) {}

  private keyOf(): Promise<Buffer> {
    this.key ??= this.configured ? Promise.resolve(this.configured) : this.keyFile();
    return this.key;
  }

  private async keyFile(): Promise<Buffer> {
    const file = path.join(this.dataDir, 'collection-secret.key');
    try {
      const b = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
      if (b.length === 32) return b;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const b = randomBytes(32);
    await mkdir(this.dataDir, { recursive: true });
    // 'wx': two processes starting at once do not overwrite each other's key.
    await writeFile(file, b.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    });
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  }

  async seal(plain: string): Promise<string> {
    if (!plain) return '';
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', await this.keyOf(), iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv, c.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async open(sealed: string): Promise<string> {
    if (!sealed) return '';
    const [v, iv, tag, body] = sealed.split('.');
    try {
      if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const d = createDecipheriv('aes-256-gcm', await this.keyOf(), Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
    } catch {
      // Another key (COLLECTION_SECRET_KEY changed): the password must be entered again.
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          '无法解密该数据源的密码（加密密钥已更换），请重新填写密码',
          "this source's password cannot be decrypted (the encryption key changed); enter the password again",
        ),
      });
    }
  }
}
