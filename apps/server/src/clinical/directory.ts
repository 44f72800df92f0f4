import type { CdrDirectory, CdrFieldKind, CdrFieldProfile } from '@crdp/core';
import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { badRequest, bilingual } from '../http/errors.js';
import { CDR_TABLES, type CdrTable } from './records.js';

/**
 * The directory (目录浏览): the repository's tables and fields with the app's row counts, fill
 * rates and value profiles. Identifying fields are counted but their values never listed nor
 * counted apart: a directory is read by people who may not see who the patients are.
 */

/** Fields of no table the directory shows (the app, the search index). */
const HIDDEN = new Set(['appId', 'searchText']);

/** Fields whose values name or reach a person, or hold free text that may. */
const IDENTIFYING = new Set([
  'patients.name',
  'patients.mrn',
  'patients.nationalId',
  'patients.phone',
  'patients.address',
  'patients.contacts',
  'sourceId',
  'documents.body',
  'documents.title',
  'examReports.findings',
  'examReports.conclusion',
]);

const NUMBER_TYPES = new Set([
  'PgInteger',
  'PgSmallInt',
  'PgBigInt53',
  'PgSerial',
  'PgNumeric',
  'PgNumericNumber',
  'PgReal',
  'PgDoublePrecision',
]);
const DATE_TYPES = new Set(['PgTimestamp', 'PgTimestampString', 'PgDate', 'PgDateString']);

function kindOf(key: string, column: PgColumn): CdrFieldKind {
  if (key === 'id' || /Id$/.test(key)) return 'id';
  if (NUMBER_TYPES.has(column.columnType)) return 'number';
  if (DATE_TYPES.has(column.columnType)) return 'date';
  if (column.columnType === 'PgBoolean') return 'boolean';
  if (column.columnType === 'PgJsonb' || column.columnType === 'PgJson') return 'json';
  return 'text';
}

const identifying = (table: CdrTable, key: string) =>
  IDENTIFYING.has(`${table}.${key}`) || IDENTIFYING.has(key);

function fieldsOf(table: CdrTable) {
  return Object.entries(getTableColumns(CDR_TABLES[table].table))
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, column]) => ({ key, column: column as PgColumn, kind: kindOf(key, column as PgColumn) }));
}

/** The condition "this field holds something": not null, and not an empty text or list. */
function filledSql(column: PgColumn, kind: CdrFieldKind): SQL {
  const c = sql.identifier(column.name);
  if (kind === 'text') return sql`${c} is not null and ${c} <> ''`;
  if (kind === 'json') return sql`${c} is not null and ${c}::text not in ('[]', '{}', 'null', '""')`;
  return sql`${c} is not null`;
}

const tableSql = (table: CdrTable) => sql.identifier(getTableName(CDR_TABLES[table].table as PgTable));

/** Every table with its rows and each field's filled rows, one pass over each table. */
export async function directory(db: Tx, appId: number): Promise<CdrDirectory> {
  const tables: CdrDirectory['tables'] = [];
  for (const table of Object.keys(CDR_TABLES) as CdrTable[]) {
    const fields = fieldsOf(table);
    const counts = sql.join(
      fields.map(
        (f, i) =>
          sql`count(*) filter (where ${filledSql(f.column, f.kind)})::int as ${sql.identifier(`f${i}`)}`,
      ),
      sql`, `,
    );
    const [row] = rowsOf<Record<string, number>>(
      await db.execute(
        sql`select count(*)::int as rows, ${counts} from ${tableSql(table)} where app_id = ${appId}`,
      ),
    );
    tables.push({
      key: table,
      rows: Number(row?.rows ?? 0),
      fields: fields.map((f, i) => ({
        key: f.key,
        kind: f.kind,
        filled: Number(row?.[`f${i}`] ?? 0),
        identifying: identifying(table, f.key),
      })),
    });
  }
  return { tables };
}

const HISTOGRAM_BINS = 10;
const TOP_VALUES = 10;

