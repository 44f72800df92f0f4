import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { page, pageQueryFields, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';
import { CONCEPT_CODE_MAX, CONCEPT_CODE_PATTERN } from './terminology.js';

/**
 * Coding (编码) and coding QC (编码质控), issue 18: hospital-local terms of the CDR mapped to
 * standard codes. A coding task collects the distinct terms of one kind with their counts and
 * proposes candidates; a coder decides each term; the mapping applies to every CDR row with
 * that text. A second person reviews a sample. Server: apps/server/src/coding.
 */

/** What a task codes: diagnoses, operations, lab items, drugs. */
export const CODING_KINDS = ['disease', 'surgery', 'lab', 'drug'] as const;
export type CodingKind = (typeof CODING_KINDS)[number];

/**
 * Per kind: the code system, and the screens (route names) whose functions the server checks.
 * `task` lists, creates, opens and deletes tasks; `coding` decides terms (disease and surgery have
 * their own coding screen; lab and drug decide on the task screen).
 */
export const CODING_SCREENS = {
  disease: { systemKey: 'ICD10', task: 'DataCleanDiseaseCodingTask', coding: 'DataCleanDiseaseCoding' },
  surgery: { systemKey: 'ICD9CM3', task: 'DataCleanSurgeryCodingTask', coding: 'DataCleanSurgeryCoding' },
  lab: { systemKey: 'LOINC', task: 'DataCleanInspectionCodingTask', coding: 'DataCleanInspectionCodingTask' },
  drug: { systemKey: 'DRUG', task: 'DataCleanDrugCodingTask', coding: 'DataCleanDrugCodingTask' },
} as const satisfies Record<CodingKind, { systemKey: string; task: string; coding: string }>;

/** Why a candidate was proposed, strongest first. */
export const CODING_REASONS = ['mapped', 'exact', 'synonym', 'normalized', 'tokens', 'trigram'] as const;
export type CodingReason = (typeof CODING_REASONS)[number];

/** A term of a task: waiting, given a code, judged to have none. */
export const CODING_ITEM_STATUSES = ['pending', 'coded', 'noCode'] as const;
export type CodingItemStatus = (typeof CODING_ITEM_STATUSES)[number];

/** How a decision was made. */
export const CODING_HOWS = ['suggestion', 'search', 'bulk', 'noCode'] as const;
export type CodingHow = (typeof CODING_HOWS)[number];

/** Where a mapping stands in review. */
export const CODING_REVIEW_STATES = ['unreviewed', 'agreed', 'disputed'] as const;
export type CodingReviewState = (typeof CODING_REVIEW_STATES)[number];

export const CODING_VERDICTS = ['pending', 'agree', 'disagree'] as const;
export type CodingVerdict = (typeof CODING_VERDICTS)[number];

/** Why a mapping needs another look (维护标记). */
export const CODING_MARKER_REASONS = ['retired', 'missing', 'versionChanged'] as const;
export type CodingMarkerReason = (typeof CODING_MARKER_REASONS)[number];

export const CODING_NAME_MAX = 100;
export const CODING_REASON_MAX = 500;
/** Candidates kept per term. */
export const CODING_CANDIDATES = 5;

const id = z.coerce.number().int().positive().max(2_147_483_647);
const code = safeText(CONCEPT_CODE_MAX, { min: 1, required: 'must not be blank' }).regex(
  CONCEPT_CODE_PATTERN,
  'may hold letters, digits and . - _ + / * only, starting with a letter or digit',
);

export const codingKindParams = z.object({ kind: z.enum(CODING_KINDS) });

export const codingCandidate = z.object({
  code: z.string(),
  displayZh: z.string(),
  /** 0..1. */
  score: z.number(),
  reason: z.enum(CODING_REASONS),
  /** The synonym or words that matched, when that is the reason. */
  matched: z.string(),
});
export type CodingCandidate = z.infer<typeof codingCandidate>;

export const codingTaskCreate = z.object({
  name: safeText(CODING_NAME_MAX, { min: 1, required: 'must not be blank' }),
  /** Leave out the terms that already have a mapping (default). */
  onlyUnmapped: z.boolean().default(true),
});
export type CodingTaskCreate = z.input<typeof codingTaskCreate>;

export const codingTask = z.object({
  id: z.number().int(),
  kind: z.enum(CODING_KINDS),
  systemKey: z.string(),
  name: z.string(),
  onlyUnmapped: z.boolean(),
  jobId: z.number().int().nullable(),
  /** The job's status (a task whose job is gone reads succeeded or failed by what it coded). */
  status: jobStatus,
  progress: z.number().int(),
  error: z.string().nullable(),
  terms: z.number().int(),
  rows: z.number().int(),
  pending: z.number().int(),
  coded: z.number().int(),
  noCode: z.number().int(),
  createdByName: z.string(),
  createdAt: timestamp,
});
export type CodingTask = z.infer<typeof codingTask>;
export const codingTaskPage = page(codingTask);

export const codingTaskListQuery = z.object({ ...pageQueryFields(100, 20) });

export const codingItemQuery = z.object({
  ...pageQueryFields(500, 100),
  taskId: id,
  status: z.enum(CODING_ITEM_STATUSES).optional(),
  /** Terms containing this text. */
  q: safeText(100).optional(),
});

export const codingItem = z.object({
  id: z.number().int(),
  taskId: z.number().int(),
  term: z.string(),
  rows: z.number().int(),
  candidates: z.array(codingCandidate),
  status: z.enum(CODING_ITEM_STATUSES),
  code: z.string().nullable(),
  displayZh: z.string(),
  decidedByName: z.string(),
  decidedAt: timestampOrNull,
  /** The review of its mapping: a disputed one comes back with the reviewer's reason. */
  review: z.enum(CODING_REVIEW_STATES).nullable(),
  reviewReason: z.string(),
});
export type CodingItem = z.infer<typeof codingItem>;
export const codingItemPage = page(codingItem);

/** A coder's decision on one term: a code (a candidate or one found by search), "no code", or back to pending. */
export const codingDecision = z
  .object({
    itemId: id,
    action: z.enum(['code', 'noCode', 'reset']),
    /** Required when action is code. */
    code: code.optional(),
    how: z.enum(['suggestion', 'search']).default('suggestion'),
  })
  .superRefine((v, c) => {
    if (v.action === 'code' && !v.code)
      c.addIssue({ code: 'custom', path: ['code'], message: 'is required when action is code' });
  });
export type CodingDecision = z.input<typeof codingDecision>;

export const codingBulkAccept = z.object({
  taskId: id,
  /** Accept the top candidate of every pending term whose score is at least this. */
  minScore: z.number().min(0.5).max(1),
});
export const codingBulkResult = z.object({ accepted: z.number().int() });
export type CodingBulkResult = z.infer<typeof codingBulkResult>;

/** A stored mapping: local term → code, per app and kind. */
export const codingMapping = z.object({
  id: z.number().int(),
  kind: z.enum(CODING_KINDS),
  term: z.string(),
  systemKey: z.string(),
  code: z.string().nullable(),
  displayZh: z.string(),
  systemVersion: z.string(),
  how: z.enum(CODING_HOWS),
  score: z.number().nullable(),
  reason: z.string(),
  taskId: z.number().int().nullable(),
  codedByName: z.string(),
  codedAt: timestamp,
  review: z.enum(CODING_REVIEW_STATES),
  reviewReason: z.string(),
  /** CDR rows with this text now. */
  rows: z.number().int(),
});
export type CodingMapping = z.infer<typeof codingMapping>;
export const codingMappingPage = page(codingMapping);
export const codingMappingQuery = z.object({
  ...pageQueryFields(200, 20),
  q: safeText(100).optional(),
  review: z.enum(CODING_REVIEW_STATES).optional(),
});

/** A CDR row as coded at read time: its original text kept beside the code. */
export const codedRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  originalText: z.string(),
  sourceCode: z.string(),
  systemKey: z.string().nullable(),
  code: z.string().nullable(),
  displayZh: z.string().nullable(),
});
export type CodedRow = z.infer<typeof codedRow>;
export const codedRowPage = page(codedRow);
export const codedRowQuery = z.object({ ...pageQueryFields(200, 20) });

