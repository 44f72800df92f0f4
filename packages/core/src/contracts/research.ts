import { z } from 'zod';
import { cohortCriteriaSchema } from '../cohort/index.js';
import { TASK_STATUSES } from '../helpers/code-tables.js';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema } from '../helpers/iso-date.js';
import { jsonValue, patchOf, stamps, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';

/**
 * Research subjects (科研课题, `/api/v0.1/research/...`, server: research/): project types,
 * subjects with their team, status moves and recruitment, the enrolled cohort, analysis
 * datasets and analyses (jobs read with `get_value_task_result`), and the workbench counts
 * (`topic_count`...).
 */

/** Limits of the research forms (the server's schemas and the web's form rules). */
export const RESEARCH_SUBJECT_NAME_MAX = 200;
export const RESEARCH_DESCRIPTION_MAX = 5000;
export const RESEARCH_TYPE_NAME_MAX = 100;
export const RESEARCH_TYPE_DESCRIPTION_MAX = 500;
export const RESEARCH_LABEL_MAX = 100;
export const RESEARCH_CENTER_MAX = 100;
export const RESEARCH_REASON_MAX = 1000;
export const RESEARCH_DATASET_NAME_MAX = 200;
export const RESEARCH_TARGET_SIZE_MAX = 1_000_000;
/** A project type code: a lower-case letter, then letters, digits and -, at most 40. */
export const RESEARCH_TYPE_CODE_PATTERN = /^[a-z][a-zA-Z0-9-]{0,39}$/;
/** A variable (column) key: letters, digits and _ starting with a letter, at most 40. */
export const RESEARCH_VARIABLE_KEY_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;

/** Roles on a project. */
export const RESEARCH_PROJECT_ROLES = [
  'pi',
  'coordinator',
  'investigator',
  'statistician',
  'dataManager',
] as const;
export type ResearchProjectRole = (typeof RESEARCH_PROJECT_ROLES)[number];

/**
 * Text of at most `max` UTF-16 units after trimming, without control characters or lone
 * surrogates; texts of 500 units or more are free text, where tab and line breaks are allowed.
 */
const text = (max: number, min = 0) => safeText(max, { min, multiline: max >= 500 });

const int = z.number().int();
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const isoDate = isoDateSchema();
const varKey = z
  .string()
  .regex(RESEARCH_VARIABLE_KEY_PATTERN, 'letters, digits and _ starting with a letter, at most 40');
const label = text(RESEARCH_LABEL_MAX, 1);
const icd = text(40, 1);
const typeCode = z.string().regex(/^[a-zA-Z][a-zA-Z0-9-]{0,39}$/, 'a project type code');
/** A statistic: a number, or null where none can be computed (and where JSON has no number). */
const stat = z.number().nullable().catch(null);

// ---- Requests -------------------------------------------------------------------------------

export const researchSubjectParams = z.object({ id: serialId });
export const researchTypeParams = z.object({ code: z.string().regex(/^[a-zA-Z][a-zA-Z0-9-]{0,39}$/) });
export const researchDatasetParams = z.object({ id: serialId, datasetId: serialId });

/** One column of the analysis dataset, read from the CDR for each enrolled patient. */
export const researchVariable = z.discriminatedUnion('source', [
  z.object({ key: varKey, label, source: z.literal('age') }),
  z.object({ key: varKey, label, source: z.literal('gender') }),
  z.object({
    key: varKey,
    label,
    source: z.literal('lab'),
    itemCode: text(40, 1),
    aggregate: z.enum(['first', 'last', 'min', 'max', 'mean']).default('last'),
    /**
     * A T0 event as the zero point: only results on or before the patient's T0 (`beforeT0`, a
     * baseline) or after it (`afterT0`) count; a patient without a T0 has no value.
     */
    t0EventId: serialId.optional(),
    t0Window: z.enum(['beforeT0', 'afterT0']).default('beforeT0'),
  }),
  /** 1 when the patient has a diagnosis starting with one of the codes, else 0. */
  z.object({ key: varKey, label, source: z.literal('diagnosis'), codes: z.array(icd).min(1).max(20) }),
  z.object({ key: varKey, label, source: z.literal('visitCount') }),
  /**
   * Time to event: `<key>_time` in days from the first visit to the first diagnosis of one of the
   * codes (event 1), or to the last record (event 0); `<key>_event`.
   */
  z.object({
    key: varKey,
    label,
    source: z.literal('survival'),
    codes: z.array(icd).min(1).max(20),
    /** The time runs from the patient's T0 of this event (instead of the first visit); no T0, no value. */
    t0EventId: serialId.optional(),
  }),
  /** Days from the patient's T0 of an event to today (follow-up since the index date); no T0, no value. */
  z.object({ key: varKey, label, source: z.literal('t0Days'), t0EventId: serialId }),
]);
export type ResearchVariableDef = z.infer<typeof researchVariable>;
/** A variable as a client sends it (a lab variable's aggregate may be left to its default). */
export type ResearchVariableBody = z.input<typeof researchVariable>;
export type ResearchVariableSource = ResearchVariableDef['source'];

/** A column computed from others once the row is read. */
export const researchDerived = z.discriminatedUnion('op', [
  z.object({ key: varKey, label, op: z.literal('threshold'), from: varKey, value: z.number().finite() }),
  z.object({ key: varKey, label, op: z.literal('log'), from: varKey }),
  z.object({ key: varKey, label, op: z.literal('ratio'), from: varKey, over: varKey }),
]);
export type ResearchDerivedDef = z.infer<typeof researchDerived>;

const memberSchema = z.object({ userId: serialId, role: z.enum(RESEARCH_PROJECT_ROLES) });

/** The whole member list of a subject at once (the members panel); the PI may change hands. */
export const researchMembersInput = z.object({
  piUserId: serialId.optional(),
  members: z.array(memberSchema).max(100),
});
export type ResearchMembersInput = z.infer<typeof researchMembersInput>;

export const researchSubjectInput = z.object({
  name: text(RESEARCH_SUBJECT_NAME_MAX, 1),
  typeCode: typeCode.default('cohort'),
  description: text(RESEARCH_DESCRIPTION_MAX).default(''),
  piUserId: serialId.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  targetSize: z.number().int().min(0).max(RESEARCH_TARGET_SIZE_MAX).default(0),
  criteria: cohortCriteriaSchema.default({ match: 'all', inclusion: [], exclusion: [] }),
  variables: z.array(researchVariable).max(100).default([]),
  crfFormId: serialId.optional(),
  centers: z.array(text(RESEARCH_CENTER_MAX, 1)).max(50).default([]),
  members: z.array(memberSchema).max(100).default([]),
});
/** What the server works with (defaults applied). */
export type ResearchSubjectInput = z.infer<typeof researchSubjectInput>;
/** What a client sends. */
export type ResearchSubjectBody = z.input<typeof researchSubjectInput>;

export const researchSubjectPatch = patchOf(researchSubjectInput).extend({
  crfFormId: serialId.nullable().optional(),
});
export type ResearchSubjectPatch = z.infer<typeof researchSubjectPatch>;

export const researchSubjectQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(10),
  keyword: text(100).optional(),
  status: z.enum(TASK_STATUSES).optional(),
  typeCode: z.string().max(40).optional(),
  memberId: serialId.optional(),
});
export type ResearchSubjectQuery = z.infer<typeof researchSubjectQuery>;

