import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, patchOf, stamps } from './common.js';

/**
 * The variable library (科研变量库, `/api/v0.1/variables`, VariableList / VariableManagement): a
 * research variable with its code, labels, type, unit, value set and where its value comes from in
 * the data that exist. A derivation compiles to the disease library's indicator template (one
 * set-based query over all patients), or reads a CRF item. Server: apps/server/src/variables; web:
 * apps/web/src/pages/variable-library.
 */

export const VARIABLE_TYPES = ['number', 'text', 'date', 'category'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** Aggregates of a lab item's (or cleaned value's) values in a window: first/last/min/max/mean/count. */
export const VARIABLE_AGGREGATES = ['first', 'last', 'min', 'max', 'mean', 'count'] as const;
export type VariableAggregate = (typeof VARIABLE_AGGREGATES)[number];

/** Where a lab window starts: the patient's first visit, or the patient's T0 of a T0 event. */
export const VARIABLE_ANCHORS = ['first_visit', 't0'] as const;
export type VariableAnchor = (typeof VARIABLE_ANCHORS)[number];

export const VARIABLE_DERIVATION_KINDS = ['field', 'lab', 'cleaned', 'crf'] as const;
export type VariableDerivationKind = (typeof VARIABLE_DERIVATION_KINDS)[number];

export const VARIABLE_CODE_MAX = 64;

const itemCode = (max: number) =>
  safeText(max, { min: 1, required: 'must not be blank' }).regex(
    /^[^"'{}\\]+$/,
    'must not hold quotes, braces or backslashes',
  );

/** How a variable's value is worked out for a patient. */
export const variableDerivation = z.discriminatedUnion('kind', [
  /**
   * A field of the clinical data as one line of the indicator template language
   * (`value patient.age`, `latest diagnosis.name where kind = "discharge"`).
   */
  z.object({ kind: z.literal('field'), rule: safeText(500, { min: 1, required: 'must not be blank' }) }),
  /** A lab item's values within `withinDays` days after the first visit or a T0 event's T0. */
  z.object({
    kind: z.literal('lab'),
    itemCode: itemCode(60),
    aggregate: z.enum(VARIABLE_AGGREGATES),
    anchor: z.enum(VARIABLE_ANCHORS),
    /** The T0 event when `anchor` is `t0`. */
    t0EventId: z.number().int().positive().max(2_147_483_647).nullable().default(null),
    withinDays: z.number().int().min(0).max(36_500),
  }),
  /** A value the cleaning tasks read from clinical text (cleaned_values), by its name (收缩压). */
  z.object({ kind: z.literal('cleaned'), name: itemCode(60), aggregate: z.enum(VARIABLE_AGGREGATES) }),
  /** An item of a CRF form: the answer in the patient's latest record of that form. */
  z.object({
    kind: z.literal('crf'),
    formId: z.number().int().positive().max(2_147_483_647),
    item: safeText(100, { min: 1, required: 'must not be blank' }).regex(
      /^[A-Za-z0-9_.-]+$/,
      'letters, digits and . _ - only',
    ),
  }),
]);
export type VariableDerivation = z.infer<typeof variableDerivation>;
export type VariableDerivationBody = z.input<typeof variableDerivation>;

/** One value of a category variable's value set: the stored code and its labels. */
export const variableValue = z.object({
  code: safeText(60, { min: 1, required: 'must not be blank' }),
  labelZh: safeText(100).default(''),
  labelEn: safeText(100).default(''),
});
export type VariableValue = z.infer<typeof variableValue>;

const variableFields = z.object({
  code: safeText(VARIABLE_CODE_MAX, { min: 1, required: 'must not be blank' }).regex(
    /^[A-Za-z][A-Za-z0-9_]*$/,
    'a letter, then letters, digits and _ only',
  ),
  labelZh: safeText(100, { min: 1, required: 'must not be blank' }),
  labelEn: safeText(100).default(''),
  type: z.enum(VARIABLE_TYPES),
  unit: safeText(30).default(''),
  valueSet: z.array(variableValue).max(200).default([]),
  description: safeText(500, { multiline: true }).default(''),
  derivation: variableDerivation,
});

const distinctCodes = (v: { valueSet?: VariableValue[] }, c: z.RefinementCtx) => {
  const seen = new Set<string>();
  v.valueSet?.forEach((x, i) => {
    if (seen.has(x.code))
      c.addIssue({ code: 'custom', path: ['valueSet', i, 'code'], message: 'repeated code' });
    seen.add(x.code);
  });
};

export const variableCreate = variableFields.superRefine(distinctCodes);
export type VariableCreate = z.input<typeof variableCreate>;
export const variablePatch = patchOf(variableFields).superRefine(distinctCodes);
export type VariablePatch = z.input<typeof variablePatch>;

export const variableParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const variableQuery = z.object({
  q: safeText(100).default(''),
  type: z.enum(VARIABLE_TYPES).optional(),
});
export type VariableQuery = z.input<typeof variableQuery>;

export const variable = z.object({
  id: z.number().int(),
  code: z.string(),
  labelZh: z.string(),
  labelEn: z.string(),
  type: z.enum(VARIABLE_TYPES),
  unit: z.string(),
  valueSet: z.array(variableValue),
  description: z.string(),
  derivation: variableDerivation,
  /** The derivation as one template line (empty for a CRF item), for reading. */
  ruleText: z.string(),
  ...stamps,
});
export type Variable = z.infer<typeof variable>;
export const variableList = itemList(variable);
export type VariableList = z.infer<typeof variableList>;

/** A variable's values over the app's current patients. */
export const variableDistribution = z.object({
  /** The app's patients. */
  patients: z.number().int(),
  /** Patients with a value. */
  present: z.number().int(),
  missing: z.number().int(),
  /** Number and date variables (dates as YYYY-MM-DD); null without values or for text. */
  min: z.union([z.number(), z.string()]).nullable(),
  median: z.union([z.number(), z.string()]).nullable(),
  max: z.union([z.number(), z.string()]).nullable(),
  mean: z.number().nullable(),
  /**
   * Category and text variables: the most frequent values (at most 50), with the value set's label;
   * a text value only one patient has is left out.
   */
  categories: z.array(z.object({ value: z.string(), label: z.string(), count: z.number().int() })),
  /** Values of a number variable that are not numbers (a text in a CRF answer). */
  notNumbers: z.number().int(),
});
export type VariableDistribution = z.infer<typeof variableDistribution>;

/** A variable group (变量组, `/api/v0.1/variable-groups`, VariableGroupList): variables collected for a study. */
export const variableGroupCreate = z.object({
  name: safeText(60, { min: 1, required: 'must not be blank' }),
  description: safeText(300).default(''),
  /** The group's variables in their order. */
  variableIds: z
    .array(z.number().int().positive().max(2_147_483_647))
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, 'repeated variable')
    .default([]),
});
export type VariableGroupCreate = z.input<typeof variableGroupCreate>;
export const variableGroupPatch = patchOf(variableGroupCreate);
export type VariableGroupPatch = z.input<typeof variableGroupPatch>;
export const variableGroupParams = variableParams;

export const variableGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  variables: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      labelZh: z.string(),
      labelEn: z.string(),
      type: z.enum(VARIABLE_TYPES),
    }),
  ),
  ...stamps,
});
export type VariableGroup = z.infer<typeof variableGroup>;
export const variableGroupList = itemList(variableGroup);
export type VariableGroupList = z.infer<typeof variableGroupList>;
