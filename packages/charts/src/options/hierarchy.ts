import {
  categoryLabel,
  fieldsOf,
  firstOf,
  groupBy,
  labelOf,
  localeOf,
  type Measure,
  measureOf,
  orderGroups,
  rowCount,
  valueFormatter,
} from '../fields.js';
import type { ChannelField, ChartRow, ChartSpec } from '../schema.js';
import { base, type EChartsOption } from './common.js';

interface TreeNode {
  name: string;
  value?: number | null;
  children?: TreeNode[];
}

/** Nested groups, level by level; leaves carry the aggregated value, parents the total of theirs. */
function buildTree(
  rows: readonly ChartRow[],
  levels: readonly ChannelField[],
  measure: Measure,
  locale: 'zh-CN' | 'en-US',
): { nodes: TreeNode[]; sorted: boolean } {
  const [level, ...rest] = levels;
  if (!level) return { nodes: [], sorted: false };
  const ordered = orderGroups(groupBy(rows, level, locale), level, [measure]);
  let sorted = ordered.sorted;
  const nodes = ordered.items.map((g): TreeNode => {
    if (rest.length === 0) return { name: g.label, value: measure.of(g.rows) };
    const sub = buildTree(g.rows, rest, measure, locale);
    sorted ||= sub.sorted;
    return { name: g.label, value: measure.of(g.rows), children: sub.nodes };
  });
  return { nodes, sorted };
}

export function hierarchyOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const levels = fieldsOf(spec, 'group');
  const measure = measureOf(firstOf(spec, 'value') ?? rowCount(locale), rows);
  const { nodes, sorted } = buildTree(rows, levels, measure, locale);
  const format = valueFormatter(measure.field);
  // ECharts sorts both by value unless told not to; a user's sort must survive.
  const order = sorted ? null : 'desc';
  const series =
    spec.subtype === 'sunburst'
      ? {
          type: 'sunburst',
          name: labelOf(measure.field),
          radius: ['10%', '90%'],
          sort: order,
          label: { rotate: 'radial' },
          data: nodes,
        }
      : {
          type: 'treemap',
          name: labelOf(measure.field),
          sort: order ?? undefined,
          leafDepth: levels.length > 2 ? 2 : undefined,
          breadcrumb: { show: levels.length > 1 },
          levels: levels.map((_, depth) => ({
            itemStyle: { borderWidth: depth === 0 ? 2 : 1, gapWidth: depth === 0 ? 2 : 1 },
          })),
          label: { show: true, formatter: '{b}' },
          upperLabel: { show: levels.length > 1, height: 20 },
          data: nodes,
        };
  return { ...base(spec), tooltip: { trigger: 'item', valueFormatter: format }, series: [series] };
}

/**
 * Sankey: each row flows through the stages of `xs` in order. A value that appears in more
 * than one stage is named with its stage, because ECharts identifies nodes by name and a
 * repeated name would make a cycle.
 */
export function sankeyOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const stages = fieldsOf(spec, 'xs');
  const measure = measureOf(firstOf(spec, 'value') ?? rowCount(locale), rows);
  const stageOf = new Map<string, Set<number>>();
  for (const row of rows) {
    stages.forEach((s, i) => {
      const label = categoryLabel(row[s.field], locale);
      if (!stageOf.has(label)) stageOf.set(label, new Set());
      stageOf.get(label)!.add(i);
    });
  }
  const nodeName = (i: number, value: unknown) => {
    const label = categoryLabel(value, locale);
    return stageOf.get(label)!.size > 1 ? `${label} (${labelOf(stages[i]!)})` : label;
  };
  const linkRows = new Map<string, { source: string; target: string; rows: ChartRow[] }>();
  const nodes: Array<{ name: string; depth: number }> = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const names = stages.map((s, i) => nodeName(i, row[s.field]));
    names.forEach((name, depth) => {
      if (!seen.has(name)) {
        seen.add(name);
        nodes.push({ name, depth });
      }
    });
    for (let i = 0; i + 1 < names.length; i++) {
      const key = `${names[i]}\u0000${names[i + 1]}`;
      let link = linkRows.get(key);
      if (!link) {
        link = { source: names[i]!, target: names[i + 1]!, rows: [] };
        linkRows.set(key, link);
      }
      link.rows.push(row);
    }
  }
  const links = [...linkRows.values()]
    .map((l) => ({ source: l.source, target: l.target, value: measure.of(l.rows) }))
    .filter((l) => l.value !== null && l.value > 0);
  return {
    ...base(spec),
    tooltip: { trigger: 'item', triggerOn: 'mousemove', valueFormatter: valueFormatter(measure.field) },
    series: [
      {
        type: 'sankey',
        name: labelOf(measure.field),
        emphasis: { focus: 'adjacency' },
        nodeAlign: 'justify',
        // Room for the title above the flows and for node labels on the right.
        top: spec.title ? 48 : 16,
        right: 72,
        lineStyle: { color: 'gradient', curveness: 0.5 },
        data: nodes,
        links,
      },
    ],
  };
}
