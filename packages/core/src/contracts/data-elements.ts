import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, timestamp, timestampOrNull } from './common.js';

/**
 * Data elements (数据元, `/api/v0.1/data-elements`, menu DataElementSubscribe): named, versioned
 * definitions of a variable that a data steward publishes; users subscribe, and a new version
 * lights the header's red icon (a `dataElement.published` notice) until the subscriber has read
 * what changed. Server: apps/server/src/data-elements; web: apps/web/src/pages/data-element.
 */

export const DATA_ELEMENT_TYPES = ['number', 'text', 'date', 'code', 'boolean'] as const;
export type DataElementType = (typeof DATA_ELEMENT_TYPES)[number];

const code = safeText(40, { min: 1, required: 'must not be blank' }).regex(
  /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
  'letters, digits and . _ - only',
);

/** One version's definition of the variable. */
export const dataElementDefinition = z.object({
  name: safeText(60, { min: 1, required: 'must not be blank' }),
  type: z.enum(DATA_ELEMENT_TYPES),
  unit: safeText(20).default(''),
  /** Allowed codes with their meaning (for `code`). */
  valueSet: z
    .array(z.object({ code: safeText(40, { min: 1 }), label: safeText(60, { min: 1 }) }))
    .max(200)
    .default([]),
  /** How the value is obtained (a rule, a formula, a CRF item), in words. */
  derivation: safeText(500, { multiline: true }).default(''),
  description: safeText(500, { multiline: true }).default(''),
});
export type DataElementDefinition = z.output<typeof dataElementDefinition>;

/** Create: the element's code and its first version. */
export const dataElementCreate = z.object({
  code,
  definition: dataElementDefinition,
  note: safeText(200).default(''),
});
export type DataElementCreate = z.input<typeof dataElementCreate>;
/** Publish a new version (the whole definition) with a note on what changed and why. */
export const dataElementPublish = z.object({
  definition: dataElementDefinition,
  note: safeText(200).default(''),
});
export type DataElementPublish = z.input<typeof dataElementPublish>;
export const dataElementParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const dataElementQuery = z.object({ keyword: safeText(60).default('') });

export const dataElement = z.object({
  id: z.number().int(),
  code: z.string(),
  version: z.number().int(),
  definition: dataElementDefinition,
  publishedAt: timestamp,
  subscribed: z.boolean(),
  /** The version the signed-in user last read (null: not subscribed). */
  seenVersion: z.number().int().nullable(),
  subscribers: z.number().int(),
});
export type DataElement = z.infer<typeof dataElement>;
export const dataElementList = itemList(dataElement);
export type DataElementList = z.infer<typeof dataElementList>;

export const dataElementVersion = z.object({
  version: z.number().int(),
  definition: dataElementDefinition,
  note: z.string(),
  publishedBy: z.string(),
  publishedAt: timestamp,
});
export const dataElementDetail = dataElement.extend({ versions: z.array(dataElementVersion) });
export type DataElementDetail = z.infer<typeof dataElementDetail>;

export const dataElementChange = z.object({
  field: z.enum(['name', 'type', 'unit', 'valueSet', 'derivation', 'description']),
  before: z.string(),
  after: z.string(),
});
export type DataElementChange = z.infer<typeof dataElementChange>;

/** A subscribed element with versions the user has not read: what changed since the one they read. */
export const dataElementUpdates = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      name: z.string(),
      fromVersion: z.number().int(),
      toVersion: z.number().int(),
      notes: z.array(z.string()),
      changes: z.array(dataElementChange),
      publishedAt: timestampOrNull,
    }),
  ),
});
export type DataElementUpdates = z.infer<typeof dataElementUpdates>;
/** `updates/read` takes an empty object (any other body is refused). */
export const dataElementReadBody = z.object({}).strict().default({});
export const dataElementRead = z.object({ elements: z.number().int(), notices: z.number().int() });
export type DataElementRead = z.infer<typeof dataElementRead>;

const valueSetText = (d: DataElementDefinition) => d.valueSet.map((v) => `${v.code}=${v.label}`).join('; ');

/** What changed between two versions of a definition, field by field (the value set as a whole). */
export function diffDataElement(a: DataElementDefinition, b: DataElementDefinition): DataElementChange[] {
  const out: DataElementChange[] = [];
  for (const field of ['name', 'type', 'unit', 'derivation', 'description'] as const)
    if (a[field] !== b[field]) out.push({ field, before: a[field], after: b[field] });
  if (valueSetText(a) !== valueSetText(b))
    out.push({ field: 'valueSet', before: valueSetText(a), after: valueSetText(b) });
  return out;
}
