import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openThrowAwayDatabase, type ThrowAwayDatabase } from '../test/database.js';
import { rowsOf } from './rows.js';
import * as schema from './schema/index.js';

/**
 * `schema/*.ts` is the truth and the migrations are written from it (by drizzle-kit, or by hand
 * where it has no word): after every migration has run, the database holds exactly the schema's
 * tables, columns (and which are NOT NULL), CHECK constraints, foreign keys, unique constraints
 * and indexes, by name. A change made on one side only (a check declared but never migrated, a
 * column added by hand) is named here.
 */

/** PostgreSQL cuts identifiers to 63 bytes (NAMEDATALEN - 1); drizzle's long key names are cut so. */
const pgName = (name: string) => {
  const bytes = Buffer.from(name, 'utf8');
  return bytes.length <= 63 ? name : bytes.subarray(0, 63).toString('utf8');
};

describe('the drizzle schema and the migrated database agree', () => {
  let d: ThrowAwayDatabase;
  beforeAll(async () => {
    d = await openThrowAwayDatabase();
  });
  afterAll(async () => d?.drop());

  it('tables, columns, NOT NULL, checks, foreign keys, unique constraints and indexes', async () => {
    const db = d.database.db;
    const columns = rowsOf<{ t: string; c: string; nn: boolean }>(
      await db.execute(sql`
        select c.relname::text as t, a.attname::text as c, a.attnotnull as nn
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
          and a.attnum > 0 and not a.attisdropped`),
    );
    const constraints = rowsOf<{ t: string; n: string; k: string }>(
      await db.execute(sql`
        select c.relname::text as t, k.conname::text as n, k.contype::text as k
        from pg_constraint k join pg_class c on c.oid = k.conrelid
        where c.relnamespace = current_schema()::regnamespace`),
    );
    // Indexes of their own (those behind a primary key or unique constraint are the constraint's).
    const indexes = rowsOf<{ t: string; n: string }>(
      await db.execute(sql`
        select tablename::text as t, indexname::text as n from pg_indexes
        where schemaname = current_schema()
          and indexname not in (select conname from pg_constraint where contype in ('p', 'u', 'x'))`),
    );

    /** What the schema declares, as lines; the database's the same way; compared as sets. */
    const declared: string[] = [];
    const tables = new Set<string>();
    for (const t of Object.values(schema)) {
      if (!is(t, PgTable)) continue;
      const c = getTableConfig(t);
      tables.add(c.name);
      const inKey = new Set(c.primaryKeys.flatMap((p) => p.columns.map((x) => x.name)));
      for (const col of c.columns)
        declared.push(
          `${c.name}.${col.name}${col.notNull || col.primary || inKey.has(col.name) ? ' not null' : ''}`,
        );
      for (const k of c.checks) declared.push(`${c.name} check ${k.name}`);
      for (const f of c.foreignKeys) declared.push(`${c.name} foreign key ${pgName(f.getName())}`);
      for (const u of c.uniqueConstraints) declared.push(`${c.name} unique ${pgName(u.getName() ?? '')}`);
      for (const col of c.columns)
        if (col.isUnique) declared.push(`${c.name} unique ${pgName(col.uniqueName!)}`);
      for (const i of c.indexes) declared.push(`${c.name} index ${pgName(i.config.name!)}`);
    }
    const migrated = [
      ...columns.map((x) => `${x.t}.${x.c}${x.nn ? ' not null' : ''}`),
      ...constraints
        .filter((x) => x.k === 'c' || x.k === 'f' || x.k === 'u')
        .map((x) => `${x.t} ${{ c: 'check', f: 'foreign key', u: 'unique' }[x.k]} ${x.n}`),
      ...indexes.map((x) => `${x.t} index ${x.n}`),
    ];
    expect(tables.size).toBeGreaterThan(100);
    expect({
      onlyInSchema: declared.filter((x) => !migrated.includes(x)).sort(),
      onlyInDatabase: migrated.filter((x) => !declared.includes(x)).sort(),
    }).toEqual({ onlyInSchema: [], onlyInDatabase: [] });
  });
});