// ---- Coding QC ----

export const codingReviewBatchCreate = z.object({
  kind: z.enum(CODING_KINDS),
  /** Review this task's mappings; null: every task. */
  taskId: id.nullable().default(null),
  /** Review this coder's mappings; null: every coder. */
  coderId: id.nullable().default(null),
  /** Percent of the mappings drawn (100: all). */
  samplePercent: z.number().int().min(1).max(100).default(100),
});
export type CodingReviewBatchCreate = z.input<typeof codingReviewBatchCreate>;

export const codingReviewBatch = z.object({
  id: z.number().int(),
  kind: z.enum(CODING_KINDS),
  taskId: z.number().int().nullable(),
  taskName: z.string(),
  coderName: z.string(),
  samplePercent: z.number().int(),
  size: z.number().int(),
  reviewed: z.number().int(),
  agreed: z.number().int(),
  createdByName: z.string(),
  createdAt: timestamp,
});
export type CodingReviewBatch = z.infer<typeof codingReviewBatch>;
export const codingReviewBatchPage = page(codingReviewBatch);

export const codingReview = z.object({
  id: z.number().int(),
  batchId: z.number().int(),
  mappingId: z.number().int(),
  kind: z.enum(CODING_KINDS),
  term: z.string(),
  code: z.string().nullable(),
  displayZh: z.string(),
  coderName: z.string(),
  verdict: z.enum(CODING_VERDICTS),
  reason: z.string(),
  suggestedCode: z.string().nullable(),
  reviewedByName: z.string(),
  reviewedAt: timestampOrNull,
});
export type CodingReview = z.infer<typeof codingReview>;
export const codingReviewPage = page(codingReview);
export const codingReviewQuery = z.object({
  ...pageQueryFields(500, 100),
  batchId: id.optional(),
  verdict: z.enum(CODING_VERDICTS).optional(),
});

