import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SciColumnStats, VariableType } from '@crdp/core';
import {
  BIGINT,
  DOUBLE,
  type DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  type DuckDBType,
  INTEGER,
  VARCHAR,
} from '@duckdb/node-api';

/*
 * DuckDB (@duckdb/node-api, embedded, in this process) builds and reads the snapshots: the
 * values each variable's SQL gives are appended column by column, lined up to one wide row per
 * patient, summarised per column and written as one Parquet file (zstd). Every build and every
 * read opens its own in-memory database, so builds never share tables and nothing here is the
 * only copy of anything: the file itself is kept in PostgreSQL (snapshots.ts).
 */

export interface EngineColumn {
  key: string;
  type: VariableType;
}

/** A variable's values: the cohort row (0-based, in study-number order) and its value. */
export interface ColumnValues {
  rows: number[];
  values: Array<number | string>;
}

const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
/** A column key quoted for DuckDB; keys are variable codes, so this only guards. */
export const q = (key: string) => {
  if (!KEY.test(key) && key !== '_patient_id') throw new Error(`bad column key ${key}`);
  return `"${key}"`;
};

const CHUNK = 2048;

async function openDuck(): Promise<{ db: DuckDBInstance; c: DuckDBConnection }> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '1GB' });
  return { db, c: await db.connect() };
}

async function appendColumns(c: DuckDBConnection, table: string, types: DuckDBType[], cols: unknown[][]) {
  const appender = await c.createAppender(table);
  const n = cols[0]?.length ?? 0;
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK);
    const chunk = DuckDBDataChunk.create(types, to - from);
    chunk.setColumns(cols.map((col) => col.slice(from, to) as never[]));
    appender.appendDataChunk(chunk);
  }
  appender.flushSync();
  appender.closeSync();
}

export const studyNo = (i: number, total: number) =>
  `S${String(i + 1).padStart(Math.max(5, String(total).length), '0')}`;

/**
 * Builds a snapshot: the cohort's patients in order, then each column's values (asked one
 * column at a time, so only one column's values are held in JavaScript), lined up in DuckDB.
 * Answers the Parquet file and the per-column statistics.
 */