/** One field's profile in the app; an unknown table or field is a 400 naming it. */
export async function fieldProfile(
  db: Tx,
  appId: number,
  table: string,
  field: string,
): Promise<CdrFieldProfile> {
  if (!(table in CDR_TABLES))
    throw badRequest(
      bilingual(`query.table: 没有数据表“${table}”`, `query.table: there is no table "${table}"`),
      'table',
    );
  const t = table as CdrTable;
  const f = fieldsOf(t).find((x) => x.key === field);
  if (!f)
    throw badRequest(
      bilingual(
        `query.field: 数据表“${table}”没有字段“${field}”`,
        `query.field: the table "${table}" has no field "${field}"`,
      ),
      'field',
    );
  const from = sql`from ${tableSql(t)} where app_id = ${appId}`;
  const filled = filledSql(f.column, f.kind);
  const c = sql.identifier(f.column.name);
  const secret = identifying(t, f.key);
  const [head] = rowsOf<{ rows: number; filled: number; distinct: number | null }>(
    await db.execute(
      sql`select count(*)::int as rows, count(*) filter (where ${filled})::int as filled,
        ${secret ? sql`null` : sql`count(distinct ${c}) filter (where ${filled})::int`} as distinct ${from}`,
    ),
  );
  const profile: CdrFieldProfile = {
    table: t,
    field: f.key,
    kind: f.kind,
    identifying: secret,
    rows: Number(head?.rows ?? 0),
    filled: Number(head?.filled ?? 0),
    distinct: head?.distinct === null || head?.distinct === undefined ? null : Number(head.distinct),
    top: [],
    numeric: null,
    histogram: [],
    byYear: [],
  };
  if (secret || f.kind === 'id' || !profile.filled) return profile;
  if (f.kind === 'text' || f.kind === 'boolean' || f.kind === 'json') {
    const top = rowsOf<{ value: string; n: number }>(
      await db.execute(
        sql`select ${c}::text as value, count(*)::int as n ${from} and ${filled}
          group by 1 order by 2 desc, 1 limit ${TOP_VALUES}`,
      ),
    );
    profile.top = top.map((r) => ({ value: r.value, n: Number(r.n) }));
    return profile;
  }
  if (f.kind === 'number') {
    const [n] = rowsOf<Record<string, number | string>>(
      await db.execute(
        sql`select min(${c})::float8 as min, max(${c})::float8 as max, avg(${c})::float8 as mean,
          percentile_cont(0.25) within group (order by ${c})::float8 as p25,
          percentile_cont(0.5) within group (order by ${c})::float8 as p50,
          percentile_cont(0.75) within group (order by ${c})::float8 as p75 ${from} and ${filled}`,
      ),
    );
    const numeric = {
      min: Number(n?.min),
      max: Number(n?.max),
      mean: Number(n?.mean),
      p25: Number(n?.p25),
      p50: Number(n?.p50),
      p75: Number(n?.p75),
    };
    profile.numeric = numeric;
    const width = (numeric.max - numeric.min) / HISTOGRAM_BINS;
    if (width > 0) {
      // width_bucket puts the maximum in bin 11: it belongs to the last bin.
      const bins = rowsOf<{ bin: number; n: number }>(
        await db.execute(
          sql`select least(width_bucket(${c}::float8, ${numeric.min}::float8, ${numeric.max}::float8, ${HISTOGRAM_BINS}), ${HISTOGRAM_BINS}) as bin,
            count(*)::int as n ${from} and ${filled} group by 1 order by 1`,
        ),
      );
      const counts = new Map(bins.map((b) => [Number(b.bin), Number(b.n)]));
      profile.histogram = Array.from({ length: HISTOGRAM_BINS }, (_, i) => ({
        from: numeric.min + width * i,
        to: i === HISTOGRAM_BINS - 1 ? numeric.max : numeric.min + width * (i + 1),
        n: counts.get(i + 1) ?? 0,
      }));
    } else profile.histogram = [{ from: numeric.min, to: numeric.max, n: profile.filled }];
    return profile;
  }
  const years = rowsOf<{ year: string; n: number }>(
    await db.execute(
      sql`select to_char(${c}::timestamp, 'YYYY') as year, count(*)::int as n ${from} and ${filled}
        group by 1 order by 1`,
    ),
  );
  profile.byYear = years.map((r) => ({ year: r.year, n: Number(r.n) }));
  return profile;
}
