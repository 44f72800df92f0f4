import { z } from 'zod';
import { cohortConditionSchema, cohortCriteriaSchema } from '../cohort/index.js';
import { safeText } from '../helpers/control-chars.js';
import { itemList, page, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';

/**
 * The clinical rule engine (临床规则, spec 000 §7 `rule/*`, all POST under /api/v0.1, menu
 * DataQcClinicalRule). A rule holds conditions over a patient's attributes in all/any groups and
 * actions taken for every patient it fires on. An attribute is an indicator template of
 * `disease-library/template.ts` (`latest lab.value where code = "ALT"`), so the server compiles a
 * rule with the same set-based SQL as the disease library's computed indicators; a condition may
 * also be one of the cohort criteria (`cohort/index.ts`), compiled by the cohort compiler.
 * Server: apps/server/src/rules; web: apps/web/src/pages/rules.
 */

export const RULE_NAME_MAX = 60;
export const RULE_DESCRIPTION_MAX = 300;
export const RULE_CONDITIONS_MAX = 30;
export const RULE_GROUPS_MAX = 10;
export const RULE_ACTIONS_MAX = 10;

/** Comparisons of a condition; `exists`/`missing` ask whether the patient has a value at all. */
export const RULE_OPS = ['=', '!=', '>', '>=', '<', '<=', 'contains', 'starts', 'exists', 'missing'] as const;
export type RuleOp = (typeof RULE_OPS)[number];
export const RULE_FAULT_LEVELS = ['info', 'warning', 'error'] as const;
export type RuleFaultLevel = (typeof RULE_FAULT_LEVELS)[number];
export const RULE_STATUSES = ['draft', 'published'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];
export const RULE_ACTION_KINDS = ['fault', 'derive', 'tag', 'notify'] as const;
export type RuleActionKind = (typeof RULE_ACTION_KINDS)[number];

const ruleValue = z.union([safeText(200), z.number().finite()]);

/** Only the rows of the attribute's source dated on this side of an event (and within N days of it). */
export const ruleWindow = z
  .object({
    side: z.enum(['before', 'after']),
    ref: z.enum(['first_visit', 'first_admission', 't0']),
    /** The T0 event when `ref` is `t0`. */
    t0EventId: z.number().int().positive().max(2_147_483_647).nullable().default(null),
    withinDays: z.number().int().min(0).max(36_500).nullable().default(null),
  })
  .refine((w) => w.ref !== 't0' || w.t0EventId !== null, {
    message: 'a window relative to a T0 event names the event',
    path: ['t0EventId'],
  });
export type RuleWindow = z.output<typeof ruleWindow>;

export const ruleCondition = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('attribute'),
    /** An indicator template text (an attribute's `key` from the attribute list). */
    attribute: safeText(500, { min: 1, required: 'must not be blank' }),
    op: z.enum(RULE_OPS),
    /** null for exists/missing. */
    value: ruleValue.nullable().default(null),
    window: ruleWindow.nullable().default(null),
  }),
  /** A cohort criterion, the same shape research subjects and disease libraries recruit with. */
  z.object({ kind: z.literal('criterion'), criterion: cohortConditionSchema }),
]);
export type RuleCondition = z.output<typeof ruleCondition>;
export type RuleConditionInput = z.input<typeof ruleCondition>;

export const ruleGroup = z.object({
  match: z.enum(['all', 'any']).default('all'),
  conditions: z.array(ruleCondition).min(1).max(RULE_CONDITIONS_MAX),
});

/** The rule fires when its conditions and groups hold: all of them, or any one. */
export const ruleWhen = z.object({
  match: z.enum(['all', 'any']).default('all'),
  conditions: z.array(ruleCondition).max(RULE_CONDITIONS_MAX).default([]),
  groups: z.array(ruleGroup).max(RULE_GROUPS_MAX).default([]),
});
export type RuleWhen = z.output<typeof ruleWhen>;
export type RuleWhenInput = z.input<typeof ruleWhen>;

export const ruleAction = z.discriminatedUnion('kind', [
  /** An alert / QC fault on the patient. */
  z.object({
    kind: z.literal('fault'),
    level: z.enum(RULE_FAULT_LEVELS),
    message: safeText(200, { min: 1, required: 'must not be blank' }),
  }),
  /** A derived attribute of the patient set to a value. */
  z.object({
    kind: z.literal('derive'),
    name: safeText(40, { min: 1, required: 'must not be blank' }),
    value: ruleValue,
  }),
  z.object({ kind: z.literal('tag'), tag: safeText(40, { min: 1, required: 'must not be blank' }) }),
  /** A notice to every user of the app holding the role (one per run, with the count). */
  z.object({
    kind: z.literal('notify'),
    role: safeText(50, { min: 1, required: 'must not be blank' }),
    message: safeText(200, { min: 1, required: 'must not be blank' }),
  }),
]);
export type RuleAction = z.output<typeof ruleAction>;
export type RuleActionInput = z.input<typeof ruleAction>;

