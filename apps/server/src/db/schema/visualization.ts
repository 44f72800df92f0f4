import { index, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { appNamed, authored } from './columns.js';
import { appScope } from './policies.js';

/**
 * Saved charts and dashboards of the visualization area. A chart stores the dataset query it
 * is drawn from (dataset id, dimensions, measures, filters) and its chart spec of @crdp/charts;
 * the rows are aggregated again in the database each time it is shown. Every row carries `app_id`.
 */

export const visCharts = pgTable(
  'vis_charts',
  {
    ...appNamed(),
    /** { dataset, dimensions, measures, filters } of the dataset catalogue. */
    query: jsonb('query').notNull(),
    /** ChartSpec of @crdp/charts, checked with validateChart before it is stored. */
    spec: jsonb('spec').notNull(),
    ...authored(),
  },
  (t) => [index('vis_charts_app').on(t.appId, t.updatedAt), appScope()],
);

export const visDashboards = pgTable(
  'vis_dashboards',
  {
    ...appNamed(),
    /** Tiles in order: [{ chartId, span }] where span is 1-24 grid columns. */
    tiles: jsonb('tiles').notNull().default([]),
    ...authored(),
  },
  (t) => [index('vis_dashboards_app').on(t.appId, t.updatedAt), appScope()],
);
