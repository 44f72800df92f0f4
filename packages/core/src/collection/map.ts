import type {
  CollectionDateFormat,
  CollectionFieldMapping,
  CollectionTemplateSpec,
  CollectionTransform,
} from '../contracts/collection.js';

/**
 * A collection template applied to one source row (pure: the server's runs and unit tests, and
 * the template editor's preview, call the same code). Each field's value is read from its
 * column, then each transform is applied in order. A transform that cannot read the value
 * throws a `MappingError` naming the field; the row is then refused with that reason.
 */

export class MappingError extends Error {
  constructor(
    readonly field: string,
    readonly zh: string,
    readonly en: string,
  ) {
    super(`${field}: ${en}`);
    this.name = 'MappingError';
  }
}

/** A dictionary as a transform sees it: source code → its entry's standard code and name. */
export type LookupTables = ReadonlyMap<string, ReadonlyMap<string, { standardCode: string; name: string }>>;

/** Numeric CDR fields: a text value is read as a number. */
const NUMERIC = new Set(['gender', 'valueNum', 'refLow', 'refHigh']);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `yyyy-MM-dd` or ISO 8601 with the +08:00 offset of Beijing (a value without a zone). */
function isoOf(y: number, mo: number, d: number, h?: number, mi?: number, s?: number) {
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    return undefined;
  if (h === undefined) return `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  if (h > 23 || (mi ?? 0) > 59 || (s ?? 0) > 59) return undefined;
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi ?? 0)}:${pad(s ?? 0)}+08:00`;
}

const LAYOUTS: Record<Exclude<CollectionDateFormat, 'iso'>, RegExp> = {
  'yyyy-MM-dd': /^(\d{4})-(\d{2})-(\d{2})$/,
  'yyyy-MM-dd HH:mm:ss': /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/,
  'yyyy/MM/dd': /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/,
  'yyyy/MM/dd HH:mm:ss': /^(\d{4})\/(\d{1,2})\/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})$/,
  yyyyMMdd: /^(\d{4})(\d{2})(\d{2})$/,
  yyyyMMddHHmmss: /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/,
};

/** Reads a date written in `format`; undefined when it is not one. */
export function readDate(value: unknown, format: CollectionDateFormat): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  const text = String(value ?? '').trim();
  if (format === 'iso') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text))
      return isoOf(...(text.split('-').map(Number) as [number, number, number]));
    const t = Date.parse(text);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(t)) return undefined;
    // A time without a zone is Beijing time.
    return /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? new Date(t).toISOString() : `${text.slice(0, 19)}+08:00`;
  }
  const m = LAYOUTS[format].exec(text);
  if (!m) return undefined;
  const n = m.slice(1).map(Number);
  return isoOf(n[0]!, n[1]!, n[2]!, n[3], n[4], n[5]);
}

function applyTransform(
  value: unknown,
  t: CollectionTransform,
  field: string,
  lookups: LookupTables,
): unknown {
  switch (t.kind) {
    case 'trim':
      return typeof value === 'string' ? value.trim() : value;
    case 'constant':
      return t.value;
    case 'map': {
      const key = value === null || value === undefined ? '' : String(value);
      const hit = t.pairs.find((p) => p.from === key);
      return hit ? hit.to : value;
    }
    case 'lookup': {
      if (value === null || value === undefined || value === '') return value;
      const dict = lookups.get(t.dictionary);
      if (!dict)
        throw new MappingError(field, `没有编码为 ${t.dictionary} 的字典`, `no dictionary ${t.dictionary}`);
      const entry = dict.get(String(value));
      if (!entry)
        throw new MappingError(
          field,
          `字典 ${t.dictionary} 中没有代码 ${String(value)}`,
          `code ${String(value)} is not in dictionary ${t.dictionary}`,
        );
      return t.to === 'name' ? entry.name : entry.standardCode || String(value);
    }
    case 'date': {
      if (value === null || value === undefined || value === '') return undefined;
      const d = readDate(value, t.format);
      if (d === undefined)
        throw new MappingError(
          field,
          `${String(value)} 不是 ${t.format} 格式的日期`,
          `${String(value)} is not a date in the layout ${t.format}`,
        );
      return d;
    }
    case 'unit': {
      if (value === null || value === undefined || value === '') return value;
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(n))
        throw new MappingError(
          field,
          `${String(value)} 不是数字，无法换算单位`,
          `${String(value)} is not a number to convert`,
        );
      // Rounded to 10 significant digits: 1.2 × 88.4 is 106.08, not 106.08000000000001.
      return Number((n * t.factor).toPrecision(10));
    }
  }
}

/** A value as the CDR field takes it: numbers for numeric fields, text otherwise, absent when empty. */
function settle(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (NUMERIC.has(field)) {
    if (typeof value === 'number') return value;
    const s = String(value).trim();
    if (s === '') return undefined;
    const n = Number(s);
    if (!Number.isFinite(n)) throw new MappingError(field, `${s} 不是数字`, `${s} is not a number`);
    return n;
  }
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (typeof value === 'string') return value === '' ? undefined : value;
  return JSON.stringify(value);
}

/** One field of one row. */
export function mapField(
  row: Record<string, unknown>,
  m: CollectionFieldMapping,
  lookups: LookupTables = new Map(),
) {
  let value: unknown = m.column ? row[m.column] : undefined;
  for (const t of m.transforms) value = applyTransform(value, t, m.field, lookups);
  return settle(m.field, value);
}

/** The CDR values of one source row (only the fields the template maps). */
export function mapRow(
  row: Record<string, unknown>,
  spec: Pick<CollectionTemplateSpec, 'fields'>,
  lookups: LookupTables = new Map(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of spec.fields) {
    const v = mapField(row, m, lookups);
    if (v !== undefined) out[m.field] = v;
  }
  return out;
}

/** The source columns a template reads (key, watermark, patient, visit and mapped columns), once each. */
export function columnsOf(spec: CollectionTemplateSpec): string[] {
  const cols = [
    spec.keyColumn,
    spec.watermarkColumn,
    spec.patientColumn,
    spec.visitColumn,
    ...spec.fields.map((f) => f.column),
  ];
  return [...new Set(cols.filter((c) => c !== ''))];
}

/** The dictionaries a template's lookups name. */
export function dictionariesOf(spec: CollectionTemplateSpec): string[] {
  return [
    ...new Set(
      spec.fields.flatMap((f) => f.transforms.flatMap((t) => (t.kind === 'lookup' ? [t.dictionary] : []))),
    ),
  ];
}

/** A watermark or key value as text (dates as ISO 8601), the way runs store and compare them. */
export function keyText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (v === null || v === undefined) return '';
  return String(v);
}