export const researchMoveInput = z.object({
  to: z.enum(TASK_STATUSES),
  reason: text(RESEARCH_REASON_MAX).default(''),
});

export const researchRecruitInput = z.object({
  /** criteria: everyone the subject's criteria match; patients: exactly these ids of the app. */
  mode: z.enum(['criteria', 'patients']),
  patientIds: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(5000).default([]),
});
export type ResearchRecruitBody = z.input<typeof researchRecruitInput>;

export const researchDatasetInput = z.object({
  name: text(RESEARCH_DATASET_NAME_MAX, 1),
  /** Keys of the subject's variables to include; empty = all. */
  variables: z.array(varKey).max(100).default([]),
  derived: z.array(researchDerived).max(50).default([]),
  /** Item keys of the subject's CRF form: each becomes a column read from the patient's latest submitted record. */
  crfItems: z.array(text(100, 1)).max(100).default([]),
});
export type ResearchDatasetBody = z.input<typeof researchDatasetInput>;

export const researchTypeInput = z.object({
  code: z.string().regex(RESEARCH_TYPE_CODE_PATTERN, 'a lower-case letter, then letters, digits and -'),
  name: text(RESEARCH_TYPE_NAME_MAX, 1),
  description: text(RESEARCH_TYPE_DESCRIPTION_MAX).default(''),
  sortOrder: z.number().int().min(0).max(10_000).default(0),
});
export type ResearchTypeBody = z.input<typeof researchTypeInput>;
export const researchTypePatch = researchTypeInput.omit({ code: true });

