import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { page, pageQueryFields, stamps, timestamp } from './common.js';
import { type JobStatus, jobStatus } from './jobs.js';

/**
 * Data quality control (数据质控, `/api/v0.1/data-qc/...`): rules over the clinical data
 * repository, plans that group them, tasks that run a plan as a job, and each task's report.
 */

export const QC_RULE_KINDS = [
  'required',
  'range',
  'pattern',
  'allowed',
  'date_order',
  'future_date',
] as const;
export type QcRuleKind = (typeof QC_RULE_KINDS)[number];
export const QC_SEVERITIES = ['error', 'warning'] as const;
export type QcSeverity = (typeof QC_SEVERITIES)[number];
export const QC_COLUMN_TYPES = ['text', 'number', 'date', 'datetime'] as const;
export type QcColumnType = (typeof QC_COLUMN_TYPES)[number];
/** A task's status is its job's (a job can be cancelled before it runs). */
export type QcTaskStatus = JobStatus;

/** Limits of the rule and plan forms (the server's schema and the web's form rules). */
export const QC_NAME_MAX = 100;
export const QC_DESCRIPTION_MAX = 500;
export const QC_PATTERN_MAX = 200;
export const QC_VALUE_MAX = 100;
export const QC_VALUES_MAX = 200;
export const QC_PLAN_RULES_MAX = 100;

const key = z.string().max(40);
const serialId = z.coerce.number().int().positive().max(2_147_483_647);
const finite = z.number().min(-1e15).max(1e15);
const int = z.number().int();

// ---- Requests -------------------------------------------------------------------------------

export const qcRuleInput = z.object({
  name: safeText(QC_NAME_MAX, { min: 1 }),
  description: safeText(QC_DESCRIPTION_MAX, { multiline: true }).default(''),
  table: key,
  kind: z.enum(QC_RULE_KINDS),
  column: key,
  severity: z.enum(QC_SEVERITIES).default('error'),
  enabled: z.boolean().default(true),
  /** range: bounds, inclusive; at least one. */
  min: finite.nullish(),
  max: finite.nullish(),
  /** pattern: a regular expression the whole value must match (anchor it yourself). */
  pattern: z.string().max(QC_PATTERN_MAX).nullish(),
  /** allowed: the values accepted. */
  values: z.array(z.string().max(QC_VALUE_MAX)).max(QC_VALUES_MAX).nullish(),
  /** date_order: the column that must not be earlier than `column`. */
  otherColumn: key.nullish(),
  /** Any kind: check only rows whose `filterColumn` equals `filterValue` (e.g. item code ALT). */
  filterColumn: key.nullish(),
  filterValue: z.string().max(QC_VALUE_MAX).nullish(),
});
/** A rule as the server reads it (defaults applied). */
export type QcRuleInput = z.infer<typeof qcRuleInput>;
/** A rule as the web sends it (defaults may be left out). */
export type QcRuleBody = z.input<typeof qcRuleInput>;

export const qcPlanInput = z.object({
  name: safeText(QC_NAME_MAX, { min: 1 }),
  description: safeText(QC_DESCRIPTION_MAX, { multiline: true }).default(''),
  enabled: z.boolean().default(true),
  ruleIds: z.array(serialId).min(1).max(QC_PLAN_RULES_MAX),
});
export type QcPlanInput = z.infer<typeof qcPlanInput>;
export type QcPlanBody = z.input<typeof qcPlanInput>;

export const qcTaskInput = z.object({ planId: serialId });

const pageFields = pageQueryFields(200);
export const qcListQuery = z.object({
  ...pageFields,
  keyword: z.string().max(100).optional(),
  enabled: z.enum(['true', 'false']).optional(),
});
export type QcListQuery = z.infer<typeof qcListQuery>;
export const qcPageQuery = z.object(pageFields);
export const qcFaultQuery = z.object({
  ...pageFields,
  taskRuleId: serialId.optional(),
  keyword: z.string().max(100).optional(),
});
export type QcFaultQuery = z.infer<typeof qcFaultQuery>;
export const qcExportQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });

