import { z } from 'zod';
import { CLEANING_SECTIONS } from '../cleaning/sections.js';
import { safeText } from '../helpers/control-chars.js';
import { itemList, page, pageQueryFields, timestamp, timestampOrNull } from './common.js';

/**
 * Data cleaning (数据清洗, issue 18): rules that turn clinical text into structured values
 * (`/api/v0.1/cleaning`). The extraction itself is pure and shared (packages/core/src/cleaning);
 * the server is apps/server/src/cleaning; the screens are apps/web/src/pages/data-clean.
 */

export const CLEANING_RULE_NAME_MAX = 60;
export const CLEANING_PATTERN_MAX = 300;
export const CLEANING_TEXT_MAX = 20_000;
export const CLEANING_SENTENCES_MAX = 200;

/**
 * Text of at most `max` UTF-16 units (zod's max counts code points; positions and storage count
 * units), kept as typed (a pattern's or a note's spaces matter).
 */
const units = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((v) => v.length <= max, { message: `must be at most ${max} characters` });

const code = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, 'a code is letters, digits, _ . - and starts with a letter');
const groupName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,30}$/, 'a group name is letters, digits and _, starting with a letter');

/** One value a rule writes: its code and name (收缩压), the unit it is stored in and its plausible range. */
export const cleaningOutput = z
  .object({
    code,
    name: safeText(40, { min: 1, required: 'must not be blank' }),
    unit: safeText(20).default(''),
    min: z.number().finite().nullable().default(null),
    max: z.number().finite().nullable().default(null),
    /** Regex rules: the named group holding the value. */
    group: groupName.optional(),
  })
  .refine((o) => o.min === null || o.max === null || o.min <= o.max, {
    message: 'min must not be above max',
    path: ['max'],
  });
export type CleaningOutput = z.infer<typeof cleaningOutput>;

const sections = z.array(z.enum(CLEANING_SECTIONS)).max(CLEANING_SECTIONS.length).default([]);

export const regexRuleDefinition = z.object({
  kind: z.literal('regex'),
  pattern: units(CLEANING_PATTERN_MAX, 1),
  ignoreCase: z.boolean().default(true),
  /** The named group holding the unit (optional: the output's unit is then implied). */
  unitGroup: groupName.nullable().default(null),
  outputs: z.array(cleaningOutput).min(1).max(6),
  sections,
});

export const SYNTACTIC_VALUE_KINDS = ['number', 'pair', 'presence'] as const;
export type SyntacticValueKind = (typeof SYNTACTIC_VALUE_KINDS)[number];

export const syntacticRuleDefinition = z.object({
  kind: z.literal('syntactic'),
  /** Trigger words (血压, BP); a Latin trigger matches only as a whole word. */
  triggers: z
    .array(safeText(30, { min: 1, required: 'must not be blank' }))
    .min(1)
    .max(20),
  /** How many characters after the trigger the value may start (within the clause). */
  window: z.number().int().min(1).max(40).default(12),
  /** number: one value; pair: two values with a slash (120/80); presence: the finding itself (1, or 0 when negated). */
  value: z.enum(SYNTACTIC_VALUE_KINDS),
  /** A value without a unit is not taken (for one-letter triggers such as T or P). */
  requireUnit: z.boolean().default(false),
  outputs: z.array(cleaningOutput).min(1).max(2),
  sections,
});

export const cleaningRuleDefinition = z.discriminatedUnion('kind', [
  regexRuleDefinition,
  syntacticRuleDefinition,
]);
export type CleaningRuleDefinition = z.output<typeof cleaningRuleDefinition>;
export type CleaningRuleDefinitionInput = z.input<typeof cleaningRuleDefinition>;
export type CleaningRuleKind = CleaningRuleDefinition['kind'];

/** A rule as lists and tests name it: `builtin:<key>` or `rule:<id>`. */
export const cleaningRuleRef = z
  .string()
  .regex(/^(builtin:[a-z0-9_]{1,40}|rule:\d{1,9})$/, 'a rule is builtin:<key> or rule:<id>');

export const cleaningRule = z.object({
  ref: z.string(),
  id: z.number().int().nullable(),
  builtinKey: z.string(),
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  definition: cleaningRuleDefinition,
  updatedAt: timestampOrNull,
});
export type CleaningRule = z.infer<typeof cleaningRule>;

