import { z } from 'zod';
import { CLEANING_SECTIONS } from '../cleaning/sections.js';
import { safeText } from '../helpers/control-chars.js';
import { isoDateSchema } from '../helpers/iso-date.js';
import { itemList, page, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';

/**
 * Medical-record QC (病历质控, menus RecordQcRule / RecordQcPlan / RecordQcTask, all POST under
 * /api/v0.1/record-qc). The checks are a small built-in catalogue about clinical documents and
 * their timing; an app turns each on or off and sets its parameters. A plan picks checks and a
 * scope of inpatient visits (departments, admission dates); a task runs a plan as a job and keeps
 * the faults it finds. Server: apps/server/src/record-qc; web: apps/web/src/pages/record-qc.
 */

export const RECORD_QC_CHECKS = [
  'admission_note_timely',
  'first_progress_timely',
  'discharge_summary_timely',
  'discharge_summary_present',
  'admission_note_sections',
  'progress_note_copied',
  'surgery_record_timely',
  'discharge_diagnosis_in_notes',
  'operation_record_matches',
] as const;
export type RecordQcCheck = (typeof RECORD_QC_CHECKS)[number];
export const RECORD_QC_SEVERITIES = ['warning', 'error'] as const;
export type RecordQcSeverity = (typeof RECORD_QC_SEVERITIES)[number];
export const RECORD_QC_CATEGORIES = ['timeliness', 'completeness', 'consistency', 'content'] as const;
export type RecordQcCategory = (typeof RECORD_QC_CATEGORIES)[number];

/** Parameters of a check: hours (timeliness checks), required sections (sections check), points deducted per fault. */
export const recordQcParams = z
  .object({
    hours: z.number().int().min(1).max(720).optional(),
    sections: z.array(z.enum(CLEANING_SECTIONS)).min(1).max(CLEANING_SECTIONS.length).optional(),
    /** Points one fault takes off the visit's 100. */
    points: z.number().int().min(0).max(100),
  })
  .strict();
export type RecordQcParams = z.infer<typeof recordQcParams>;

/** The catalogue: what each check is about, its severity and default parameters. */
export const RECORD_QC_CATALOGUE: Record<
  RecordQcCheck,
  { category: RecordQcCategory; severity: RecordQcSeverity; defaults: RecordQcParams }
> = {
  admission_note_timely: { category: 'timeliness', severity: 'error', defaults: { hours: 24, points: 5 } },
  first_progress_timely: { category: 'timeliness', severity: 'warning', defaults: { hours: 8, points: 3 } },
  discharge_summary_timely: {
    category: 'timeliness',
    severity: 'warning',
    defaults: { hours: 24, points: 3 },
  },
  discharge_summary_present: { category: 'completeness', severity: 'error', defaults: { points: 10 } },
  admission_note_sections: {
    category: 'completeness',
    severity: 'error',
    defaults: {
      sections: [
        'chief_complaint',
        'present_illness',
        'past_history',
        'physical_exam',
        'admission_diagnosis',
      ],
      points: 2,
    },
  },
  progress_note_copied: { category: 'content', severity: 'warning', defaults: { points: 2 } },
  surgery_record_timely: { category: 'timeliness', severity: 'error', defaults: { hours: 24, points: 5 } },
  discharge_diagnosis_in_notes: { category: 'consistency', severity: 'warning', defaults: { points: 3 } },
  operation_record_matches: { category: 'consistency', severity: 'error', defaults: { points: 5 } },
};

const id = z.number().int().positive().max(2_147_483_647);

export const recordQcRule = z.object({
  code: z.enum(RECORD_QC_CHECKS),
  category: z.enum(RECORD_QC_CATEGORIES),
  severity: z.enum(RECORD_QC_SEVERITIES),
  enabled: z.boolean(),
  params: recordQcParams,
  updatedAt: timestampOrNull,
});
export type RecordQcRule = z.infer<typeof recordQcRule>;
export const recordQcRuleList = itemList(recordQcRule);
export type RecordQcRuleList = z.infer<typeof recordQcRuleList>;

export const recordQcRuleSaveBody = z
  .object({ code: z.enum(RECORD_QC_CHECKS), enabled: z.boolean(), params: recordQcParams })
  .strict();

/** A date that exists (2026-02-30 is refused with a 400, not passed on to PostgreSQL). */
const dateText = isoDateSchema();

export const recordQcPlan = z.object({
  id: z.number().int(),
  name: z.string(),
  checks: z.array(z.enum(RECORD_QC_CHECKS)),
  departments: z.array(z.string()),
  admitFrom: z.string().nullable(),
  admitTo: z.string().nullable(),
  updatedAt: timestamp,
});
export type RecordQcPlan = z.infer<typeof recordQcPlan>;
export const recordQcPlanList = itemList(recordQcPlan);
export type RecordQcPlanList = z.infer<typeof recordQcPlanList>;

export const recordQcPlanSaveBody = z
  .object({
    /** Without an id a new plan (needs RecordQcPlan.add). */
    id: id.optional(),
    name: safeText(60, { min: 1 }),
    checks: z.array(z.enum(RECORD_QC_CHECKS)).min(1).max(RECORD_QC_CHECKS.length),
    /** Departments as the visits write them; none = every department. */
    departments: z
      .array(safeText(60, { min: 1 }))
      .max(50)
      .default([]),
    admitFrom: dateText.nullable().default(null),
    admitTo: dateText.nullable().default(null),
  })
  .strict()
  .refine((b) => !b.admitFrom || !b.admitTo || b.admitFrom <= b.admitTo, {
    path: ['admitTo'],
    message: 'admitTo before admitFrom',
  });
export const recordQcIdBody = z.object({ id }).strict();
export const recordQcTaskIdBody = z.object({ task_id: id }).strict();

export const recordQcTask = z.object({
  id: z.number().int(),
  planId: z.number().int().nullable(),
  planName: z.string(),
  /** The job's status (a task whose job is gone: succeeded when it finished, else failed). */
  status: jobStatus,
  progress: z.number(),
  visits: z.number().int(),
  faults: z.number().int(),
  createdAt: timestamp,
  finishedAt: timestampOrNull,
});
export type RecordQcTask = z.infer<typeof recordQcTask>;
export const recordQcTaskList = itemList(recordQcTask);
export type RecordQcTaskList = z.infer<typeof recordQcTaskList>;
export const recordQcTaskStarted = z.object({ taskId: z.number().int(), jobId: z.number().int() });

export const recordQcFaultsBody = z
  .object({
    task_id: id,
    department: safeText(60).optional(),
    doctor: safeText(50).optional(),
    document_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    page: z.number().int().min(1).max(100_000).default(1),
    size: z.number().int().min(1).max(200).default(20),
  })
  .strict();
export const recordQcFault = z.object({
  id: z.number().int(),
  check: z.enum(RECORD_QC_CHECKS),
  severity: z.enum(RECORD_QC_SEVERITIES),
  points: z.number().int(),
  visitId: z.number().int(),
  patientId: z.number().int(),
  patientName: z.string(),
  mrn: z.string(),
  documentId: z.number().int().nullable(),
  /** The document's title ('' when the fault is about the stay, not one document). */
  documentTitle: z.string(),
  department: z.string(),
  /** The doctor answerable: the document's author, else the stay's doctor ('' unknown). */
  doctor: z.string(),
  admitAt: timestamp,
  /** What is wrong, in the reader's language. */
  message: z.string(),
});
export type RecordQcFault = z.infer<typeof recordQcFault>;
export const recordQcFaultPage = page(recordQcFault);
export type RecordQcFaultPage = z.infer<typeof recordQcFaultPage>;

/**
 * A department's score: each of its visits in scope starts at 100 and loses the points of its
 * faults (never below 0); the score is the mean over the visits, one decimal.
 */
export const recordQcScore = z.object({
  department: z.string(),
  visits: z.number().int(),
  faultyVisits: z.number().int(),
  faults: z.number().int(),
  deducted: z.number().int(),
  score: z.number(),
});
export type RecordQcScore = z.infer<typeof recordQcScore>;
export const recordQcScoreList = itemList(recordQcScore);
export type RecordQcScoreList = z.infer<typeof recordQcScoreList>;
export const recordQcExportQuery = z.object({
  task_id: z.coerce.number().int().positive().max(2_147_483_647),
  format: z.enum(['csv', 'xlsx']).default('csv'),
});

/**
 * A doctor's score: each stay the doctor is answerable for (in charge of it, wrote one of its
 * notes or operated) starts at 100 and loses the points of the faults laid to that doctor; the
 * mean over those stays, one decimal. '' gathers the faults of stays without a named doctor.
 */
export const recordQcDoctorScore = z.object({
  doctor: z.string(),
  visits: z.number().int(),
  faultyVisits: z.number().int(),
  faults: z.number().int(),
  deducted: z.number().int(),
  score: z.number(),
});
export type RecordQcDoctorScore = z.infer<typeof recordQcDoctorScore>;
export const recordQcDoctorScoreList = itemList(recordQcDoctorScore);
export type RecordQcDoctorScoreList = z.infer<typeof recordQcDoctorScoreList>;

export const recordQcDocumentsBody = z
  .object({
    task_id: id,
    page: z.number().int().min(1).max(100_000).default(1),
    size: z.number().int().min(1).max(200).default(20),
  })
  .strict();
export type RecordQcDocumentsBody = z.input<typeof recordQcDocumentsBody>;
/** A document with faults: 100 minus its faults' points (not below 0); the worst first. */
export const recordQcDocumentScore = z.object({
  documentId: z.number().int(),
  kind: z.string(),
  title: z.string(),
  author: z.string(),
  writtenAt: timestamp,
  patientId: z.number().int(),
  patientName: z.string(),
  mrn: z.string(),
  department: z.string(),
  faults: z.number().int(),
  deducted: z.number().int(),
  score: z.number(),
});
export type RecordQcDocumentScore = z.infer<typeof recordQcDocumentScore>;
export const recordQcDocumentPage = page(recordQcDocumentScore);
export type RecordQcDocumentPage = z.infer<typeof recordQcDocumentPage>;

export const recordQcTrendBody = z.object({ task_id: id, department: safeText(60).optional() }).strict();
/** The score per admission month (Beijing time) of the task's stays: the trend. */
export const recordQcTrendPoint = z.object({
  period: z.string(),
  visits: z.number().int(),
  faultyVisits: z.number().int(),
  faults: z.number().int(),
  score: z.number(),
});
export type RecordQcTrendPoint = z.infer<typeof recordQcTrendPoint>;
export const recordQcTrend = itemList(recordQcTrendPoint);
export type RecordQcTrend = z.infer<typeof recordQcTrend>;
export const recordQcRunBody = z.object({ plan_id: id }).strict();
export type RecordQcRuleSaveBody = z.input<typeof recordQcRuleSaveBody>;
export type RecordQcPlanSaveBody = z.input<typeof recordQcPlanSaveBody>;
export type RecordQcFaultsBody = z.input<typeof recordQcFaultsBody>;
/** The departments the app's inpatient stays name, for a plan's scope. */
export const recordQcDepartmentList = z.object({ items: z.array(z.string()) });
