import {
  type Locale,
  VIS_FILTER_OPS,
  VIS_MAX_ROWS,
  type VisAggregateQuery,
  type VisAggregateResult,
  type VisAggregateRow,
  type VisDataset,
  type VisFieldType,
  type VisFilterOp,
  visAggregateQuery,
} from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { badRequest, bilingual } from '../http/errors.js';

/**
 * The dataset catalogue of the chart builder. A dataset is a named query over the app's data
 * whose fields are whitelisted SQL expressions: dimensions to group by and measures to
 * aggregate. The client names fields by key; it never sends SQL. Every query is aggregated in
 * the database (GROUP BY the chosen dimensions) and scoped to the caller's app.
 * The clinical datasets live in `clinical-datasets.ts`; disease-library and project datasets
 * plug in by handing more `Dataset`s to `DatasetCatalogue`.
 */
export type Text = Record<Locale, string>;
export type FieldType = VisFieldType;

export interface Dimension {
  key: string;
  label: Text;
  type: FieldType;
  /** The expression to group by; may depend on the locale (translated code labels). */
  expr: (locale: Locale) => SQL;
}

export interface Measure {
  key: string;
  label: Text;
  /** An aggregate expression, e.g. count(*)::int. */
  expr: SQL;
  /**
   * How the chart combines rows of this measure again when it draws fewer dimensions than the
   * query grouped by: counts add up, averages and extremes do not.
   */
  rollup: 'sum' | 'average' | 'min' | 'max';
}

export interface Dataset {
  id: string;
  /** Where it comes from: clinical data now; disease libraries and projects later. */
  source: 'clinical' | 'disease-library' | 'project';
  label: Text;
  description: Text;
  dimensions: Dimension[];
  measures: Measure[];
  /** FROM ... WHERE: the rows of one app; aliases used by the field expressions. */
  from: (appId: number) => SQL;
}

export const MAX_ROWS = VIS_MAX_ROWS;
export const FILTER_OPS = VIS_FILTER_OPS;
export type FilterOp = VisFilterOp;
/** The query of the builder: the contract of @crdp/core (contracts/visualization.ts). */
export const aggregateQuerySchema = visAggregateQuery;
export type AggregateQuery = VisAggregateQuery;
export type AggregateRow = VisAggregateRow;
export type AggregateResult = VisAggregateResult;

const q = (key: string) => sql.raw(`"${key}"`);

/** Which filter operators each field type takes: order only where it means something, `contains` on text. */
export const FILTER_OPS_BY_TYPE: Record<FieldType, readonly FilterOp[]> = {
  number: ['eq', 'ne', 'in', 'gte', 'lte'],
  date: ['eq', 'ne', 'in', 'gte', 'lte'],
  string: ['eq', 'ne', 'in', 'contains'],
  boolean: ['eq', 'ne'],
};

const TYPE_NAMES: Record<FieldType, Text> = {
  number: { 'zh-CN': '数字', 'en-US': 'number' },
  date: { 'zh-CN': '日期', 'en-US': 'date' },
  string: { 'zh-CN': '文本', 'en-US': 'text' },
  boolean: { 'zh-CN': '是/否', 'en-US': 'yes/no' },
};

/** A date of a date field: a year, a month or a day (`2024`, `2024-03`, `2024-03-01`), real on the calendar. */
const isFilterDate = (v: string) => {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(v);
  if (!m) return false;
  const [y, mo = 1, d = 1] = [Number(m[1]), m[2] ? Number(m[2]) : 1, m[3] ? Number(m[3]) : 1];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
};

/** What a single filter value of the type must be; the text says so in both languages. */
const VALUE_RULES: Record<FieldType, { ok: (v: unknown) => boolean; needs: Text }> = {
  number: {
    ok: (v) => typeof v === 'number' && Number.isFinite(v),
    needs: { 'zh-CN': '需要数字（不带引号）', 'en-US': 'needs a number (without quotes)' },
  },
  date: {
    ok: (v) => typeof v === 'string' && isFilterDate(v),
    needs: {
      'zh-CN': '需要日期，例如 2024、2024-03 或 2024-03-01',
      'en-US': 'needs a date such as 2024, 2024-03 or 2024-03-01',
    },
  },
  string: {
    ok: (v) => typeof v === 'string',
    needs: { 'zh-CN': '需要文本', 'en-US': 'needs text' },
  },
  boolean: {
    ok: (v) => typeof v === 'boolean',
    needs: { 'zh-CN': '需要 true 或 false', 'en-US': 'needs true or false' },
  },
};

