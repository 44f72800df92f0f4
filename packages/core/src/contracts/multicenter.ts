import { z } from 'zod';
import { isTaskStatus } from '../helpers/code-tables.js';
import { safeText } from '../helpers/control-chars.js';
import { formatMessage, type MessageKey } from '../messages.js';
import type {
  DetectionIssue,
  HiddenReason,
  PooledCount,
  PooledSummary,
  PooledVariable,
} from '../multicenter/index.js';
import { createdId, stamps, timestamp } from './common.js';

/**
 * Multi-center topics (`/api/v0.1/mc/...`; server: apps/server/src/multicenter, screens:
 * pages/multi-center). A topic is led by one app (center) and joined by invited others; what
 * crosses hospitals is aggregate only. The pooled and detection shapes reuse the types of
 * `../multicenter` (small-cell suppression).
 */

/** A refinement's message: English for zod, the catalogue key for the server's zh-CN wording. */
const said = (key: MessageKey) => ({ message: formatMessage(key, 'en-US'), params: { messageKey: key } });

// ---- Limits shared by the server's schema and the web's form rules ---------------------------

export const MC_TOPIC_NAME_MAX = 200;
export const MC_PROTOCOL_TEXT_MAX = 5000;
export const MC_VARIABLE_LABEL_MAX = 100;
export const MC_VARIABLES_MAX = 50;
export const MC_CENTERS_MAX = 50;
/** A variable's key: a letter, then letters, digits or `_`, at most 40 characters. */
export const MC_VARIABLE_KEY_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;
export const MC_TYPE_CODE_PATTERN = /^[a-zA-Z][a-zA-Z0-9-]{0,39}$/;
/** A text value of a case (a variable without a range). */
export const MC_CASE_TEXT_MAX = 200;
export const MC_APP_CODE_MAX = 100;
export const MC_KEYWORD_MAX = 100;
/** The minimum count of a pooled cell of another center (`mc_topics.min_cell_count`). */
export const MC_MIN_CELL_MIN = 1;
export const MC_MIN_CELL_MAX = 100;

export const MC_CENTER_ROLES = ['lead', 'member'] as const;
export type McCenterRole = (typeof MC_CENTER_ROLES)[number];
/** How a center takes part: invited (pending) until its administrator accepts. */
export const MC_CENTER_STATUSES = ['pending', 'accepted', 'declined', 'withdrawn', 'left'] as const;
export type McCenterStatus = (typeof MC_CENTER_STATUSES)[number];

const appIdValue = z.number().int().positive().max(2_147_483_647);

// ---- Requests --------------------------------------------------------------------------------

export const mcTopicParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const mcVariableKey = z.string().regex(MC_VARIABLE_KEY_PATTERN);

export const mcTopicVariable = z
  .object({
    key: mcVariableKey,
    label: safeText(MC_VARIABLE_LABEL_MAX, { min: 1 }),
    required: z.boolean().default(true),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
  })
  .refine((v) => v.min === undefined || v.max === undefined || v.min <= v.max, {
    ...said('multiCenter.minAboveMax'),
    path: ['min'],
  });
/** A variable as stored and answered (`required` filled in). */
export type McTopicVariable = z.infer<typeof mcTopicVariable>;
/** A variable as the web sends it (`required` may be left out: true). */
export type McTopicVariableInput = z.input<typeof mcTopicVariable>;

const protocolText = safeText(MC_PROTOCOL_TEXT_MAX, { multiline: true }).default('');
export const mcProtocol = z.object({
  background: protocolText,
  objectives: protocolText,
  design: protocolText,
  endpoints: protocolText,
});
export type McProtocol = z.infer<typeof mcProtocol>;

export const mcTopicInput = z.object({
  name: safeText(MC_TOPIC_NAME_MAX, { min: 1 }),
  typeCode: z.string().regex(MC_TYPE_CODE_PATTERN).default('cohort'),
  protocol: mcProtocol.default({ background: '', objectives: '', design: '', endpoints: '' }),
  variables: z.array(mcTopicVariable).min(1).max(MC_VARIABLES_MAX),
  /** Other apps (centers) invited to take part; the creating app leads. */
  centerAppIds: z.array(appIdValue).max(MC_CENTERS_MAX).default([]),
});
export type McTopicInput = z.infer<typeof mcTopicInput>;
export type McTopicBody = z.input<typeof mcTopicInput>;

