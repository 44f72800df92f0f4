import {
  isoDateSchema,
  jsonValue,
  page,
  pageQueryFields,
  safeText,
  timestamp,
  timestampOrNull,
} from '@crdp/core';
import { z } from 'zod';
import type { Form, IssueCode, Problem, ProblemCode, ProblemDetail } from './types.js';

/**
 * The API contract of the CRF product (`/api/v0.1/crf/...`, server: apps/server/src/crf).
 *
 * It lives here rather than in @crdp/core because its answers carry the questionnaire model
 * (`Form`, the analysis `Problem`), and core may not depend on this package. The server
 * declares these schemas on its routes; the web imports the types.
 */

const int = z.number().int();
const serialId = z.number().int().positive().max(2_147_483_647);

/** Limits of the CRF forms (the server's schema and the web's form rules). */
export const CRF_FORM_NAME_MAX = 200;
export const CRF_CATEGORY_MAX = 100;
export const CRF_NOTE_MAX = 500;
export const CRF_REASON_MAX = 1000;
export const CRF_SUBJECT_CODE_MAX = 100;
export const CRF_ITEM_KEY_MAX = 200;
export const CRF_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

export const CRF_FORM_STATUSES = ['active', 'archived'] as const;
export type CrfFormStatus = (typeof CRF_FORM_STATUSES)[number];
export const CRF_RECORD_STATUSES = ['draft', 'submitted', 'verified', 'locked'] as const;
export type CrfRecordStatus = (typeof CRF_RECORD_STATUSES)[number];
export const CRF_METHODS = ['machine', 'manual'] as const;
export const CRF_EXPORT_FORMATS = ['csv', 'xlsx', 'odm'] as const;
export type CrfExportFormat = (typeof CRF_EXPORT_FORMATS)[number];
export const CRF_IMPORT_FORMATS = ['json', 'redcap', 'odm'] as const;

/** Form JSON as stored (the engine's `formSchema` checked it when it was saved). */
const formDocument = jsonValue as z.ZodType<Form, unknown>;

// ---- Requests -------------------------------------------------------------------------------

const formName = safeText(CRF_FORM_NAME_MAX, { min: 1 });
const category = safeText(CRF_CATEGORY_MAX);
const reason = safeText(CRF_REASON_MAX, { multiline: true });
const itemKey = z
  .string()
  .min(1)
  .max(CRF_ITEM_KEY_MAX)
  .refine((s) => s.length <= CRF_ITEM_KEY_MAX, `must be at most ${CRF_ITEM_KEY_MAX} characters`);
const answers = z.record(itemKey, z.unknown());
const methods = z.record(itemKey, z.enum(CRF_METHODS));
const subject = {
  patientId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  subjectCode: safeText(CRF_SUBJECT_CODE_MAX, { min: 1 }).optional(),
};
const paging = {
  ...pageQueryFields(500),
};
/** Form JSON sent to be saved or checked (the server parses it with the engine's schema). */
const definitionBody = z.object({ definition: z.looseObject({ pages: z.array(z.unknown()) }) });

export const crfFormListQuery = z.object({
  ...paging,
  keyword: safeText(100).optional(),
  status: z.enum(CRF_FORM_STATUSES).optional(),
});
export type CrfFormListQuery = z.input<typeof crfFormListQuery>;
export const crfFormCreateBody = z.object({
  name: formName,
  category: category.default(''),
  definition: z.unknown().optional(),
});
export type CrfFormCreateBody = z.input<typeof crfFormCreateBody>;
export const crfFormPatchBody = z.object({ name: formName.optional(), category: category.optional() });
export type CrfFormPatchBody = z.input<typeof crfFormPatchBody>;
export const crfArchiveBody = z.object({ archived: z.boolean() });
export const crfDraftBody = definitionBody;
export const crfAnalyzeBody = definitionBody;
export const crfPublishBody = z.object({ note: safeText(CRF_NOTE_MAX, { multiline: true }) });
export const crfCopyBody = z.object({ name: formName });
/** Import of a form (the server adds its check of an ODM file's size). */
export const crfImportBody = z.object({
  format: z.enum(CRF_IMPORT_FORMATS),
  name: formName,
  content: z
    .string()
    .min(1)
    .max(6 * 1024 * 1024),
  formOid: z.string().trim().min(1).max(200).optional(),
});
export type CrfImportBody = z.input<typeof crfImportBody>;
/** Every form of one CDISC ODM study file (or REDCap project XML) at once: a CRDP form per FormDef. */
export const crfImportStudyBody = z.object({
  content: z
    .string()
    .min(1)
    .max(6 * 1024 * 1024),
  /** The category the forms are filed under; default the study's name. */
  category: category.optional(),
});
export type CrfImportStudyBody = z.input<typeof crfImportStudyBody>;
/** Records of a form from a CDISC ODM file's ClinicalData (the FormDef the form was imported from) or a REDCap records CSV. */
export const crfImportRecordsBody = z.object({
  /** `odm`: ClinicalData of an ODM file or REDCap project XML; `redcap`: a REDCap records CSV export. */
  format: z.enum(['odm', 'redcap']).default('odm'),
  content: z
    .string()
    .min(1)
    .max(6 * 1024 * 1024),
  /** ODM: the FormDef whose FormData become records; default the only one the ClinicalData holds. */
  formOid: z.string().trim().min(1).max(200).optional(),
});
export type CrfImportRecordsBody = z.input<typeof crfImportRecordsBody>;
export const crfExportQuery = z.object({
  format: z.enum(CRF_EXPORT_FORMATS).default('csv'),
  labels: z.enum(['codes', 'names']).default('codes'),
  /** ODM only: the audit trail (history, users, record status); `false` for a smaller snapshot. */
  audit: z.enum(['true', 'false']).default('true'),
});
export const crfUploadBody = z.object({
  fileName: safeText(255, { min: 1 }),
  contentType: z.string().min(1).max(100),
  dataBase64: z
    .string()
    .min(1)
    .max(Math.ceil(CRF_UPLOAD_MAX_BYTES * 1.4)),
});
export type CrfUploadBody = z.input<typeof crfUploadBody>;

