import { quantile, toNumber } from '../aggregate.js';
import {
  fieldsOf,
  firstOf,
  groupBy,
  labelOf,
  localeOf,
  measureOf,
  orderGroups,
  valueFormatter,
} from '../fields.js';
import type { ChartRow, ChartSpec } from '../schema.js';
import { base, type EChartsOption, grid } from './common.js';

/** Heatmap: x and y categories, each cell coloured by the aggregated intensity. */
export function heatmapOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const x = firstOf(spec, 'x');
  const y = firstOf(spec, 'y');
  const intensity = measureOf(firstOf(spec, 'intensity')!, rows);
  const xs = orderGroups(groupBy(rows, x, locale), x, [intensity]).items;
  const ys = orderGroups(groupBy(rows, y, locale), y, [intensity]).items;
  const yIndex = new Map(ys.map((g, i) => [g.label, i]));
  const data: Array<[number, number, number | null]> = [];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  xs.forEach((gx, xi) => {
    for (const gy of groupBy(gx.rows, y, locale)) {
      const v = intensity.of(gy.rows);
      data.push([xi, yIndex.get(gy.label)!, v]);
      if (v !== null) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
  });
  const format = valueFormatter(intensity.field);
  return {
    ...base(spec),
    tooltip: { position: 'top', valueFormatter: format },
    grid: grid({ left: 16, right: 24, top: spec.title ? 48 : 24, bottom: 64 }),
    xAxis: {
      type: 'category',
      data: xs.map((g) => g.label),
      name: x ? labelOf(x) : '',
      splitArea: { show: true },
    },
    yAxis: {
      type: 'category',
      data: ys.map((g) => g.label),
      name: y ? labelOf(y) : '',
      splitArea: { show: true },
    },
    visualMap: {
      min: Number.isFinite(min) ? min : 0,
      max: Number.isFinite(max) ? max : 1,
      calculable: true,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      formatter: (v: number) => format(v),
    },
    series: [
      {
        type: 'heatmap',
        name: labelOf(intensity.field),
        data,
        label: { show: data.length <= 100, formatter: (p: { value: unknown }) => format(p.value) },
      },
    ],
  };
}

/** Radar: one indicator axis per y measure, one polygon per x category. */
export function radarOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const x = firstOf(spec, 'x');
  const measures = fieldsOf(spec, 'y').map((f) => measureOf(f, rows));
  const groups = orderGroups(groupBy(rows, x, locale), x, measures).items;
  const values = groups.map((g) => measures.map((m) => m.of(g.rows)));
  // Each axis scales to its own largest value, so measures of different units stay readable.
  const indicator = measures.map((m, i) => {
    const top = Math.max(0, ...values.map((v) => v[i] ?? 0));
    return { name: labelOf(m.field), max: top === 0 ? 1 : niceCeil(top) };
  });
  return {
    ...base(spec),
    tooltip: { trigger: 'item' },
    legend: { type: 'scroll', bottom: 0, data: groups.map((g) => g.label) },
    radar: { indicator, radius: '65%' },
    series: [
      {
        type: 'radar',
        name: x ? labelOf(x) : '',
        data: groups.map((g, i) => ({ name: g.label, value: values[i]! })),
      },
    ],
  };
}

/** The next "nice" number at or above n (1, 2, 2.5, 5 times a power of ten). */
export function niceCeil(n: number): number {
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

/**
 * Box plot per x category and y measure: Tukey whiskers (the furthest values within 1.5 IQR
 * of the quartiles); values beyond them are drawn as outlier points.
 */
export function boxOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const x = firstOf(spec, 'x');
  const measures = fieldsOf(spec, 'y');
  const groups = orderGroups(
    groupBy(rows, x, locale),
    x,
    measures.map((f) => measureOf(f, rows)),
  ).items;
  const series = measures.flatMap((f) => {
    const boxes: Array<number[] | null> = [];
    const outliers: Array<[number, number]> = [];
    groups.forEach((g, gi) => {
      const nums = g.rows
        .map((r) => toNumber(r[f.field]))
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      if (nums.length === 0) {
        boxes.push(null);
        return;
      }
      const q1 = quantile(nums, 0.25);
      const q3 = quantile(nums, 0.75);
      const fence = 1.5 * (q3 - q1);
      const inside = nums.filter((n) => n >= q1 - fence && n <= q3 + fence);
      boxes.push([inside[0]!, q1, quantile(nums, 0.5), q3, inside[inside.length - 1]!]);
      for (const n of nums) if (n < q1 - fence || n > q3 + fence) outliers.push([gi, n]);
    });
    return [
      { type: 'boxplot', name: labelOf(f), data: boxes },
      { type: 'scatter', name: labelOf(f), data: outliers, symbolSize: 6 },
    ];
  });
  const format = valueFormatter(measures[0]);
  return {
    ...base(spec),
    tooltip: { trigger: 'item' },
    ...(measures.length > 1 ? { legend: { bottom: 0, data: measures.map(labelOf) } } : {}),
    grid: grid({ left: 16, right: 24, top: spec.title ? 48 : 24, bottom: measures.length > 1 ? 40 : 16 }),
    xAxis: {
      type: 'category',
      data: groups.map((g) => g.label || labelOf(measures[0]!)),
      name: x ? labelOf(x) : '',
    },
    yAxis: { type: 'value', scale: true, axisLabel: { formatter: format } },
    series,
  };
}