/** A value of a case: a number (variables with a range), a text, or nothing. */
export const mcCaseValue = z.union([z.number().finite(), z.string().max(MC_CASE_TEXT_MAX), z.null()]);
export const mcCaseInput = z.object({
  patientId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  values: z.record(mcVariableKey, mcCaseValue),
});
export type McCaseInput = z.infer<typeof mcCaseInput>;

/** The pooled-results setting of a topic: cells of other centers below it are hidden. */
export const mcSettingsInput = z.object({
  minCellCount: z
    .number()
    .int()
    .min(MC_MIN_CELL_MIN, { message: `at least ${MC_MIN_CELL_MIN}` })
    .max(MC_MIN_CELL_MAX, { message: `at most ${MC_MIN_CELL_MAX}` }),
});
export type McSettingsInput = z.infer<typeof mcSettingsInput>;

/** Invite a center by its id (picked from `GET mc/centers`) or by its short code; one of the two. */
export const mcInviteInput = z
  .object({
    appId: appIdValue.optional(),
    appCode: safeText(MC_APP_CODE_MAX, { min: 1 }).optional(),
  })
  .refine((b) => (b.appId === undefined) !== (b.appCode === undefined), {
    ...said('multiCenter.inviteOne'),
    path: ['appId'],
  });
export type McInviteInput = z.infer<typeof mcInviteInput>;

export const mcWithdrawInput = z.object({ appId: appIdValue });
export const mcMoveInput = z.object({ to: z.string().refine(isTaskStatus, said('task.notStatus')) });
export const mcPatientsQuery = z.object({ keyword: z.string().max(MC_KEYWORD_MAX).optional() });

// ---- Answers ---------------------------------------------------------------------------------

const hiddenReason: z.ZodType<HiddenReason, HiddenReason> = z.enum(['small', 'complementary']);
/** A pooled count: the number, or why it is hidden. */
export const mcPooledCount: z.ZodType<PooledCount, PooledCount> = z.union([
  z.number(),
  z.object({ hidden: hiddenReason }),
]);
const pooledVariable: z.ZodType<PooledVariable, PooledVariable> = z.object({
  key: z.string(),
  label: z.string(),
  n: mcPooledCount,
  missing: mcPooledCount,
  mean: z.number().nullable(),
  sd: z.number().nullable(),
});
export const mcPooledSummary: z.ZodType<PooledSummary, PooledSummary> = z.object({
  cases: mcPooledCount,
  variables: z.array(pooledVariable),
});

/** A variable as answered: `required` is always there (stored with its default). */
export const mcTopicVariableOut = z.object({
  key: z.string(),
  label: z.string(),
  required: z.boolean().default(true),
  min: z.number().optional(),
  max: z.number().optional(),
});
const protocolOut = z.object({
  background: z.string().default(''),
  objectives: z.string().default(''),
  design: z.string().default(''),
  endpoints: z.string().default(''),
});

/** A topic in the list of the topics this center takes part in. */
export const mcTopicSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  typeCode: z.string(),
  status: z.string(),
  role: z.enum(MC_CENTER_ROLES),
  leadCenter: z.string(),
  /** Centers taking part (accepted). */
  centers: z.number().int(),
  createdAt: timestamp,
});
export type McTopicSummary = z.infer<typeof mcTopicSummary>;

/** The stored topic, as created or after its protocol changed. */
export const mcTopicRow = z.object({
  id: z.number().int(),
  appId: z.number().int(),
  name: z.string(),
  typeCode: z.string(),
  protocol: protocolOut,
  variables: z.array(mcTopicVariableOut),
  status: z.string(),
  minCellCount: z.number().int(),
  createdBy: z.number().int().nullable(),
  ...stamps,
});
export type McTopicRow = z.infer<typeof mcTopicRow>;

export const mcTopicCenter = z.object({
  appId: z.number().int(),
  name: z.string(),
  role: z.enum(MC_CENTER_ROLES),
  status: z.enum(MC_CENTER_STATUSES),
});
export type McTopicCenter = z.infer<typeof mcTopicCenter>;

