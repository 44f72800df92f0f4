import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema } from '../helpers/iso-date.js';

/** Text of at most `max` UTF-16 units after trimming (zod counts characters; storage and the harness count units), without control characters. */
const text = (max: number, min = 0) => safeText(max, { min });

/**
 * The condition builder shared by research subjects and disease libraries: inclusion and
 * exclusion conditions over a patient's clinical record. Pure data, validated here; the
 * server compiles it to SQL (`apps/server/src/cohort/`).
 */
const isoDate = isoDateSchema();
const code = text(40, 1);
const dateWindow = { from: isoDate.optional(), to: isoDate.optional() };

export const cohortConditionSchema = z.discriminatedUnion('kind', [
  /** A diagnosis whose ICD-10 code starts with one of the codes (I10 matches I10.x). */
  z.object({ kind: z.literal('diagnosis'), codes: z.array(code).min(1).max(50), ...dateWindow }),
  /** A lab result of the item with a numeric value in [min, max]. */
  z
    .object({
      kind: z.literal('lab'),
      itemCode: code,
      min: z.number().finite().optional(),
      max: z.number().finite().optional(),
      ...dateWindow,
    })
    .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, {
      message: 'min must not exceed max',
      path: ['min'],
    }),
  /** Age in whole years today, in [min, max]. */
  z
    .object({
      kind: z.literal('age'),
      min: z.number().int().min(0).max(150).optional(),
      max: z.number().int().min(0).max(150).optional(),
    })
    .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, {
      message: 'min must not exceed max',
      path: ['min'],
    }),
  /** Gender codes of spec 001: 0 unknown, 1 male, 2 female, 3 other. */
  z.object({ kind: z.literal('gender'), codes: z.array(z.number().int().min(0).max(3)).min(1).max(4) }),
  /** A visit of one of the kinds, optionally in a date window. */
  z.object({
    kind: z.literal('visit'),
    visitKinds: z
      .array(z.enum(['outpatient', 'inpatient', 'emergency']))
      .min(1)
      .max(3),
    ...dateWindow,
  }),
  /** A clinical document whose text contains the phrase. */
  z.object({ kind: z.literal('documentText'), text: text(200, 1), ...dateWindow }),
]);
export type CohortCondition = z.infer<typeof cohortConditionSchema>;
export type CohortConditionKind = CohortCondition['kind'];

export const cohortCriteriaSchema = z.object({
  /** all: a patient must meet every inclusion condition; any: at least one. */
  match: z.enum(['all', 'any']).default('all'),
  inclusion: z.array(cohortConditionSchema).max(30).default([]),
  /** A patient meeting any exclusion condition is left out. */
  exclusion: z.array(cohortConditionSchema).max(30).default([]),
});
export type CohortCriteria = z.infer<typeof cohortCriteriaSchema>;

export const COHORT_CONDITION_KINDS: readonly CohortConditionKind[] = [
  'diagnosis',
  'lab',
  'age',
  'gender',
  'visit',
  'documentText',
];

export const emptyCriteria = (): CohortCriteria => ({ match: 'all', inclusion: [], exclusion: [] });