const id = z.number().int().positive().max(2_147_483_647);
/** The page a POST body asks for (JSON numbers, not coerced text: `true` is not page 1). */
const pageFields = (maxSize: number) => ({
  page: z.number().int().min(1).max(100_000).default(1),
  size: z.number().int().min(1).max(maxSize).default(20),
});

/** `rule/saverule`: a new rule (no `rule_id`) or a change; `publish` also publishes it. */
export const ruleSaveBody = z.object({
  rule_id: id.optional(),
  name: safeText(RULE_NAME_MAX, { min: 1, required: 'must not be blank' }),
  description: safeText(RULE_DESCRIPTION_MAX, { multiline: true }).default(''),
  when: ruleWhen,
  actions: z.array(ruleAction).min(1).max(RULE_ACTIONS_MAX),
  publish: z.boolean().default(false),
  /** Publish even though some saved samples now disagree (the answer 409 listed them). */
  confirm: z.boolean().default(false),
});
export type RuleSaveBody = z.input<typeof ruleSaveBody>;

export const ruleListBody = z.object({
  ...pageFields(100),
  keyword: safeText(60).default(''),
  status: z.enum(RULE_STATUSES).optional(),
});
export type RuleListBody = z.input<typeof ruleListBody>;

export const ruleSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: z.enum(RULE_STATUSES),
  /** Counts up at every publish. */
  version: z.number().int(),
  conditions: z.number().int(),
  actions: z.array(z.enum(RULE_ACTION_KINDS)),
  samples: z.number().int(),
  updatedAt: timestamp,
  publishedAt: timestampOrNull,
});
export type RuleSummary = z.infer<typeof ruleSummary>;
export const ruleList = page(ruleSummary);
export type RuleList = z.infer<typeof ruleList>;

/** A test sample: a patient of the app, or a hand-made set of attribute values. */
export const ruleSample = z.object({
  id: z.number().int(),
  name: z.string(),
  patientId: z.number().int().nullable(),
  patientName: z.string().nullable(),
  /** attribute key → value, for a hand-made sample. */
  attributes: z.record(z.string(), z.union([z.string(), z.number()]).nullable()).nullable(),
  /** Whether the rule should fire on it. */
  expectedFired: z.boolean(),
  updatedAt: timestamp,
});
export type RuleSample = z.infer<typeof ruleSample>;

export const ruleDetail = ruleSummary.extend({
  when: ruleWhen,
  actions: z.array(ruleAction),
  sampleList: z.array(ruleSample),
});
export type RuleDetail = z.infer<typeof ruleDetail>;
export const ruleIdBody = z.object({ rule_id: id });

export const RULE_ATTRIBUTE_ORIGINS = [
  'patient',
  'lab',
  'diagnosis',
  'visit',
  'cleaned',
  'indicator',
  'crf',
] as const;
export type RuleAttributeOrigin = (typeof RULE_ATTRIBUTE_ORIGINS)[number];
export const ruleAttribute = z.object({
  /** The indicator template a condition names. */
  key: z.string(),
  label: z.string(),
  origin: z.enum(RULE_ATTRIBUTE_ORIGINS),
  kind: z.enum(['number', 'text', 'date']),
});
export type RuleAttribute = z.infer<typeof ruleAttribute>;
export const ruleAttributeList = itemList(ruleAttribute);
export type RuleAttributeList = z.infer<typeof ruleAttributeList>;

export const ruleAttributeListBody = z.object({
  origin: z.enum(RULE_ATTRIBUTE_ORIGINS).optional(),
});
export const ruleAttributeSearchBody = z.object({
  keyword: safeText(60).default(''),
  limit: z.number().int().min(1).max(200).default(50),
});
export type RuleAttributeSearchBody = z.input<typeof ruleAttributeSearchBody>;

/** What an action may point at: derived attribute names and tags already used, the app's roles. */
export const ruleActionTarget = z.object({
  kind: z.enum(['derive', 'tag', 'role']),
  key: z.string(),
  label: z.string(),
});
export const ruleActionTargetList = itemList(ruleActionTarget);
export type RuleActionTargetList = z.infer<typeof ruleActionTargetList>;

const sampleValues = z.record(
  safeText(500, { min: 1 }),
  z.union([safeText(200), z.number().finite()]).nullable(),
);

