import { TERMINOLOGY_DOMAINS } from '@crdp/core';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdBy, timestamps } from './columns.js';
import { apps } from './identity.js';
import { parentKey } from './keys.js';
import { appScope, appScopeRead, oneOf } from './policies.js';

/*
 * The terminology store (terminology/README.md): code systems, their concepts and synonyms.
 * Standard concepts (ICD-10, LOINC …) are reference data of the whole site: `app_id` null, read by
 * every app scope, written only on the system path (loaders, the site's CSV import). A hospital's
 * local extension codes carry its `app_id` and are held to the app's row-level security.
 */

/** A code system and the version loaded. */
export const terminologySystems = pgTable(
  'terminology_systems',
  {
    systemKey: text('system_key').primaryKey(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    /** Which new-code screen and coding area uses it: disease, surgery, lab, drug. */
    domain: text('domain').notNull(),
    version: text('version').notNull().default(''),
    licence: text('licence').notNull().default(''),
    sourceUrl: text('source_url').notNull().default(''),
    /** FHIR canonical URL of the system (CodeSystem.url). */
    uri: text('uri').notNull().default(''),
    loadedAt: at('loaded_at'),
    ...timestamps(),
  },
  (t) => [oneOf('terminology_systems_domain', t.domain, TERMINOLOGY_DOMAINS)],
);

/** One code of a system: standard (app_id null) or an app's local extension (local, app_id set). */
export const terminologyConcepts = pgTable(
  'terminology_concepts',
  {
    conceptId: serial('concept_id').primaryKey(),
    appId: integer('app_id').references(() => apps.appId, { onDelete: 'cascade' }),
    systemKey: text('system_key')
      .notNull()
      .references(() => terminologySystems.systemKey, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    displayZh: text('display_zh').notNull(),
    displayEn: text('display_en').notNull().default(''),
    parentCode: text('parent_code'),
    level: integer('level').notNull().default(1),
    retired: boolean('retired').notNull().default(false),
    /** Pinyin initials of the Chinese display (糖尿病 → tnb), for search. */
    pinyin: text('pinyin').notNull().default(''),
    local: boolean('local').notNull().default(false),
    createdBy: createdBy(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('terminology_concepts_standard_code').on(t.systemKey, t.code).where(sql`${t.appId} is null`),
    uniqueIndex('terminology_concepts_local_code')
      .on(t.systemKey, t.appId, t.code)
      .where(sql`${t.appId} is not null`),
    index('terminology_concepts_parent').on(t.systemKey, t.parentCode),
    index('terminology_concepts_code_prefix').on(t.code.op('text_pattern_ops')),
    index('terminology_concepts_display_prefix').on(t.displayZh.op('text_pattern_ops')),
    index('terminology_concepts_pinyin_prefix').on(t.pinyin.op('text_pattern_ops')),
    index('terminology_concepts_display_trgm').using('gin', t.displayZh.op('gin_trgm_ops')),
    check('terminology_concepts_local_app', sql`${t.local} = (${t.appId} is not null)`),
    appScope(),
    appScopeRead(sql`${t.appId} is null`),
  ],
);

/** Another name of a concept (糖尿病 Ⅱ型 for 2 型糖尿病); app_id as its concept's. */
export const terminologySynonyms = pgTable(
  'terminology_synonyms',
  {
    synonymId: serial('synonym_id').primaryKey(),
    appId: integer('app_id').references(() => apps.appId, { onDelete: 'cascade' }),
    conceptId: parentKey('concept_id', () => terminologyConcepts.conceptId),
    term: text('term').notNull(),
    pinyin: text('pinyin').notNull().default(''),
  },
  (t) => [
    uniqueIndex('terminology_synonyms_concept_term').on(t.conceptId, t.term),
    index('terminology_synonyms_term_prefix').on(t.term.op('text_pattern_ops')),
    index('terminology_synonyms_pinyin_prefix').on(t.pinyin.op('text_pattern_ops')),
    index('terminology_synonyms_term_trgm').using('gin', t.term.op('gin_trgm_ops')),
    appScope(),
    appScopeRead(sql`${t.appId} is null`),
  ],
);
