import type { Aggregate, ChannelField, ChartRow } from './schema.js';

/** A number from a cell: numbers as they are, numeric text parsed; anything else NaN. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

export const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

/** The field's aggregate, or sum for numeric columns and count for anything else. */
export function aggregateOf(field: ChannelField, rows: readonly ChartRow[]): Aggregate {
  if (field.aggregate) return field.aggregate;
  if (field.field === '*') return 'count';
  const numeric = rows.every((r) => isEmpty(r[field.field]) || Number.isFinite(toNumber(r[field.field])));
  return numeric ? 'sum' : 'count';
}

function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Aggregates one field over rows. Counts skip empty cells (like SQL COUNT(column)) except for
 * the '*' field, which counts rows; numeric aggregates skip non-numeric cells and give null
 * when nothing numeric is left, so a chart shows a gap rather than a false zero.
 */
export function aggregate(rows: readonly ChartRow[], field: string, how: Aggregate): number | null {
  if (how === 'count') return field === '*' ? rows.length : rows.filter((r) => !isEmpty(r[field])).length;
  if (how === 'distinctCount') {
    return new Set(rows.filter((r) => !isEmpty(r[field])).map((r) => String(r[field]))).size;
  }
  const nums: number[] = [];
  for (const r of rows) {
    const n = toNumber(r[field]);
    if (Number.isFinite(n)) nums.push(n);
  }
  if (nums.length === 0) return null;
  switch (how) {
    case 'sum':
      return nums.reduce((a, b) => a + b, 0);
    case 'average':
      return nums.reduce((a, b) => a + b, 0) / nums.length;
    case 'min':
      return nums.reduce((a, b) => Math.min(a, b));
    case 'max':
      return nums.reduce((a, b) => Math.max(a, b));
    case 'median':
      return median(nums.sort((a, b) => a - b));
  }
}

/** Linear-interpolated quantile (R type 7, the spreadsheet default) of sorted numbers. */
export function quantile(sorted: readonly number[], p: number): number {
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