/** `rule/executethe_test_sample`: a saved rule or the draft on screen, on a saved sample, a patient or values. */
export const ruleTestBody = z.object({
  rule_id: id.optional(),
  /** The draft being edited (wins over the saved rule's conditions). */
  when: ruleWhen.optional(),
  actions: z.array(ruleAction).max(RULE_ACTIONS_MAX).optional(),
  sample_id: id.optional(),
  patient_id: id.optional(),
  attributes: sampleValues.optional(),
});
export type RuleTestBody = z.input<typeof ruleTestBody>;

export const ruleConditionOutcome = z.object({
  /** `c0` (a condition of the rule) or `g1.c2` (the third condition of the second group). */
  path: z.string(),
  /** The condition in words. */
  text: z.string(),
  /** The patient's value of the attribute (null: none). */
  actual: z.union([z.string(), z.number()]).nullable(),
  holds: z.boolean(),
  /** Why a condition could not be judged (a criterion on a hand-made sample). */
  note: z.string().nullable(),
});
export const ruleTestResult = z.object({
  fired: z.boolean(),
  conditions: z.array(ruleConditionOutcome),
  groups: z.array(z.object({ path: z.string(), holds: z.boolean() })),
  /** What the rule would do (empty when it does not fire). */
  actions: z.array(ruleAction),
  /** The sample's saved expectation, when a saved sample was run. */
  expectedFired: z.boolean().nullable(),
});
export type RuleTestResult = z.infer<typeof ruleTestResult>;

export const ruleSampleSaveBody = z
  .object({
    rule_id: id,
    sample_id: id.optional(),
    name: safeText(60, { min: 1, required: 'must not be blank' }),
    patient_id: id.nullable().default(null),
    attributes: sampleValues.nullable().default(null),
    expected_fired: z.boolean(),
  })
  .refine((b) => (b.patient_id === null) !== (b.attributes === null), {
    message: 'a sample is either a patient (patient_id) or hand-made values (attributes)',
    path: ['patient_id'],
  });
export type RuleSampleSaveBody = z.input<typeof ruleSampleSaveBody>;
export const ruleSampleDeleteBody = z.object({ rule_id: id, sample_id: id });

/** Every saved sample rerun against the rule (or the draft): those that disagree block a publish. */
export const ruleRegression = z.object({
  items: z.array(
    z.object({
      sampleId: z.number().int(),
      name: z.string(),
      expectedFired: z.boolean(),
      fired: z.boolean(),
      agrees: z.boolean(),
    }),
  ),
  disagreeing: z.number().int(),
});
export type RuleRegression = z.infer<typeof ruleRegression>;
export const ruleRegressionBody = z.object({ rule_id: id, when: ruleWhen.optional() });

/** Which patients a run covers: all of the app's, a disease library's, or those meeting criteria. */
export const ruleRunScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('library'), libraryId: id }),
  z.object({ kind: z.literal('criteria'), criteria: cohortCriteriaSchema }),
  /** The patients whose records a collection run changed (queued by the run itself). */
  z.object({ kind: z.literal('collectionRun'), runId: id }),
]);
export const ruleRunBody = z.object({
  rule_ids: z.array(id).min(1).max(500),
  scope: ruleRunScope.default({ kind: 'all' }),
});
export type RuleRunBody = z.input<typeof ruleRunBody>;
export const ruleRunStarted = z.object({ runId: z.number().int(), jobId: z.number().int() });

export const ruleRun = z.object({
  id: z.number().int(),
  ruleIds: z.array(z.number().int()),
  /** The status of the run's job (a run whose job is gone reads `failed`). */
  status: jobStatus,
  patients: z.number().int(),
  results: z.number().int(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type RuleRun = z.infer<typeof ruleRun>;
export const ruleRunList = itemList(ruleRun);
export const ruleRunListBody = z.object({ rule_id: id.optional() });

export const ruleResultsBody = z.object({
  run_id: id,
  ...pageFields(200),
  kind: z.enum(RULE_ACTION_KINDS).optional(),
});
export const ruleResult = z.object({
  id: z.number().int(),
  ruleId: z.number().int(),
  ruleName: z.string(),
  patientId: z.number().int(),
  patientName: z.string(),
  mrn: z.string(),
  kind: z.enum(RULE_ACTION_KINDS),
  level: z.string(),
  name: z.string(),
  value: z.string(),
});
export type RuleResult = z.infer<typeof ruleResult>;
export const ruleResultPage = page(ruleResult);
export type RuleResultPage = z.infer<typeof ruleResultPage>;
