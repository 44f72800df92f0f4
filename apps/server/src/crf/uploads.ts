import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CRF_UPLOAD_MAX_BYTES, type CrfUploaded } from '@crdp/crf';
import { eq } from 'drizzle-orm';
import { audit } from '../audit/audit.js';
import { appRowOf } from '../db/app-rows.js';
import type { Db } from '../db/client.js';
import { crfUploads } from '../db/schema/index.js';
import { notFound } from '../http/errors.js';
import { assertFormInScope, type CrfActor, type CrfScope, invalid } from './actor.js';
import { loadForm } from './forms.js';

export const MAX_UPLOAD_BYTES = CRF_UPLOAD_MAX_BYTES;

/** What an upload item accepts, each with how to recognise its content (never the name alone). */
const TYPES: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  'text/plain': isText,
  'text/csv': isText,
};

function isText(b: Buffer) {
  if (b.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

export const uploadsRoot = (dataDir: string) => path.join(dataDir, 'uploads');

export async function storeUpload(
  db: Db,
  actor: CrfActor,
  dataDir: string,
  formId: number,
  input: { fileName: string; contentType: string; dataBase64: string },
): Promise<CrfUploaded> {
  await loadForm(db, actor, formId);
  const check = TYPES[input.contentType];
  if (!check)
    throw invalid(
      'body.contentType',
      `不支持此类型，请使用以下之一：${Object.keys(TYPES).join('、')}`,
      `not accepted; use one of ${Object.keys(TYPES).join(', ')}`,
    );
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input.dataBase64))
    throw invalid('body.dataBase64', '不是 base64 编码', 'not base64');
  const bytes = Buffer.from(input.dataBase64, 'base64');
  if (bytes.length === 0) throw invalid('body.dataBase64', '文件是空的', 'the file is empty');
  if (bytes.length > MAX_UPLOAD_BYTES)
    throw invalid(
      'body.dataBase64',
      `超过 ${MAX_UPLOAD_BYTES} 字节`,
      `larger than ${MAX_UPLOAD_BYTES} bytes`,
    );
  if (!check(bytes))
    throw invalid(
      'body.contentType',
      `文件内容不是 ${input.contentType}`,
      `the content is not ${input.contentType}`,
    );
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const rel = path.join(
    `app-${actor.appId}`,
    'crf',
    String(formId),
    `${sha256.slice(0, 16)}-${randomBytes(6).toString('hex')}`,
  );
  const file = path.join(uploadsRoot(dataDir), rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes, { mode: 0o600 });
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(crfUploads)
        .values({
          appId: actor.appId,
          formId,
          fileName: input.fileName,
          contentType: input.contentType,
          size: bytes.length,
          sha256,
          storagePath: rel,
          freeKeyId: actor.free?.keyId ?? null,
          createdBy: actor.userId,
        })
        .returning();
      await audit(tx, actor, {
        action: 'crf.upload',
        entity: 'crf_upload',
        entityId: row!.id,
        after: { formId, fileName: input.fileName, size: bytes.length, sha256 },
      });
      return { uploadId: row!.id, name: input.fileName, size: bytes.length, type: input.contentType };
    });
  } catch (e) {
    await rm(file, { force: true });
    throw e;
  }
}

const uploadRow = appRowOf(crfUploads, 'crf_upload');

/** Opens a stored file for a session allowed to read the form's records (a link: its own files). */
export async function openUpload(db: Db, actor: CrfScope, dataDir: string, uploadId: number) {
  const row = await uploadRow(db, actor.appId, uploadId);
  assertFormInScope(actor, row.formId);
  if (actor.free && row.freeKeyId !== actor.free.keyId) throw notFound('crf_upload');
  return { row, stream: createReadStream(path.join(uploadsRoot(dataDir), row.storagePath)) };
}

export async function ownedUploadIds(db: Db, appId: number) {
  const rows = await db.select({ id: crfUploads.id }).from(crfUploads).where(eq(crfUploads.appId, appId));
  return rows.map((r) => ({ uploadId: r.id }));
}
