import { z } from 'zod';

/**
 * Path parameters of the CRF calls. The bodies, queries and answers are the CRF contract of
 * @crdp/crf (packages/crf/src/contracts.ts), which the web uses too.
 */
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const bigId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const formParams = z.object({ formId: serialId });
export const recordParams = z.object({ recordId: bigId });
export const versionParams = z.object({ formId: serialId, version: serialId });
export const uploadParams = z.object({ uploadId: bigId });

/** The REST envelope of a CRF answer. */
export const ok = <T>(data: T) => ({ code: 200 as const, data, message: 'ok' });
