import { DEFAULT_TREE_PALETTE, formatNumber, type Locale } from '@crdp/core';
import { aggregate, aggregateOf, isEmpty } from './aggregate.js';
import type { Aggregate, ChannelField, ChartRow, ChartSort, ChartSpec } from './schema.js';
import { type SortInput, sortOrSkip } from './sort.js';
import type { Channel } from './subtypes.js';

export const EMPTY_LABEL: Record<Locale, string> = { 'zh-CN': '(空)', 'en-US': '(empty)' };
const COUNT_LABEL: Record<Locale, string> = { 'zh-CN': '计数', 'en-US': 'Count' };

export const localeOf = (spec: ChartSpec): Locale => spec.options?.locale ?? 'zh-CN';
export const fieldsOf = (spec: ChartSpec, channel: Channel): ChannelField[] => spec.channels?.[channel] ?? [];
export const firstOf = (spec: ChartSpec, channel: Channel): ChannelField | undefined =>
  fieldsOf(spec, channel)[0];

/** The label override when set, else the field name: what axes, legends and tooltips show. */
export const labelOf = (f: ChannelField) => f.labelOverride?.trim() || f.field;

/** The measure a chart uses when the optional value channel is empty: the number of rows. */
export const rowCount = (locale: Locale): ChannelField => ({
  field: '*',
  aggregate: 'count',
  labelOverride: COUNT_LABEL[locale],
});

/** Formats a value with the field's number format; empty values show as '-'. */
export function valueFormatter(f: ChannelField | undefined): (v: unknown) => string {
  return (v) => {
    const n = Array.isArray(v) ? v[v.length - 1] : v;
    return n === null || n === undefined || n === '' ? '-' : formatNumber(n as number, f?.format ?? {});
  };
}

export const categoryLabel = (value: unknown, locale: Locale) =>
  isEmpty(value) ? EMPTY_LABEL[locale] : value instanceof Date ? value.toISOString() : String(value);

/** Distinct values of a dimension in first-seen order, with the rows of each. */
export function groupBy(rows: readonly ChartRow[], field: ChannelField | undefined, locale: Locale) {
  const groups = new Map<string, { label: string; raw: unknown; rows: ChartRow[] }>();
  for (const row of rows) {
    const raw = field ? row[field.field] : undefined;
    const label = field ? categoryLabel(raw, locale) : '';
    let g = groups.get(label);
    if (!g) {
      g = { label, raw, rows: [] };
      groups.set(label, g);
    }
    g.rows.push(row);
  }
  return [...groups.values()];
}

export interface Measure {
  field: ChannelField;
  how: Aggregate;
  of: (rows: readonly ChartRow[]) => number | null;
}

export function measureOf(field: ChannelField, rows: readonly ChartRow[]): Measure {
  const how = aggregateOf(field, rows);
  return { field, how, of: (subset) => aggregate(subset, field.field, how) };
}

/** The first sort set on any of the given fields, with the field that carries it. */
export function sortFrom(
  ...fields: Array<ChannelField | undefined>
): { sort: ChartSort; field: ChannelField } | undefined {
  for (const f of fields) if (f?.sort) return { sort: f.sort, field: f };
  return undefined;
}

/**
 * Orders category groups by the sort found on the category field or a measure. A `value`
 * sort orders by the measure carrying it (or, when set on the category, the first measure).
 */
export function orderGroups<G extends { label: string; raw: unknown; rows: ChartRow[] }>(
  groups: readonly G[],
  category: ChannelField | undefined,
  measures: readonly Measure[],
) {
  const found = sortFrom(category, ...measures.map((m) => m.field));
  if (!found) return { items: [...groups], sorted: false };
  const by = measures.find((m) => m.field === found.field) ?? measures[0];
  return sortOrSkip(
    groups,
    found.sort,
    (g): SortInput => ({
      label: g.label,
      raw: g.raw,
      value: by ? by.of(g.rows) : null,
    }),
  );
}

/** The colours a chart cycles through (the default tree palette of spec 000). */
export const paletteFor = (_spec: ChartSpec): readonly string[] => DEFAULT_TREE_PALETTE;
