import type { Locale } from '@crdp/core';

/** The 27 chart subtypes of spec 001 section 3, in the order the builder lists them. */
export const CHART_SUBTYPES = [
  'rich-text',
  'table',
  'column',
  'stacked-column',
  'per-stacked-column',
  'bar',
  'stacked-bar',
  'per-stacked-bar',
  'line',
  'area',
  'stacked-area',
  'coordinates',
  'pie',
  'rose',
  'sunburst',
  'map',
  'radar',
  'word-cloud',
  'scatter-plot',
  'bubble',
  'sankey-diagram',
  'heatmap',
  'box',
  'funnel',
  'tree-map',
  'venn',
] as const;
export type ChartSubtype = (typeof CHART_SUBTYPES)[number];

export const CHANNELS = [
  'x',
  'y',
  'color',
  'label',
  'value',
  'group',
  'column',
  'text',
  'size',
  'xs',
  'ys',
  'category',
  'intensity',
  'conditions',
  'sets',
] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * What a channel holds for a subtype. A `dimension` splits rows into categories, a `measure`
 * is aggregated per category, `any` takes either, `set` is a membership flag or condition.
 */
export type ChannelRole = 'dimension' | 'measure' | 'any' | 'set';

export interface ChannelDef {
  channel: Channel;
  role: ChannelRole;
  /** How many fields the subtype uses from this channel; extra fields are ignored. */
  max: number;
}

/** At least `min` fields in total over `channels` (one channel except for venn's sets-or-conditions). */
export interface Requirement {
  channels: readonly Channel[];
  min: number;
}

export interface SubtypeDef {
  channels: readonly ChannelDef[];
  requires: readonly Requirement[];
}

const MANY = Number.POSITIVE_INFINITY;
const ch = (channel: Channel, role: ChannelRole, max = 1): ChannelDef => ({ channel, role, max });
const need = (min: number, ...channels: Channel[]): Requirement => ({ channels, min });

// Column-like charts: one category axis, any number of measures, an optional series split.
const vertical: SubtypeDef = {
  channels: [
    ch('x', 'dimension'),
    ch('y', 'measure', MANY),
    ch('color', 'dimension'),
    ch('label', 'measure'),
  ],
  requires: [need(1, 'y')],
};
const horizontal: SubtypeDef = {
  channels: [
    ch('y', 'dimension'),
    ch('x', 'measure', MANY),
    ch('color', 'dimension'),
    ch('label', 'measure'),
  ],
  requires: [need(1, 'x')],
};
// Line, area and stacked area "need both axes" (spec 001 section 5).
const lineLike: SubtypeDef = { ...vertical, requires: [need(1, 'x'), need(1, 'y')] };
const sliced: SubtypeDef = {
  channels: [ch('category', 'dimension'), ch('value', 'measure'), ch('label', 'measure')],
  requires: [need(1, 'value')],
};
const hierarchy: SubtypeDef = {
  channels: [ch('group', 'dimension', MANY), ch('value', 'measure')],
  requires: [need(1, 'group')],
};

export const SUBTYPES: Record<ChartSubtype, SubtypeDef> = {
  'rich-text': { channels: [ch('text', 'any', MANY)], requires: [need(1, 'text')] },
  table: { channels: [ch('column', 'any', MANY)], requires: [need(1, 'column')] },
  column: vertical,
  'stacked-column': vertical,
  'per-stacked-column': vertical,
  bar: horizontal,
  'stacked-bar': horizontal,
  'per-stacked-bar': horizontal,
  line: lineLike,
  area: lineLike,
  'stacked-area': lineLike,
  coordinates: { channels: [ch('ys', 'any', MANY), ch('color', 'dimension')], requires: [need(2, 'ys')] },
  pie: sliced,
  rose: sliced,
  sunburst: hierarchy,
  map: { channels: [ch('category', 'dimension'), ch('value', 'measure')], requires: [need(1, 'category')] },
  radar: {
    channels: [ch('x', 'dimension'), ch('y', 'measure', MANY)],
    requires: [need(1, 'x'), need(1, 'y')],
  },
  'word-cloud': { channels: [ch('text', 'dimension'), ch('size', 'measure')], requires: [need(1, 'text')] },
  'scatter-plot': {
    channels: [ch('x', 'measure'), ch('y', 'measure'), ch('color', 'dimension'), ch('label', 'any')],
    requires: [need(1, 'y')],
  },
  // Bubble "needs three": x, y and the bubble size.
  bubble: {
    channels: [ch('x', 'measure'), ch('y', 'measure'), ch('size', 'measure'), ch('color', 'dimension')],
    requires: [need(1, 'x'), need(1, 'y'), need(1, 'size')],
  },
  // A flow needs two stages to have a link; one stage would draw nothing.
  'sankey-diagram': {
    channels: [ch('xs', 'dimension', MANY), ch('value', 'measure')],
    requires: [need(2, 'xs')],
  },
  heatmap: {
    channels: [ch('x', 'dimension'), ch('y', 'dimension'), ch('intensity', 'measure')],
    requires: [need(1, 'intensity')],
  },
  box: { channels: [ch('x', 'dimension'), ch('y', 'measure', MANY)], requires: [need(1, 'y')] },
  funnel: { channels: [ch('x', 'dimension'), ch('y', 'measure')], requires: [need(1, 'x'), need(1, 'y')] },
  'tree-map': hierarchy,
  venn: {
    channels: [ch('sets', 'set', 6), ch('conditions', 'set', 6)],
    requires: [need(2, 'sets', 'conditions')],
  },
};

