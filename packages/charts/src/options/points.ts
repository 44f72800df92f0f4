import { isEmpty, toNumber } from '../aggregate.js';
import {
  categoryLabel,
  fieldsOf,
  firstOf,
  groupBy,
  labelOf,
  localeOf,
  sortFrom,
  valueFormatter,
} from '../fields.js';
import { htmlLines } from '../html.js';
import type { ChannelField, ChartRow, ChartSpec } from '../schema.js';
import { sortOrSkip } from '../sort.js';
import { base, type EChartsOption, grid } from './common.js';

const num = (row: ChartRow, f: ChannelField | undefined, index: number) =>
  f ? toNumber(row[f.field]) : index;

/** Rows in the order of the first sort on the given fields (raw rows, so the sort reads cells). */
function sortRows(
  rows: readonly ChartRow[],
  fields: Array<ChannelField | undefined>,
  locale: 'zh-CN' | 'en-US',
) {
  const found = sortFrom(...fields);
  if (!found) return [...rows];
  const f = found.field.field;
  return sortOrSkip(rows, found.sort, (r) => ({
    label: categoryLabel(r[f], locale),
    raw: r[f],
    value: isEmpty(r[f]) ? null : (toNumber(r[f]) as number),
  })).items;
}

// ECharts switches to its progressive large-data path past this many points.
const LARGE = 2000;

/**
 * Scatter and bubble charts plot rows, not aggregates: each row is a point. Rows whose x or
 * y is not a number are left out. Without an x field the row's position is the x value.
 */
export function pointsOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const x = firstOf(spec, 'x');
  const y = firstOf(spec, 'y')!;
  const size = spec.subtype === 'bubble' ? firstOf(spec, 'size') : undefined;
  const label = spec.subtype === 'scatter-plot' ? firstOf(spec, 'label') : undefined;
  const color = firstOf(spec, 'color');
  const ordered = sortRows(rows, [x, y, size, color], locale);
  const sizes = size ? ordered.map((r) => toNumber(r[size.field])).filter(Number.isFinite) : [];
  let maxSize = 0;
  for (const s of sizes) maxSize = Math.max(maxSize, Math.abs(s));
  // Bubble area, not radius, is proportional to the value, as the eye reads it.
  const symbolSize = (v: number) => (maxSize === 0 ? 6 : 6 + Math.sqrt(Math.abs(v) / maxSize) * 54);

  const groups = color
    ? groupBy(ordered, color, locale)
    : [{ label: labelOf(y), raw: undefined, rows: ordered }];
  const series = groups.map((g) => {
    const data = [];
    for (const [i, row] of g.rows.entries()) {
      const xv = num(row, x, i);
      const yv = num(row, y, i);
      if (!Number.isFinite(xv) || !Number.isFinite(yv)) continue;
      if (size) {
        const sv = toNumber(row[size.field]);
        if (!Number.isFinite(sv)) continue;
        data.push({ value: [xv, yv, sv], symbolSize: symbolSize(sv) });
      } else if (label) {
        data.push({ value: [xv, yv], name: categoryLabel(row[label.field], locale) });
      } else {
        data.push([xv, yv]);
      }
    }
    return {
      type: 'scatter',
      name: g.label,
      data,
      ...(data.length > LARGE && !size ? { large: true, largeThreshold: LARGE } : {}),
      ...(label ? { label: { show: data.length <= 200, position: 'top', formatter: '{b}' } } : {}),
      ...(size ? { emphasis: { focus: 'series' } } : {}),
    };
  });
  const fx = valueFormatter(x);
  const fy = valueFormatter(y);
  const fs = valueFormatter(size);
  return {
    ...base(spec),
    tooltip: {
      trigger: 'item',
      formatter: (p: { seriesName: string; value: number[]; name?: string }) => {
        const parts = [`${x ? labelOf(x) : '#'}: ${fx(p.value[0])}`, `${labelOf(y)}: ${fy(p.value[1])}`];
        if (size) parts.push(`${labelOf(size)}: ${fs(p.value[2])}`);
        // ECharts puts this into the page as HTML: every label and value is escaped.
        return htmlLines([p.name || p.seriesName, ...parts]);
      },
    },
    ...(color ? { legend: { type: 'scroll', bottom: 0 } } : {}),
    grid: grid({ left: 16, right: 24, top: spec.title ? 48 : 24, bottom: color ? 40 : 16 }),
    xAxis: { type: 'value', scale: true, name: x ? labelOf(x) : '', axisLabel: { formatter: fx } },
    yAxis: { type: 'value', scale: true, name: labelOf(y), axisLabel: { formatter: fy } },
    series,
  };
}

/**
 * Parallel coordinates: one axis per `ys` field, one line per row. Numeric fields get a value
 * axis, others a category axis with their distinct values.
 */
export function coordinatesOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const axes = fieldsOf(spec, 'ys');
  const color = firstOf(spec, 'color');
  const numeric = axes.map((f) =>
    rows.every((r) => isEmpty(r[f.field]) || Number.isFinite(toNumber(r[f.field]))),
  );
  const parallelAxis = axes.map((f, dim) =>
    numeric[dim]
      ? { dim, name: labelOf(f), type: 'value', scale: true, axisLabel: { formatter: valueFormatter(f) } }
      : { dim, name: labelOf(f), type: 'category', data: groupBy(rows, f, locale).map((g) => g.label) },
  );
  const ordered = sortRows(rows, [...axes, color], locale);
  const line = (r: ChartRow) =>
    axes.map((f, i) =>
      numeric[i] ? (isEmpty(r[f.field]) ? null : toNumber(r[f.field])) : categoryLabel(r[f.field], locale),
    );
  const groups = color ? groupBy(ordered, color, locale) : [{ label: '', raw: undefined, rows: ordered }];
  return {
    ...base(spec),
    tooltip: { trigger: 'item' },
    ...(color ? { legend: { type: 'scroll', bottom: 0 } } : {}),
    parallel: { left: 48, right: 64, top: spec.title ? 64 : 40, bottom: color ? 56 : 32 },
    parallelAxis,
    series: groups.map((g) => ({
      type: 'parallel',
      name: g.label,
      lineStyle: { width: 1, opacity: g.rows.length > 500 ? 0.2 : 0.6 },
      ...(g.rows.length > LARGE ? { progressive: 500 } : {}),
      data: g.rows.map(line),
    })),
  };
}
