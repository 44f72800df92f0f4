import type { ChartRow } from '@crdp/charts';

export interface StatisticsShape {
  /** Named numbers of the answer (a bare number gets the label ''). */
  numbers: Array<{ label: string; value: number }>;
  /** The first non-empty list of rows, with its category and value keys. */
  series: { rows: ChartRow[]; category: string; value: string } | null;
}

const VALUE_KEYS = ['count', 'n', 'value', 'total', 'patients'];
const NAME_KEYS = ['name', 'label'];

/** Reads whichever shape a statistics call answers: a number, named numbers, a list of rows, or both. */
export function shapeOf(data: unknown): StatisticsShape | null {
  if (typeof data === 'number') return { numbers: [{ label: '', value: data }], series: null };
  if (!data || typeof data !== 'object') return null;
  const list = Array.isArray(data)
    ? data
    : Object.values(data).find((v) => Array.isArray(v) && v.length > 0 && v[0] && typeof v[0] === 'object');
  let series: StatisticsShape['series'] = null;
  if (Array.isArray(list) && list.length > 0 && list[0] && typeof list[0] === 'object') {
    const first = list[0] as Record<string, unknown>;
    const keys = Object.keys(first);
    // A row that carries its name in words (topic types: typeCode + name) is shown by that name.
    const category =
      keys.find((k) => NAME_KEYS.includes(k) && typeof first[k] === 'string') ??
      keys.find((k) => typeof first[k] === 'string');
    const numeric = keys.filter((k) => typeof first[k] === 'number' && k !== 'id');
    const value = numeric.find((k) => VALUE_KEYS.includes(k)) ?? numeric[0];
    if (category && value) series = { rows: list as ChartRow[], category, value };
  }
  const numbers = Array.isArray(data)
    ? []
    : Object.entries(data)
        .filter(([, v]) => typeof v === 'number')
        .map(([label, value]) => ({ label, value: value as number }));
  return numbers.length > 0 || series ? { numbers, series } : null;
}