export async function buildSnapshotFile(
  patients: number[],
  columns: EngineColumn[],
  valuesOf: (i: number) => Promise<ColumnValues>,
  progress: (share: number) => Promise<void> = async () => {},
): Promise<{ file: Buffer; stats: SciColumnStats[] }> {
  const { db, c } = await openDuck();
  const dir = await scratchDir();
  const out = path.join(dir, `${randomUUID()}.parquet`);
  try {
    await c.run('create table base (row INTEGER, _patient_id BIGINT, study_no VARCHAR)');
    await appendColumns(
      c,
      'base',
      [INTEGER, BIGINT, VARCHAR],
      [
        patients.map((_, i) => i),
        patients.map((p) => BigInt(p)),
        patients.map((_, i) => studyNo(i, patients.length)),
      ],
    );
    // Each column's values go in as a dense column of their own, in row order (missing values
    // null), and one positional join lines them up: every value is appended once and read
    // once. (A pivot by filtered aggregates read every value once per column: 28 s for 30,000
    // patients × 200 variables; one update per column 43 s for 100,000.)
    for (const [i, col] of columns.entries()) {
      const got = await valuesOf(i);
      const dense: Array<number | string | null> = new Array(patients.length).fill(null);
      for (let j = 0; j < got.rows.length; j++) dense[got.rows[j]!] = got.values[j]!;
      await c.run(`create table c${i} (${q(col.key)} ${col.type === 'number' ? 'DOUBLE' : 'VARCHAR'})`);
      await appendColumns(c, `c${i}`, [col.type === 'number' ? DOUBLE : VARCHAR], [dense]);
      await progress((i + 1) / columns.length);
    }
    const list = columns.map((col, i) =>
      col.type === 'date' ? `try_cast(c${i}.${q(col.key)} as DATE) as ${q(col.key)}` : `c${i}.${q(col.key)}`,
    );
    await c.run(`create table snap as select b.study_no, ${[...list, 'b._patient_id'].join(', ')}
      from base b ${columns.map((_, i) => `positional join c${i}`).join(' ')}`);
    for (const [i] of columns.entries()) await c.run(`drop table c${i}`);
    const stats = await columnStats(c, 'snap', columns, patients.length);
    await c.run(`copy snap to '${out}' (format parquet, compression zstd, row_group_size 100000)`);
    return { file: await readFile(out), stats };
  } finally {
    c.closeSync();
    db.closeSync();
    await rm(out, { force: true });
  }
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Per column: present, missing, spread (numbers, dates), a histogram or the most frequent values. */
async function columnStats(
  c: DuckDBConnection,
  table: string,
  columns: EngineColumn[],
  total: number,
): Promise<SciColumnStats[]> {
  const out: SciColumnStats[] = [];
  for (const col of columns) {
    const k = q(col.key);
    const s: SciColumnStats = {
      key: col.key,
      present: 0,
      missing: total,
      min: null,
      median: null,
      max: null,
      mean: null,
      sd: null,
      histogram: [],
      categories: [],
      distinct: 0,
    };
    if (col.type === 'number') {
      const [r] = await rowsOf(
        c,
        `select count(${k}) as present, count(distinct ${k}) as distinct, min(${k}) as min, max(${k}) as max,
          avg(${k}) as mean, median(${k}) as median, stddev_samp(${k}) as sd from ${table}`,
      );
      Object.assign(s, {
        present: Number(r!.present),
        distinct: Number(r!.distinct),
        min: num(r!.min),
        max: num(r!.max),
        mean: num(r!.mean),
        median: num(r!.median),
        sd: num(r!.sd),
      });
      if (s.min !== null && s.max !== null) {
        const lo = s.min as number;
        const width = ((s.max as number) - lo) / 10;
        if (width === 0) s.histogram = [{ from: lo, to: lo, count: s.present }];
        else {
          const bins = await rowsOf(
            c,
            `select least(floor((${k} - ${lo}) / ${width}), 9)::int as b, count(*) as n from ${table}
              where ${k} is not null group by 1 order by 1`,
          );
          const counts = new Map(bins.map((b) => [Number(b.b), Number(b.n)]));
          s.histogram = Array.from({ length: 10 }, (_, i) => ({
            from: lo + i * width,
            to: lo + (i + 1) * width,
            count: counts.get(i) ?? 0,
          }));
        }
      }
    } else if (col.type === 'date') {
      const [r] = await rowsOf(
        c,
        `select count(${k}) as present, count(distinct ${k}) as distinct,
          strftime(min(${k}), '%Y-%m-%d') as min, strftime(max(${k}), '%Y-%m-%d') as max,
          strftime(quantile_disc(${k}, 0.5), '%Y-%m-%d') as median from ${table}`,
      );
      Object.assign(s, {
        present: Number(r!.present),
        distinct: Number(r!.distinct),
        min: (r!.min as string | null) ?? null,
        max: (r!.max as string | null) ?? null,
        median: (r!.median as string | null) ?? null,
      });
    } else {
      const [r] = await rowsOf(
        c,
        `select count(${k}) as present, count(distinct ${k}) as distinct from ${table}`,
      );
      s.present = Number(r!.present);
      s.distinct = Number(r!.distinct);
      // A free-text value one patient alone holds is not listed (it may say who that patient is).
      const top = await rowsOf(
        c,
        `select ${k} as v, count(*) as n from ${table} where ${k} is not null group by 1
          ${col.type === 'text' ? 'having count(*) > 1' : ''} order by 2 desc, 1 limit 20`,
      );
      s.categories = top.map((t) => ({ value: String(t.v), count: Number(t.n) }));
    }
    s.missing = total - s.present;
    out.push(s);
  }
  return out;
}

async function rowsOf(c: DuckDBConnection, sql: string): Promise<Array<Record<string, unknown>>> {
  const r = await c.runAndReadAll(sql);
  return r.getRowObjectsJS() as Array<Record<string, unknown>>;
}

async function scratchDir() {
  const dir = path.join(tmpdir(), 'crdp-snapshots');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * The snapshot's file on this machine's scratch disk, named by its SHA-256: written once from the
 * database's copy (`load`), then read in place. Any process may write it; the content decides
 * the name, so two writers write the same bytes.
 */
export async function localFile(hash: string, load: () => Promise<Buffer>): Promise<string> {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('bad snapshot hash');
  const dir = await scratchDir();
  const file = path.join(dir, `${hash}.parquet`);
  const there = await stat(file).catch(() => null);
  if (there) return file;
  const bytes = await load();
  if (sha256(bytes) !== hash) throw new Error('snapshot file does not match its hash');
  const tmp = path.join(dir, `${randomUUID()}.part`);
  await writeFile(tmp, bytes, { mode: 0o600 });
  await rename(tmp, file);
  return file;
}

/** A select list of a snapshot's visible columns: dates as YYYY-MM-DD, no patient id. */
const visible = (columns: EngineColumn[]) =>
  [
    'study_no',
    ...columns.map((col) =>
      col.type === 'date' ? `strftime(${q(col.key)}, '%Y-%m-%d') as ${q(col.key)}` : q(col.key),
    ),
  ].join(', ');

async function withReader<T>(f: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const { db, c } = await openDuck();
  try {
    return await f(c);
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

export type Cell = number | string | null;
const cell = (v: unknown): Cell =>
  v === null || v === undefined ? null : typeof v === 'number' || typeof v === 'string' ? v : String(v);

/** One page of rows, in study-number order. */
export function readRows(file: string, columns: EngineColumn[], offset: number, limit: number) {
  return withReader(async (c) => {
    const rows = await rowsOf(
      c,
      `select ${visible(columns)} from read_parquet('${file}') limit ${Math.trunc(limit)} offset ${Math.trunc(offset)}`,
    );
    return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)])));
  });
}

/** Every row as arrays (study_no first, then the columns in order), in batches of about 2,000. */
export async function* rowBatches(file: string, columns: EngineColumn[]): AsyncGenerator<Cell[][]> {
  const { db, c } = await openDuck();
  try {
    const result = await c.stream(`select ${visible(columns)} from read_parquet('${file}')`);
    for await (const rows of result.yieldRowsJs()) yield rows.map((r) => r.map(cell));
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/**
 * The snapshot as a Parquet file for R and Python: the visible columns (dates as DATE). Snappy,
 * which every Parquet reader decodes (zstd, used for the stored copy, needs an extra codec in some).
 */
export function exportParquet(file: string, columns: EngineColumn[]): Promise<Buffer> {
  return withReader(async (c) => {
    const out = path.join(await scratchDir(), `${randomUUID()}.parquet`);
    try {
      const list = ['study_no', ...columns.map((col) => q(col.key))].join(', ');
      await c.run(
        `copy (select ${list} from read_parquet('${file}')) to '${out}' (format parquet, compression snappy)`,
      );
      return await readFile(out);
    } finally {
      await rm(out, { force: true });
    }
  });
}
