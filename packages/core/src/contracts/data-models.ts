import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { CODING_KINDS, codingMappingPage, codingMappingQuery } from './coding.js';
import { itemList, stamps } from './common.js';

/**
 * Data models (数据模型, `/api/v0.1/data-models`): a versioned set of tables and variables. The
 * CDISC models SDTMIG and CDASHIG are built in (shipped files, read-only); a hospital's own models
 * (模型维护) and its disease model templates (专病模型模板) are the app's rows, each copied from a
 * built-in model, a template or an earlier version. Server: apps/server/src/data-models; web:
 * apps/web/src/pages/data-model.
 */

export const DATA_MODEL_KINDS = ['hospital', 'template'] as const;
export type DataModelKind = (typeof DATA_MODEL_KINDS)[number];

/** The built-in CDISC models. */
export const DATA_MODEL_STANDARDS = ['sdtmig', 'cdashig'] as const;
export type DataModelStandard = (typeof DATA_MODEL_STANDARDS)[number];

export const DATA_MODEL_VARIABLE_TYPES = ['Char', 'Num'] as const;
export type DataModelVariableType = (typeof DATA_MODEL_VARIABLE_TYPES)[number];

/** SDTM cores (Req/Exp/Perm) and CDASH cores (HR, R/C, O). */
export const DATA_MODEL_CORES = ['Req', 'Exp', 'Perm', 'HR', 'R/C', 'O', ''] as const;
export type DataModelCore = (typeof DATA_MODEL_CORES)[number];

export const DATA_MODEL_ROLES = [
  'Identifier',
  'Topic',
  'Timing',
  'Grouping Qualifier',
  'Result Qualifier',
  'Synonym Qualifier',
  'Record Qualifier',
  'Variable Qualifier',
  'Rule',
  '',
] as const;
export type DataModelRole = (typeof DATA_MODEL_ROLES)[number];

const int32 = z.coerce.number().int().positive().max(2_147_483_647);

/** A variable of a model table. */
export const dataModelVariable = z.object({
  /** The row id for the app's models; 0 for a built-in model. */
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  type: z.enum(DATA_MODEL_VARIABLE_TYPES),
  role: z.string(),
  core: z.string(),
  /** CDISC CT codelist C-code, or ''. */
  codelist: z.string(),
  /** Its codelist's name (Sex, No Yes Response), '' without one. */
  codelistName: z.string(),
  /** The coding area's kind whose mappings code this variable's local values. */
  codingKind: z.enum(CODING_KINDS).nullable(),
  /** CDASH: the SDTMIG variable it is tabulated as. */
  sdtmTarget: z.string().nullable(),
});
export type DataModelVariable = z.infer<typeof dataModelVariable>;

export const dataModelTable = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  tableClass: z.string(),
  structure: z.string(),
  variables: z.array(dataModelVariable),
});
export type DataModelTable = z.infer<typeof dataModelTable>;

/** A built-in CDISC model with where it comes from. */
export const dataModelStandardSummary = z.object({
  key: z.enum(DATA_MODEL_STANDARDS),
  standard: z.string(),
  version: z.string(),
  source: z.string(),
  ctVersion: z.string(),
  ctSource: z.string(),
  tables: z.number().int(),
  variables: z.number().int(),
  codelists: z.number().int(),
});
export type DataModelStandardSummary = z.infer<typeof dataModelStandardSummary>;
export const dataModelStandardList = itemList(dataModelStandardSummary);
export type DataModelStandardList = z.infer<typeof dataModelStandardList>;
export const dataModelStandard = dataModelStandardSummary.extend({ tables: z.array(dataModelTable) });
export type DataModelStandardDetail = z.infer<typeof dataModelStandard>;
export const dataModelStandardParams = z.object({ key: z.enum(DATA_MODEL_STANDARDS) });

export const codelistParams = z.object({
  code: safeText(20, { min: 1, required: 'must not be blank' }).regex(
    /^C\d{1,9}$/,
    'a C-code such as C66731',
  ),
});
export const codelist = z.object({
  code: z.string(),
  name: z.string(),
  extensible: z.boolean().nullable(),
  version: z.string(),
  terms: z.array(z.object({ code: z.string(), value: z.string(), synonym: z.string() })),
});
export type Codelist = z.infer<typeof codelist>;

