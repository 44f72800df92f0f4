import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { appId, timestamps } from './columns.js';
import { parentKey } from './keys.js';
import { appScope, oneOf } from './policies.js';

/*
 * Reference data of one app (reference/README.md): the hospital's structure (campuses,
 * departments, wards) and its local code tables (dictionaries) with their entries.
 */

export const HOSPITAL_UNIT_KINDS_DB = ['campus', 'department', 'ward'] as const;

/** A campus, department or ward; a department may sit under a campus, a ward under a department. */
export const hospitalUnits = pgTable(
  'hospital_units',
  {
    unitId: serial('unit_id').primaryKey(),
    appId: appId(),
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** Pinyin initials of the name, for search (消化内科 → xhnk). */
    pinyin: text('pinyin').notNull().default(''),
    parentId: integer('parent_id').references((): AnyPgColumn => hospitalUnits.unitId, {
      onDelete: 'restrict',
    }),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('hospital_units_app_code').on(t.appId, t.code),
    index('hospital_units_parent').on(t.parentId),
    oneOf('hospital_units_kind', t.kind, HOSPITAL_UNIT_KINDS_DB),
    appScope(),
  ],
);

/** A local code table: built-in (the basic dictionaries every app starts with) or the app's own. */
export const dictionaries = pgTable(
  'dictionaries',
  {
    dictionaryId: serial('dictionary_id').primaryKey(),
    appId: appId(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    builtin: boolean('builtin').notNull().default(false),
    /** The standard its entries map to (GB/T 2261.1, UCUM, SNOMED CT …), '' where none. */
    standardSystem: text('standard_system').notNull().default(''),
    ...timestamps(),
  },
  (t) => [uniqueIndex('dictionaries_app_code').on(t.appId, t.code), appScope()],
);

/** One code of a dictionary: local code, name, pinyin initials, synonyms and its standard code. */
export const dictionaryEntries = pgTable(
  'dictionary_entries',
  {
    entryId: serial('entry_id').primaryKey(),
    appId: appId(),
    dictionaryId: parentKey('dictionary_id', () => dictionaries.dictionaryId),
    code: text('code').notNull(),
    name: text('name').notNull(),
    pinyin: text('pinyin').notNull().default(''),
    synonyms: text('synonyms').array().notNull().default(sql`'{}'::text[]`),
    standardCode: text('standard_code').notNull().default(''),
    sortOrder: integer('sort_order').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('dictionary_entries_code').on(t.dictionaryId, t.code),
    index('dictionary_entries_app').on(t.appId),
    appScope(),
  ],
);
