import { CHART_CHANNEL_LABELS, CHART_SUBTYPE_LABELS, type Locale } from '@crdp/core';

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

/** Channel words live in the labelling layer of @crdp/core (family `chartChannel`). */
export const CHANNEL_LABELS: Record<Channel, Record<Locale, string>> = CHART_CHANNEL_LABELS;

/** Subtype words live in the labelling layer of @crdp/core (family `chartSubtype`). */
export const SUBTYPE_LABELS: Record<ChartSubtype, Record<Locale, string>> = CHART_SUBTYPE_LABELS;