export const cleaningRuleInput = z.object({
  name: safeText(CLEANING_RULE_NAME_MAX, { min: 1, required: 'must not be blank' }),
  description: safeText(500, { multiline: true }).default(''),
  definition: cleaningRuleDefinition,
});
export type CleaningRuleInput = z.input<typeof cleaningRuleInput>;
export const cleaningRuleParams = z.object({ ruleId: z.coerce.number().int().positive().max(2_147_483_647) });
export const cleaningEnabledBody = z.object({ enabled: z.boolean() });

/** Which rules run: refs, or a draft definition being written (reg_text, syntactic-rules try it before saving). */
const ruleChoice = {
  rules: z.array(cleaningRuleRef).max(100).default([]),
  draft: cleaningRuleInput.nullable().default(null),
};

export const QUALIFIER_LATERALITY = ['left', 'right', 'both'] as const;
export const CLEANING_FAULTS = ['out_of_range', 'unknown_unit', 'bad_number'] as const;
export type CleaningFault = (typeof CLEANING_FAULTS)[number];
export const SPAN_ROLES = [
  'match',
  'trigger',
  'value',
  'unit',
  'group',
  'negation',
  'uncertainty',
  'time',
  'laterality',
] as const;
export type SpanRole = (typeof SPAN_ROLES)[number];

export const extractionSpan = z.object({
  start: z.number().int(),
  end: z.number().int(),
  role: z.enum(SPAN_ROLES),
  /** The group name for role `group`. */
  label: z.string().default(''),
});
export type ExtractionSpan = z.infer<typeof extractionSpan>;

/** One value a rule read, with everything that says why (spans are positions in the text tested). */
export const extraction = z.object({
  ruleRef: z.string(),
  ruleName: z.string(),
  code: z.string(),
  name: z.string(),
  value: z.number().nullable(),
  valueHigh: z.number().nullable(),
  comparator: z.enum(['<', '>', '<=', '>=']).nullable(),
  unit: z.string(),
  raw: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  sentenceStart: z.number().int(),
  sentenceEnd: z.number().int(),
  section: z.enum(CLEANING_SECTIONS),
  negated: z.boolean(),
  uncertain: z.boolean(),
  /** Relative time as written (3天前) and in days from the document (−3); null when none. */
  time: z.string().nullable(),
  timeDays: z.number().nullable(),
  laterality: z.enum(QUALIFIER_LATERALITY).nullable(),
  fault: z.enum(CLEANING_FAULTS).nullable(),
  faultDetail: z.string(),
  spans: z.array(extractionSpan),
});
export type Extraction = z.infer<typeof extraction>;

export const sentenceTestBody = z.object({
  ...ruleChoice,
  sentences: z.array(units(2000)).min(1).max(CLEANING_SENTENCES_MAX),
});
export type SentenceTestBody = z.input<typeof sentenceTestBody>;
export const sentenceTestResult = z.object({
  items: z.array(z.object({ text: z.string(), extractions: z.array(extraction) })),
});
export type SentenceTestResult = z.infer<typeof sentenceTestResult>;

export const paragraphBody = z.object({ ...ruleChoice, text: units(CLEANING_TEXT_MAX, 1) });
export type ParagraphBody = z.input<typeof paragraphBody>;
export const sectionView = z.object({
  key: z.enum(CLEANING_SECTIONS),
  title: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
});
export const paragraphResult = z.object({
  sections: z.array(sectionView),
  extractions: z.array(extraction),
});
export type ParagraphResult = z.infer<typeof paragraphResult>;

/** Kinds of clinical documents (`documents.kind`): admission note, progress note, discharge summary, operation record, other. */
export const CLEANING_DOCUMENT_KINDS = ['admission', 'progress', 'discharge', 'operation', 'other'] as const;

