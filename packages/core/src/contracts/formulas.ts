import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, patchOf, stamps, timestamp } from './common.js';

/**
 * Derived data (issue 17): formulas (公式编辑器, `/api/v0.1/formulas`, DataLakeFormulaEditor),
 * indicator templates that group formulas (指标模板, `/api/v0.1/indicator-templates`,
 * DataLakeIndicatrixTemplate) and assessment scales filled per patient (评估量表,
 * `/api/v0.1/scales`, `/api/v0.1/scale-assessments`, DataLakeEvaluationScale). The expression
 * language and the scoring are in @crdp/crf (formula.ts, scales.ts); the server is
 * apps/server/src/formulas; the screens are apps/web/src/pages/data-lake/{Formulas,
 * IndicatorTemplates,Scales}.tsx.
 */

export const FORMULA_NAME_MAX = 60;
export const FORMULA_DESCRIPTION_MAX = 500;
export const FORMULA_UNIT_MAX = 20;
export const FORMULA_EXPRESSION_MAX = 2000;
export const FORMULA_VARIABLES_MAX = 20;
export const TEMPLATE_FORMULAS_MAX = 100;

/** Where a formula variable's value comes from in a patient's clinical data. */
export const FORMULA_SOURCES = [
  'lab',
  'exam',
  'age',
  'gender',
  'birthDate',
  'firstDiagnosis',
  'firstOperation',
] as const;
export type FormulaSource = (typeof FORMULA_SOURCES)[number];

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = (max: number) => safeText(max, { min: 1, required: 'must not be blank' });

/** A variable name as the expression writes it: letters (Chinese too), digits and _. */
export const formulaVariableName = name(40).regex(
  /^[\p{L}_][\p{L}\p{N}_]*$/u,
  'letters, digits and _ only, not starting with a digit',
);

export const formulaVariable = z.object({
  name: formulaVariableName,
  source: z.enum(FORMULA_SOURCES),
  /** Lab item code (CREA), physical exam item (体重), ICD-10 prefix (C22), operation keyword ('' = any). */
  code: safeText(60).default(''),
});
export type FormulaVariableBody = z.input<typeof formulaVariable>;

export const formulaParams = z.object({ id });

export const formulaCreate = z.object({
  name: name(FORMULA_NAME_MAX),
  description: safeText(FORMULA_DESCRIPTION_MAX).default(''),
  unit: safeText(FORMULA_UNIT_MAX).default(''),
  /** Decimals the result is shown with (the value is kept whole). */
  decimals: z.number().int().min(0).max(6).default(2),
  expression: safeText(FORMULA_EXPRESSION_MAX, { min: 1, required: 'must not be blank', multiline: true }),
  variables: z.array(formulaVariable).max(FORMULA_VARIABLES_MAX).default([]),
});
export type FormulaCreate = z.input<typeof formulaCreate>;
export const formulaPatch = patchOf(formulaCreate);
export type FormulaPatch = z.input<typeof formulaPatch>;

export const formula = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
  expression: z.string(),
  variables: z.array(z.object({ name: z.string(), source: z.enum(FORMULA_SOURCES), code: z.string() })),
  /** The built-in formula it was added from, '' for the app's own. */
  builtinKey: z.string(),
  /** The indicator templates that use it. */
  templates: z.array(z.object({ id: z.number().int(), name: z.string() })),
  ...stamps,
});
export type Formula = z.infer<typeof formula>;
export const formulaList = itemList(formula);
export type FormulaList = z.infer<typeof formulaList>;

/** A built-in formula, with whether the app has added it. */
export const formulaBuiltin = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  expression: z.string(),
  added: z.boolean(),
});
export const formulaBuiltinList = itemList(formulaBuiltin);
export type FormulaBuiltinList = z.infer<typeof formulaBuiltinList>;
/** Which built-in formula or scale to add. */
export const builtinAdd = z.object({ key: safeText(40, { min: 1, required: 'must not be blank' }) });

/** A value a formula works with or returns. */
export const formulaValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);
export type FormulaResultValue = z.infer<typeof formulaValue>;

/** The test panel: a formula (saved or being edited) worked out on one patient. */
export const formulaTest = z.object({
  patientId: id,
  expression: formulaCreate.shape.expression,
  variables: formulaCreate.shape.variables,
});
export type FormulaTestBody = z.input<typeof formulaTest>;

