import { label } from '@crdp/core';
import { z } from 'zod';
import { CONTAINER_FIELDS, type Form, type FormElement, ITEM_TYPES } from './types.js';
import { walkBelow } from './walk.js';

/**
 * zod schema of the form JSON. Objects are loose: the older product added fields over the
 * years and its forms must import unchanged, so unknown fields pass through untouched; only
 * the fields the engine reads are checked.
 */

const numberLike = z
  .union([z.number(), z.string().regex(/^\s*-?\d+(\.\d+)?\s*$/, 'expected a number'), z.literal('')])
  .nullable()
  .optional();
const flag = z
  .union([
    z.boolean(),
    z.literal(0),
    z.literal(1),
    z.literal('0'),
    z.literal('1'),
    z.literal('true'),
    z.literal('false'),
  ])
  .nullable()
  .optional();
const keyList = z.union([z.array(z.string()), z.string()]).optional();

const option = z.looseObject({
  name: z.string(),
  code: z.union([z.string(), z.number()]),
  score: numberLike,
});

const bounds = { minNub: numberLike, maxNub: numberLike, minVal: numberLike, maxVal: numberLike };

const blank = z.looseObject({
  key: z.string().optional(),
  gapFillingProperty: z.string().optional(),
  isRequired: flag,
  ...bounds,
});

const matrixRow = z.looseObject({
  key: z.string().optional(),
  name: z.string().optional(),
  matrixProperty: z.string().optional(),
  selectLeastValue: numberLike,
  selectMostValue: numberLike,
  ...bounds,
});

const condition = z.looseObject({
  indicatorName: z.string().min(1),
  indicatorVal: z.unknown().optional(),
  condition: z.string().min(1),
});

const showRule = z.looseObject({
  indicatorName: z.string().min(1).optional(),
  indicatorVal: z.unknown().optional(),
  condition: z.string().min(1),
  selectItems: keyList,
  selectPanel: keyList,
});

const calculation = z.looseObject({
  compulateType: z.string().optional(),
  func: z.string().optional(),
  fields: keyList,
  compare: z.unknown().optional(),
  xyValue: z
    .union([z.looseObject({ x: z.string().optional(), y: z.string().optional() }), z.array(z.string())])
    .optional(),
});

const itemTypes = new Set<string>(ITEM_TYPES);
// An item type in the reader's words (the labelling layer of @crdp/core), never its code.
const typeZh = (type: string) => label('crfItemType', type, 'zh-CN');
const typeEn = (type: string) => label('crfItemType', type, 'en-US').toLowerCase();

/** A custom schema fault worded in English (the message) and Chinese (`params.zh`). */
function fault(path: (string | number)[], message: string, zh: string) {
  return { code: 'custom' as const, path, message, params: { zh } };
}

