import { z } from 'zod';
import { safeText } from '../helpers/control-chars.js';
import { itemList, pageQueryFields, stamps } from './common.js';

/**
 * Reference data of the data-collection area (数据采集): the hospital's structure (医院信息维护,
 * `/api/v0.1/hospital-units`) and its local code tables — the basic dictionaries every app starts
 * with (基础字典维护, `/api/v0.1/basic-dictionaries`) and the app's own (字典管理,
 * `/api/v0.1/dictionaries`). Server: apps/server/src/reference; web: apps/web/src/pages/data-lake.
 *
 * The limits are exported so the web's form rules say what the server checks.
 */

export const HOSPITAL_UNIT_KINDS = ['campus', 'department', 'ward'] as const;
export type HospitalUnitKind = (typeof HOSPITAL_UNIT_KINDS)[number];
/** The kind a unit of each kind may sit under (a campus sits under nothing). */
export const HOSPITAL_UNIT_PARENT: Record<HospitalUnitKind, HospitalUnitKind | null> = {
  campus: null,
  department: 'campus',
  ward: 'department',
};

export const REFERENCE_CODE_MAX = 30;
export const REFERENCE_NAME_MAX = 50;
export const DICTIONARY_DESCRIPTION_MAX = 200;
export const ENTRY_NAME_MAX = 100;
export const ENTRY_SYNONYMS_MAX = 20;
/** Codes of units and entries: letters, digits and . _ - / (mg/dL, 10*9/L, QD, 0101). */
export const REFERENCE_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._\-/*[\]%]*$/;
/** A dictionary's own code: lower-case letters, digits and _, starting with a letter (gender, visit_kind). */
export const DICTIONARY_CODE_PATTERN = /^[a-z][a-z0-9_]*$/;

const int = z.number().int();
const name = (max: number) => safeText(max, { min: 1, required: 'must not be blank' });
const refCode = safeText(REFERENCE_CODE_MAX, { min: 1, required: 'must not be blank' }).regex(
  REFERENCE_CODE_PATTERN,
  'may hold letters, digits and . _ - / * % [ ] only, starting with a letter or digit',
);
const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true');
const idParam = z.coerce.number().int().positive().max(2_147_483_647);

// ---- Hospital structure ---------------------------------------------------------------------

export const hospitalUnitParams = z.object({ id: idParam });

export const hospitalUnitCreate = z.object({
  kind: z.enum(HOSPITAL_UNIT_KINDS),
  code: refCode,
  name: name(REFERENCE_NAME_MAX),
  parentId: int.positive().nullable().default(null),
  enabled: z.boolean().default(true),
});
export type HospitalUnitCreate = z.input<typeof hospitalUnitCreate>;

/** The kind stays what it was: a department does not become a ward. */
export const hospitalUnitPatch = z.object({
  code: refCode.optional(),
  name: name(REFERENCE_NAME_MAX).optional(),
  parentId: int.positive().nullable().optional(),
  enabled: z.boolean().optional(),
});
export type HospitalUnitPatch = z.input<typeof hospitalUnitPatch>;

export const hospitalUnit = z.object({
  id: int,
  kind: z.enum(HOSPITAL_UNIT_KINDS),
  code: z.string(),
  name: z.string(),
  /** Pinyin initials of the name (消化内科 → xhnk). */
  pinyin: z.string(),
  parentId: int.nullable(),
  enabled: z.boolean(),
  /** For departments and wards: the clinical visits recorded under this unit's name or code. */
  visits: int,
  ...stamps,
});
export type HospitalUnit = z.infer<typeof hospitalUnit>;

export const hospitalUnitQuery = z.object({ keyword: safeText(50).optional() });
export type HospitalUnitQuery = z.input<typeof hospitalUnitQuery>;

/** The whole structure, flat, parents before children (a hospital has hundreds of units, not more). */
export const hospitalUnitList = itemList(hospitalUnit);
export type HospitalUnitList = z.infer<typeof hospitalUnitList>;

// ---- Dictionaries -----------------------------------------------------------------------------

export const dictionaryParams = z.object({ id: idParam });
export const dictionaryEntryParams = z.object({ id: idParam, entryId: idParam });

