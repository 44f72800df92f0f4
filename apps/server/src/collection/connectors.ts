import type { CollectionSourceConfig, CollectionSourceKind, CollectionSourceProbe } from '@crdp/core';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { AppError, bilingual } from '../http/errors.js';

/**
 * Reading a hospital system's database: PostgreSQL (pg) or MySQL/MariaDB (mysql2). Every
 * connection is read-only (a READ ONLY transaction, a statement timeout) and reads only the
 * columns a template names, from tables and columns whose names passed the contract's
 * identifier pattern and are quoted here. Rows come in keyset order: (watermark, key) after
 * the last pair read, so a run resumes where the last committed batch ended.
 */

export interface Keyset {
  /** The watermark column, or '' (then the key alone orders the rows). */
  watermark: string;
  key: string;
}
/** The last (watermark, key) read, as text; undefined from the start. */
export type After = { watermark: string | null; key: string } | undefined;

export interface SourceReader {
  readonly version: string;
  probe(): Promise<CollectionSourceProbe['tables']>;
  /** The next `limit` rows after `after`, in keyset order. */
  read(
    table: string,
    columns: string[],
    ks: Keyset,
    after: After,
    limit: number,
  ): Promise<Record<string, unknown>[]>;
  /** The rows with these keys. */
  byKeys(table: string, columns: string[], key: string, keys: string[]): Promise<Record<string, unknown>[]>;
  /** How many rows lie after `after`. */
  count(table: string, ks: Keyset, after: After): Promise<number>;
  close(): Promise<void>;
}

const TIMEOUT_MS = 60_000;

/** A failure to reach or read the source, in words a person can act on (never the password). */
export function sourceFailure(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const err = e as { code?: string; message?: string; errno?: number };
  const msg = String(err.message ?? e).replace(/password[^,;]*/gi, 'password …');
  const known: Record<string, [string, string]> = {
    ECONNREFUSED: [
      '无法连接数据源：连接被拒绝（主机或端口不对，或服务未启动）',
      'cannot reach the source: connection refused (wrong host or port, or the server is down)',
    ],
    ENOTFOUND: ['无法连接数据源：找不到该主机', 'cannot reach the source: the host name is unknown'],
    ETIMEDOUT: ['无法连接数据源：连接超时', 'cannot reach the source: the connection timed out'],
    '28P01': ['数据源拒绝登录：用户名或密码错误', 'the source refused the login: wrong user or password'],
    '28000': ['数据源拒绝登录：用户名或密码错误', 'the source refused the login: wrong user or password'],
    ER_ACCESS_DENIED_ERROR: [
      '数据源拒绝登录：用户名或密码错误',
      'the source refused the login: wrong user or password',
    ],
    '3D000': ['数据源中没有该数据库', 'the source has no database of that name'],
    ER_BAD_DB_ERROR: ['数据源中没有该数据库', 'the source has no database of that name'],
    '42P01': ['数据源中没有该表', 'the source has no such table'],
    ER_NO_SUCH_TABLE: ['数据源中没有该表', 'the source has no such table'],
    '42703': ['数据源的表中没有该列', 'the source table has no such column'],
    ER_BAD_FIELD_ERROR: ['数据源的表中没有该列', 'the source table has no such column'],
    '57014': ['读取数据源超时', 'reading the source timed out'],
  };
  const k = err.code ? known[err.code] : undefined;
  return new AppError(422, 'request.invalid', {
    detail: k
      ? bilingual(`${k[0]}（${msg}）`, `${k[1]} (${msg})`)
      : bilingual(`读取数据源失败：${msg}`, `reading the source failed: ${msg}`),
  });
}

// ------------------------------------------------------------------ PostgreSQL

const pq = (name: string) =>
  name
    .split('.')
    .map((p) => `"${p}"`)
    .join('.');

class PgReader implements SourceReader {
  constructor(
    private readonly client: pg.Client,
    readonly version: string,
  ) {}

  static async open(cfg: CollectionSourceConfig, password: string): Promise<PgReader> {
    const client = new pg.Client({
      host: cfg.host,
      port: cfg.port || 5432,
      database: cfg.database,
      user: cfg.user,
      password,
      ssl: cfg.ssl ? { rejectUnauthorized: true } : false,
      connectionTimeoutMillis: 10_000,
      statement_timeout: TIMEOUT_MS,
      application_name: 'crdp-collection',
    });
    try {
      await client.connect();
      // Every read of this connection is in a read-only transaction.
      await client.query('set session characteristics as transaction read only');
      const v = await client.query<{ v: string }>('select version() as v');
      return new PgReader(client, v.rows[0]?.v.split(' on ')[0] ?? 'PostgreSQL');
    } catch (e) {
      await client.end().catch(() => {});
      throw sourceFailure(e);
    }
  }

  private async q(text: string, values: unknown[] = []) {
    try {
      return (await this.client.query(text, values)).rows as Record<string, unknown>[];
    } catch (e) {
      throw sourceFailure(e);
    }
  }

  async probe() {
    const rows = await this.q(
      `select c.table_schema as s, c.table_name as t, c.column_name as c, c.data_type as ty
         from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema not in ('pg_catalog', 'information_schema')
        order by c.table_schema, c.table_name, c.ordinal_position limit 5000`,
    );
    return group(
      rows.map((r) => ({
        table: r.s === 'public' ? String(r.t) : `${r.s}.${r.t}`,
        column: String(r.c),
        type: String(r.ty),
      })),
    );
  }