// One schema for items and containers: an element is an item when its `type` is an item type.
// Children are declared with getters, zod 4's way of writing recursive objects.
const element: z.ZodType<unknown> = z
  .looseObject({
    key: z.string().min(1).optional(),
    type: z.string().optional(),
    title: z.string().optional(),
    typeQ: z.string().nullable().optional(),
    isRequired: flag,
    isHide: flag,
    readOnly: flag,
    options: z.array(option).optional(),
    textType: z.string().nullable().optional(),
    typeStyle: z.string().nullable().optional(),
    inputType: z.string().nullable().optional(),
    fixed: numberLike,
    ...bounds,
    selectLeastValue: numberLike,
    selectMostValue: numberLike,
    forM: z.string().nullable().optional(),
    rows: z.array(matrixRow).optional(),
    columns: z.array(option).optional(),
    gapFilling: z.array(blank).optional(),
    fxTopicData: calculation.nullable().optional(),
    fxRadio: flag,
    fxManual: flag,
    method: z.string().nullable().optional(),
    reuniteId: z.string().nullable().optional(),
    ShowItemRelationFlg: flag,
    showRules: z.array(showRule).optional(),
    requiredRule: z.looseObject({ condition: z.string().optional(), rules: z.array(condition) }).optional(),
    get groups() {
      return z.array(element).optional();
    },
    get panel() {
      return z.array(element).optional();
    },
    get matrixNew() {
      return z.array(element).optional();
    },
    get table() {
      return z.array(element).optional();
    },
    get topicGroup() {
      return z.array(element).optional();
    },
    get items() {
      return z.array(element).optional();
    },
  })
  .superRefine((value, ctx) => {
    const type = value.type;
    if (type === undefined || !itemTypes.has(type)) {
      const hasChildren = CONTAINER_FIELDS.some((f) => Array.isArray(value[f]));
      if (type !== undefined && !hasChildren) {
        ctx.addIssue(fault(['type'], `unknown item type '${type}'`, `未知的题目类型 '${type}'`));
      }
      return;
    }
    if (type !== 'paragraph' && !value.key) {
      ctx.addIssue(fault(['key'], `a ${typeEn(type)} item needs a key`, `${typeZh(type)}需要编码（key）`));
    }
    if ((type === 'radio' || type === 'checkbox') && !value.options?.length) {
      ctx.addIssue(fault(['options'], `a ${typeEn(type)} item needs options`, `${typeZh(type)}需要选项`));
    }
    if (type === 'matrix' && !value.rows?.length) {
      ctx.addIssue(fault(['rows'], 'a matrix item needs rows', '矩阵题需要行'));
    }
    if (type === 'gapFilling' && !value.gapFilling?.length) {
      ctx.addIssue(fault(['gapFilling'], 'a gap-filling item needs blanks', `${typeZh(type)}需要至少一个空`));
    }
  });

export const formSchema = z
  .looseObject({
    key: z.string().optional(),
    title: z.string().optional(),
    pages: z.array(element).min(1),
    showRules: z.array(showRule).optional(),
  })
  .superRefine((form, ctx) => {
    // Keys must be unique across the whole form: rules and answers address items by key.
    const seen = new Map<string, string>();
    const check = (node: FormElement, path: (string | number)[]) => {
      const key = node.key;
      if (typeof key !== 'string') return;
      const where = path.join('.');
      if (seen.has(key)) {
        ctx.addIssue(
          fault(
            [...path, 'key'],
            `duplicate key '${key}' (first at ${seen.get(key)})`,
            `key '${key}' 重复（首次出现在 ${seen.get(key)}）`,
          ),
        );
      } else seen.set(key, where);
    };
    form.pages.forEach((p, i) => {
      check(p as FormElement, ['pages', i]);
      walkBelow(
        p as FormElement,
        (e, at) => {
          check(e, ['pages', i, ...at.path]);
        },
        i,
      );
    });
  });

/** One fault of a form: where, the English message and, for the schema's own checks, the Chinese. */
export interface FormFault {
  path: string;
  message: string;
  messageZh?: string;
}

export class FormParseError extends Error {
  readonly faults: FormFault[];
  constructor(faults: FormFault[]) {
    super(`malformed form: ${faults.map((f) => `${f.path || '(root)'}: ${f.message}`).join('; ')}`);
    this.name = 'FormParseError';
    this.faults = faults;
  }
}

/** Checks form JSON and returns it typed; throws FormParseError naming the path of each fault. */
export function parseForm(json: unknown): Form {
  const parsed = formSchema.safeParse(typeof json === 'string' ? JSON.parse(json) : json);
  if (!parsed.success) {
    throw new FormParseError(
      parsed.error.issues.map((i) => {
        const zh = i.code === 'custom' ? (i.params as { zh?: unknown } | undefined)?.zh : undefined;
        return {
          path: i.path.map(String).join('.'),
          message: i.message,
          ...(typeof zh === 'string' ? { messageZh: zh } : {}),
        };
      }),
    );
  }
  return parsed.data as Form;
}