export const researchAnalysisParams = z.discriminatedUnion('method', [
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
]);
export type ResearchAnalysisParams = z.infer<typeof researchAnalysisParams>;

export const researchAnalysisInput = z.object({ datasetId: serialId, params: researchAnalysisParams });

/** `POST /api/v0.1/get_value_task_result` (spec: task_id = job id). */
export const researchTaskResultInput = z.object({
  task_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

// ---- Answers: types, subjects, team ---------------------------------------------------------

/** A project type: built in (every app) or the app's own. */
export const researchProjectType = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  builtIn: z.boolean(),
  sortOrder: int,
});
export type ResearchProjectType = z.infer<typeof researchProjectType>;

/** An app's own project type as stored (the answer of add and change). */
export const researchProjectTypeRecord = z.object({
  id: int,
  appId: int,
  code: z.string(),
  name: z.string(),
  description: z.string(),
  sortOrder: int,
  createdAt: timestamp,
});
export type ResearchProjectTypeRecord = z.infer<typeof researchProjectTypeRecord>;

/** What a subject is, as stored and as shown: its design and status. */
const subjectFields = {
  name: z.string(),
  typeCode: z.string(),
  description: z.string(),
  piUserId: int.nullable(),
  /** YYYY-MM-DD. */
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  targetSize: int,
  criteria: cohortCriteriaSchema,
  variables: z.array(researchVariable),
  crfFormId: int.nullable(),
  centers: z.array(z.string()),
  /** A TASK_STATUSES code. */
  status: z.string(),
};

/** A subject as stored (the answer of create, change and a status move). */
export const researchSubjectRecord = z.object({
  id: int,
  appId: int,
  ...subjectFields,
  createdBy: int.nullable(),
  ...stamps,
});
export type ResearchSubjectRecord = z.infer<typeof researchSubjectRecord>;

/** A subject as lists and pages show it, with the moves its status allows. */
export const researchSubject = z.object({
  id: int,
  ...subjectFields,
  allowedMoves: z.array(z.enum(TASK_STATUSES)).readonly(),
  ...stamps,
});
export type ResearchSubject = z.infer<typeof researchSubject>;

/** A row of the subject list: the type's name, the PI and how many are enrolled. */
export const researchSubjectListItem = researchSubject.extend({
  typeName: z.string(),
  /** The PI's login name and display name ('' without a PI). */
  piName: z.string(),
  piNickname: z.string(),
  enrolled: int,
});
export type ResearchSubjectListItem = z.infer<typeof researchSubjectListItem>;

export const researchSubjectList = z.object({ total: int, items: z.array(researchSubjectListItem) });
export type ResearchSubjectList = z.infer<typeof researchSubjectList>;