/** A reviewer's verdict; disagreeing needs a reason (it goes back to the coder). */
export const codingVerdict = z
  .object({
    reviewId: id,
    verdict: z.enum(['agree', 'disagree']),
    reason: safeText(CODING_REASON_MAX).default(''),
    suggestedCode: code.nullable().default(null),
  })
  .superRefine((v, c) => {
    if (v.verdict === 'disagree' && !v.reason)
      c.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'must not be blank when disagreeing: say why',
      });
  });
export type CodingVerdictInput = z.input<typeof codingVerdict>;

/** Agreement of reviewed mappings, per coder and task. */
export const codingAgreement = z.object({
  kind: z.enum(CODING_KINDS),
  coderId: z.number().int().nullable(),
  coderName: z.string(),
  taskId: z.number().int().nullable(),
  taskName: z.string(),
  reviewed: z.number().int(),
  agreed: z.number().int(),
  /** agreed / reviewed, 0..1; null before any review. */
  rate: z.number().nullable(),
});
export type CodingAgreement = z.infer<typeof codingAgreement>;
export const codingAgreementList = z.array(codingAgreement);

/** A mapping to revisit: its code was retired or left out, or its system's version changed. */
export const codingMarker = z.object({
  mappingId: z.number().int(),
  kind: z.enum(CODING_KINDS),
  term: z.string(),
  systemKey: z.string(),
  code: z.string(),
  displayZh: z.string(),
  mappedVersion: z.string(),
  currentVersion: z.string(),
  reasons: z.array(z.enum(CODING_MARKER_REASONS)),
  codedByName: z.string(),
  codedAt: timestamp,
});
export type CodingMarker = z.infer<typeof codingMarker>;
export const codingMarkerPage = page(codingMarker);
export const codingMarkerQuery = z.object({ ...pageQueryFields(200, 50) });
export const codingTaskRef = z.object({ taskId: id });
export const codingMarkerConfirm = z.object({ mappingId: id });
