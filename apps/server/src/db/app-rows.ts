import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { notFound } from '../http/errors.js';
import type { Db, Tx } from './client.js';

/** A table of app-scoped rows with a numeric id. */
type AppTable = PgTable & { appId: PgColumn };

/**
 * The real ids of one app's rows of a table (at most `limit`): a route's `ownedIds`, which the
 * authorization matrix asks for from another app. `id` names the key column when it is not `id`;
 * `where` narrows the rows.
 */
export function ownedIds<T extends AppTable>(
  table: T,
  opts: { id?: PgColumn; where?: SQL; limit?: number } = {},
) {
  const id = opts.id ?? (table as unknown as { id: PgColumn }).id;
  return async (db: Db, appId: number): Promise<Array<{ id: number }>> => {
    const q = db
      .select({ id })
      .from(table as PgTable)
      .where(and(eq(table.appId, appId), opts.where));
    const rows = opts.limit ? await q.limit(opts.limit) : await q;
    return rows.map((r) => ({ id: Number(r.id) }));
  };
}

/** One app's row of a table by its id, or 404 naming the entity (another app's row is not there). */
export function appRowOf<T extends AppTable & { id: PgColumn }>(table: T, entity: string) {
  return async (db: Tx, appId: number, id: number): Promise<T['$inferSelect']> => {
    const [row] = await db
      .select()
      .from(table as PgTable)
      .where(and(eq(table.id, id), eq(table.appId, appId)));
    if (!row) throw notFound(entity);
    return row as T['$inferSelect'];
  };
}