/** A member of a subject's team with their names; the PI first. */
export const researchMember = z.object({
  userId: int,
  role: z.enum(RESEARCH_PROJECT_ROLES),
  userName: z.string(),
  nickname: z.string(),
});
export type ResearchMember = z.infer<typeof researchMember>;

/** A status move: who, when, from ('' at creation), to, why. */
export const researchStatusMove = z.object({
  from: z.string(),
  to: z.string(),
  userName: z.string(),
  reason: z.string(),
  at: timestamp,
});
export type ResearchStatusMove = z.infer<typeof researchStatusMove>;

/** A subject with its team, status history, the caller's role and enrolment. */
export const researchSubjectDetail = researchSubject.extend({
  members: z.array(researchMember),
  /** The caller's role on the subject, or null when not a member. */
  myRole: z.enum(RESEARCH_PROJECT_ROLES).nullable(),
  enrolled: int,
  history: z.array(researchStatusMove),
});
export type ResearchSubjectDetail = z.infer<typeof researchSubjectDetail>;

/** The detail call's answer: whether the caller may change the team. */
export const researchSubjectView = researchSubjectDetail.extend({ canManageMembers: z.boolean() });
export type ResearchSubjectView = z.infer<typeof researchSubjectView>;

/** The team after it was replaced. */
export const researchTeam = z.object({ piUserId: int, members: z.array(researchMember) });
export type ResearchTeam = z.infer<typeof researchTeam>;

/** A user of the app, to pick a PI or a member. */
export const researchAppUser = z.object({ userId: int, userName: z.string(), nickname: z.string() });
export type ResearchAppUser = z.infer<typeof researchAppUser>;

/** A published CRF form a subject may link. */
export const researchCrfForm = z.object({
  id: int,
  name: z.string(),
  category: z.string(),
  latestVersion: int,
});
export type ResearchCrfForm = z.infer<typeof researchCrfForm>;

/** An item of the subject's CRF form and whether it can be a dataset column. */
export const researchCrfItem = z.object({
  key: z.string(),
  title: z.string(),
  /** 1-based page of the form. */
  page: int,
  type: z.string(),
  /** number and choice items can be columns; other items are listed but not offered. */
  kind: z.enum(['number', 'choice', 'other']),
  /** Choice items: their options; the column holds the code. */
  options: z.array(z.object({ code: z.union([z.string(), z.number()]), name: z.string() })),
  /** True when every option code is a number, so the column is numeric. */
  numericCodes: z.boolean(),
});
export type ResearchCrfItem = z.infer<typeof researchCrfItem>;

/** The latest published version of the subject's form, or null when it links none. */
export const researchCrfItems = z
  .object({ formId: int, name: z.string(), version: int, items: z.array(researchCrfItem) })
  .nullable();
export type ResearchCrfItems = z.infer<typeof researchCrfItems>;

/** A status move's answer: the subject after the move and the log row. */
export const researchMoved = z.object({
  subject: researchSubjectRecord,
  log: z.object({
    id: int,
    appId: int,
    subjectId: int,
    fromStatus: z.string(),
    toStatus: z.string(),
    userId: int.nullable(),
    userName: z.string(),
    reason: z.string(),
    at: timestamp,
  }),
});
export type ResearchMoved = z.infer<typeof researchMoved>;

export const researchRecruited = z.object({
  /** Patients the criteria (or the list) named. */
  matched: int,
  /** Of them, those not enrolled before. */
  added: int,
});
export type ResearchRecruited = z.infer<typeof researchRecruited>;

export const researchCriteriaCount = z.object({ count: int });
export type ResearchCriteriaCount = z.infer<typeof researchCriteriaCount>;

