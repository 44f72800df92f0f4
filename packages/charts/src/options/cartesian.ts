import { formatNumber } from '@crdp/core';
import {
  fieldsOf,
  firstOf,
  groupBy,
  labelOf,
  localeOf,
  type Measure,
  measureOf,
  orderGroups,
  sortFrom,
  valueFormatter,
} from '../fields.js';
import { ADDITIVE, fillMonths } from '../months.js';
import type { ChartRow, ChartSpec } from '../schema.js';
import type { ChartSubtype } from '../subtypes.js';
import { base, categoryLabels, type EChartsOption, grid } from './common.js';

interface Shape {
  horizontal: boolean;
  stack: 'none' | 'stack' | 'percent';
  type: 'bar' | 'line';
  area: boolean;
}

const SHAPES: Partial<Record<ChartSubtype, Shape>> = {
  column: { horizontal: false, stack: 'none', type: 'bar', area: false },
  'stacked-column': { horizontal: false, stack: 'stack', type: 'bar', area: false },
  'per-stacked-column': { horizontal: false, stack: 'percent', type: 'bar', area: false },
  bar: { horizontal: true, stack: 'none', type: 'bar', area: false },
  'stacked-bar': { horizontal: true, stack: 'stack', type: 'bar', area: false },
  'per-stacked-bar': { horizontal: true, stack: 'percent', type: 'bar', area: false },
  line: { horizontal: false, stack: 'none', type: 'line', area: false },
  area: { horizontal: false, stack: 'none', type: 'line', area: true },
  'stacked-area': { horizontal: false, stack: 'stack', type: 'line', area: true },
};

export const isCartesian = (subtype: ChartSubtype) => subtype in SHAPES;

const percentFormat = (v: unknown) =>
  v === null || v === undefined ? '-' : formatNumber(v as number, { decimals: 1, suffix: '%' });

/**
 * Column, bar, line and area charts and their stacked and 100%-stacked forms: categories
 * from the category axis, one series per measure (times each colour value), aggregated per
 * category. A 100% stack shows each value as its share of the stack's category total.
 */
export function cartesianOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const shape = SHAPES[spec.subtype]!;
  const locale = localeOf(spec);
  const category = firstOf(spec, shape.horizontal ? 'y' : 'x');
  const measures = fieldsOf(spec, shape.horizontal ? 'x' : 'y').map((f) => measureOf(f, rows));
  const color = firstOf(spec, 'color');
  const labelField = firstOf(spec, 'label');
  const label = labelField ? measureOf(labelField, rows) : undefined;

  const ordered = orderGroups(groupBy(rows, category, locale), category, measures);
  // A month axis keeps every month between its first and last (a month with no data is a zero,
  // not a gap); a chart sorted by its values is a ranking, not a time axis.
  const ranking =
    ordered.sorted && sortFrom(category, ...measures.map((m) => m.field))?.sort.axis !== 'categoryValue';
  const { items: groups, monthly } = ranking
    ? { items: ordered.items, monthly: false }
    : fillMonths(ordered.items, (month) => ({ label: month, raw: month, rows: [] }));
  const seriesKeys = color ? groupBy(rows, color, locale).map((g) => g.label) : [undefined];
  // Rows per (category, colour value), built once so each series reads its cells directly.
  const cells = groups.map((g) => {
    const bySeries = new Map<string | undefined, ChartRow[]>();
    if (!color) bySeries.set(undefined, g.rows);
    else for (const s of groupBy(g.rows, color, locale)) bySeries.set(s.label, s.rows);
    return bySeries;
  });

  const series = measures.flatMap((m: Measure) =>
    seriesKeys.map((key) => {
      const data = cells.map((bySeries) => {
        const subset = bySeries.get(key);
        // On a month axis, a month without rows (for this colour) adds nothing: zero, not a gap.
        if (!subset?.length) return monthly && ADDITIVE.has(m.how) ? 0 : subset ? m.of(subset) : null;
        return m.of(subset);
      });
      const name =
        key === undefined ? labelOf(m.field) : measures.length > 1 ? `${labelOf(m.field)} - ${key}` : key;
      return { m, key, name, data };
    }),
  );

  if (shape.stack === 'percent') {
    // Each measure stacks its colour series; shares are of that stack's total per category.
    for (const m of measures) {
      const own = series.filter((s) => s.m === m);
      groups.forEach((_, i) => {
        const total = own.reduce((sum, s) => sum + Math.abs(s.data[i] ?? 0), 0);
        for (const s of own)
          s.data[i] = s.data[i] === null || total === 0 ? null : ((s.data[i] ?? 0) / total) * 100;
      });
    }
  }

  const categoryAxis = {
    type: 'category',
    data: groups.map((g) => g.label),
    axisLabel: categoryLabels,
    // Axis names sit beside the axis, centred: at the axis end they run off a narrow card.
    ...(category
      ? { name: labelOf(category), nameLocation: 'middle', nameGap: shape.horizontal ? 48 : 28 }
      : {}),
    ...(shape.area ? { boundaryGap: false } : {}),
  };
  const first = measures[0];
  const valueAxis = {
    type: 'value',
    ...(measures.length === 1 && first && shape.stack !== 'percent'
      ? { name: labelOf(first.field), nameLocation: 'middle', nameGap: shape.horizontal ? 28 : 48 }
      : {}),
    ...(shape.stack === 'percent' ? { max: 100 } : {}),
    axisLabel: { formatter: shape.stack === 'percent' ? percentFormat : valueFormatter(first?.field) },
  };

  return {
    ...base(spec),
    tooltip: { trigger: 'axis', axisPointer: { type: shape.type === 'bar' ? 'shadow' : 'line' } },
    ...(series.length > 1 ? { legend: { type: 'scroll', bottom: 0, data: series.map((s) => s.name) } } : {}),
    grid: grid({
      left: 16,
      right: 24,
      top: spec.title ? 48 : 24,
      bottom: series.length > 1 ? 40 : 16,
    }),
    xAxis: shape.horizontal ? valueAxis : categoryAxis,
    yAxis: shape.horizontal ? categoryAxis : valueAxis,
    series: series.map((s) => {
      const format = shape.stack === 'percent' ? percentFormat : valueFormatter(s.m.field);
      const labelValues = label
        ? groups.map((g, i) => (cells[i]!.get(s.key) ? label.of(g.rows) : null))
        : null;
      return {
        type: shape.type,
        name: s.name,
        data: s.data,
        ...(shape.stack !== 'none'
          ? { stack: color && measures.length > 1 ? labelOf(s.m.field) : 'total' }
          : {}),
        ...(shape.area ? { areaStyle: {} } : {}),
        tooltip: { valueFormatter: format },
        ...(label
          ? {
              label: {
                show: true,
                position: shape.stack !== 'none' ? 'inside' : shape.horizontal ? 'right' : 'top',
                // The label channel shows its own field's value, formatted with its own format.
                formatter: (p: { dataIndex: number }) =>
                  valueFormatter(label.field)(labelValues![p.dataIndex]),
              },
            }
          : {}),
      };
    }),
  };
}
