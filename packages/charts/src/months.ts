import type { Aggregate, ChartRow } from './schema.js';

const YEAR_MONTH = /^(\d{4})-(\d{2})$/;
/** A time axis longer than this (20 years) is left as the data has it: a bad date should not draw 2,000 empty months. */
export const MAX_FILLED_MONTHS = 240;

const monthIndex = (text: string) => {
  const m = YEAR_MONTH.exec(text);
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? Number(m[1]) * 12 + month - 1 : null;
};
const monthText = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/** Aggregates for which "no rows" means zero; an average or a median of nothing stays empty. */
export const ADDITIVE: ReadonlySet<Aggregate> = new Set(['sum', 'count', 'distinctCount']);

/**
 * The months an axis of year-month categories skips, put back in their place with no rows, so a
 * month without data reads as a month (zero for counts and sums) rather than vanishing from the
 * axis. Categories that are not all `YYYY-MM`, fewer than two, or spanning more than
 * {@link MAX_FILLED_MONTHS} are returned as they are (`monthly` false). The order follows the
 * groups': ascending unless the first month is later than the last.
 */
export function fillMonths<G extends { label: string; raw: unknown; rows: ChartRow[] }>(
  groups: readonly G[],
  make: (month: string) => G,
): { items: G[]; monthly: boolean } {
  const none = { items: [...groups], monthly: false };
  if (groups.length < 2) return none;
  const indexes = groups.map((g) => monthIndex(g.label));
  if (indexes.some((i) => i === null)) return none;
  const known = indexes as number[];
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  if (hi - lo + 1 > MAX_FILLED_MONTHS) return none;
  const byIndex = new Map(known.map((i, k) => [i, groups[k]!]));
  const items: G[] = [];
  for (let i = lo; i <= hi; i++) items.push(byIndex.get(i) ?? make(monthText(i)));
  if (known[0]! > known[known.length - 1]!) items.reverse();
  return { items, monthly: true };
}
