import {
  firstOf,
  groupBy,
  labelOf,
  localeOf,
  measureOf,
  orderGroups,
  rowCount,
  valueFormatter,
} from '../fields.js';
import type { ChannelField, ChartRow, ChartSpec } from '../schema.js';
import { base, type EChartsOption } from './common.js';

/** One aggregated value per category, in the sorted order: the data of every one-measure chart. */
function slices(
  rows: readonly ChartRow[],
  spec: ChartSpec,
  category: ChannelField | undefined,
  value: ChannelField | undefined,
) {
  const locale = localeOf(spec);
  const measure = measureOf(value ?? rowCount(locale), rows);
  const ordered = orderGroups(groupBy(rows, category, locale), category, [measure]);
  const data = ordered.items.map((g) => ({
    name: g.label || labelOf(measure.field),
    value: measure.of(g.rows),
  }));
  return { data, measure, sorted: ordered.sorted };
}

/** Pie and rose (Nightingale) charts: category slices sized by the value. */
export function pieOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const category = firstOf(spec, 'category');
  const { data, measure } = slices(rows, spec, category, firstOf(spec, 'value'));
  const format = valueFormatter(measure.field);
  const labelField = firstOf(spec, 'label');
  return {
    ...base(spec),
    tooltip: { trigger: 'item', valueFormatter: format },
    legend: { type: 'scroll', bottom: 0 },
    series: [
      {
        type: 'pie',
        name: category ? labelOf(category) : labelOf(measure.field),
        radius: spec.subtype === 'rose' ? ['12%', '58%'] : ['0%', '58%'],
        center: ['50%', '50%'],
        ...(spec.subtype === 'rose' ? { roseType: 'radius' } : {}),
        data,
        avoidLabelOverlap: true,
        // Labels aligned to the card's edges, so a narrow card never cuts them off.
        labelLine: { length: 12, length2: 0, maxSurfaceAngle: 80 },
        labelLayout: { hideOverlap: true },
        label: {
          show: true,
          alignTo: 'edge',
          edgeDistance: 8,
          minMargin: 4,
          formatter: (p: { name: string; value: unknown; percent: number }) =>
            labelField ? `${p.name}: ${format(p.value)} (${p.percent}%)` : `${p.name}: ${p.percent}%`,
        },
      },
    ],
  };
}

/** Funnel: stages on x, their values on y. Kept in data order when the user sorted, else widest first. */
export function funnelOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const stage = firstOf(spec, 'x');
  const { data, measure, sorted } = slices(rows, spec, stage, firstOf(spec, 'y'));
  const format = valueFormatter(measure.field);
  return {
    ...base(spec),
    tooltip: { trigger: 'item', valueFormatter: format },
    legend: { type: 'scroll', bottom: 0 },
    series: [
      {
        type: 'funnel',
        name: labelOf(measure.field),
        sort: sorted ? 'none' : 'descending',
        left: '10%',
        width: '80%',
        label: {
          show: true,
          position: 'inside',
          formatter: (p: { name: string; value: unknown }) => `${p.name}: ${format(p.value)}`,
        },
        data,
      },
    ],
  };
}

/** Word cloud for echarts-wordcloud: words from the text channel, sized by the size measure (row count by default). */
export function wordCloudOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const { data, measure, sorted } = slices(rows, spec, firstOf(spec, 'text'), firstOf(spec, 'size'));
  // The biggest words carry the picture; hundreds of tiny ones only cost layout time.
  const ranked = sorted ? data : [...data].sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const words = ranked.filter((d) => d.value !== null).slice(0, spec.options?.maxWords ?? 200);
  return {
    ...base(spec),
    tooltip: { trigger: 'item', valueFormatter: valueFormatter(measure.field) },
    series: [
      {
        type: 'wordCloud',
        name: labelOf(measure.field),
        shape: 'circle',
        sizeRange: [12, 60],
        rotationRange: [-45, 45],
        rotationStep: 45,
        gridSize: 8,
        drawOutOfBound: false,
        layoutAnimation: true,
        data: words,
      },
    ],
  };
}

/** Province map: the app registers the China geo JSON under the map name ('china' by default). */
export function mapOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const region = firstOf(spec, 'category');
  const { data, measure } = slices(rows, spec, region, firstOf(spec, 'value'));
  const values = data.map((d) => d.value).filter((v): v is number => v !== null);
  const format = valueFormatter(measure.field);
  return {
    ...base(spec),
    tooltip: { trigger: 'item', valueFormatter: format },
    visualMap: {
      type: 'continuous',
      min: values.length ? Math.min(0, ...values) : 0,
      max: values.length ? Math.max(...values) : 1,
      left: 'left',
      bottom: 16,
      calculable: true,
      text: [labelOf(measure.field), ''],
      formatter: (v: number) => format(v),
      inRange: { color: ['#E6F7FF', '#69C0FF', '#1890FF', '#0050B3'] },
    },
    series: [
      {
        type: 'map',
        name: labelOf(measure.field),
        map: spec.options?.mapName ?? 'china',
        roam: true,
        emphasis: { label: { show: true } },
        data,
      },
    ],
  };
}
