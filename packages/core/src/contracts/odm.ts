import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema } from '../helpers/iso-date.js';
import { itemList, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';
import { OBSERVATION_DOMAINS, observationDomain } from './observation.js';

/*
 * ODM generation (/odm-generate-management): a topic is a research subject (科研课题) chosen for
 * CDISC ODM 1.3.2 files; its clinical data (observation domains, dates) and data elements (each
 * bound to an observation concept) say what a file carries; each file is made by a job of kind
 * `odm.generate`, as many at once as the concurrency settings allow (apps/server/src/odm/README.md).
 */

const int = z.number().int();
const id = z.coerce.number().int().positive().max(2_147_483_647);
const isoDate = isoDateSchema();

/** The job kind of a generation; its concurrency and batch size are the app's settings. */
export const ODM_JOB_KIND = 'odm.generate';
export const ODM_CONCURRENCY_MAX = 8;
export const ODM_BATCH_MIN = 10;
export const ODM_BATCH_MAX = 5000;
/** Without settings: one generation at a time per app, 200 patients a batch. */
export const ODM_DEFAULTS = { maxRunning: 1, batchSize: 200 } as const;

export const odmTopicParams = z.object({ topicId: id });
export const odmGenerationParams = z.object({ generationId: id });
export const odmTopicInput = z.object({ subjectId: id });
export type OdmTopicInput = z.input<typeof odmTopicInput>;

/** Which observation the value of a data element is taken from, for each patient. */
export const ODM_PICKS = ['first', 'last'] as const;
export const odmElementBinding = z.object({
  elementId: z.number().int().positive().max(2_147_483_647),
  domain: observationDomain,
  concept: safeText(200, { min: 1, required: 'must not be blank' }),
  pick: z.enum(ODM_PICKS).default('last'),
});
export type OdmElementBinding = z.output<typeof odmElementBinding>;

export const odmClinicalDataInput = z
  .object({
    domains: z
      .array(observationDomain)
      .max(OBSERVATION_DOMAINS.length)
      .refine((d) => new Set(d).size === d.length, 'a domain is listed twice'),
    fromDate: isoDate.nullable().default(null),
    toDate: isoDate.nullable().default(null),
  })
  .refine((v) => !v.fromDate || !v.toDate || v.fromDate <= v.toDate, {
    message: 'must not be after "toDate"',
    path: ['fromDate'],
  });
export type OdmClinicalDataInput = z.input<typeof odmClinicalDataInput>;
export const odmElementsInput = z.object({
  elements: z
    .array(odmElementBinding)
    .max(200)
    .refine((e) => new Set(e.map((x) => x.elementId)).size === e.length, 'an element is listed twice'),
});
export type OdmElementsInput = z.input<typeof odmElementsInput>;

export const odmGeneration = z.object({
  id: int,
  topicId: int,
  jobId: int.nullable(),
  status: jobStatus,
  progress: int,
  error: z.string().nullable(),
  fileName: z.string(),
  /** Once it succeeded: size, subjects and ItemData written. */
  bytes: int.nullable(),
  subjects: int.nullable(),
  items: int.nullable(),
  createdByName: z.string(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type OdmGeneration = z.infer<typeof odmGeneration>;

export const odmTopic = z.object({
  id: int,
  subjectId: int,
  subjectName: z.string(),
  /** Patients recruited into the subject: the SubjectData of a file. */
  patients: int,
  domains: z.array(observationDomain),
  fromDate: z.string().nullable(),
  toDate: z.string().nullable(),
  elements: z.array(odmElementBinding.extend({ code: z.string(), name: z.string() })),
  createdAt: timestamp,
  lastGeneration: odmGeneration.nullable(),
});
export type OdmTopic = z.infer<typeof odmTopic>;
export const odmTopicList = itemList(odmTopic);
export type OdmTopicList = z.infer<typeof odmTopicList>;
export const odmGenerationList = itemList(odmGeneration);
export type OdmGenerationList = z.infer<typeof odmGenerationList>;

/** Research subjects not yet topics, to add one. */
export const odmSubjectChoices = z.object({
  items: z.array(z.object({ id: int, name: z.string(), patients: int })),
});
export type OdmSubjectChoices = z.infer<typeof odmSubjectChoices>;

/** The app's data elements (current versions), to choose from. */
export const odmElementChoices = z.object({
  items: z.array(
    z.object({ id: int, code: z.string(), name: z.string(), type: z.string(), unit: z.string() }),
  ),
});
export type OdmElementChoices = z.infer<typeof odmElementChoices>;

/** The concepts of a domain in the observation store among a topic's patients, to bind an element. */
export const odmConceptQuery = z.object({ domain: observationDomain });
export const odmConceptList = z.object({
  items: z.array(z.object({ concept: z.string(), rows: int, patients: int })),
});
export type OdmConceptList = z.infer<typeof odmConceptList>;

export const odmConcurrencyInput = z.object({
  maxRunning: z.number().int().min(1).max(ODM_CONCURRENCY_MAX),
  batchSize: z.number().int().min(ODM_BATCH_MIN).max(ODM_BATCH_MAX),
});
export type OdmConcurrencyInput = z.input<typeof odmConcurrencyInput>;
export const odmConcurrency = odmConcurrencyInput.extend({
  /** Generation jobs of the app running and waiting now. */
  running: int,
  queued: int,
  updatedAt: timestampOrNull,
});
export type OdmConcurrency = z.infer<typeof odmConcurrency>;
