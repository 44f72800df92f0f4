import { z } from 'zod';
import { refuseControlChars } from '../helpers/control-chars.js';
import { importFault, importReport, pageQueryFields, stamps, timestamp, timestampOrNull } from './common.js';
import { jobStatus } from './jobs.js';

/**
 * The OMOP CDM area (`/api/v0.1/omop/...`, server: omop/): source-to-concept maps
 * (OmopMappingManage), the rules that say which clinical table goes to which CDM table
 * (OmopActiveMappingRule) and export tasks (OmopActiveMappingTask).
 */

/** The CDM tables CRDP writes, in the order of the ZIP. */
export const CDM_TABLES = [
  'person',
  'observation_period',
  'visit_occurrence',
  'condition_occurrence',
  'drug_exposure',
  'measurement',
] as const;
export type CdmTable = (typeof CDM_TABLES)[number];

/** The vocabulary kinds of a source-to-concept map. */
export const OMOP_MAPPING_KINDS = ['condition', 'measurement', 'drug', 'gender', 'visit', 'unit'] as const;
export type OmopMappingKind = (typeof OMOP_MAPPING_KINDS)[number];

/** The clinical tables a rule may read. */
export const OMOP_SOURCE_TABLES = ['patients', 'visits', 'diagnoses', 'lab_results', 'orders'] as const;
export type OmopSourceTable = (typeof OMOP_SOURCE_TABLES)[number];

/** Limits of the OMOP forms (the server's schemas and the web's form rules). */
/** The length of the CDM's *_source_value columns. */
export const OMOP_SOURCE_CODE_MAX = 50;
export const OMOP_CONCEPT_NAME_MAX = 255;
export const OMOP_NOTE_MAX = 500;
/** Rule and task names. */
export const OMOP_NAME_MAX = 100;
export const OMOP_CONCEPT_ID_MAX = 2_147_483_647;

const int = z.number().int();
const serialId = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * Text of at most `max` UTF-16 units without control characters or lone surrogates, trimmed;
 * `min` counts what remains after trimming ("must not be blank", 不能为空).
 */
export const omopText = (max: number, min = 0) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, { message: `must be at most ${max} characters` })
    .superRefine(refuseControlChars())
    .superRefine((s, ctx) => {
      if (min && s.trim().length < min)
        ctx.addIssue({
          code: 'too_small',
          origin: 'string',
          minimum: min,
          inclusive: true,
          input: s,
          message: 'must not be blank',
        });
    })
    .transform((s) => s.trim());

/** Bodies of calls that take none: an empty object, nothing else. */
export const omopEmptyBody = z.object({}).strict();

// ---- Source-to-concept maps -----------------------------------------------------------------

export const omopMappingParams = z.object({ mappingId: serialId });

export const omopMappingInput = z.object({
  kind: z.enum(OMOP_MAPPING_KINDS),
  sourceCode: omopText(OMOP_SOURCE_CODE_MAX, 1),
  conceptId: z.number().int().positive().max(OMOP_CONCEPT_ID_MAX),
  conceptName: omopText(OMOP_CONCEPT_NAME_MAX, 1),
  note: omopText(OMOP_NOTE_MAX).optional(),
});
export type OmopMappingInput = z.infer<typeof omopMappingInput>;
export type OmopMappingBody = z.input<typeof omopMappingInput>;

export const omopMappingQuery = z.object({
  kind: z.enum(OMOP_MAPPING_KINDS).optional(),
  keyword: omopText(OMOP_SOURCE_CODE_MAX).optional(),
  ...pageQueryFields(200),
});
export type OmopMappingQuery = z.infer<typeof omopMappingQuery>;

export const omopMappingImportInput = z.object({
  fileName: omopText(200, 1),
  /** The CSV text; columns kind, source_code, concept_id, concept_name (note optional). */
  text: z.string().min(1).max(5_000_000),
});
export type OmopMappingImportBody = z.input<typeof omopMappingImportInput>;

export const omopMapping = z.object({
  id: int,
  kind: z.enum(OMOP_MAPPING_KINDS),
  sourceCode: z.string(),
  conceptId: int,
  conceptName: z.string(),
  note: z.string(),
  ...stamps,
});
export type OmopMapping = z.infer<typeof omopMapping>;

/** A map every hospital gets without a vocabulary download; `overridden` when the app has its own. */
export const omopBuiltinMapping = z.object({
  kind: z.enum(OMOP_MAPPING_KINDS),
  sourceCode: z.string(),
  conceptId: int,
  conceptName: z.string(),
  overridden: z.boolean(),
});
export type OmopBuiltinMapping = z.infer<typeof omopBuiltinMapping>;

export const omopMappingPage = z.object({
  total: int,
  page: int,
  size: int,
  items: z.array(omopMapping),
  builtin: z.array(omopBuiltinMapping),
});
export type OmopMappingPage = z.infer<typeof omopMappingPage>;