// ---- Responses ------------------------------------------------------------------------------

/** A list page of the data-QC screens: the rows, the total, and the page asked for. */
export const qcPage = <T extends z.ZodType>(item: T) => page(item).extend({ page: int, size: int });
export type QcPage<T> = { items: T[]; total: number; page: number; size: number };

export const qcCatalogue = z.object({
  kinds: z.array(
    z.object({ key: z.enum(QC_RULE_KINDS), label: z.string(), types: z.array(z.enum(QC_COLUMN_TYPES)) }),
  ),
  tables: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      columns: z.array(z.object({ key: z.string(), label: z.string(), type: z.enum(QC_COLUMN_TYPES) })),
    }),
  ),
});
export type QcCatalogue = z.infer<typeof qcCatalogue>;

export const qcRule = z.object({
  id: int,
  name: z.string(),
  description: z.string(),
  table: z.string(),
  kind: z.enum(QC_RULE_KINDS),
  column: z.string(),
  severity: z.enum(QC_SEVERITIES),
  enabled: z.boolean(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  pattern: z.string().nullable(),
  values: z.array(z.string()).nullable(),
  otherColumn: z.string().nullable(),
  filterColumn: z.string().nullable(),
  filterValue: z.string().nullable(),
  ...stamps,
});
export type QcRule = z.infer<typeof qcRule>;

export const qcPlan = z.object({
  id: int,
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  ruleIds: z.array(int),
  /** The plan's rules in order; a rule disabled since is skipped when the plan runs. */
  rules: z.array(
    z.object({
      id: int,
      name: z.string(),
      kind: z.enum(QC_RULE_KINDS),
      table: z.string(),
      column: z.string(),
      severity: z.enum(QC_SEVERITIES),
      enabled: z.boolean(),
    }),
  ),
  ...stamps,
});
export type QcPlan = z.infer<typeof qcPlan>;

export const qcTask = z.object({
  id: int,
  planId: int.nullable(),
  planName: z.string(),
  jobId: int.nullable(),
  status: jobStatus,
  progress: z.number(),
  /** Why the job failed, in the reader's language. */
  error: z.string().nullable(),
  createdByName: z.string(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  rules: int,
  skipped: int,
  checked: int,
  faults: int,
});
export type QcTask = z.infer<typeof qcTask>;

export const qcReportRule = z.object({
  /** The task's copy of the rule (`taskRuleId` of the faults). */
  id: int,
  /** The rule it was copied from; null once that rule is deleted. */
  ruleId: int.nullable(),
  name: z.string(),
  kind: z.enum(QC_RULE_KINDS),
  kindLabel: z.string(),
  table: z.string(),
  tableLabel: z.string(),
  condition: z.string(),
  severity: z.enum(QC_SEVERITIES),
  skipped: z.boolean(),
  checked: int,
  faults: int,
  stored: int,
  /** Share of checked rows without fault; null when skipped or nothing was checked. */
  passRate: z.number().nullable(),
});
export type QcReportRule = z.infer<typeof qcReportRule>;

export const qcReport = z.object({
  task: qcTask,
  overall: z.object({
    rules: int,
    skipped: int,
    checked: int,
    faults: int,
    passRate: z.number().nullable(),
    errorFaults: int,
    warningFaults: int,
    patientsWithFaults: int,
  }),
  rules: z.array(qcReportRule),
});
export type QcReport = z.infer<typeof qcReport>;

export const qcFault = z.object({
  id: int,
  taskRuleId: int,
  ruleName: z.string(),
  severity: z.enum(QC_SEVERITIES),
  table: z.string(),
  tableLabel: z.string(),
  rowId: int,
  patientId: int,
  patientName: z.string().nullable(),
  patientMrn: z.string().nullable(),
  /** The checked value (identity masked for readers without the patient-details function). */
  value: z.string().nullable(),
  otherValue: z.string().nullable(),
  message: z.string(),
});
export type QcFault = z.infer<typeof qcFault>;

/** The id of a rule, plan or task just deleted. */
export const qcDeleted = z.object({ id: int });
export type QcDeleted = z.infer<typeof qcDeleted>;
