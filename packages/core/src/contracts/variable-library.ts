import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, patchOf, stamps, timestamp } from './common.js';
import {
  VARIABLE_AGGREGATES,
  VARIABLE_ANCHORS,
  VARIABLE_CODE_MAX,
  variable,
  variableGroup,
} from './variables.js';

/**
 * The variable library beyond variables and groups (issue 20): templates that make many similar
 * variables at once, group templates and batch groups, variable sets (what a study's dataset is
 * built from) and transfer rules with their runs. Server: apps/server/src/variables; web:
 * apps/web/src/pages/variable-library.
 */

const id = z.number().int().positive().max(2_147_483_647);
const ids = (max: number) =>
  z
    .array(id)
    .max(max)
    .refine((xs) => new Set(xs).size === xs.length, 'repeated id');
const name = safeText(60, { min: 1, required: 'must not be blank' });
const description = safeText(300).default('');

export const variableLibraryParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Where a template's variables read their values: a lab item, or a value the cleaning read from text. */
export const VARIABLE_TEMPLATE_SOURCES = ['lab', 'cleaned'] as const;

/** A code prefix: a letter, then letters, digits and _ (the item and aggregate are appended). */
const codePrefix = safeText(20, { min: 1, required: 'must not be blank' }).regex(
  /^[A-Za-z][A-Za-z0-9_]*$/,
  'a letter, then letters, digits and _ only',
);

/**
 * A variable template: "first/last/min/max/mean of lab X within N days of T0" over any list of lab
 * items. Applying it makes one variable per item and aggregate: code
 * `<prefix>_<item>_<aggregate>[_<N>d]`, labels `<item label> <aggregate> (<window>)`.
 */
export const variableTemplateSpec = z.object({
  source: z.enum(VARIABLE_TEMPLATE_SOURCES),
  codePrefix,
  aggregates: z
    .array(z.enum(VARIABLE_AGGREGATES))
    .min(1, 'choose at least one aggregate')
    .max(VARIABLE_AGGREGATES.length)
    .refine((xs) => new Set(xs).size === xs.length, 'repeated aggregate'),
  /** Lab only: the window's start and length. */
  anchor: z.enum(VARIABLE_ANCHORS).default('first_visit'),
  t0EventId: id.nullable().default(null),
  withinDays: z.number().int().min(0).max(36_500).default(30),
  unit: safeText(30).default(''),
});
export type VariableTemplateSpec = z.infer<typeof variableTemplateSpec>;

export const variableTemplateCreate = z.object({ name, description, spec: variableTemplateSpec });
export type VariableTemplateCreate = z.input<typeof variableTemplateCreate>;
export const variableTemplatePatch = patchOf(variableTemplateCreate);
export type VariableTemplatePatch = z.input<typeof variableTemplatePatch>;

export const variableTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  spec: variableTemplateSpec,
  ...stamps,
});
export type VariableTemplate = z.infer<typeof variableTemplate>;
export const variableTemplateList = itemList(variableTemplate);
export type VariableTemplateList = z.infer<typeof variableTemplateList>;

/** An item a template is applied to: the lab item's code (or the cleaned value's name) and its labels. */
export const templateItem = z.object({
  code: safeText(60, { min: 1, required: 'must not be blank' }).regex(
    /^[^"'{}\\]+$/,
    'must not hold quotes, braces or backslashes',
  ),
  labelZh: safeText(60).default(''),
  labelEn: safeText(60).default(''),
});
export type TemplateItem = z.input<typeof templateItem>;

export const templateApplyBody = z.object({
  items: z
    .array(templateItem)
    .min(1, 'name at least one item')
    .max(200)
    .refine((xs) => new Set(xs.map((x) => x.code)).size === xs.length, 'repeated item'),
});
export type TemplateApplyBody = z.input<typeof templateApplyBody>;

/** What applying a template made: the new variables (and groups), and codes that were taken already. */
export const templateApplied = z.object({
  created: z.array(variable),
  /** Codes the app already had: those variables are reused, not made twice. */
  existing: z.array(z.string()),
  groups: z.array(variableGroup),
});
export type TemplateApplied = z.infer<typeof templateApplied>;

/** A variable group template: variable templates whose variables, applied to items, make a group. */
export const variableGroupTemplateCreate = z.object({
  name,
  description,
  templateIds: ids(50).min(1, 'choose at least one variable template'),
});
export type VariableGroupTemplateCreate = z.input<typeof variableGroupTemplateCreate>;
export const variableGroupTemplatePatch = patchOf(variableGroupTemplateCreate);
export type VariableGroupTemplatePatch = z.input<typeof variableGroupTemplatePatch>;

export const variableGroupTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  templates: z.array(z.object({ id: z.number().int(), name: z.string() })),
  ...stamps,
});
export type VariableGroupTemplate = z.infer<typeof variableGroupTemplate>;
export const variableGroupTemplateList = itemList(variableGroupTemplate);
export type VariableGroupTemplateList = z.infer<typeof variableGroupTemplateList>;