/** What the variable catalogue is asked: a search text and which kind of source. */
export const researchCatalogueQuery = z.object({
  /** `t0`: the app's calculated T0 events (code: the event id), the zero points variables may take. */
  kind: z.enum(['lab', 'diagnosis', 't0']),
  /** Part of a code or a name; empty lists the most frequent. */
  q: safeText(60).default(''),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
/**
 * A candidate variable from the app's own clinical data: a lab item (by its code) or a diagnosis
 * category (the first three characters of the ICD-10 code), with how often it occurs.
 */
export const researchCatalogueItem = z.object({
  kind: z.enum(['lab', 'diagnosis', 't0']),
  code: z.string(),
  name: z.string(),
  /** A lab item's unit as the data most often has it; '' for a diagnosis. */
  unit: z.string(),
  /** Patients of the app with at least one such result or diagnosis. */
  patients: int,
});
export type ResearchCatalogueItem = z.infer<typeof researchCatalogueItem>;

/** Allowed status moves of a subject, by status. */
export const researchStatusTable = z.record(z.enum(TASK_STATUSES), z.array(z.enum(TASK_STATUSES)).readonly());
export type ResearchStatusTable = z.infer<typeof researchStatusTable>;

// ---- Answers: cohort data, report -----------------------------------------------------------

export const researchNumericSummary = z.object({
  kind: z.literal('numeric'),
  n: int,
  missing: int,
  mean: stat,
  sd: stat,
  median: stat,
  q1: stat,
  q3: stat,
  min: stat,
  max: stat,
});
export const researchCategoricalSummary = z.object({
  kind: z.literal('categorical'),
  n: int,
  missing: int,
  levels: z.array(z.object({ value: z.string(), count: int, percent: z.number() })),
});
/** A variable's summary: numeric when every present value is a number, else by level. */
export const researchSummary = z.discriminatedUnion('kind', [
  researchNumericSummary,
  researchCategoricalSummary,
]);
export type ResearchSummary = z.infer<typeof researchSummary>;
export type ResearchNumericSummary = z.infer<typeof researchNumericSummary>;
export type ResearchCategoricalSummary = z.infer<typeof researchCategoricalSummary>;

/** A variable over the enrolled patients: its summary and how complete it is (0 to 1). */
export const researchVariableSummary = z.object({
  key: z.string(),
  label: z.string(),
  source: z.string(),
  completeness: z.number(),
  summary: researchSummary,
  /** Survival variables: how many patients had the event. */
  events: int.optional(),
});
export type ResearchVariableSummary = z.infer<typeof researchVariableSummary>;

/** An enrolled patient; the name is masked (`张**`) without the identity function. */
export const researchPatient = z.object({
  id: int,
  mrn: z.string(),
  name: z.string(),
  /** 0 unknown, 1 male, 2 female, 3 other. */
  gender: int,
  birthDate: z.string().nullable(),
  enrolledAt: timestamp,
});
export type ResearchPatient = z.infer<typeof researchPatient>;

/** project-data: the enrolled cohort by variables, and a page of the patients. */
export const researchProjectData = z.object({
  enrolled: int,
  variables: z.array(researchVariableSummary),
  patients: z.object({ total: int, items: z.array(researchPatient) }),
});
export type ResearchProjectData = z.infer<typeof researchProjectData>;

/** report: recruitment, completeness and key statistics. */
export const researchReport = z.object({
  subject: researchSubjectDetail,
  recruitment: z.object({
    enrolled: int,
    target: int,
    /** enrolled / target; null without a target. */
    progress: z.number().nullable(),
    byMonth: z.array(z.object({ month: z.string(), count: int })),
  }),
  completeness: z.array(z.object({ key: z.string(), label: z.string(), completeness: z.number() })),
  keyStatistics: z.object({
    age: researchSummary,
    gender: researchSummary,
    variables: z.array(researchVariableSummary),
  }),
  statusMoves: int,
  generatedAt: timestamp,
});
export type ResearchReport = z.infer<typeof researchReport>;

// ---- Answers: datasets and analyses ---------------------------------------------------------

/** A dataset column; the two columns of a survival variable say which part they are. */
export const researchDatasetColumn = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['number', 'category']),
  survival: z.object({ part: z.enum(['time', 'event']), of: z.string() }).optional(),
  /**
   * A coded column (its cells are codes, e.g. sex 1/2, a single choice 0/1/3): the family of the
   * labelling layer that words the codes, or the CRF item's options. Statistics treat it as
   * categorical; screens show the words, not the codes.
   */
  codeFamily: z.enum(['gender']).optional(),
  options: z.array(z.object({ value: z.union([z.string(), z.number()]), label: z.string() })).optional(),
});
export type ResearchDatasetColumn = z.infer<typeof researchDatasetColumn>;

