import { z } from 'zod';

/** Shapes of the CRF calls, shared by the route files. */
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const bigId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const formParams = z.object({ formId: serialId });
export const recordParams = z.object({ recordId: bigId });
export const versionParams = z.object({ formId: serialId, version: serialId });
export const uploadParams = z.object({ uploadId: bigId });

export const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(500).default(20),
};

const itemKey = z.string().min(1).max(200);
export const answersSchema = z.record(itemKey, z.unknown());
export const methodsSchema = z.record(itemKey, z.enum(['machine', 'manual']));

export const subjectSchema = {
  patientId: bigId.optional(),
  subjectCode: z.string().max(100).trim().min(1).optional(),
};

export const reasonSchema = z.string().max(1000).trim();
