import type { Locale } from '@crdp/core';
import { type ChartSpec, chartSpecSchema } from './schema.js';
import { CHANNEL_LABELS, type Channel, SUBTYPES } from './subtypes.js';

export interface MissingRequirement {
  channels: readonly Channel[];
  min: number;
  have: number;
  message: Record<Locale, string>;
}

export interface ChartValidation {
  /** False when the spec is malformed or a requirement is missing: the builder shows the messages instead. */
  isChart: boolean;
  missing: MissingRequirement[];
  /** Schema faults with the path of each, e.g. `channels.y.0.aggregate`. */
  errors: Array<{ path: string; message: string }>;
  /** Channels that hold fields this subtype does not use; they are ignored, not an error. */
  ignored: Channel[];
  /** Every problem as one text per locale, for display. */
  messages: Record<Locale, string[]>;
}

function missingMessage(channels: readonly Channel[], min: number): Record<Locale, string> {
  const zh = channels.map((c) => `“${CHANNEL_LABELS[c]['zh-CN']}”`).join('或');
  const en = channels.map((c) => CHANNEL_LABELS[c]['en-US']).join(' or ');
  return {
    'zh-CN': `${zh}至少需要 ${min} 个字段`,
    'en-US': `${en} needs at least ${min} field${min === 1 ? '' : 's'}`,
  };
}

/**
 * Whether a spec makes a chart (spec 001 sections 4 and 5): at least one field on the
 * required axis, two for coordinates and venn, both axes for line, area, stacked area, radar
 * and funnel, three for bubble. Accepts unknown input so a saved spec can be checked as is.
 */
export function validateChart(input: unknown): ChartValidation {
  const parsed = chartSpecSchema.safeParse(input);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return {
      isChart: false,
      missing: [],
      errors,
      ignored: [],
      messages: {
        'zh-CN': errors.map((e) => `图表配置错误：${e.path || '(根)'} ${e.message}`),
        'en-US': errors.map((e) => `Invalid chart spec: ${e.path || '(root)'} ${e.message}`),
      },
    };
  }
  const spec = parsed.data;
  const def = SUBTYPES[spec.subtype];
  const count = (c: Channel) => spec.channels[c]?.length ?? 0;
  const missing: MissingRequirement[] = [];
  // Rich text may be written by hand instead of taken from data.
  const authoredText = spec.subtype === 'rich-text' && !!spec.content?.trim();
  if (!authoredText) {
    for (const r of def.requires) {
      const have = r.channels.reduce((n, c) => n + count(c), 0);
      if (have < r.min) missing.push({ ...r, have, message: missingMessage(r.channels, r.min) });
    }
  }
  const used = new Set(def.channels.map((d) => d.channel));
  const ignored = (Object.keys(spec.channels) as Channel[]).filter((c) => !used.has(c) && count(c) > 0);
  return {
    isChart: missing.length === 0,
    missing,
    errors: [],
    ignored,
    messages: {
      'zh-CN': missing.map((m) => m.message['zh-CN']),
      'en-US': missing.map((m) => m.message['en-US']),
    },
  };
}

/** Thrown by toEChartsOption for a spec that is not a chart; carries the validation for display. */
export class NotAChartError extends Error {
  constructor(readonly validation: ChartValidation) {
    super(validation.messages['en-US'].join('; ') || 'Not a chart');
    this.name = 'NotAChartError';
  }
}

/** The parsed spec, or NotAChartError. */
export function assertChart(input: ChartSpec | unknown) {
  const validation = validateChart(input);
  if (!validation.isChart) throw new NotAChartError(validation);
  return chartSpecSchema.parse(input);
}
