import { DATA_FACTORY_KINDS } from '@crdp/core';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { appKeys, appNamed, authored } from './columns.js';
import { appScope, oneOf } from './policies.js';

/**
 * Saved reports of one app (报表查询, reports/README.md): a definition over the CDR (the
 * ReportDefinition of @crdp/core, never SQL) and what its last run found, for the data-factory
 * directory.
 */
export const reports = pgTable(
  'reports',
  {
    ...appNamed(),
    definition: jsonb('definition').notNull(),
    /** The last run: `{ at, rows, patients, filled }` (ReportLastRun), null before any. */
    lastRun: jsonb('last_run'),
    ...authored(),
  },
  (t) => [uniqueIndex('reports_app_name').on(t.appId, t.name), appScope()],
);

/**
 * The curation of a derived dataset in the data factory directory (数据工厂目录): the dataset is
 * found from the object that makes it (`kind`, `source_id`); people add its description, tags
 * and steward. The entry goes with its app; a dataset whose object is gone is not listed.
 */
export const dataFactoryEntries = pgTable(
  'data_factory_entries',
  {
    ...appKeys(),
    /** DataFactoryKind of @crdp/core (t0Event, diseaseLibrary, researchDataset, report). */
    kind: text('kind').notNull(),
    sourceId: integer('source_id').notNull(),
    description: text('description').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    steward: text('steward').notNull().default(''),
    ...authored(),
  },
  (t) => [
    uniqueIndex('data_factory_entries_source').on(t.appId, t.kind, t.sourceId),
    index('data_factory_entries_app').on(t.appId),
    oneOf('data_factory_entries_kind', t.kind, DATA_FACTORY_KINDS),
    appScope(),
  ],
);
