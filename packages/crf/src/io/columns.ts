import type { Form, FormItem } from '../types.js';
import { answerItems } from '../walk.js';

export interface ExportColumn {
  /** Column name: item key, `key.blank` for gap-filling blanks, `key.row` for matrix rows. */
  name: string;
  label: string;
  item: FormItem;
  read: (answers: Record<string, unknown>) => unknown;
}

/** One column per item (per blank and per matrix row where an item holds several values). */
export function exportColumns(form: Form): ExportColumn[] {
  const cols: ExportColumn[] = [];
  for (const { item } of answerItems(form)) {
    const label = item.title ?? item.key;
    if (item.type === 'gapFilling' && item.gapFilling?.length) {
      item.gapFilling.forEach((b, i) => {
        const bk = b.key ?? String(i);
        cols.push({
          name: `${item.key}.${bk}`,
          label: `${label} [${b.title ?? i + 1}]`,
          item,
          read: (a) => {
            const v = a[item.key];
            if (Array.isArray(v)) return v[i];
            return v && typeof v === 'object' ? (v as Record<string, unknown>)[bk] : undefined;
          },
        });
      });
    } else if (item.type === 'matrix' && item.rows?.length) {
      item.rows.forEach((r, i) => {
        const rk = r.key ?? String(i);
        cols.push({
          name: `${item.key}.${rk}`,
          label: `${label} [${r.name ?? rk}]`,
          item,
          read: (a) => {
            const v = a[item.key];
            return v && typeof v === 'object' ? (v as Record<string, unknown>)[rk] : undefined;
          },
        });
      });
    } else cols.push({ name: item.key, label, item, read: (a) => a[item.key] });
  }
  return cols;
}

/** Writes a value as text; with `labels`, option codes become option names. */
export function cellText(item: FormItem, value: unknown, labels: boolean): string {
  if (value === undefined || value === null) return '';
  const options = item.type === 'matrix' ? item.columns : item.options;
  const name = (code: unknown) => {
    if (!labels || !options) return String(code);
    const o = options.find((x) => String(x.code) === String(code));
    return o ? o.name : String(code);
  };
  if (item.type === 'upload' && Array.isArray(value))
    return value.map((f) => (f as { name?: string }).name ?? '').join('; ');
  if (Array.isArray(value)) return value.map(name).join('; ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.map(name).join('|') : name(v)}`)
      .join('; ');
  return options ? name(value) : String(value);
}
