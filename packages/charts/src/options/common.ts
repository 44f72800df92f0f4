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