export const sampleBody = z.object({
  rules: z.array(cleaningRuleRef).min(1).max(100),
  kinds: z.array(z.enum(CLEANING_DOCUMENT_KINDS)).max(CLEANING_DOCUMENT_KINDS.length).default([]),
  size: z.number().int().min(1).max(50).default(10),
  /** The same seed draws the same documents (so marks stay beside what they mark). */
  seed: z.number().int().min(0).max(1_000_000).default(1),
});
export type SampleBody = z.input<typeof sampleBody>;
export const sampleMark = z.object({
  documentId: z.number().int(),
  ruleRef: z.string(),
  code: z.string(),
  start: z.number().int(),
  correct: z.boolean(),
});
export const sampleDocument = z.object({
  documentId: z.number().int(),
  patientId: z.number().int(),
  kind: z.string(),
  title: z.string(),
  writtenAt: timestamp,
  text: z.string(),
  extractions: z.array(extraction.extend({ mark: z.boolean().nullable() })),
});
export const samplePrecision = z.object({
  ruleRef: z.string(),
  ruleName: z.string(),
  extracted: z.number().int(),
  marked: z.number().int(),
  correct: z.number().int(),
  /** correct / marked; null until something is marked. */
  precision: z.number().nullable(),
});
export const sampleResult = z.object({
  documents: z.array(sampleDocument),
  precision: z.array(samplePrecision),
});
export type SampleResult = z.infer<typeof sampleResult>;
export const markBody = z.object({
  documentId: z.number().int().positive(),
  ruleRef: cleaningRuleRef,
  code: units(40, 1),
  start: z.number().int().min(0),
  /** null clears the mark. */
  correct: z.boolean().nullable(),
});
export type MarkBody = z.input<typeof markBody>;

export const cleaningTaskScope = z.object({
  kinds: z.array(z.enum(CLEANING_DOCUMENT_KINDS)).max(CLEANING_DOCUMENT_KINDS.length).default([]),
  from: z.iso.date().nullable().default(null),
  to: z.iso.date().nullable().default(null),
});
export const cleaningTaskInput = z.object({
  name: safeText(60, { min: 1, required: 'must not be blank' }),
  rules: z.array(cleaningRuleRef).min(1).max(100),
  scope: cleaningTaskScope.default({ kinds: [], from: null, to: null }),
});
export type CleaningTaskInput = z.input<typeof cleaningTaskInput>;
export const cleaningTaskParams = z.object({ taskId: z.coerce.number().int().positive().max(2_147_483_647) });

export const CLEANING_TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const cleaningTask = z.object({
  id: z.number().int(),
  name: z.string(),
  rules: z.array(z.object({ ref: z.string(), name: z.string() })),
  scope: cleaningTaskScope,
  jobId: z.number().int().nullable(),
  status: z.enum(CLEANING_TASK_STATUSES),
  progress: z.number(),
  error: z.string().nullable(),
  documents: z.number().int(),
  values: z.number().int(),
  faults: z.number().int(),
  createdByName: z.string(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type CleaningTask = z.infer<typeof cleaningTask>;
export const cleaningTaskPage = page(cleaningTask);
export type CleaningTaskPage = z.infer<typeof cleaningTaskPage>;
export const cleaningTaskQuery = z.object(pageQueryFields(100));

/** A stored value with where it came from. */
export const cleanedValue = z.object({
  id: z.number().int(),
  taskId: z.number().int().nullable(),
  ruleRef: z.string(),
  patientId: z.number().int(),
  documentId: z.number().int(),
  documentTitle: z.string(),
  code: z.string(),
  name: z.string(),
  value: z.number().nullable(),
  valueHigh: z.number().nullable(),
  unit: z.string(),
  section: z.string(),
  sentence: z.string(),
  sentenceStart: z.number().int(),
  spanStart: z.number().int(),
  spanEnd: z.number().int(),
  negated: z.boolean(),
  uncertain: z.boolean(),
  time: z.string().nullable(),
  laterality: z.string().nullable(),
  fault: z.string(),
  faultDetail: z.string(),
  observedAt: timestamp,
});
export type CleanedValue = z.infer<typeof cleanedValue>;
export const cleanedValuePage = page(cleanedValue);
export type CleanedValuePage = z.infer<typeof cleanedValuePage>;
export const cleanedValueQuery = z.object({
  ...pageQueryFields(200, 50),
  faultsOnly: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export const patientCleanedParams = z.object({ id: z.coerce.number().int().positive() });

/** The rules a cleaning screen lists (built-in and the app's own), whole. */
export const cleaningRuleList = itemList(cleaningRule);
export type CleaningRuleList = z.infer<typeof cleaningRuleList>;

/** What a mark answers: the mark now (null: cleared). */
export const cleaningMarkResult = z.object({ correct: z.boolean().nullable() });
export type CleaningMarkResult = z.infer<typeof cleaningMarkResult>;
