import type { ChartRow } from '@crdp/charts';

export type Shape =
  | { kind: 'numbers'; items: Array<{ label: string; value: number }> }
  | { kind: 'series'; rows: ChartRow[]; category: string; value: string };

/** Reads whichever shape a statistics call answers: a number, named numbers, or a list of rows. */
export function shapeOf(data: unknown): Shape | null {
  if (typeof data === 'number') return { kind: 'numbers', items: [{ label: '', value: data }] };
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object'
      ? Object.values(data).find((v) => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object')
      : undefined;
  if (Array.isArray(list) && list.length > 0 && list[0] && typeof list[0] === 'object') {
    const first = list[0] as Record<string, unknown>;
    const category = Object.keys(first).find((k) => typeof first[k] === 'string');
    const value = Object.keys(first).find((k) => typeof first[k] === 'number');
    if (category && value) return { kind: 'series', rows: list as ChartRow[], category, value };
  }
  if (data && typeof data === 'object') {
    const items = Object.entries(data)
      .filter(([, v]) => typeof v === 'number')
      .map(([label, value]) => ({ label, value: value as number }));
    if (items.length > 0) return { kind: 'numbers', items };
  }
  return null;
}