/** One of the app's models (a version), without its tables. */
export const dataModelSummary = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(DATA_MODEL_KINDS),
  version: z.number().int(),
  /** True for the highest version of its code. */
  latest: z.boolean(),
  standard: z.string(),
  standardVersion: z.string(),
  basedOn: z.number().int().nullable(),
  diseaseId: z.number().int().nullable(),
  diseaseName: z.string(),
  libraryId: z.number().int().nullable(),
  libraryName: z.string(),
  subjectId: z.number().int().nullable(),
  subjectName: z.string(),
  description: z.string(),
  tables: z.number().int(),
  variables: z.number().int(),
  ...stamps,
});
export type DataModelSummary = z.infer<typeof dataModelSummary>;
export const dataModelList = itemList(dataModelSummary);
export type DataModelList = z.infer<typeof dataModelList>;

const named = z.object({ id: z.number().int(), name: z.string() });
/** What a model can be linked to: the app's diseases, disease libraries and research subjects. */
export const dataModelLinkList = z.object({
  diseases: z.array(named),
  libraries: z.array(named),
  subjects: z.array(named),
});
export type DataModelLinkList = z.infer<typeof dataModelLinkList>;

/** Research subjects an SDTM export can take, with their recruited patients. */
export const sdtmExportSubjectList = z.object({
  items: z.array(named.extend({ patients: z.number().int() })),
});
export type SdtmExportSubjectList = z.infer<typeof sdtmExportSubjectList>;
export const dataModelQuery = z.object({
  kind: z.enum(DATA_MODEL_KINDS).optional(),
  q: safeText(100).default(''),
});
export const dataModel = dataModelSummary.extend({ tableList: z.array(dataModelTable) });
export type DataModel = z.infer<typeof dataModel>;
export const dataModelParams = z.object({ id: int32 });

const code = safeText(40, { min: 1, required: 'must not be blank' }).regex(
  /^[A-Za-z][A-Za-z0-9_]*$/,
  'a letter, then letters, digits and _ only',
);
const linkId = z.number().int().positive().max(2_147_483_647).nullable();
const optionalId = linkId.default(null);

/**
 * A new model: empty, or a copy of a built-in model (all of it or some tables), of a template, or
 * of another model of the app. Linking it to a disease, library or research subject says who starts
 * from it.
 */
export const dataModelCreate = z.object({
  kind: z.enum(DATA_MODEL_KINDS),
  code,
  name: safeText(100, { min: 1, required: 'must not be blank' }),
  description: safeText(500, { multiline: true }).default(''),
  from: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('empty') }),
      z.object({
        type: z.literal('standard'),
        key: z.enum(DATA_MODEL_STANDARDS),
        /** The tables to copy; empty copies all. */
        tables: z
          .array(safeText(8).regex(/^[A-Z]{2,8}$/, 'a domain such as DM'))
          .max(50)
          .default([]),
      }),
      z.object({ type: z.literal('model'), id: z.number().int().positive().max(2_147_483_647) }),
    ])
    .default({ type: 'empty' }),
  diseaseId: optionalId,
  libraryId: optionalId,
  subjectId: optionalId,
});
export type DataModelCreate = z.input<typeof dataModelCreate>;

export const dataModelPatch = z.object({
  name: safeText(100, { min: 1, required: 'must not be blank' }).optional(),
  description: safeText(500, { multiline: true }).optional(),
  diseaseId: linkId.optional(),
  libraryId: linkId.optional(),
  subjectId: linkId.optional(),
});
export type DataModelPatch = z.input<typeof dataModelPatch>;

/** A table added to a model. */
export const dataModelTableCreate = z.object({
  name: safeText(8, { min: 1, required: 'must not be blank' }).regex(
    /^[A-Z][A-Z0-9]{1,7}$/,
    'upper-case letters and digits, 2 to 8, first a letter',
  ),
  label: safeText(40, { min: 1, required: 'must not be blank' }),
  tableClass: safeText(40).default(''),
  structure: safeText(200).default(''),
});
export type DataModelTableCreate = z.input<typeof dataModelTableCreate>;
export const dataModelTableParams = z.object({ id: int32, tableId: int32 });

/** A variable added to (or changed in) a model table; SAS names: 8 characters, labels 40. */
/** A model variable's fields, without defaults (a PATCH must not fill in what it was not sent). */
const dataModelVariableFields = {
  name: safeText(8, { min: 1, required: 'must not be blank' }).regex(
    /^[A-Z][A-Z0-9_]{0,7}$/,
    'upper-case letters, digits and _, first a letter, at most 8',
  ),
  label: safeText(40, { min: 1, required: 'must not be blank' }),
  type: z.enum(DATA_MODEL_VARIABLE_TYPES),
  role: z.enum(DATA_MODEL_ROLES),
  core: z.enum(DATA_MODEL_CORES),
  codelist: z.union([z.literal(''), safeText(20).regex(/^C\d{1,9}$/, 'a C-code such as C66731')]),
  codingKind: z.enum(CODING_KINDS).nullable(),
};
export const dataModelVariableInput = z.object({
  ...dataModelVariableFields,
  role: dataModelVariableFields.role.default(''),
  core: dataModelVariableFields.core.default(''),
  codelist: dataModelVariableFields.codelist.default(''),
  codingKind: dataModelVariableFields.codingKind.default(null),
});
export type DataModelVariableInput = z.input<typeof dataModelVariableInput>;
export const dataModelVariablePatch = z.object(dataModelVariableFields).partial();
export const dataModelVariableParams = z.object({ id: int32, variableId: int32 });

