import { cohortCriteriaSchema, safeText, TASK_STATUSES } from '@crdp/core';
import { z } from 'zod';
import { schemaMessage } from '../http/validation-messages.js';

/**
 * Text of at most `max` UTF-16 units after trimming (zod counts characters; storage and the
 * harness count units), without control characters or lone surrogates; texts of 500 units or
 * more are free text, where tab and line breaks are allowed.
 */
const text = (max: number, min = 0) => safeText(max, { min, multiline: max >= 500 });

/** Shapes of the research-subject calls. */
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine(
    (d) => {
      const t = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
    },
    schemaMessage('不是真实存在的日期', 'not a calendar date'),
  );
const varKey = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/, 'letters, digits and _ starting with a letter, at most 40');
const label = text(100, 1);
const icd = text(40, 1);

export const subjectParams = z.object({ id: serialId });
export const typeParams = z.object({ code: z.string().regex(/^[a-zA-Z][a-zA-Z0-9-]{0,39}$/) });
export const datasetParams = z.object({ id: serialId, datasetId: serialId });

export const PROJECT_ROLES = ['pi', 'coordinator', 'investigator', 'statistician', 'dataManager'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** One column of the analysis dataset, read from the CDR for each enrolled patient. */
export const variableSchema = z.discriminatedUnion('source', [
  z.object({ key: varKey, label, source: z.literal('age') }),
  z.object({ key: varKey, label, source: z.literal('gender') }),
  z.object({
    key: varKey,
    label,
    source: z.literal('lab'),
    itemCode: text(40, 1),
    aggregate: z.enum(['first', 'last', 'min', 'max', 'mean']).default('last'),
  }),
  /** 1 when the patient has a diagnosis starting with one of the codes, else 0. */
  z.object({ key: varKey, label, source: z.literal('diagnosis'), codes: z.array(icd).min(1).max(20) }),
  z.object({ key: varKey, label, source: z.literal('visitCount') }),
  /**
   * Time to event: `<key>_time` in days from the first visit to the first diagnosis of one of the
   * codes (event 1), or to the last record (event 0); `<key>_event`.
   */
  z.object({ key: varKey, label, source: z.literal('survival'), codes: z.array(icd).min(1).max(20) }),
]);
export type VariableDef = z.infer<typeof variableSchema>;

/** A column computed from others once the row is read. */
export const derivedSchema = z.discriminatedUnion('op', [
  z.object({ key: varKey, label, op: z.literal('threshold'), from: varKey, value: z.number().finite() }),
  z.object({ key: varKey, label, op: z.literal('log'), from: varKey }),
  z.object({ key: varKey, label, op: z.literal('ratio'), from: varKey, over: varKey }),
]);
export type DerivedDef = z.infer<typeof derivedSchema>;

const memberSchema = z.object({ userId: serialId, role: z.enum(PROJECT_ROLES) });

/** The whole member list of a subject at once (the members panel); the PI may change hands. */
export const membersInput = z.object({
  piUserId: serialId.optional(),
  members: z.array(memberSchema).max(100),
});
export type MembersInput = z.infer<typeof membersInput>;

export const subjectInput = z.object({
  name: text(200, 1),
  typeCode: z
    .string()
    .regex(/^[a-zA-Z][a-zA-Z0-9-]{0,39}$/, 'a project type code')
    .default('cohort'),
  description: text(5000).default(''),
  piUserId: serialId.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  targetSize: z.number().int().min(0).max(1_000_000).default(0),
  criteria: cohortCriteriaSchema.default({ match: 'all', inclusion: [], exclusion: [] }),
  variables: z.array(variableSchema).max(100).default([]),
  crfFormId: serialId.optional(),
  centers: z.array(text(100, 1)).max(50).default([]),
  members: z.array(memberSchema).max(100).default([]),
});
export type SubjectInput = z.infer<typeof subjectInput>;

export const subjectPatch = subjectInput.partial().extend({
  crfFormId: serialId.nullable().optional(),
});
export type SubjectPatch = z.infer<typeof subjectPatch>;

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(10),
  keyword: text(100).optional(),
  status: z.enum(TASK_STATUSES).optional(),
  typeCode: z.string().max(40).optional(),
  memberId: serialId.optional(),
});

export const moveInput = z.object({
  to: z.enum(TASK_STATUSES),
  reason: text(1000).default(''),
});

export const recruitInput = z.object({
  /** criteria: everyone the subject's criteria match; patients: exactly these ids of the app. */
  mode: z.enum(['criteria', 'patients']),
  patientIds: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(5000).default([]),
});

export const datasetInput = z.object({
  name: text(200, 1),
  /** Keys of the subject's variables to include; empty = all. */
  variables: z.array(varKey).max(100).default([]),
  derived: z.array(derivedSchema).max(50).default([]),
  /** Item keys of the subject's CRF form: each becomes a column read from the patient's latest submitted record. */
  crfItems: z.array(text(100, 1)).max(100).default([]),
});

export const typeInput = z.object({
  code: z.string().regex(/^[a-z][a-zA-Z0-9-]{0,39}$/, 'a lower-case letter, then letters, digits and -'),
  name: text(100, 1),
  description: text(500).default(''),
  sortOrder: z.number().int().min(0).max(10_000).default(0),
});

export const analysisInput = z.object({
  datasetId: serialId,
  params: z.discriminatedUnion('method', [
    z.object({ method: z.literal('descriptive'), variables: z.array(varKey).min(1).max(50) }),
    z.object({
      method: z.literal('groupCompare'),
      test: z.enum(['ttest', 'mannWhitney', 'chiSquare']),
      outcome: varKey,
      group: varKey,
    }),
    z.object({ method: z.literal('linear'), outcome: varKey, predictors: z.array(varKey).min(1).max(20) }),
    z.object({ method: z.literal('logistic'), outcome: varKey, predictors: z.array(varKey).min(1).max(20) }),
    z.object({ method: z.literal('kaplanMeier'), time: varKey, event: varKey, group: varKey.optional() }),
  ]),
});
export type AnalysisParams = z.infer<typeof analysisInput>['params'];
