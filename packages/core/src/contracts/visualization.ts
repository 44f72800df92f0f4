import { z } from 'zod';
import { jsonValue, stamps } from './common.js';

/**
 * Charts (`/api/v0.1/visualization/...` and the same calls under `/api/v0.1/data-lake/visualization/...`;
 * server: apps/server/src/visualization, screens: pages/visualization): the dataset catalogue the
 * chart builder draws from, grouped queries, saved charts and dashboards, and the public demo
 * `GET /analysis/month-bar`. A chart's spec is a `@crdp/charts` spec (checked with validateChart
 * before it is stored); here it is a JSON object, since core does not know the chart model.
 */

export const VIS_FIELD_TYPES = ['string', 'number', 'date', 'boolean'] as const;
export type VisFieldType = (typeof VIS_FIELD_TYPES)[number];
export const VIS_ROLLUPS = ['sum', 'average', 'min', 'max'] as const;
export type VisRollup = (typeof VIS_ROLLUPS)[number];
export const VIS_DATASET_SOURCES = ['clinical', 'disease-library', 'project'] as const;
export const VIS_FILTER_OPS = ['eq', 'ne', 'in', 'gte', 'lte', 'contains'] as const;
export type VisFilterOp = (typeof VIS_FILTER_OPS)[number];

/** Groups an aggregate query answers at most. */
export const VIS_MAX_ROWS = 5000;
export const VIS_NAME_MAX = 100;
export const VIS_DESCRIPTION_MAX = 1000;
export const VIS_DIMENSIONS_MAX = 4;
export const VIS_MEASURES_MAX = 6;
export const VIS_FILTERS_MAX = 10;
export const VIS_TILES_MAX = 24;

// ---- Requests --------------------------------------------------------------------------------

const fieldKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/);
const filterValue = z.union([z.string().max(200), z.number(), z.boolean()]);

/** A dataset query of the builder: fields by key, grouped in the database; never SQL. */
export const visAggregateQuery = z.object({
  dataset: fieldKey,
  dimensions: z.array(fieldKey).max(VIS_DIMENSIONS_MAX).default([]),
  measures: z.array(fieldKey).min(1).max(VIS_MEASURES_MAX),
  // The shape only: each value is checked against its field's type on the server, before any SQL.
  filters: z
    .array(
      z.object({
        field: fieldKey,
        op: z.enum(VIS_FILTER_OPS),
        value: z.union([filterValue, z.array(filterValue).min(1).max(100)]),
      }),
    )
    .max(VIS_FILTERS_MAX)
    .default([]),
  limit: z.number().int().min(1).max(VIS_MAX_ROWS).default(VIS_MAX_ROWS),
});
/** A query as the server reads it (defaults filled in). */
export type VisAggregateQuery = z.infer<typeof visAggregateQuery>;
/** A query as the web sends it (filters and limit may be left out). */
export type VisAggregateQueryBody = z.input<typeof visAggregateQuery>;

// zod counts code points; the limit is also held in UTF-16 units, as the OpenAPI maxLength says.
const bounded = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => s.length <= max, `at most ${max} characters`)
    .transform((s) => s.trim());
const name = bounded(VIS_NAME_MAX).pipe(z.string().min(1));
const description = bounded(VIS_DESCRIPTION_MAX).default('');

export const visChartBody = z.object({
  name,
  description,
  query: visAggregateQuery,
  /** A `@crdp/charts` spec (the server checks it with validateChart). */
  spec: z.record(z.string(), z.unknown()),
});
export type VisChartBody = z.infer<typeof visChartBody>;
/** A chart as the web sends it (description may be left out). */
export type VisChartInput = z.input<typeof visChartBody>;

export const visDashboardTile = z.object({
  chartId: z.number().int().positive().max(2_147_483_647),
  /** Columns of 24 the tile takes. */
  span: z.number().int().min(6).max(24),
});
export type VisDashboardTile = z.infer<typeof visDashboardTile>;
export const visDashboardBody = z.object({
  name,
  description,
  tiles: z.array(visDashboardTile).max(VIS_TILES_MAX).default([]),
});
export type VisDashboardBody = z.infer<typeof visDashboardBody>;
export type VisDashboardInput = z.input<typeof visDashboardBody>;

const serialId = z.coerce.number().int().positive().max(2_147_483_647);
export const visChartParams = z.object({ chartId: serialId });
export const visDashboardParams = z.object({ dashboardId: serialId });
export const monthBarQuery = z.object({ year: z.coerce.number().int().min(2000).max(2100).optional() });

// ---- Answers ---------------------------------------------------------------------------------

export const visDatasetDimension = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(VIS_FIELD_TYPES),
});
export type VisDatasetDimension = z.infer<typeof visDatasetDimension>;
export const visDatasetMeasure = z.object({
  key: z.string(),
  label: z.string(),
  rollup: z.enum(VIS_ROLLUPS),
});
export type VisDatasetMeasure = z.infer<typeof visDatasetMeasure>;
/** A dataset of the builder's menus, in the caller's language. */
export const visDataset = z.object({
  id: z.string(),
  source: z.enum(VIS_DATASET_SOURCES),
  label: z.string(),
  description: z.string(),
  dimensions: z.array(visDatasetDimension),
  measures: z.array(visDatasetMeasure),
});
export type VisDataset = z.infer<typeof visDataset>;

export const visAggregateColumn = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['dimension', 'measure']),
  type: z.enum(VIS_FIELD_TYPES),
  rollup: z.enum(VIS_ROLLUPS).optional(),
});
export type VisAggregateColumn = z.infer<typeof visAggregateColumn>;
/** One group: its dimensions' values and its measures (numbers). */
export const visAggregateRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type VisAggregateRow = z.infer<typeof visAggregateRow>;
export const visAggregateResult = z.object({
  dataset: z.string(),
  columns: z.array(visAggregateColumn),
  rows: z.array(visAggregateRow),
  /** True when more groups existed than `limit`. */
  truncated: z.boolean(),
});
export type VisAggregateResult = z.infer<typeof visAggregateResult>;

/** A saved chart: its dataset query and its chart spec. */
export const visChart = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  query: visAggregateQuery,
  spec: z.record(z.string(), jsonValue),
  ...stamps,
});
export type VisChart = z.infer<typeof visChart>;

export const visDashboard = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  tiles: z.array(visDashboardTile),
  ...stamps,
});
export type VisDashboard = z.infer<typeof visDashboard>;
/** A dashboard with the charts of its tiles (tiles whose chart was deleted are left out). */
export const visDashboardWithCharts = visDashboard.extend({ charts: z.array(visChart) });
export type VisDashboardWithCharts = z.infer<typeof visDashboardWithCharts>;

export const visDeleted = z.object({ id: z.number().int() });
export type VisDeleted = z.infer<typeof visDeleted>;

/** The demo month bar of spec 000 §7: one entry per month, `y` in 1–22 and `y2` in 1–30. */
export const monthBarEntry = z.object({
  x: z.string(),
  month: z.number().int(),
  y: z.number().int(),
  y2: z.number().int(),
});
export type MonthBarEntry = z.infer<typeof monthBarEntry>;
export const monthBarAnswer = z.object({ result: z.array(monthBarEntry) });