/** One bad row of an import (the shared CSV import report of contracts/common.ts). */
export const omopImportFault = importFault;
export type OmopImportFault = z.infer<typeof omopImportFault>;

/** An import's report: all rows stored, or none and the bad rows (at most 1000 listed). */
export const omopImportReport = importReport;
export type OmopImportReport = z.infer<typeof omopImportReport>;

// ---- Rules ----------------------------------------------------------------------------------

export const omopRuleParams = z.object({ ruleId: serialId });

export const omopRuleInput = z.object({
  sourceTable: z.enum(OMOP_SOURCE_TABLES),
  targetTable: z.enum(CDM_TABLES),
  name: omopText(OMOP_NAME_MAX).optional(),
  note: omopText(OMOP_NOTE_MAX).optional(),
  enabled: z.boolean().optional(),
});
export type OmopRuleInput = z.infer<typeof omopRuleInput>;
export type OmopRuleBody = z.input<typeof omopRuleInput>;

/** Renaming a rule or task, or changing its note. */
const omopNamePatch = z.object({
  name: omopText(OMOP_NAME_MAX, 1),
  note: omopText(OMOP_NOTE_MAX).optional(),
});

export const omopRulePatch = omopNamePatch;
export type OmopRulePatch = z.infer<typeof omopRulePatch>;

/** A rule in effect; a built-in one the app has not stored yet has no id and no update time. */
export const omopRule = z.object({
  id: int.nullable(),
  name: z.string(),
  sourceTable: z.enum(OMOP_SOURCE_TABLES),
  targetTable: z.enum(CDM_TABLES),
  enabled: z.boolean(),
  builtin: z.boolean(),
  note: z.string(),
  updatedAt: timestampOrNull,
});
export type OmopRule = z.infer<typeof omopRule>;

export const omopRuleList = z.object({
  /** False while the app uses the built-in set without having written it. */
  stored: z.boolean(),
  items: z.array(omopRule),
  /** Every supported pair, named in the reader's language. */
  catalogue: z.array(
    z.object({ sourceTable: z.enum(OMOP_SOURCE_TABLES), targetTable: z.enum(CDM_TABLES), name: z.string() }),
  ),
});
export type OmopRuleList = z.infer<typeof omopRuleList>;

// ---- Export tasks ---------------------------------------------------------------------------

export const omopTaskParams = z.object({ taskId: serialId });

export const omopTaskInput = z.object({
  name: omopText(OMOP_NAME_MAX).optional(),
  note: omopText(OMOP_NOTE_MAX).optional(),
});
export type OmopTaskInput = z.infer<typeof omopTaskInput>;
export type OmopTaskBody = z.input<typeof omopTaskInput>;

export const omopTaskPatch = omopNamePatch;
export type OmopTaskPatch = z.infer<typeof omopTaskPatch>;

export const omopTaskQuery = z.object(pageQueryFields(100));
export type OmopTaskQuery = z.infer<typeof omopTaskQuery>;

/** Codes of one vocabulary kind that no map covers (their rows carry concept 0). */
export const omopUnmapped = z.object({
  /** Rows that carry concept 0 for this kind. */
  rows: int,
  /** Distinct source codes without a concept. */
  codes: int,
  /** The most frequent unmapped codes, most rows first: what a data manager maps next. */
  top: z.array(z.object({ code: z.string(), example: z.string(), count: int })),
});
export type OmopUnmapped = z.infer<typeof omopUnmapped>;

/** What an export wrote: the ZIP, its tables and row counts, and what was left unmapped. */
export const omopExportResult = z.object({
  cdmVersion: z.string(),
  fileName: z.string(),
  bytes: int,
  tables: z.array(z.enum(CDM_TABLES)),
  counts: z.partialRecord(z.enum(CDM_TABLES), int),
  /** Patients left out because they have no birth date (year_of_birth is required). */
  personsWithoutBirthDate: int,
  unmapped: z.partialRecord(z.enum(OMOP_MAPPING_KINDS), omopUnmapped),
});
export type OmopExportResult = z.infer<typeof omopExportResult>;

/** An export task: a named task over a job of kind `omop.export`, with the job's status. */
export const omopTask = z.object({
  id: int,
  name: z.string(),
  note: z.string(),
  createdByName: z.string(),
  createdAt: timestamp,
  jobId: int,
  /** The job's status; a queued task cancelled on the job screen is `cancelled`. */
  status: jobStatus,
  progress: int,
  startedAt: timestampOrNull,
  finishedAt: timestampOrNull,
  /** Why the job failed, in the reader's language. */
  error: z.string().nullable(),
  tables: z.array(z.enum(CDM_TABLES)),
  /** What the export wrote, once it succeeded. */
  result: omopExportResult.nullable(),
});
export type OmopTask = z.infer<typeof omopTask>;

export const omopTaskPage = z.object({ total: int, page: int, size: int, items: z.array(omopTask) });
export type OmopTaskPage = z.infer<typeof omopTaskPage>;
