import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, pageQueryFields, patchOf, stamps, timestamp, timestampOrNull } from './common.js';

/**
 * T0 events (T0 事件, `/api/v0.1/t0-events`, DataLakeT0Event): a patient's index date defined by a
 * rule over the clinical data, materialised per patient by a job, so disease libraries, research
 * datasets and charts can count days from it. Server: apps/server/src/t0; web:
 * apps/web/src/pages/data-lake/T0Events.tsx.
 */

export const T0_NAME_MAX = 50;
export const T0_DESCRIPTION_MAX = 200;
export const T0_COMPARATORS = ['>', '>=', '<', '<='] as const;
export type T0Comparator = (typeof T0_COMPARATORS)[number];
export const T0_RULE_KINDS = ['firstDiagnosis', 'firstOperation', 'firstLab', 'firstAdmission'] as const;
export type T0RuleKind = (typeof T0_RULE_KINDS)[number];

const code = (max: number) =>
  safeText(max, { min: 1, required: 'must not be blank' }).regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    'letters, digits and . _ - only',
  );

/** The rule of a T0: the first time something happened to the patient. */
export const t0Rule = z.discriminatedUnion('kind', [
  /** The first diagnosis whose ICD-10 code starts with `icd10Prefix` (B18.1, C22). */
  z.object({ kind: z.literal('firstDiagnosis'), icd10Prefix: code(20) }),
  /** The first operation whose name contains `keyword` or whose code starts with it. */
  z.object({
    kind: z.literal('firstOperation'),
    keyword: safeText(50, { min: 1, required: 'must not be blank' }),
  }),
  /** The first lab result of `itemCode` whose value compares to `threshold` (ALT > 80). */
  z.object({
    kind: z.literal('firstLab'),
    itemCode: code(30),
    comparator: z.enum(T0_COMPARATORS),
    threshold: z.number().finite(),
  }),
  /** The first inpatient admission, in one department when `department` is given. */
  z.object({ kind: z.literal('firstAdmission'), department: safeText(60).default('') }),
]);
export type T0Rule = z.infer<typeof t0Rule>;
export type T0RuleBody = z.input<typeof t0Rule>;

export const t0EventParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const t0EventCreate = z.object({
  name: safeText(T0_NAME_MAX, { min: 1, required: 'must not be blank' }),
  description: safeText(T0_DESCRIPTION_MAX).default(''),
  rule: t0Rule,
});
export type T0EventCreate = z.input<typeof t0EventCreate>;
export const t0EventPatch = patchOf(t0EventCreate);
export type T0EventPatch = z.input<typeof t0EventPatch>;

/** `new`: never worked out; `stale`: the rule changed since; `queued`/`running`; `ready`; `failed`. */
export const T0_STATES = ['new', 'stale', 'queued', 'running', 'ready', 'failed'] as const;
export type T0State = (typeof T0_STATES)[number];

export const t0Event = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  rule: t0Rule,
  state: z.enum(T0_STATES),
  /** Patients with a T0 after the last run. */
  patients: z.number().int(),
  materializedAt: timestampOrNull,
  /** The job of the last run, for its progress. */
  jobId: z.number().int().nullable(),
  ...stamps,
});
export type T0Event = z.infer<typeof t0Event>;
export const t0EventList = itemList(t0Event);
export type T0EventList = z.infer<typeof t0EventList>;

export const t0PatientQuery = z.object({ ...pageQueryFields(200, 20) });
export type T0PatientQuery = z.input<typeof t0PatientQuery>;

/** One patient's T0: when, and the row it came from. */
export const t0Patient = z.object({
  patientId: z.number().int(),
  mrn: z.string(),
  t0: timestamp,
  sourceTable: z.string(),
  sourceId: z.number().int(),
});
export type T0Patient = z.infer<typeof t0Patient>;
export const t0PatientPage = z.object({
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  items: z.array(t0Patient),
  /** Patients by the year of their T0, oldest first. */
  byYear: z.array(z.object({ year: z.string(), n: z.number().int() })),
});
export type T0PatientPage = z.infer<typeof t0PatientPage>;

export const t0RunStarted = z.object({ jobId: z.number().int() });
export type T0RunStarted = z.infer<typeof t0RunStarted>;
