import { refuseControlChars } from '@crdp/core';
import { z } from 'zod';
import { schemaMessage } from '../http/validation-messages.js';

/**
 * Text of at most `max` UTF-16 units (zod counts code points, so astral characters would pass
 * at twice the length), trimmed; `min` counts what remains. No control characters or lone
 * surrogates; texts of 500 units or more are free text, where tab and line breaks are allowed.
 */
export const trimmed = (max: number, min = 0) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, { message: `must be at most ${max} characters` })
    .superRefine(refuseControlChars({ multiline: max >= 500 }))
    .refine((s) => s.trim().length >= min, {
      message: schemaMessage(`至少 ${min} 个非空白字符`, `must have at least ${min} non-blank character(s)`),
    })
    .transform((s) => s.trim());

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

const itemKey = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => s.length <= 200, 'must be at most 200 characters');
export const answersSchema = z.record(itemKey, z.unknown());
export const methodsSchema = z.record(itemKey, z.enum(['machine', 'manual']));

export const subjectSchema = {
  patientId: bigId.optional(),
  subjectCode: trimmed(100, 1).optional(),
};

export const reasonSchema = trimmed(1000);
