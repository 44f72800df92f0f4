import { CHANNELS, type ChartRow, type ChartSpec } from '@crdp/charts';
import type {
  VisAggregateQueryBody,
  VisAggregateResult,
  VisChart,
  VisChartInput,
  VisDashboard,
  VisDashboardInput,
  VisDashboardWithCharts,
  VisDataset,
  VisDatasetDimension,
  VisDatasetMeasure,
  VisDeleted,
} from '@crdp/core';
import { rest } from '../../api/client';
import type { ViewSpec } from '../../components/chart/ChartView';

/** The two menu areas that chart (spec 000 section 2) call the same API under their own prefix. */
export type Area = 'visualization' | 'data-lake';
const prefix = (area: Area) => (area === 'visualization' ? 'visualization' : 'data-lake/visualization');

/** A field of a dataset's menus: a dimension (with its type) or a measure (with its roll-up). */
export type DatasetField = VisDatasetDimension | VisDatasetMeasure;
export type DatasetInfo = VisDataset;
/** A query as the builder sends it (filters and limit may be left out). */
export type DatasetQuery = VisAggregateQueryBody;
export type AggregateResult = VisAggregateResult;
/** A saved chart; its spec is the `@crdp/charts` spec the builder made (checked when it was saved). */
export type SavedChart = Omit<VisChart, 'spec'> & { spec: ViewSpec };
export type Dashboard = VisDashboard;
export type DashboardWithCharts = Omit<VisDashboardWithCharts, 'charts'> & { charts: SavedChart[] };

export const listDatasets = (area: Area) => rest<DatasetInfo[]>({ url: `${prefix(area)}/datasets` });
export const aggregate = (area: Area, query: DatasetQuery) =>
  rest<AggregateResult>({ url: `${prefix(area)}/aggregate`, method: 'POST', data: query });
export const listCharts = (area: Area) => rest<SavedChart[]>({ url: `${prefix(area)}/charts` });
export const getChart = (area: Area, id: number) => rest<SavedChart>({ url: `${prefix(area)}/charts/${id}` });
export const saveChart = (area: Area, body: Omit<VisChartInput, 'spec'> & { spec: ViewSpec }, id?: number) =>
  rest<SavedChart>({
    url: `${prefix(area)}/charts${id ? `/${id}` : ''}`,
    method: id ? 'PUT' : 'POST',
    data: body,
  });
export const deleteChart = (area: Area, id: number) =>
  rest<VisDeleted>({ url: `${prefix(area)}/charts/${id}`, method: 'DELETE' });
export const listDashboards = (area: Area) => rest<Dashboard[]>({ url: `${prefix(area)}/dashboards` });
export const getDashboard = (area: Area, id: number) =>
  rest<DashboardWithCharts>({ url: `${prefix(area)}/dashboards/${id}` });
export const saveDashboard = (area: Area, body: VisDashboardInput, id?: number) =>
  rest<Dashboard>({
    url: `${prefix(area)}/dashboards${id ? `/${id}` : ''}`,
    method: id ? 'PUT' : 'POST',
    data: body,
  });
export const deleteDashboard = (area: Area, id: number) =>
  rest<VisDeleted>({ url: `${prefix(area)}/dashboards/${id}`, method: 'DELETE' });

/** The dataset query a spec needs: its fields split into the dataset's dimensions and measures. */
export function queryForSpec(dataset: DatasetInfo, spec: ChartSpec): DatasetQuery {
  const fields = new Set<string>();
  for (const c of CHANNELS) for (const f of spec.channels?.[c] ?? []) fields.add(f.field);
  const dimensions = dataset.dimensions.filter((d) => fields.has(d.key)).map((d) => d.key);
  const measures = dataset.measures.filter((m) => fields.has(m.key)).map((m) => m.key);
  // A venn diagram counts members: it draws from the group sizes of its flags.
  if (measures.length === 0 && dataset.measures[0]) measures.push(dataset.measures[0].key);
  return { dataset: dataset.id, dimensions, measures };
}

/**
 * Rows for drawing. The venn layout counts rows, so each grouped row of flags stands for as
 * many members as its count (at most 64 groups of 6 flags come over the wire).
 */
export function rowsForSpec(spec: ChartSpec, rows: readonly ChartRow[], query: DatasetQuery): ChartRow[] {
  if (spec.subtype !== 'venn') return [...rows];
  const weight = query.measures[0]!;
  return rows.flatMap((r) => Array.from({ length: Math.max(0, Number(r[weight]) || 0) }, () => r));
}