export const CHANNEL_LABELS: Record<Channel, Record<Locale, string>> = {
  x: { 'zh-CN': 'X 轴', 'en-US': 'X axis' },
  y: { 'zh-CN': 'Y 轴', 'en-US': 'Y axis' },
  color: { 'zh-CN': '颜色', 'en-US': 'Colour' },
  label: { 'zh-CN': '标签', 'en-US': 'Label' },
  value: { 'zh-CN': '数值', 'en-US': 'Value' },
  group: { 'zh-CN': '分组', 'en-US': 'Group' },
  column: { 'zh-CN': '列', 'en-US': 'Columns' },
  text: { 'zh-CN': '文本', 'en-US': 'Text' },
  size: { 'zh-CN': '大小', 'en-US': 'Size' },
  xs: { 'zh-CN': '多个 X 轴', 'en-US': 'X axes' },
  ys: { 'zh-CN': '多个 Y 轴', 'en-US': 'Y axes' },
  category: { 'zh-CN': '类别', 'en-US': 'Category' },
  intensity: { 'zh-CN': '强度', 'en-US': 'Intensity' },
  conditions: { 'zh-CN': '条件', 'en-US': 'Conditions' },
  sets: { 'zh-CN': '集合', 'en-US': 'Sets' },
};

export const SUBTYPE_LABELS: Record<ChartSubtype, Record<Locale, string>> = {
  'rich-text': { 'zh-CN': '富文本', 'en-US': 'Rich text' },
  table: { 'zh-CN': '表格', 'en-US': 'Table' },
  column: { 'zh-CN': '柱状图', 'en-US': 'Column' },
  'stacked-column': { 'zh-CN': '堆叠柱状图', 'en-US': 'Stacked column' },
  'per-stacked-column': { 'zh-CN': '百分比堆叠柱状图', 'en-US': '100% stacked column' },
  bar: { 'zh-CN': '条形图', 'en-US': 'Bar' },
  'stacked-bar': { 'zh-CN': '堆叠条形图', 'en-US': 'Stacked bar' },
  'per-stacked-bar': { 'zh-CN': '百分比堆叠条形图', 'en-US': '100% stacked bar' },
  line: { 'zh-CN': '折线图', 'en-US': 'Line' },
  area: { 'zh-CN': '面积图', 'en-US': 'Area' },
  'stacked-area': { 'zh-CN': '堆叠面积图', 'en-US': 'Stacked area' },
  coordinates: { 'zh-CN': '平行坐标图', 'en-US': 'Parallel coordinates' },
  pie: { 'zh-CN': '饼图', 'en-US': 'Pie' },
  rose: { 'zh-CN': '玫瑰图', 'en-US': 'Rose' },
  sunburst: { 'zh-CN': '旭日图', 'en-US': 'Sunburst' },
  map: { 'zh-CN': '地图', 'en-US': 'Map' },
  radar: { 'zh-CN': '雷达图', 'en-US': 'Radar' },
  'word-cloud': { 'zh-CN': '词云', 'en-US': 'Word cloud' },
  'scatter-plot': { 'zh-CN': '散点图', 'en-US': 'Scatter plot' },
  bubble: { 'zh-CN': '气泡图', 'en-US': 'Bubble' },
  'sankey-diagram': { 'zh-CN': '桑基图', 'en-US': 'Sankey diagram' },
  heatmap: { 'zh-CN': '热力图', 'en-US': 'Heatmap' },
  box: { 'zh-CN': '箱线图', 'en-US': 'Box plot' },
  funnel: { 'zh-CN': '漏斗图', 'en-US': 'Funnel' },
  'tree-map': { 'zh-CN': '矩形树图', 'en-US': 'Tree map' },
  venn: { 'zh-CN': '韦恩图', 'en-US': 'Venn' },
};
