import { count, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client.js';

/** The page a list asks for: 1-based page number and page size. */
export interface PageQuery {
  page: number;
  size: number;
}

/** LIMIT and OFFSET of a page. */
export const pageWindow = (q: PageQuery) => ({ limit: q.size, offset: (q.page - 1) * q.size });

/**
 * One page of a list and how many rows of `table` match `where` in all: `read` selects the page
 * (its own columns, joins and order, under the same `where`) at the window it is given.
 */
export async function pageOf<R>(
  db: Tx,
  table: PgTable,
  where: SQL | undefined,
  q: PageQuery,
  read: (window: { limit: number; offset: number }) => Promise<R[]>,
): Promise<{ total: number; rows: R[] }> {
  const [total] = await db.select({ n: count() }).from(table).where(where);
  return { total: total?.n ?? 0, rows: await read(pageWindow(q)) };
}

/**
 * One page of a table's rows that match `where`, in the order given, and how many match in all:
 * the two queries every plain list of one table makes.
 */
export async function pageOfTable<T extends PgTable>(
  db: Tx,
  table: T,
  where: SQL | undefined,
  orderBy: Array<SQL | AnyPgColumn>,
  q: PageQuery,
): Promise<{ total: number; rows: Array<T['$inferSelect']> }> {
  const { total, rows } = await pageOf(db, table as PgTable, where, q, ({ limit, offset }) =>
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
  return { total, rows: rows as Array<T['$inferSelect']> };
}
