import { isEmpty, toNumber } from './aggregate.js';
import type { ChartSort } from './schema.js';

const collator = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });

class SortFailure extends Error {}

// Dates as the data carries them: year-month or a full date with optional time, or Date objects.
const DATE_TEXT =
  /^\d{4}[-/]\d{1,2}([-/]\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const dateKey = (r: unknown) =>
  r instanceof Date ? r.getTime() : new Date(String(r).trim().replace(/\//g, '-')).getTime();

/** Typed sort keys for categoryValue: all numbers, or all dates, or the sort cannot be done. */
function typedKeys(raws: readonly unknown[]): number[] {
  const present = raws.filter((r) => !isEmpty(r));
  if (present.every((r) => Number.isFinite(toNumber(r)))) {
    return raws.map((r) => (isEmpty(r) ? Number.NaN : toNumber(r)));
  }
  if (present.every((r) => r instanceof Date || (typeof r === 'string' && DATE_TEXT.test(r.trim())))) {
    return raws.map((r) => (isEmpty(r) ? Number.NaN : dateKey(r)));
  }
  throw new SortFailure('categories are neither all numbers nor all dates');
}

// Empty keys (NaN) go last whatever the order, so "no data" never leads a chart.
function compareNumbers(a: number, b: number, desc: boolean): number {
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  return desc ? b - a : a - b;
}

export interface SortInput {
  /** What is shown, e.g. the category text. */
  label: string;
  /** The underlying value of the category (for categoryValue). */
  raw: unknown;
  /** The aggregated measure (for value); null when the category has none. */
  value: number | null;
}

/**
 * Indexes of `items` in sorted order. Throws when the data cannot be sorted that way (mixed
 * types for categoryValue, text measures for value); callers use {@link sortOrSkip}.
 */
export function sortIndexes(items: readonly SortInput[], sort: ChartSort): number[] {
  const desc = sort.order === 'desc';
  const idx = items.map((_, i) => i);
  if (sort.axis === 'category') {
    return idx.sort((a, b) => {
      const c = collator.compare(items[a]!.label, items[b]!.label);
      return desc ? -c : c;
    });
  }
  let keys: number[];
  if (sort.axis === 'value') {
    keys = items.map((it) => (it.value === null ? Number.NaN : toNumber(it.value)));
    if (items.some((it, i) => it.value !== null && Number.isNaN(keys[i]!)))
      throw new SortFailure('not numeric');
  } else if (sort.axis === 'categoryValue') {
    keys = typedKeys(items.map((it) => it.raw));
  } else {
    throw new SortFailure(`unknown sort axis ${String(sort.axis)}`);
  }
  return idx.sort((a, b) => compareNumbers(keys[a]!, keys[b]!, desc));
}

/**
 * Sorts, or keeps the data as it came when sorting fails: spec 001 says a failed sort falls
 * back to the unsorted data silently, so a chart is never lost to a bad sort setting.
 */
export function sortOrSkip<T>(
  items: readonly T[],
  sort: ChartSort | undefined,
  toInput: (item: T) => SortInput,
): { items: T[]; sorted: boolean } {
  if (!sort) return { items: [...items], sorted: false };
  try {
    const order = sortIndexes(items.map(toInput), sort);
    return { items: order.map((i) => items[i]!), sorted: true };
  } catch {
    return { items: [...items], sorted: false };
  }
}
