import type { Locale } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
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
export type FieldType = 'string' | 'number' | 'date' | 'boolean';

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

export const MAX_ROWS = 5000;

const fieldKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/);
const filterValue = z.union([z.string().max(200), z.number(), z.boolean()]);
export const aggregateQuerySchema = z.object({
  dataset: fieldKey,
  dimensions: z.array(fieldKey).max(4).default([]),
  measures: z.array(fieldKey).min(1).max(6),
  filters: z
    .array(
      z.object({
        field: fieldKey,
        op: z.enum(['eq', 'ne', 'in', 'gte', 'lte', 'contains']),
        value: z.union([filterValue, z.array(filterValue).min(1).max(100)]),
      }),
    )
    .max(10)
    .default([]),
  limit: z.number().int().min(1).max(MAX_ROWS).default(MAX_ROWS),
});
export type AggregateQuery = z.infer<typeof aggregateQuerySchema>;
export type AggregateRow = Record<string, string | number | boolean | null>;

export interface AggregateResult {
  dataset: string;
  columns: Array<{
    key: string;
    label: string;
    kind: 'dimension' | 'measure';
    type: FieldType;
    rollup?: string;
  }>;
  rows: AggregateRow[];
  /** True when more groups existed than `limit`. */
  truncated: boolean;
}

const q = (key: string) => sql.raw(`"${key}"`);

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
  describe(locale: Locale) {
    return [...this.byId.values()].map((d) => ({
      id: d.id,
      source: d.source,
      label: d.label[locale],
      description: d.description[locale],
      dimensions: d.dimensions.map((f) => ({ key: f.key, label: f.label[locale], type: f.type })),
      measures: d.measures.map((m) => ({ key: m.key, label: m.label[locale], rollup: m.rollup })),
    }));
  }

  /** Checks a query against the catalogue; throws 400 naming the field at fault. */
  resolve(query: AggregateQuery) {
    const dataset = this.byId.get(query.dataset);
    if (!dataset)
      throw badRequest(
        bilingual(`没有数据集 ${query.dataset}`, `unknown dataset ${query.dataset}`),
        'dataset',
      );
    const dim = (key: string, path: string) => {
      const f = dataset.dimensions.find((d) => d.key === key);
      if (!f)
        throw badRequest(
          bilingual(
            `数据集 ${dataset.id} 没有维度 ${key}`,
            `unknown dimension ${key} of dataset ${dataset.id}`,
          ),
          path,
        );
      return f;
    };
    const dimensions = query.dimensions.map((k, i) => dim(k, `dimensions.${i}`));
    if (new Set(query.dimensions).size !== dimensions.length)
      throw badRequest(bilingual('维度重复', 'repeated dimension'), 'dimensions');
    const measures = query.measures.map((k, i) => {
      const m = dataset.measures.find((x) => x.key === k);
      if (!m)
        throw badRequest(
          bilingual(`数据集 ${dataset.id} 没有指标 ${k}`, `unknown measure ${k} of dataset ${dataset.id}`),
          `measures.${i}`,
        );
      return m;
    });
    if (new Set(query.measures).size !== measures.length)
      throw badRequest(bilingual('指标重复', 'repeated measure'), 'measures');
    const filters = query.filters.map((f, i) => ({ ...f, dimension: dim(f.field, `filters.${i}.field`) }));
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
      const e = f.dimension.expr(locale);
      const values = Array.isArray(f.value) ? f.value : [f.value];
      const v = values[0]!;
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
          return sql`${e}::text ilike ${`%${String(v).replace(/[%_\\]/g, '\\$&')}%`}`;
        default:
          return sql`${e} in (${sql.join(
            values.map((x) => sql`${x}`),
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
