import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { download, post } from '../../test/helper.js';

/**
 * A form's records export as the CRF list downloads it (`query` after the `?`, e.g.
 * `format=odm&audit=false`): expected 200, its text.
 */
export async function exportedText(app: FastifyInstance, key: string, formId: number, query: string) {
  const res = await download(app, `/api/v0.1/crf/forms/${formId}/export?${query}`, key);
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** Publishes a form (no note): expected 200. */
export async function publishForm(app: FastifyInstance, key: string, formId: number) {
  const res = await post(app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * A form imported from a file's text (`body` as the import route takes it: format, name, content,
 * formOid…) and published: expected 200 for both, the new form's id.
 */
export async function publishedImport(app: FastifyInstance, key: string, body: Record<string, unknown>) {
  const res = await post(app, '/api/v0.1/crf/forms/import', body, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const formId: number = res.body.data.form.id;
  await publishForm(app, key, formId);
  return formId;
}