/** What was sent instead, by kind (the value itself is not repeated: it may be patient data). */
const GOT: Partial<Record<string, Text>> = {
  string: { 'zh-CN': '文本', 'en-US': 'text' },
  number: { 'zh-CN': '数字', 'en-US': 'a number' },
  boolean: { 'zh-CN': 'true/false', 'en-US': 'true/false' },
};

/**
 * Checks a filter against its field's type: the operator must suit the type, `in` takes a list
 * and the others one value, and every value must be of the type. Throws 400 naming the path
 * (`body.filters.0.value`) in both languages; a value that passes can go to SQL as a parameter.
 */
function checkFilter(
  filter: AggregateQuery['filters'][number],
  dimension: Dimension,
  path: string,
): { values: Array<string | number | boolean> } {
  const type = dimension.type;
  const fieldZh = `“${dimension.label['zh-CN']}”`;
  const fieldEn = `“${dimension.label['en-US']}”`;
  const allowed = FILTER_OPS_BY_TYPE[type];
  if (!allowed.includes(filter.op))
    throw badRequest(
      bilingual(
        `${path}.op: ${fieldZh}是${TYPE_NAMES[type]['zh-CN']}字段，不能用 ${filter.op} 筛选（可用 ${allowed.join('、')}）`,
        `${path}.op: ${fieldEn} is a ${TYPE_NAMES[type]['en-US']} field; ${filter.op} is not allowed (use ${allowed.join(', ')})`,
      ),
      `${path}.op`,
    );
  const list = Array.isArray(filter.value);
  if (filter.op === 'in' && !list)
    throw badRequest(
      bilingual(
        `${path}.value: in 筛选需要一个值的列表，例如 [1, 2]`,
        `${path}.value: the in filter needs a list of values such as [1, 2]`,
      ),
      `${path}.value`,
    );
  if (filter.op !== 'in' && list)
    throw badRequest(
      bilingual(
        `${path}.value: ${filter.op} 筛选需要单个值，不是列表`,
        `${path}.value: the ${filter.op} filter needs one value, not a list`,
      ),
      `${path}.value`,
    );
  const values = list
    ? (filter.value as Array<string | number | boolean>)
    : [filter.value as string | number | boolean];
  const rule = VALUE_RULES[type];
  values.forEach((v, j) => {
    if (rule.ok(v)) return;
    const at = list ? `${path}.value.${j}` : `${path}.value`;
    throw badRequest(
      bilingual(
        `${at}: ${fieldZh}${rule.needs['zh-CN']}，收到的是${GOT[typeof v as 'string']?.['zh-CN'] ?? '其他值'}`,
        `${at}: ${fieldEn} ${rule.needs['en-US']}, got ${GOT[typeof v as 'string']?.['en-US'] ?? 'something else'}`,
      ),
      at,
    );
  });
  return { values };
}

/**
 * The field's expression and a parameter, both of the field's type, so the database never has
 * to guess a parameter's type from the expression (a guess that failed was a 500).
 */
function typed(dimension: Dimension, locale: Locale, v: string | number | boolean) {
  const e = dimension.expr(locale);
  switch (dimension.type) {
    case 'number':
      return { e: sql`(${e})::float8`, v: sql`${v}::float8` };
    case 'boolean':
      return { e: sql`(${e})::boolean`, v: sql`${v}::boolean` };
    default:
      // Dates compare as ISO text: a month field holds '2024-03', a day '2024-03-01'.
      return { e: sql`(${e})::text`, v: sql`${v}::text` };
  }
}

export class DatasetCatalogue {
  private readonly byId = new Map<string, Dataset>();

  constructor(datasets: readonly Dataset[]) {
    for (const d of datasets) this.add(d);
  }

  add(dataset: Dataset) {
    if (this.byId.has(dataset.id)) throw new Error(`dataset ${dataset.id} is already registered`);
    this.byId.set(dataset.id, dataset);
  }

  /** What the builder's menus show: datasets and their fields, in the caller's language. */
  describe(locale: Locale): VisDataset[] {
    return [...this.byId.values()].map((d) => ({
      id: d.id,
      source: d.source,
      label: d.label[locale],
      description: d.description[locale],
      dimensions: d.dimensions.map((f) => ({ key: f.key, label: f.label[locale], type: f.type })),
      measures: d.measures.map((m) => ({ key: m.key, label: m.label[locale], rollup: m.rollup })),
    }));
  }