export const formulaTestResult = z.object({
  patient: z.object({ id: z.number().int(), mrn: z.string(), name: z.string() }),
  inputs: z.array(
    z.object({
      name: z.string(),
      source: z.enum(FORMULA_SOURCES),
      code: z.string(),
      value: formulaValue,
      unit: z.string(),
      at: z.string().nullable(),
    }),
  ),
  /** Whether the formula gave a value; when not, `error` says why (the missing input by name). */
  ok: z.boolean(),
  value: formulaValue,
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type FormulaTestResult = z.infer<typeof formulaTestResult>;

/** The spec's computed-indicator template call: `template_str` with `template_params`. */
export const formulaTemplateCall = z.object({
  template_str: safeText(FORMULA_EXPRESSION_MAX, { min: 1, required: 'must not be blank', multiline: true }),
  template_params: z
    .record(
      safeText(60, { min: 1 }),
      z.union([z.number().finite(), safeText(500, { multiline: true }), z.boolean(), z.null()]),
    )
    .refine((r) => Object.keys(r).length <= 50, 'at most 50 params')
    .default({}),
});
export type FormulaTemplateCall = z.input<typeof formulaTemplateCall>;

// ---------------------------------------------------------------------------------------------
// Indicator templates

export const indicatorTemplateCreate = z.object({
  name: name(FORMULA_NAME_MAX),
  description: safeText(FORMULA_DESCRIPTION_MAX).default(''),
  /** The template's formulas, in order. */
  formulaIds: z
    .array(id)
    .max(TEMPLATE_FORMULAS_MAX)
    .refine((ids) => new Set(ids).size === ids.length, 'a formula is listed twice')
    .default([]),
});
export type IndicatorTemplateCreate = z.input<typeof indicatorTemplateCreate>;
export const indicatorTemplatePatch = patchOf(indicatorTemplateCreate);
export type IndicatorTemplatePatch = z.input<typeof indicatorTemplatePatch>;

export const indicatorTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  formulas: z.array(z.object({ id: z.number().int(), name: z.string(), unit: z.string() })),
  ...stamps,
});
export type IndicatorTemplate = z.infer<typeof indicatorTemplate>;
export const indicatorTemplateList = itemList(indicatorTemplate);
export type IndicatorTemplateList = z.infer<typeof indicatorTemplateList>;

// ---------------------------------------------------------------------------------------------
// Assessment scales

const code = (max: number) =>
  name(max).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits and . _ - only');

export const scaleOption = z.object({
  code: code(20),
  label: name(200),
  points: z.number().finite().min(-1000).max(1000),
});
export const scaleItem = z.object({
  key: code(30),
  title: name(200),
  options: z.array(scaleOption).min(2).max(20),
});
export const scaleBand = z.object({
  min: z.number().finite().min(-100_000).max(100_000),
  max: z.number().finite().min(-100_000).max(100_000),
  label: name(60),
  advice: safeText(200).default(''),
});
export const scaleDefinition = z.object({
  items: z.array(scaleItem).min(1).max(60),
  bands: z.array(scaleBand).max(10).default([]),
});
export type ScaleDefinitionBody = z.input<typeof scaleDefinition>;

export const scaleParams = z.object({ id });
export const scaleCreate = z.object({
  name: name(FORMULA_NAME_MAX),
  description: safeText(FORMULA_DESCRIPTION_MAX).default(''),
  definition: scaleDefinition,
});
export type ScaleCreate = z.input<typeof scaleCreate>;
export const scalePatch = patchOf(scaleCreate);
export type ScalePatch = z.input<typeof scalePatch>;

export const assessmentScale = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  builtinKey: z.string(),
  definition: z.object({
    items: z.array(
      z.object({
        key: z.string(),
        title: z.string(),
        options: z.array(z.object({ code: z.string(), label: z.string(), points: z.number() })),
      }),
    ),
    bands: z.array(z.object({ min: z.number(), max: z.number(), label: z.string(), advice: z.string() })),
  }),
  /** Lowest and highest total the items allow. */
  range: z.object({ min: z.number(), max: z.number() }),
  /** How many times it has been filled. */
  filled: z.number().int(),
  ...stamps,
});
export type AssessmentScale = z.infer<typeof assessmentScale>;
export const assessmentScaleList = itemList(assessmentScale);
export type AssessmentScaleList = z.infer<typeof assessmentScaleList>;

export const scaleBuiltin = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  items: z.number().int(),
  added: z.boolean(),
});
export const scaleBuiltinList = itemList(scaleBuiltin);
export type ScaleBuiltinList = z.infer<typeof scaleBuiltinList>;

/** One filling of a scale for a patient (and optionally a visit): the chosen option per item. */
export const scaleAssessmentCreate = z.object({
  patientId: id,
  visitId: id.nullable().default(null),
  answers: z.record(code(30), code(20)).refine((r) => Object.keys(r).length <= 60, 'at most 60 answers'),
  assessedAt: timestamp.optional(),
  note: safeText(500, { multiline: true }).default(''),
});
export type ScaleAssessmentCreate = z.input<typeof scaleAssessmentCreate>;

export const scaleAssessment = z.object({
  id: z.number().int(),
  scaleId: z.number().int(),
  scaleName: z.string(),
  patient: z.object({ id: z.number().int(), mrn: z.string(), name: z.string() }),
  visitId: z.number().int().nullable(),
  answers: z.record(z.string(), z.string()),
  total: z.number(),
  /** The band's label as it was when filled; '' when the total fell in no band. */
  band: z.string(),
  note: z.string(),
  assessedAt: timestamp,
  createdBy: z.string(),
});
export type ScaleAssessment = z.infer<typeof scaleAssessment>;
export const scaleAssessmentParams = z.object({ id });
export const scaleAssessmentQuery = z.object({ patientId: id.optional(), scaleId: id.optional() });
export type ScaleAssessmentQuery = z.input<typeof scaleAssessmentQuery>;
export const scaleAssessmentList = itemList(scaleAssessment);
export type ScaleAssessmentList = z.infer<typeof scaleAssessmentList>;