export const crfRecordListQuery = z.object({
  ...paging,
  status: z.enum(CRF_RECORD_STATUSES).optional(),
  subject: safeText(100).optional(),
  /** Records of one patient (linked by the patient, whatever their subject code). */
  patientId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type CrfRecordListQuery = z.input<typeof crfRecordListQuery>;
/** Patients of the app a record may be for, by name or medical record number (a picker that searches as one types). */
export const crfPatientQuery = z.object({
  keyword: safeText(100).optional(),
  size: z.coerce.number().int().min(1).max(50).default(20),
});
export type CrfPatientQuery = z.input<typeof crfPatientQuery>;
/** A structured case record (HL7 CDA / C-CDA XML) to prefill a form from; nothing is stored. */
export const crfPrefillBody = z.object({ xml: z.string().min(1).max(5_000_000) });

/** An entry of a case record or of the patient's clinical data, as a prefill read it. */
const prefillEntry = z.object({
  section: z.string(),
  code: z.string().optional(),
  codeSystem: z.string().optional(),
  otherCodes: z.array(z.string()).optional(),
  displayName: z.string().optional(),
  value: z.string().optional(),
  valueCode: z.string().optional(),
  unit: z.string().optional(),
  text: z.string().optional(),
  drug: z.string().optional(),
  at: z.string().optional(),
});
const item = z.string();
/** Why an entry was not placed: a code and what wording it needs (record.ts, PrefillReason). */
const prefillReason = z.discriminatedUnion('code', [
  z.object({ code: z.literal('noItem') }),
  z.object({ code: z.literal('notAnOption'), item, value: z.string() }),
  z.object({ code: z.literal('noValue'), item }),
  z.object({ code: z.literal('notANumber'), item, value: z.string() }),
  z.object({ code: z.literal('unitNotConvertible'), item, unit: z.string(), target: z.string() }),
  z.object({ code: z.literal('severalBlanks'), item }),
  z.object({ code: z.literal('itemCannotTake'), item, type: z.string() }),
  z.object({ code: z.literal('closerMatchHeld'), item }),
  z.object({ code: z.literal('closerMatchTaken'), item }),
]);

/**
 * What a prefill found: the answers it placed, the entry behind each, and each entry it could not
 * place with the reason (`why` coded, `reason` in English).
 */
export const crfPrefillResult = z.object({
  answers: z.record(z.string(), z.unknown()),
  placed: z.record(z.string(), prefillEntry),
  unmatched: z.array(z.object({ entry: prefillEntry, reason: z.string(), why: prefillReason })),
});
export type CrfPrefillResult = z.infer<typeof crfPrefillResult>;

/** The patient whose clinical data (CDR) prefills a record, and the day it is as of. */
export const crfCdrPrefillBody = z
  .object({
    patient_id: serialId,
    /** Only what was measured or recorded up to the end of this day (default: today). */
    as_of: isoDateSchema().optional(),
  })
  .strict();
export type CrfCdrPrefillBody = z.input<typeof crfCdrPrefillBody>;

export const crfRecordCreateBody = z.object({
  version: serialId.optional(),
  ...subject,
  answers,
  methods: methods.default({}),
  submit: z.boolean().default(false),
  assignedTo: serialId.optional(),
});
export type CrfRecordCreateBody = z.input<typeof crfRecordCreateBody>;
export const crfRecordSaveBody = z.object({
  answers,
  methods: methods.default({}),
  submit: z.boolean().default(false),
  /** The revision the edit started from; another save since then answers 409 `crf.stale`. */
  revision: serialId,
  /** A reason for each changed item of a submitted record, by item key. */
  reasons: z.record(z.string().min(1).max(CRF_ITEM_KEY_MAX), reason).default({}),
  /** One reason for every changed item that has none of its own. */
  reason: reason.optional(),
  ...subject,
});
export type CrfRecordSaveBody = z.input<typeof crfRecordSaveBody>;
export const crfHistoryQuery = z.object({ item: z.string().min(1).max(CRF_ITEM_KEY_MAX).optional() });
/** Verify and lock take an optional reason; unlock needs one. */
export const crfTransitionBody = z.object({ reason: reason.default('') });
export const crfUnlockBody = z.object({ reason: reason.pipe(z.string().min(1)) });
export const crfDeleteBody = z.object({ reason: reason.pipe(z.string().min(1, 'a reason is required')) });
export const crfAssignBody = z.object({ userId: serialId });

// ---- Responses ------------------------------------------------------------------------------

export const crfProblem = z.object({
  code: z.enum([
    'unknownKey',
    'duplicateKey',
    'unknownCondition',
    'unknownFunction',
    'cycle',
    'conditionNotApplicable',
    'minExceedsMax',
    'noItems',
  ] satisfies ProblemCode[]),
  detail: z
    .enum([
      'indicatorUnknown',
      'targetUnknown',
      'fieldUnknown',
      'kindMismatch',
      'noOrder',
      'notNumber',
      'notDate',
      'notOption',
      'valueRange',
      'lengthRange',
      'choiceRange',
    ] satisfies ProblemDetail[])
    .optional(),
  /** Where in the form: item key, or rule location. */
  at: z.string(),
  /** English text for logs and API readers; screens word the problem by code, detail and params. */
  message: z.string(),
  keys: z.array(z.string()).optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
}) satisfies z.ZodType<Problem>;
/** What `analyzeForm` finds in a draft. */
export const crfProblems = z.object({ problems: z.array(crfProblem) });
export type CrfProblems = z.infer<typeof crfProblems>;

/** A row of the form list. */
export const crfFormSummary = z.object({
  id: int,
  name: z.string(),
  category: z.string(),
  status: z.enum(CRF_FORM_STATUSES),
  /** Number of the latest published version; 0 while never published. */
  latestVersion: int,
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Records of the form, deleted ones left out. */
  records: int,
});
export type CrfFormSummary = z.infer<typeof crfFormSummary>;

/** A form with its draft, as created, changed or copied. */
export const crfForm = z.object({
  id: int,
  appId: int,
  name: z.string(),
  category: z.string(),
  status: z.enum(CRF_FORM_STATUSES),
  draft: formDocument,
  latestVersion: int,
  createdBy: int.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type CrfForm = z.infer<typeof crfForm>;

export const crfVersionSummary = z.object({
  id: int,
  version: int,
  note: z.string(),
  publishedAt: timestamp,
});
export type CrfVersionSummary = z.infer<typeof crfVersionSummary>;

/** A form opened in the designer: its versions and its draft's problems (a free link: no draft). */
export const crfFormDetail = crfForm.extend({
  draft: formDocument.nullable(),
  versions: z.array(crfVersionSummary),
  problems: z.array(crfProblem),
});
export type CrfFormDetail = z.infer<typeof crfFormDetail>;

/** One immutable published version. */
export const crfVersion = z.object({
  id: int,
  appId: int,
  formId: int,
  version: int,
  definition: formDocument,
  note: z.string(),
  publishedBy: int.nullable(),
  publishedAt: timestamp,
});
export type CrfVersion = z.infer<typeof crfVersion>;

const tally = z.object({ total: int, translated: int, notTranslated: int });
export const crfImported = z.object({
  form: crfForm,
  /** What the importer could not translate, one line each. */
  unsupported: z.array(z.string()),
  /** REDCap data dictionary: how many fields were imported, rules, calculations and action tags translated. */
  counts: z
    .object({
      fields: z.object({ total: int, imported: int, notImported: int }),
      branching: tally,
      calculations: tally,
      actionTags: tally,
    })
    .optional(),
});
export type CrfImported = z.infer<typeof crfImported>;
export const crfStudyImported = z.object({
  study: z.string(),
  /** One per FormDef with items, in the protocol's order. */
  forms: z.array(z.object({ formOid: z.string(), form: crfForm, unsupported: z.array(z.string()) })),
  /** FormDefs left out (no items), one line each. */
  skipped: z.array(z.string()),
});
export type CrfStudyImported = z.infer<typeof crfStudyImported>;
/** Records stored from a ClinicalData import: all of the file's records of the form, or none. */
export const crfRecordsImported = z.object({
  formOid: z.string(),
  records: z.array(
    z.object({
      id: int,
      subjectCode: z.string(),
      patientId: int.nullable(),
      /** Where in the file: study event, repeat, form repeat. */
      source: z.string(),
      /** Changes of its audit trail kept in the record's history. */
      changes: int,
    }),
  ),
  /** Values left out on purpose (a REDCap file field's marker: the file is not in the export). */
  notes: z.array(z.string()),
});
export type CrfRecordsImported = z.infer<typeof crfRecordsImported>;

/** A stored file of an upload item: the value the item keeps. */
export const crfUploaded = z.object({ uploadId: int, name: z.string(), size: int, type: z.string() });
export type CrfUploaded = z.infer<typeof crfUploaded>;

/** A row of a form's record list. */
export const crfRecordRow = z.object({
  id: int,
  formId: int,
  version: int,
  patientId: int.nullable(),
  patientName: z.string().nullable(),
  /** The linked patient's medical record number (null: the record is for a subject code only). */
  patientMrn: z.string().nullable(),
  subjectCode: z.string(),
  status: z.enum(CRF_RECORD_STATUSES),
  revision: int,
  createdByName: z.string(),
  updatedByName: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type CrfRecordRow = z.infer<typeof crfRecordRow>;

export const crfRecord = z.object({
  id: int,
  appId: int,
  formId: int,
  versionId: int,
  patientId: int.nullable(),
  subjectCode: z.string(),
  answers: z.record(z.string(), jsonValue),
  /** For each computed item: machine or manual. */
  methods: z.record(z.string(), z.string()),
  status: z.enum(CRF_RECORD_STATUSES),
  statusBeforeLock: z.enum(CRF_RECORD_STATUSES).nullable(),
  assignedTo: int.nullable(),
  freeKeyId: int.nullable(),
  createdBy: int.nullable(),
  createdByName: z.string(),
  updatedByName: z.string(),
  /** Optimistic concurrency: a save names the revision it started from. */
  revision: int,
  createdAt: timestamp,
  updatedAt: timestamp,
  submittedAt: timestampOrNull,
  lockedAt: timestampOrNull,
  /** Set when the record was deleted (it stays readable with its history). */
  deletedAt: timestampOrNull,
  deletedBy: int.nullable(),
  deletedByName: z.string().nullable(),
  deleteReason: z.string().nullable(),
});
export type CrfRecord = z.infer<typeof crfRecord>;

/** A record with the exact form version it was filled against. */
export const crfRecordDetail = z.object({
  record: crfRecord,
  form: z.object({ id: int, name: z.string(), category: z.string(), latestVersion: int }),
  version: z.object({ id: int, version: int, definition: formDocument }),
  /** The patient the record is for; null while it carries a subject code only (not linked). */
  patient: z.object({ id: int, name: z.string(), mrn: z.string() }).nullable(),
});
export type CrfRecordDetail = z.infer<typeof crfRecordDetail>;

export const crfRecordSaved = z.object({
  record: crfRecord,
  /** Keys of the items whose answer changed. */
  changed: z.array(z.string()),
});
export type CrfRecordSaved = z.infer<typeof crfRecordSaved>;

/** One change of a record: an item's old and new value with the reason, or an event (`@submit`, `@lock`…). */
export const crfChange = z.object({
  id: int,
  itemKey: z.string(),
  oldValue: jsonValue,
  newValue: jsonValue,
  reason: z.string(),
  userName: z.string(),
  changedAt: timestamp,
});
export type CrfChange = z.infer<typeof crfChange>;

export const crfRecordDeleted = z.object({
  id: int,
  deletedAt: timestamp,
  deleteReason: z.string().nullable(),
});
export type CrfRecordDeleted = z.infer<typeof crfRecordDeleted>;

export const crfRecordAssigned = z.object({ id: int });

/**
 * A save the engine refused (HTTP 400, `errorCode: 'crf.invalid'`): each issue at its item, in
 * the reader's language.
 */
export interface CrfSubmissionIssue {
  key: string;
  path: string;
  page: number;
  question: number;
  code: IssueCode;
  message: string;
  blank?: number;
  row?: number;
}

export const crfFormPage = page(crfFormSummary);
export type CrfFormPage = z.infer<typeof crfFormPage>;
export const crfRecordPage = page(crfRecordRow);
export type CrfRecordPage = z.infer<typeof crfRecordPage>;

/** A patient a record may be for: what the picker shows (name, MRN, sex, birth date). */
export const crfPatientOption = z.object({
  id: int,
  name: z.string(),
  mrn: z.string(),
  gender: int,
  birthDate: z.string().nullable(),
});
export type CrfPatientOption = z.infer<typeof crfPatientOption>;
export const crfPatientList = z.object({ items: z.array(crfPatientOption) });
export type CrfPatientList = z.infer<typeof crfPatientList>;
