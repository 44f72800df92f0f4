import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema } from '../helpers/iso-date.js';
import { CODING_REVIEW_STATES } from './coding.js';
import { itemList, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';

/*
 * The observation database (/observation-database: transform-task, term-mapping,
 * clinical-activity-dashboard): the CDR in the OMOP/i2b2 shape, one row per patient, concept,
 * time and value (apps/server/src/observation/README.md).
 */

/** Where an observation comes from: visits, diagnoses, lab results, operations, drug orders, vital signs. */
export const OBSERVATION_DOMAINS = ['visit', 'diagnosis', 'lab', 'operation', 'drug', 'vital'] as const;
export type ObservationDomain = (typeof OBSERVATION_DOMAINS)[number];
export const observationDomain = z.enum(OBSERVATION_DOMAINS);

/** The domains whose local terms the coding area maps to a standard code, and its kind for each. */
export const OBSERVATION_CODED_DOMAINS = ['diagnosis', 'lab', 'operation', 'drug'] as const;
export type ObservationCodedDomain = (typeof OBSERVATION_CODED_DOMAINS)[number];
export const OBSERVATION_CODING_KIND = {
  diagnosis: 'disease',
  lab: 'lab',
  operation: 'surgery',
  drug: 'drug',
} as const satisfies Record<ObservationCodedDomain, string>;

export const OBSERVATION_RUN_MODES = ['full', 'incremental'] as const;
export type ObservationRunMode = (typeof OBSERVATION_RUN_MODES)[number];

const int = z.number().int();
const id = z.coerce.number().int().positive().max(2_147_483_647);

export const observationTaskParams = z.object({ taskId: id });
export const observationTaskInput = z.object({
  name: safeText(60, { min: 1, required: 'must not be blank' }),
  domains: z
    .array(observationDomain)
    .min(1, 'choose at least one domain')
    .max(OBSERVATION_DOMAINS.length)
    .refine((d) => new Set(d).size === d.length, 'a domain is listed twice'),
});
export type ObservationTaskInput = z.input<typeof observationTaskInput>;
/** Run a task: incremental (rows new or changed since its watermark) unless `full`. */
export const observationRunInput = z.object({ full: z.boolean().default(false) });
export type ObservationRunInput = z.input<typeof observationRunInput>;

export const observationDomainCounts = z.record(z.string(), z.object({ upserted: int, deleted: int }));
export type ObservationDomainCounts = z.infer<typeof observationDomainCounts>;

export const observationRun = z.object({
  id: int,
  mode: z.enum(OBSERVATION_RUN_MODES),
  jobId: int.nullable(),
  status: jobStatus,
  progress: int,
  error: z.string().nullable(),
  counts: observationDomainCounts.nullable(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type ObservationRun = z.infer<typeof observationRun>;

export const observationTask = z.object({
  id: int,
  name: z.string(),
  domains: z.array(observationDomain),
  /** Whether the task has run (its next run is incremental). */
  hasWatermark: z.boolean(),
  createdByName: z.string(),
  createdAt: timestamp,
  lastRun: observationRun.nullable(),
});
export type ObservationTask = z.infer<typeof observationTask>;
export const observationTaskList = z.object({
  items: z.array(observationTask),
  /** Rows in the app's observation store, per domain. */
  store: z.record(z.string(), int),
});
export type ObservationTaskList = z.infer<typeof observationTaskList>;
export const observationRunList = itemList(observationRun);
export type ObservationRunList = z.infer<typeof observationRunList>;

// ---- term mapping ------------------------------------------------------------------------------

export const observationTermQuery = z.object({
  domain: z.enum(OBSERVATION_CODED_DOMAINS),
  q: safeText(60).default(''),
  mapped: z.enum(['all', 'mapped', 'unmapped']).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type ObservationTermQuery = z.input<typeof observationTermQuery>;
export const observationTerm = z.object({
  term: z.string(),
  localCode: z.string(),
  rows: int,
  patients: int,
  systemKey: z.string(),
  /** The coding area's mapping of the term (null code with `mapped`: judged to have no code). */
  mapped: z.boolean(),
  code: z.string().nullable(),
  displayZh: z.string(),
  review: z.enum(CODING_REVIEW_STATES).nullable(),
  codedByName: z.string(),
});
export type ObservationTerm = z.infer<typeof observationTerm>;
export const observationTermPage = z.object({ total: int, items: z.array(observationTerm) });
export type ObservationTermPage = z.infer<typeof observationTermPage>;
export const observationTermMap = z
  .object({
    domain: z.enum(OBSERVATION_CODED_DOMAINS),
    term: safeText(200, { min: 1, required: 'must not be blank' }),
    action: z.enum(['code', 'noCode', 'reset']),
    code: safeText(40).optional(),
  })
  .refine((v) => v.action !== 'code' || !!v.code, { message: 'a code is required', path: ['code'] });
export type ObservationTermMap = z.input<typeof observationTermMap>;

// ---- clinical-activity dashboard ---------------------------------------------------------------

const isoDate = isoDateSchema();
export const observationActivityQuery = z
  .object({
    from: isoDate,
    to: isoDate,
    department: safeText(60).default(''),
  })
  .refine((v) => v.from <= v.to, { message: 'must not be after "to"', path: ['from'] })
  .refine((v) => Date.parse(v.to) - Date.parse(v.from) <= 731 * 86_400_000, {
    message: 'at most two years',
    path: ['to'],
  });
export type ObservationActivityQuery = z.input<typeof observationActivityQuery>;
const activityCounts = { admissions: int, labs: int, operations: int };
export const observationActivity = z.object({
  days: z.array(z.object({ date: z.string(), ...activityCounts })),
  byDepartment: z.array(z.object({ department: z.string(), ...activityCounts })),
  totals: z.object({ ...activityCounts, patients: int }),
  /** Every department of the store, for the filter. */
  departments: z.array(z.string()),
  /** The last time a run changed the store (null: never). */
  lastTransformAt: timestampOrNull,
});
export type ObservationActivity = z.infer<typeof observationActivity>;