/** Applies a group template once: all items' variables in one group named `groupName`. */
export const groupTemplateApplyBody = templateApplyBody.extend({ groupName: name });
export type GroupTemplateApplyBody = z.input<typeof groupTemplateApplyBody>;

/**
 * Batch variable groups (批量变量组): a group template applied per item, one group per item named
 * `<prefix><item label>` (e.g. "肝功能 · ALT" holding ALT's first, max and mean).
 */
export const batchGroupBody = templateApplyBody.extend({
  groupTemplateId: id,
  namePrefix: safeText(30).default(''),
});
export type BatchGroupBody = z.input<typeof batchGroupBody>;

/** A variable set (变量集): the variables a study's dataset is built from, in order. */
export const variableSetCreate = z.object({
  name,
  description,
  variableIds: ids(1000).default([]),
  /** Groups whose variables join the set (after `variableIds`, in the groups' order, once each). */
  groupIds: ids(100).default([]),
});
export type VariableSetCreate = z.input<typeof variableSetCreate>;
export const variableSetPatch = patchOf(variableSetCreate);
export type VariableSetPatch = z.input<typeof variableSetPatch>;

/** A set answers as a group does: its name, description and its variables in order. */
export const variableSet = variableGroup;
export type VariableSet = z.infer<typeof variableSet>;
export const variableSetList = itemList(variableSet);
export type VariableSetList = z.infer<typeof variableSetList>;

/** How a transfer maps a value: as it is, a linear unit change (`value × factor + offset`), or a code table. */
export const TRANSFER_TRANSFORMS = ['copy', 'linear', 'valueMap'] as const;
export type TransferTransform = (typeof TRANSFER_TRANSFORMS)[number];

export const variableTransferMapping = z.object({
  sourceVariableId: id,
  targetCode: safeText(VARIABLE_CODE_MAX, { min: 1, required: 'must not be blank' }).regex(
    /^[A-Za-z][A-Za-z0-9_]*$/,
    'a letter, then letters, digits and _ only',
  ),
  transform: z.enum(TRANSFER_TRANSFORMS),
  factor: z.number().finite().default(1),
  offset: z.number().finite().default(0),
  /** valueMap: source value → target value; a value not listed is left empty and counted unmapped. */
  valueMap: z
    .array(z.object({ from: safeText(60), to: safeText(60) }))
    .max(200)
    .default([]),
});
export type VariableTransferMapping = z.infer<typeof variableTransferMapping>;

export const variableTransferRuleCreate = z.object({
  name,
  description,
  /** The model or version the target codes belong to (e.g. "SDTM LB v1.7", "肝病模型 v2"). */
  targetModel: safeText(60).default(''),
  enabled: z.boolean().default(true),
  mappings: z
    .array(variableTransferMapping)
    .min(1, 'add at least one mapping')
    .max(500)
    .refine((xs) => new Set(xs.map((m) => m.targetCode)).size === xs.length, 'repeated target code'),
});
export type VariableTransferRuleCreate = z.input<typeof variableTransferRuleCreate>;
export const variableTransferRulePatch = patchOf(variableTransferRuleCreate);
export type VariableTransferRulePatch = z.input<typeof variableTransferRulePatch>;

export const variableTransferRule = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  targetModel: z.string(),
  enabled: z.boolean(),
  mappings: z.array(variableTransferMapping.extend({ sourceCode: z.string() })),
  ...stamps,
});
export type VariableTransferRule = z.infer<typeof variableTransferRule>;
export const variableTransferRuleList = itemList(variableTransferRule);
export type VariableTransferRuleList = z.infer<typeof variableTransferRuleList>;

export const variableTransferRunBody = z.object({ ruleId: id });

/** A run of a transfer rule (转换列表) with its job's status. */
export const variableTransferRun = z.object({
  id: z.number().int(),
  ruleId: z.number().int().nullable(),
  ruleName: z.string(),
  targetModel: z.string(),
  jobId: z.number().int().nullable(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  progress: z.number().int(),
  error: z.string().nullable(),
  patients: z.number().int(),
  values: z.number().int(),
  summary: z.array(
    z.object({ targetCode: z.string(), converted: z.number().int(), unmapped: z.number().int() }),
  ),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
});
export type VariableTransferRun = z.infer<typeof variableTransferRun>;
export const variableTransferRunList = itemList(variableTransferRun);
export type VariableTransferRunList = z.infer<typeof variableTransferRunList>;
