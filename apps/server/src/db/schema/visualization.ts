import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { appId, at } from './columns.js';
import { users } from './identity.js';
import { appScope } from './policies.js';

/**
 * Saved charts and dashboards of the visualization area. A chart stores the dataset query it
 * is drawn from (dataset id, dimensions, measures, filters) and its chart spec of @crdp/charts;
 * the rows are aggregated again in the database each time it is shown. Every row carries `app_id`.
 */

export const visCharts = pgTable(
  'vis_charts',
  {
    id: serial('id').primaryKey(),
    appId: appId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** { dataset, dimensions, measures, filters } of the dataset catalogue. */
    query: jsonb('query').notNull(),
    /** ChartSpec of @crdp/charts, checked with validateChart before it is stored. */
    spec: jsonb('spec').notNull(),
    createdBy: integer('created_by').references(() => users.userId, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('vis_charts_app').on(t.appId, t.updatedAt), appScope()],
);

export const visDashboards = pgTable(
  'vis_dashboards',
  {
    id: serial('id').primaryKey(),
    appId: appId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Tiles in order: [{ chartId, span }] where span is 1-24 grid columns. */
    tiles: jsonb('tiles').notNull().default([]),
    createdBy: integer('created_by').references(() => users.userId, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('vis_dashboards_app').on(t.appId, t.updatedAt), appScope()],
);