  /**
   * Checks a query against the catalogue, filters against their fields' types; throws 400
   * naming the field at fault under `at` (`body.` for an aggregate call, `body.query.` for a
   * saved chart).
   */
  resolve(query: AggregateQuery, at = 'body.') {
    const dataset = this.byId.get(query.dataset);
    if (!dataset)
      throw badRequest(
        bilingual(
          `${at}dataset: 没有数据集 ${query.dataset}`,
          `${at}dataset: unknown dataset ${query.dataset}`,
        ),
        `${at}dataset`,
      );
    const dim = (key: string, path: string) => {
      const f = dataset.dimensions.find((d) => d.key === key);
      if (!f)
        throw badRequest(
          bilingual(
            `${path}: 数据集 ${dataset.id} 没有维度 ${key}`,
            `${path}: unknown dimension ${key} of dataset ${dataset.id}`,
          ),
          path,
        );
      return f;
    };
    const dimensions = query.dimensions.map((k, i) => dim(k, `${at}dimensions.${i}`));
    if (new Set(query.dimensions).size !== dimensions.length)
      throw badRequest(bilingual('维度重复', 'repeated dimension'), `${at}dimensions`);
    const measures = query.measures.map((k, i) => {
      const m = dataset.measures.find((x) => x.key === k);
      if (!m)
        throw badRequest(
          bilingual(
            `${at}measures.${i}: 数据集 ${dataset.id} 没有指标 ${k}`,
            `${at}measures.${i}: unknown measure ${k} of dataset ${dataset.id}`,
          ),
          `${at}measures.${i}`,
        );
      return m;
    });
    if (new Set(query.measures).size !== measures.length)
      throw badRequest(bilingual('指标重复', 'repeated measure'), `${at}measures`);
    const filters = query.filters.map((f, i) => {
      const dimension = dim(f.field, `${at}filters.${i}.field`);
      return { ...f, dimension, ...checkFilter(f, dimension, `${at}filters.${i}`) };
    });
    return { dataset, dimensions, measures, filters };
  }

  /** The SQL of a query, grouped in the database. Exposed so the benchmark can time it alone. */
  toSql(appId: number, query: AggregateQuery, locale: Locale): SQL {
    const { dataset, dimensions, measures, filters } = this.resolve(query);
    const select = [
      ...dimensions.map((d) => sql`${d.expr(locale)} as ${q(d.key)}`),
      ...measures.map((m) => sql`${m.expr} as ${q(m.key)}`),
    ];
    const where = filters.map((f) => {
      const { e, v } = typed(f.dimension, locale, f.values[0]!);
      switch (f.op) {
        case 'eq':
          return sql`${e} = ${v}`;
        case 'ne':
          return sql`${e} is distinct from ${v}`;
        case 'gte':
          return sql`${e} >= ${v}`;
        case 'lte':
          return sql`${e} <= ${v}`;
        case 'contains':
          return sql`${e} ilike ${`%${String(f.values[0]).replace(/[%_\\]/g, '\\$&')}%`}`;
        default:
          return sql`${e} in (${sql.join(
            f.values.map((x) => typed(f.dimension, locale, x).v),
            sql`, `,
          )})`;
      }
    });
    const filterSql = where.length ? sql` and ${sql.join(where, sql` and `)}` : sql``;
    const ordinals = dimensions.map((_, i) => sql.raw(String(i + 1)));
    const groupBy = ordinals.length ? sql` group by ${sql.join(ordinals, sql`, `)}` : sql``;
    const orderBy = ordinals.length ? sql` order by ${sql.join(ordinals, sql`, `)}` : sql``;
    return sql`select ${sql.join(select, sql`, `)} from ${dataset.from(appId)}${filterSql}${groupBy}${orderBy} limit ${query.limit + 1}`;
  }

  async aggregate(db: Db, appId: number, input: AggregateQuery, locale: Locale): Promise<AggregateResult> {
    const query = aggregateQuerySchema.parse(input);
    const { dataset, dimensions, measures } = this.resolve(query);
    const res = (await db.execute(this.toSql(appId, query, locale))) as unknown as { rows: AggregateRow[] };
    const rows = res.rows.slice(0, query.limit);
    return {
      dataset: dataset.id,
      columns: [
        ...dimensions.map((d) => ({
          key: d.key,
          label: d.label[locale],
          kind: 'dimension' as const,
          type: d.type,
        })),
        ...measures.map((m) => ({
          key: m.key,
          label: m.label[locale],
          kind: 'measure' as const,
          type: 'number' as const,
          rollup: m.rollup,
        })),
      ],
      rows: rows.map((r) => normalise(r, measures)),
      truncated: res.rows.length > query.limit,
    };
  }
}

/** PostgreSQL may answer bigint and numeric measures as text; charts need numbers. */
function normalise(row: AggregateRow, measures: readonly Measure[]): AggregateRow {
  const out: AggregateRow = { ...row };
  for (const m of measures) {
    const v = row[m.key];
    if (typeof v === 'string') out[m.key] = Number.isFinite(Number(v)) ? Number(v) : null;
  }
  return out;
}
