import { formatNumber } from '@crdp/core';
import { layout } from '@upsetjs/venn.js';
import { isEmpty, toNumber } from '../aggregate.js';
import { fieldsOf, labelOf, paletteFor } from '../fields.js';
import type { ChannelField, ChartRow, ChartSpec } from '../schema.js';
import { base, type EChartsOption } from './common.js';

const TRUE_TEXT = new Set(['1', 'true', 'yes', 'y', 't', '是', '有', '阳性']);

/** Membership of a row in a set: a flag field (sets) or a condition on a field (conditions). */
export function inSet(row: ChartRow, f: ChannelField): boolean {
  const v = row[f.field];
  const c = f.condition;
  if (!c) return v === true || v === 1 || (typeof v === 'string' && TRUE_TEXT.has(v.trim().toLowerCase()));
  const n = toNumber(v);
  const target = toNumber(c.value);
  switch (c.op) {
    case 'notEmpty':
      return !isEmpty(v);
    case 'eq':
      return String(v ?? '') === String(c.value ?? '');
    case 'ne':
      return String(v ?? '') !== String(c.value ?? '');
    case 'gt':
      return n > target;
    case 'gte':
      return n >= target;
    case 'lt':
      return n < target;
    case 'lte':
      return n <= target;
    case 'contains':
      return !isEmpty(v) && String(v).includes(String(c.value ?? ''));
    case 'in':
      return Array.isArray(c.value) && c.value.map(String).includes(String(v ?? ''));
  }
}

export interface VennRegion {
  sets: string[];
  /** Rows in every one of these sets (what the layout sizes the overlap by). */
  size: number;
  /** Rows in exactly these sets and no other (what the region shows). */
  exclusive: number;
}

/** Sizes of every combination of the sets from one pass over the rows (bit masks, at most 6 sets). */
export function vennRegions(rows: readonly ChartRow[], sets: readonly ChannelField[]): VennRegion[] {
  const names = sets.map(labelOf);
  const exact = new Map<number, number>();
  for (const row of rows) {
    let mask = 0;
    sets.forEach((f, i) => {
      if (inSet(row, f)) mask |= 1 << i;
    });
    if (mask) exact.set(mask, (exact.get(mask) ?? 0) + 1);
  }
  const regions: VennRegion[] = [];
  for (let mask = 1; mask < 1 << sets.length; mask++) {
    let size = 0;
    for (const [m, n] of exact) if ((m & mask) === mask) size += n;
    regions.push({ sets: names.filter((_, i) => mask & (1 << i)), size, exclusive: exact.get(mask) ?? 0 });
  }
  return regions;
}

/**
 * Venn diagram: circle layout by venn.js (area-proportional where it can be), drawn with
 * ECharts graphic elements centred in the canvas, so the option stays plain data.
 */
export function vennOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const sets = [...fieldsOf(spec, 'sets'), ...fieldsOf(spec, 'conditions')].slice(0, 6);
  const regions = vennRegions(rows, sets);
  const width = spec.options?.width ?? 480;
  const height = spec.options?.height ?? 360;
  // venn.js cannot place an empty set; it is still listed in the legend text with 0.
  const drawable = regions.filter(
    (r) =>
      r.size > 0 &&
      r.sets.every((s) => regions.find((q) => q.sets.length === 1 && q.sets[0] === s)!.size > 0),
  );
  const palette = paletteFor(spec);
  const setIndex = new Map(sets.map((f, i) => [labelOf(f), i]));
  const children: unknown[] = [];
  if (drawable.length > 0) {
    const placed = layout(drawable, { width, height, padding: 16 });
    for (const p of placed) {
      if (p.data.sets.length === 1) {
        const c = p.circles[0]!;
        children.push({
          type: 'circle',
          shape: { cx: c.x, cy: c.y, r: c.radius },
          style: {
            fill: palette[setIndex.get(p.data.sets[0]!)! % palette.length],
            opacity: 0.35,
            stroke: '#fff',
            lineWidth: 1,
          },
          z: 1,
        });
      }
    }
    for (const p of placed) {
      const region = p.data as VennRegion;
      if (region.exclusive === 0 && region.sets.length > 1) continue;
      const count = formatNumber(region.exclusive);
      children.push({
        type: 'text',
        x: p.text.x,
        y: p.text.y,
        z: 2,
        style: {
          text: region.sets.length === 1 ? `${region.sets[0]}\n${count}` : count,
          align: 'center',
          verticalAlign: 'middle',
          fontSize: region.sets.length === 1 ? 14 : 12,
          fill: '#333',
        },
      });
    }
  }
  return {
    ...base(spec),
    // The computed regions travel with the option so the app can list them beside the picture.
    dataset: {
      dimensions: ['sets', 'size', 'exclusive'],
      source: regions.map((r) => [r.sets.join(' ∩ '), r.size, r.exclusive]),
    },
    graphic: [{ type: 'group', left: 'center', top: 'middle', width, height, children }],
  };
}