// ---- Indicator groups (指标组) ----

export const indicatorGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  modelId: z.number().int().nullable(),
  modelName: z.string(),
  indicators: z.array(
    z.object({ id: z.number().int(), name: z.string(), unit: z.string(), expression: z.string() }),
  ),
  ...stamps,
});
export type IndicatorGroup = z.infer<typeof indicatorGroup>;
export const indicatorGroupList = itemList(indicatorGroup);
export type IndicatorGroupList = z.infer<typeof indicatorGroupList>;

/** The app's computed indicators a group can hold. */
export const groupableIndicatorList = z.object({
  items: z.array(z.object({ id: z.number().int(), name: z.string(), unit: z.string() })),
});
export type GroupableIndicatorList = z.infer<typeof groupableIndicatorList>;
export const indicatorGroupCreate = z.object({
  name: safeText(100, { min: 1, required: 'must not be blank' }),
  description: safeText(500, { multiline: true }).default(''),
  modelId: optionalId,
  formulaIds: z.array(z.number().int().positive().max(2_147_483_647)).max(200).default([]),
});
export type IndicatorGroupCreate = z.input<typeof indicatorGroupCreate>;
export const indicatorGroupPatch = z.object({
  name: safeText(100, { min: 1, required: 'must not be blank' }).optional(),
  description: safeText(500, { multiline: true }).optional(),
  modelId: linkId.optional(),
  formulaIds: z.array(z.number().int().positive().max(2_147_483_647)).max(200).optional(),
});
export type IndicatorGroupPatch = z.input<typeof indicatorGroupPatch>;
export const indicatorGroupParams = z.object({ id: int32 });

// ---- Coding mappings per model variable (编码映射关系), shared with the coding area ----

/** A model variable whose local values the coding area maps to standard codes. */
export const codedModelVariable = z.object({
  /** `standard:sdtmig` or `model:12`. */
  modelRef: z.string(),
  modelName: z.string(),
  table: z.string(),
  variable: z.string(),
  label: z.string(),
  codingKind: z.enum(CODING_KINDS),
  /** The app's mappings of that kind and how many are still unmapped (no code). */
  mapped: z.number().int(),
  noCode: z.number().int(),
});
export type CodedModelVariable = z.infer<typeof codedModelVariable>;
export const codedModelVariableList = itemList(codedModelVariable);
export type CodedModelVariableList = z.infer<typeof codedModelVariableList>;
export const codedModelVariableQuery = z.object({
  model: safeText(40)
    .regex(/^(standard:(sdtmig|cdashig)|model:\d{1,9})$/, 'standard:sdtmig, standard:cdashig or model:<id>')
    .optional(),
});
export const modelMappingQuery = codingMappingQuery.extend({ kind: z.enum(CODING_KINDS) });
export const modelMappingPage = codingMappingPage;
export type ModelMappingPage = z.infer<typeof modelMappingPage>;
/** Map a local term of a kind to a standard code (or to "no code"); the coding area's mapping is written. */
export const modelMappingSet = z.object({
  kind: z.enum(CODING_KINDS),
  term: safeText(200, { min: 1, required: 'must not be blank' }),
  code: safeText(40).nullable(),
});
export const modelMappingRemove = z.object({
  kind: z.enum(CODING_KINDS),
  term: safeText(200, { min: 1, required: 'must not be blank' }),
});

// ---- SDTM export ----

export const sdtmExportQuery = z.object({
  subjectId: int32,
  /** The app's model to export by (copied from SDTMIG); without it, SDTMIG itself. */
  modelId: int32.optional(),
});
export type SdtmExportQuery = z.input<typeof sdtmExportQuery>;

/** What an export would hold: rows per dataset, without writing it. */
export const sdtmExportPreview = z.object({
  subjectName: z.string(),
  studyId: z.string(),
  modelName: z.string(),
  patients: z.number().int(),
  datasets: z.array(
    z.object({ name: z.string(), label: z.string(), rows: z.number().int(), variables: z.number().int() }),
  ),
});
export type SdtmExportPreview = z.infer<typeof sdtmExportPreview>;
