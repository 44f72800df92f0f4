import { formatNumber } from '@crdp/core';
import { aggregate, aggregateOf, isEmpty, toNumber } from '../aggregate.js';
import { categoryLabel, fieldsOf, labelOf, localeOf, sortFrom } from '../fields.js';
import type { ChartRow, ChartSpec } from '../schema.js';
import { sortOrSkip } from '../sort.js';
import { base, type EChartsOption } from './common.js';

export interface TableColumn {
  key: string;
  title: string;
  numeric: boolean;
}

export interface TableData {
  columns: TableColumn[];
  /** Each cell holds the raw value (for sorting in the UI) and the text to show. */
  rows: Array<Record<string, { value: unknown; text: string }>>;
}

/**
 * The table subtype. When some columns carry an aggregate, rows are grouped by the other
 * columns (like SQL GROUP BY); otherwise rows are listed as they are.
 */
export function toTableData(spec: ChartSpec, rows: readonly ChartRow[]): TableData {
  const locale = localeOf(spec);
  const fields = fieldsOf(spec, 'column');
  const aggregated = fields.some((f) => f.aggregate);
  const keys = fields.map((f, i) => `${f.field}#${i}`);
  let records: ChartRow[];
  if (aggregated) {
    const dims = fields.filter((f) => !f.aggregate);
    const groups = new Map<string, ChartRow[]>();
    for (const r of rows) {
      const k = JSON.stringify(dims.map((d) => categoryLabel(r[d.field], locale)));
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push(r);
    }
    records = [...groups.values()].map((g) =>
      Object.fromEntries(
        fields.map((f, i) => [
          keys[i],
          f.aggregate ? aggregate(g, f.field, aggregateOf(f, g)) : g[0]![f.field],
        ]),
      ),
    );
  } else {
    records = rows.map((r) => Object.fromEntries(fields.map((f, i) => [keys[i], r[f.field]])));
  }
  const numeric = fields.map((f, i) =>
    f.aggregate ? true : records.every((r) => isEmpty(r[keys[i]!]) || Number.isFinite(toNumber(r[keys[i]!]))),
  );
  const found = sortFrom(...fields);
  if (found) {
    const key = keys[fields.indexOf(found.field)]!;
    records = sortOrSkip(records, found.sort, (r) => ({
      label: categoryLabel(r[key], locale),
      raw: r[key],
      value: isEmpty(r[key]) ? null : toNumber(r[key]),
    })).items;
  }
  return {
    columns: fields.map((f, i) => ({ key: keys[i]!, title: labelOf(f), numeric: numeric[i]! })),
    rows: records.map((r) =>
      Object.fromEntries(
        fields.map((f, i) => {
          const v = r[keys[i]!];
          const text = isEmpty(v) ? '' : numeric[i] ? formatNumber(v as number, f.format ?? {}) : String(v);
          return [keys[i]!, { value: v, text }];
        }),
      ),
    ),
  };
}

/** ECharts draws no tables: the option carries the formatted table as a dataset for the app to show. */
export function tableOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const table = toTableData(spec, rows);
  return {
    ...base(spec),
    dataset: {
      dimensions: table.columns.map((c) => c.title),
      source: table.rows.map((r) => table.columns.map((c) => r[c.key]!.text)),
    },
  };
}

/** Tags removed and entities decoded, since an ECharts text element shows plain text. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Rich text: authored content, or the text fields of the first row (e.g. a computed summary). */
export function richTextOption(spec: ChartSpec, rows: readonly ChartRow[]): EChartsOption {
  const locale = localeOf(spec);
  const text = spec.content?.trim()
    ? plainText(spec.content)
    : fieldsOf(spec, 'text')
        .map((f) => (rows[0] ? categoryLabel(rows[0][f.field], locale) : ''))
        .join('\n');
  return {
    ...base(spec),
    graphic: [
      {
        type: 'text',
        left: 'center',
        top: 'middle',
        style: { text, fontSize: 14, lineHeight: 22, fill: '#333', width: 600, overflow: 'break' },
      },
    ],
  };
}
