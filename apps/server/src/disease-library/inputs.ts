import { cohortCriteriaSchema, isoDateSchema } from '@crdp/core';
import { z } from 'zod';

/** Shapes of the disease-library calls. */
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const bigId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const itemKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,79}$/, 'an item key of the CRF');
const name = z.string().trim().min(1).max(100);

export const FILING_RULES = ['push', 'firstVisit', 'firstDiagnosis'] as const;
export type FilingRule = (typeof FILING_RULES)[number];

export const libraryParams = z.object({ id: serialId });
export const libraryPatientParams = z.object({ id: serialId, patientId: bigId });
export const templateParams = z.object({ templateId: serialId });
export const exportParams = z.object({ jobId: bigId });

export const sourceRulesSchema = z.record(itemKey, z.string().trim().min(1).max(500));

export const libraryInput = z.object({
  name,
  description: z.string().trim().max(1000).default(''),
  diseaseId: serialId.nullable().optional(),
  /** An existing form, or a common template whose form and rules the library starts from. */
  crfFormId: serialId.optional(),
  templateId: serialId.optional(),
  criteria: cohortCriteriaSchema.default({ match: 'all', inclusion: [], exclusion: [] }),
  sourceRules: sourceRulesSchema.default({}),
  searchFields: z.array(itemKey).max(200).default([]),
  filingRule: z.enum(FILING_RULES).default('push'),
  pushEveryHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 90)
    .default(0),
});
export type LibraryInput = z.infer<typeof libraryInput>;

export const libraryPatch = z
  .object({
    name,
    description: z.string().trim().max(1000),
    diseaseId: serialId.nullable(),
    criteria: cohortCriteriaSchema,
    sourceRules: sourceRulesSchema,
    searchFields: z.array(itemKey).max(200),
    filingRule: z.enum(FILING_RULES),
    pushEveryHours: z
      .number()
      .int()
      .min(0)
      .max(24 * 90),
    status: z.enum(['enabled', 'disabled']),
  })
  .partial();
export type LibraryPatch = z.infer<typeof libraryPatch>;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
  keyword: z.string().trim().max(100).optional(),
});

/** The patient-list call of spec 000/001: the previous list request (page, size, filters). */
export const patientListInput = z.object({
  library_id: serialId,
  page: z.number().int().min(1).max(100_000).default(1),
  size: z.number().int().min(1).max(200).default(20),
  filters: z
    .object({
      name: z.string().trim().max(100).optional(),
      mrn: z.string().trim().max(100).optional(),
      gender: z.number().int().min(0).max(3).optional(),
      filingFrom: isoDateSchema().optional(),
      filingTo: isoDateSchema().optional(),
    })
    .default({}),
});
export type PatientListInput = z.infer<typeof patientListInput>;

/** The computed-indicator template call: template_str and template_params. */
export const computeInput = z.object({
  template_str: z.string().min(1).max(500),
  template_params: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.union([z.string().max(200), z.number()]))
    .default({}),
  library_id: serialId.optional(),
  patient_ids: z.array(bigId).max(50).optional(),
});

export const recordSaveInput = z.object({
  answers: z.record(itemKey, z.unknown()),
  revision: z.number().int().min(1),
  submit: z.boolean().default(false),
  reason: z.string().trim().max(1000).optional(),
});

export const unobtainableInput = z.object({
  itemKey,
  /** false clears the mark. */
  unobtainable: z.boolean().default(true),
  reason: z.string().trim().max(500).default(''),
});

export const fillLogQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(20),
  patientId: bigId.optional(),
  itemKey: itemKey.optional(),
  outcome: z.enum(['filled', 'unchanged', 'keptManual', 'noData', 'unobtainable', 'invalid']).optional(),
});

export const SEARCH_OPS = ['=', '!=', '>', '>=', '<', '<=', 'contains', 'empty', 'notEmpty'] as const;
export const searchInput = z.object({
  conditions: z
    .array(
      z.object({
        itemKey,
        op: z.enum(SEARCH_OPS),
        value: z.union([z.string().max(200), z.number()]).optional(),
      }),
    )
    .max(20)
    .default([]),
  match: z.enum(['all', 'any']).default('all'),
  page: z.number().int().min(1).max(100_000).default(1),
  size: z.number().int().min(1).max(200).default(20),
});
export type SearchInput = z.infer<typeof searchInput>;

export const statisticsInput = z.object({
  itemKeys: z.array(itemKey).min(1).max(50),
  /** Compare two groups: the patients whose item equals `a` against those whose item equals `b`. */
  compare: z
    .object({ itemKey, a: z.union([z.string(), z.number()]), b: z.union([z.string(), z.number()]) })
    .optional(),
});

export const exportInput = z.object({
  itemKeys: z.array(itemKey).min(1).max(500),
  format: z.enum(['csv', 'xlsx']).default('csv'),
});

export const templateInput = z.object({
  name,
  description: z.string().trim().max(1000).default(''),
  crfFormId: serialId,
  sourceRules: sourceRulesSchema.default({}),
});
export const templatePatch = templateInput.partial();