/** Protocol, variables, centers and status of a topic, as this center may see them. */
export const mcTopicDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  typeCode: z.string(),
  status: z.string(),
  protocol: protocolOut,
  variables: z.array(mcTopicVariableOut),
  /** Pooled cells of other centers below this count are hidden ("< n"). */
  minCellCount: z.number().int(),
  role: z.enum(MC_CENTER_ROLES),
  /** The lead sees every invitation and its answer; a member only the centers taking part. */
  centers: z.array(mcTopicCenter),
  /** Moves the caller may make now: only the leading center moves a topic. */
  moves: z.array(z.string()),
  canEnter: z.boolean(),
  history: z.array(z.object({ from: z.string(), to: z.string(), userName: z.string(), at: timestamp })),
});
export type McTopicDetail = z.infer<typeof mcTopicDetail>;

/** A case of this center (its own patient). */
export const mcOwnCase = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  mrn: z.string(),
  values: z.record(z.string(), mcCaseValue),
  enteredAt: timestamp,
});
export type McOwnCase = z.infer<typeof mcOwnCase>;
export const mcCaseSaved = createdId;

/** Another center in multi-center mode that a topic can invite: only names cross. */
export const mcInvitableCenter = z.object({
  appId: z.number().int(),
  name: z.string(),
  shortName: z.string(),
});
export type McInvitableCenter = z.infer<typeof mcInvitableCenter>;

export const mcMoved = z.object({ id: z.number().int(), status: z.string(), moves: z.array(z.string()) });
export type McMoved = z.infer<typeof mcMoved>;

/** One of this center's patients for the case picker (name masked). */
export const mcPatientOption = z.object({
  id: z.number().int(),
  mrn: z.string(),
  name: z.string(),
  gender: z.number().int(),
});
export type McPatientOption = z.infer<typeof mcPatientOption>;

export const mcInvited = z.object({
  appId: z.number().int(),
  name: z.string(),
  role: z.literal('member'),
  status: z.enum(MC_CENTER_STATUSES),
});
export type McInvited = z.infer<typeof mcInvited>;
export const mcWithdrawn = z.object({ appId: z.number().int(), status: z.enum(MC_CENTER_STATUSES) });
export type McWithdrawn = z.infer<typeof mcWithdrawn>;
/** A center's answer to an invitation, or its leaving. */
export const mcCenterAnswer = z.object({ topicId: z.number().int(), status: z.enum(MC_CENTER_STATUSES) });
export type McCenterAnswer = z.infer<typeof mcCenterAnswer>;
export const mcSettings = z.object({ id: z.number().int(), minCellCount: z.number().int() });
export type McSettings = z.infer<typeof mcSettings>;

/** An invitation waiting for this center's answer: the title and leading hospital only. */
export const mcInvitation = z.object({
  topicId: z.number().int(),
  topic: z.string(),
  leadCenter: z.string(),
  invitedAt: timestamp,
  /** What the leading center will see of this center: aggregates only, small cells hidden. */
  shares: z.literal('aggregates'),
});
export type McInvitation = z.infer<typeof mcInvitation>;

export const mcPooledCenter = z.intersection(
  mcPooledSummary,
  z.object({ appId: z.number().int(), name: z.string(), own: z.boolean() }),
);
export type McPooledCenter = z.infer<typeof mcPooledCenter>;
/** Pooled de-identified aggregates: the lead sees every accepted center, a member its own. */
export const mcPooled = z.object({
  role: z.enum(MC_CENTER_ROLES),
  minCellCount: z.number().int(),
  total: mcPooledSummary,
  centers: z.array(mcPooledCenter),
});
export type McPooled = z.infer<typeof mcPooled>;

export const mcDetectionIssue: z.ZodType<DetectionIssue, DetectionIssue> = z.object({
  kind: z.enum(['missing', 'outOfRange', 'duplicate']),
  variable: z.string().optional(),
  label: z.string().optional(),
  value: z.unknown().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  patientId: z.number().int().optional(),
  mrn: z.string().optional(),
  sameAs: z.string().optional(),
  detail: z.string(),
});

/** The data checks of one center: counts (hidden like pooled cells) and, for the own center, what to fix. */
export const mcCenterCheck = z.object({
  appId: z.number().int(),
  name: z.string(),
  own: z.boolean(),
  cases: mcPooledCount,
  completeness: z.number().nullable(),
  counts: z.object({ missing: mcPooledCount, outOfRange: mcPooledCount, duplicate: mcPooledCount }),
  issues: z.array(mcDetectionIssue),
});
export type McCenterCheck = z.infer<typeof mcCenterCheck>;