/** A dataset row: a study number and a cell per column (never the patient's identity). */
export const researchDatasetRow = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));
export type ResearchDatasetRow = z.infer<typeof researchDatasetRow>;

/** building | ready | failed */
export const RESEARCH_DATASET_STATUSES = ['building', 'ready', 'failed'] as const;

export const researchDataset = z.object({
  id: int,
  name: z.string(),
  /** A RESEARCH_DATASET_STATUSES code. */
  status: z.string(),
  rowCount: int,
  columns: z.array(researchDatasetColumn),
  jobId: int.nullable(),
  createdAt: timestamp,
  builtAt: timestampOrNull,
});
export type ResearchDataset = z.infer<typeof researchDataset>;

/** A dataset with its rows. */
export const researchDatasetRows = researchDataset.omit({ createdAt: true }).extend({
  rows: z.array(researchDatasetRow),
});
export type ResearchDatasetRows = z.infer<typeof researchDatasetRows>;

export const researchDatasetQueued = z.object({ datasetId: int, jobId: int });
export type ResearchDatasetQueued = z.infer<typeof researchDatasetQueued>;

export const researchAnalysisQueued = z.object({ task_id: int });
export type ResearchAnalysisQueued = z.infer<typeof researchAnalysisQueued>;

/** An analysis run on a subject (newest first). */
export const researchAnalysis = z.object({
  task_id: int,
  status: jobStatus,
  /** `{ subjectId, datasetId, analysis }`: the analysis as asked. */
  params: jsonValue,
  error: z.string().nullable(),
  createdAt: timestamp,
});
export type ResearchAnalysis = z.infer<typeof researchAnalysis>;

/** Status and result of an analysis or dataset task. */
export const researchTaskResult = z.object({
  task_id: int,
  kind: z.string(),
  status: jobStatus,
  progress: int,
  params: jsonValue,
  /** The analysis' result (its shape is the method's); null until it succeeded, and when it failed. */
  result: jsonValue,
  error: z.string().nullable(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type ResearchTaskResult = z.infer<typeof researchTaskResult>;

// ---- Answers: workbench counts --------------------------------------------------------------

export const topicCount = z.object({
  total: int,
  /** Neither closed nor concluded. */
  active: int,
  byStatus: z.array(z.object({ status: z.enum(TASK_STATUSES), count: int })),
  multiCenterTopics: int,
  enrolledPatients: int,
});
export type TopicCount = z.infer<typeof topicCount>;

/** Subjects created per month (YYYY-MM), the last twelve months. */
export const topicCountChart = z.array(z.object({ month: z.string(), count: int }));
export type TopicCountChart = z.infer<typeof topicCountChart>;

export const topicTypeCount = z.array(z.object({ typeCode: z.string(), name: z.string(), count: int }));
export type TopicTypeCount = z.infer<typeof topicTypeCount>;

/** Clinical records of the app per table and per source. */
export const dataSourceRecordStatistics = z.object({
  total: int,
  tables: z.array(z.object({ table: z.string(), count: int, bySource: z.record(z.string(), int) })),
});
export type DataSourceRecordStatistics = z.infer<typeof dataSourceRecordStatistics>;
