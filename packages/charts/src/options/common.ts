import { DEFAULT_TREE_PALETTE } from '@crdp/core';
import type { ChartSpec } from '../schema.js';

/** A plain ECharts option object. Formatter functions are pure; nothing touches the DOM. */
export type EChartsOption = Record<string, unknown>;

/** Title, palette and the empty-data text shared by every subtype. */
export function base(spec: ChartSpec): EChartsOption {
  return {
    ...(spec.title ? { title: { text: spec.title, left: 'center' } } : {}),
    color: [...DEFAULT_TREE_PALETTE],
  };
}

/**
 * The plot area inside the canvas: axis labels *and* axis names stay inside it (ECharts'
 * `containLabel` keeps only the labels in, so a centred axis name was cut off at a card's edge).
 */
export function grid(box: { left: number; right: number; top: number; bottom: number }): EChartsOption {
  return { ...box, outerBoundsMode: 'same', outerBoundsContain: 'all' };
}

/** Category labels: overlapping ones are hidden, a long one is cut with an ellipsis (tooltips show it whole). */
export const categoryLabels = { hideOverlap: true, width: 120, overflow: 'truncate' } as const;