  async read(table: string, columns: string[], ks: Keyset, after: After, limit: number) {
    const cols = columns.map(pq).join(', ');
    const order = ks.watermark ? `${pq(ks.watermark)}, ${pq(ks.key)}` : pq(ks.key);
    const { where, values } = pgAfter(ks, after);
    return this.q(
      `select ${cols} from ${pq(table)} ${where} order by ${order} limit ${Math.floor(limit)}`,
      values,
    );
  }

  async byKeys(table: string, columns: string[], key: string, keys: string[]) {
    if (!keys.length) return [];
    return this.q(
      `select ${columns.map(pq).join(', ')} from ${pq(table)} where ${pq(key)}::text = any($1::text[]) order by ${pq(key)}`,
      [keys],
    );
  }

  async count(table: string, ks: Keyset, after: After) {
    const { where, values } = pgAfter(ks, after);
    const [r] = await this.q(`select count(*)::bigint as n from ${pq(table)} ${where}`, values);
    return Number(r?.n ?? 0);
  }

  async close() {
    await this.client.end().catch(() => {});
  }
}

/** Rows after (watermark, key): a null watermark sorts first, so it is read from the start. */
function pgAfter(ks: Keyset, after: After) {
  if (!after) return { where: '', values: [] as unknown[] };
  if (!ks.watermark) return { where: `where ${pq(ks.key)} > $1`, values: [after.key] };
  return {
    where: `where (${pq(ks.watermark)} > $1 or (${pq(ks.watermark)} = $1 and ${pq(ks.key)} > $2))`,
    values: [after.watermark, after.key],
  };
}

// ------------------------------------------------------------------ MySQL / MariaDB

const mq = (name: string) =>
  name
    .split('.')
    .map((p) => `\`${p}\``)
    .join('.');

class MysqlReader implements SourceReader {
  constructor(
    private readonly conn: mysql.Connection,
    readonly version: string,
    private readonly database: string,
  ) {}

  static async open(cfg: CollectionSourceConfig, password: string): Promise<MysqlReader> {
    let conn: mysql.Connection | undefined;
    try {
      conn = await mysql.createConnection({
        host: cfg.host,
        port: cfg.port || 3306,
        database: cfg.database,
        user: cfg.user,
        password,
        connectTimeout: 10_000,
        // Dates as the text the source holds ('2026-03-01 08:30:00'): a template's date transform reads them.
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
        charset: 'utf8mb4',
      });
      await conn.query('set session transaction read only');
      const [v] = (await conn.query('select version() as v')) as unknown as [Array<{ v: string }>];
      return new MysqlReader(conn, `MySQL/MariaDB ${v[0]?.v ?? ''}`.trim(), cfg.database);
    } catch (e) {
      await conn?.end().catch(() => {});
      throw sourceFailure(e);
    }
  }

  private async q(text: string, values: unknown[] = []) {
    try {
      const [rows] = await this.conn.query({ sql: text, values, timeout: TIMEOUT_MS });
      return rows as Record<string, unknown>[];
    } catch (e) {
      throw sourceFailure(e);
    }
  }

  async probe() {
    const rows = await this.q(
      `select table_name as t, column_name as c, data_type as ty from information_schema.columns
        where table_schema = ? order by table_name, ordinal_position limit 5000`,
      [this.database],
    );
    return group(rows.map((r) => ({ table: String(r.t), column: String(r.c), type: String(r.ty) })));
  }

  async read(table: string, columns: string[], ks: Keyset, after: After, limit: number) {
    const order = ks.watermark ? `${mq(ks.watermark)}, ${mq(ks.key)}` : mq(ks.key);
    const { where, values } = myAfter(ks, after);
    return this.q(
      `select ${columns.map(mq).join(', ')} from ${mq(table)} ${where} order by ${order} limit ${Math.floor(limit)}`,
      values,
    );
  }

  async byKeys(table: string, columns: string[], key: string, keys: string[]) {
    if (!keys.length) return [];
    return this.q(
      `select ${columns.map(mq).join(', ')} from ${mq(table)} where ${mq(key)} in (?) order by ${mq(key)}`,
      [keys],
    );
  }

  async count(table: string, ks: Keyset, after: After) {
    const { where, values } = myAfter(ks, after);
    const [r] = await this.q(`select count(*) as n from ${mq(table)} ${where}`, values);
    return Number(r?.n ?? 0);
  }

  async close() {
    await this.conn.end().catch(() => {});
  }
}

function myAfter(ks: Keyset, after: After) {
  if (!after) return { where: '', values: [] as unknown[] };
  if (!ks.watermark) return { where: `where ${mq(ks.key)} > ?`, values: [after.key] };
  return {
    where: `where (${mq(ks.watermark)} > ? or (${mq(ks.watermark)} = ? and ${mq(ks.key)} > ?))`,
    values: [after.watermark, after.watermark, after.key],
  };
}

function group(rows: Array<{ table: string; column: string; type: string }>) {
  const out = new Map<string, Array<{ name: string; type: string }>>();
  for (const r of rows) {
    const cols = out.get(r.table) ?? [];
    cols.push({ name: r.column, type: r.type });
    out.set(r.table, cols);
  }
  return [...out].map(([name, columns]) => ({ name, columns }));
}

/** Opens a reader on a database source; an HL7 source has nothing to read. */
export async function openReader(
  kind: CollectionSourceKind,
  cfg: CollectionSourceConfig,
  password: string,
): Promise<SourceReader> {
  if (kind === 'postgresql') return PgReader.open(cfg, password);
  if (kind === 'mysql') return MysqlReader.open(cfg, password);
  throw new AppError(400, 'request.invalid', {
    detail: bilingual(
      'HL7 数据源由监听端口接收消息，没有可读取的表',
      'an HL7 source receives messages on its port; it has no tables to read',
    ),
  });
}
