import type { ChartRow, ChartSpec } from '../schema.js';
import type { ChartSubtype } from '../subtypes.js';
import { assertChart } from '../validate.js';
import { cartesianOption } from './cartesian.js';
import type { EChartsOption } from './common.js';
import { hierarchyOption, sankeyOption } from './hierarchy.js';
import { boxOption, heatmapOption, radarOption } from './matrix.js';
import { coordinatesOption, pointsOption } from './points.js';
import { funnelOption, mapOption, pieOption, wordCloudOption } from './sliced.js';
import { richTextOption, tableOption } from './text.js';
import { vennOption } from './venn.js';

export type { EChartsOption } from './common.js';

const BUILDERS: Record<ChartSubtype, (spec: ChartSpec, rows: readonly ChartRow[]) => EChartsOption> = {
  'rich-text': richTextOption,
  table: tableOption,
  column: cartesianOption,
  'stacked-column': cartesianOption,
  'per-stacked-column': cartesianOption,
  bar: cartesianOption,
  'stacked-bar': cartesianOption,
  'per-stacked-bar': cartesianOption,
  line: cartesianOption,
  area: cartesianOption,
  'stacked-area': cartesianOption,
  coordinates: coordinatesOption,
  pie: pieOption,
  rose: pieOption,
  sunburst: hierarchyOption,
  map: mapOption,
  radar: radarOption,
  'word-cloud': wordCloudOption,
  'scatter-plot': pointsOption,
  bubble: pointsOption,
  'sankey-diagram': sankeyOption,
  heatmap: heatmapOption,
  box: boxOption,
  funnel: funnelOption,
  'tree-map': hierarchyOption,
  venn: vennOption,
};

/**
 * The ECharts option for a chart spec and its data rows (already filtered; aggregation of
 * big data belongs in the database, this aggregates what it is given). Throws NotAChartError
 * when the spec misses a requirement; call validateChart first to show the message instead.
 */
export function toEChartsOption(spec: ChartSpec | unknown, rows: readonly ChartRow[]): EChartsOption {
  const parsed = assertChart(spec);
  return BUILDERS[parsed.subtype](parsed, rows);
}