export const dictionaryCreate = z.object({
  code: safeText(40, { min: 1, required: 'must not be blank' }).regex(
    DICTIONARY_CODE_PATTERN,
    'lower-case letters, digits and _ only, starting with a letter',
  ),
  name: name(REFERENCE_NAME_MAX),
  description: safeText(DICTIONARY_DESCRIPTION_MAX).default(''),
  standardSystem: safeText(REFERENCE_NAME_MAX).default(''),
});
export type DictionaryCreate = z.input<typeof dictionaryCreate>;

/** A dictionary's code stays: collection templates and filters name it. */
export const dictionaryPatch = z.object({
  name: name(REFERENCE_NAME_MAX).optional(),
  description: safeText(DICTIONARY_DESCRIPTION_MAX).optional(),
  standardSystem: safeText(REFERENCE_NAME_MAX).optional(),
});
export type DictionaryPatch = z.input<typeof dictionaryPatch>;

export const dictionary = z.object({
  id: int,
  code: z.string(),
  name: z.string(),
  description: z.string(),
  builtin: z.boolean(),
  standardSystem: z.string(),
  entryCount: int,
  ...stamps,
});
export type Dictionary = z.infer<typeof dictionary>;

export const dictionaryQuery = z.object({ keyword: safeText(50).optional() });
export type DictionaryQuery = z.input<typeof dictionaryQuery>;

export const dictionaryList = itemList(dictionary);
export type DictionaryList = z.infer<typeof dictionaryList>;

const synonyms = z
  .array(safeText(REFERENCE_NAME_MAX, { min: 1, required: 'must not be blank' }))
  .max(ENTRY_SYNONYMS_MAX);

const entryFields = {
  code: refCode,
  name: name(ENTRY_NAME_MAX),
  /** Pinyin initials; left blank, the server derives them from the name. */
  pinyin: safeText(REFERENCE_NAME_MAX).regex(/^[a-z0-9]*$/i, 'letters and digits only'),
  synonyms,
  standardCode: safeText(REFERENCE_NAME_MAX),
  sortOrder: int.min(0).max(99_999),
  enabled: z.boolean(),
};

export const dictionaryEntryCreate = z.object({
  ...entryFields,
  pinyin: entryFields.pinyin.default(''),
  synonyms: entryFields.synonyms.default([]),
  standardCode: entryFields.standardCode.default(''),
  sortOrder: entryFields.sortOrder.default(0),
  enabled: entryFields.enabled.default(true),
});
export type DictionaryEntryCreate = z.input<typeof dictionaryEntryCreate>;

/** The fields to change; a field left out keeps its value (no defaults here). */
export const dictionaryEntryPatch = z.object(entryFields).partial();
export type DictionaryEntryPatch = z.input<typeof dictionaryEntryPatch>;

export const dictionaryEntry = z.object({
  id: int,
  dictionaryId: int,
  code: z.string(),
  name: z.string(),
  pinyin: z.string(),
  synonyms: z.array(z.string()),
  standardCode: z.string(),
  sortOrder: int,
  enabled: z.boolean(),
  ...stamps,
});
export type DictionaryEntry = z.infer<typeof dictionaryEntry>;

/** Entries of one dictionary: `keyword` matches code, name, pinyin initials and synonyms. */
export const dictionaryEntryQuery = z.object({
  keyword: safeText(50).optional(),
  enabled: queryBool.optional(),
  ...pageQueryFields(200, 20),
});
export type DictionaryEntryQuery = z.input<typeof dictionaryEntryQuery>;

export const dictionaryEntryPage = z.object({
  total: int,
  page: int,
  size: int,
  items: z.array(dictionaryEntry),
});
export type DictionaryEntryPage = z.infer<typeof dictionaryEntryPage>;

/** The CSV columns of an entry import and export (`code` and `name` required). */
export const DICTIONARY_CSV_COLUMNS = [
  'code',
  'name',
  'pinyin',
  'synonyms',
  'standard_code',
  'sort_order',
  'enabled',
] as const;

/** A dictionary's enabled codes with their names, for any screen that shows codes as names. */
export const dictionaryCodes = z.object({
  code: z.string(),
  name: z.string(),
  entries: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type DictionaryCodes = z.infer<typeof dictionaryCodes>;
export const dictionaryCodesParams = z.object({
  code: z.string().max(40).regex(DICTIONARY_CODE_PATTERN, 'not a dictionary code'),
});
