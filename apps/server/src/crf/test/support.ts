import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { download } from '../../test/helper.js';

/**
 * A form's records export as the CRF list downloads it (`query` after the `?`, e.g.
 * `format=odm&audit=false`): expected 200, its text.
 */
export async function exportedText(app: FastifyInstance, key: string, formId: number, query: string) {
  const res = await download(app, `/api/v0.1/crf/forms/${formId}/export?${query}`, key);
  expect(res.statusCode).toBe(200);
  return res.body;
}
