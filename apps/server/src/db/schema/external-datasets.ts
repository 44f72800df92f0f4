import { EXTERNAL_LAYOUTS } from '@crdp/core';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { appKeys, authored } from './columns.js';
import { appScope, oneOf } from './policies.js';

/**
 * External datasets (MIMIC 分析, research/external/README.md): a CSV table imported as an analysis
 * source (a MIMIC-like ICU stay table, or any table with a header), kept as typed rows.
 */
export const externalDatasets = pgTable(
  'external_datasets',
  {
    ...appKeys(),
    name: text('name').notNull(),
    /** mimic_icu (columns recognised from the MIMIC layout) or generic. */
    layout: text('layout').notNull(),
    /** [{ key, label, type }] as the research datasets' columns. */
    columns: jsonb('columns').notNull(),
    rows: jsonb('rows').notNull(),
    rowCount: integer('row_count').notNull(),
    ...authored(),
  },
  (t) => [
    uniqueIndex('external_datasets_app_name').on(t.appId, t.name),
    index('external_datasets_app').on(t.appId),
    oneOf('external_datasets_layout', t.layout, EXTERNAL_LAYOUTS),
    appScope(),
  ],
);
