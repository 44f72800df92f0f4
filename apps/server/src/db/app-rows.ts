import { and, eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { notFound } from '../http/errors.js';
import type { Db, Tx } from './client.js';

/** A table of app-scoped rows with a numeric id. */
type AppTable = PgTable & { appId: PgColumn };
/** An app-scoped table whose key column is `id`. */
type AppIdTable = AppTable & { id: PgColumn };

/** The condition of one app's row of a table by its id. */
export const appRowIs = (table: AppIdTable, appId: number, id: number) =>
  and(eq(table.id, id), eq(table.appId, appId));

/**
 * The real ids of one app's rows of a table (at most `limit`): a route's `ownedIds`, which the
 * authorization matrix asks for from another app. `id` names the key column when it is not `id`;
 * `where` narrows the rows.
 */
export function ownedIds<T extends AppTable>(
  table: T,
  opts: { id?: PgColumn; where?: SQL; limit?: number } = {},
) {
  const keys = ownedKeys(table, { id: opts.id ?? (table as unknown as { id: PgColumn }).id }, opts);
  return async (db: Db, appId: number): Promise<Array<{ id: number }>> =>
    (await keys(db, appId)).map((r) => ({ id: Number(r.id) }));
}

/**
 * A few of one app's rows of a table as a route's parameters (at most `limit`, first in `orderBy`
 * when given, narrowed by `where`): the `ownedIds` of a route whose parameters are not one numeric
 * `id` (a row under its parent, `{ id: parent, rowId: own }`; a task id; a code). Values come as
 * the columns hold them.
 */
export function ownedKeys<T extends AppTable>(
  table: T,
  params: Record<string, PgColumn>,
  opts: { where?: SQL; limit?: number; orderBy?: SQL | AnyPgColumn } = {},
) {
  return async (db: Db, appId: number): Promise<Array<Record<string, string | number>>> => {
    let q = db
      .select(params)
      .from(table as PgTable)
      .where(and(eq(table.appId, appId), opts.where))
      .$dynamic();
    if (opts.orderBy) q = q.orderBy(opts.orderBy);
    if (opts.limit) q = q.limit(opts.limit);
    return (await q) as Array<Record<string, string | number>>;
  };
}

/** One app's row of a table by its id, or 404 naming the entity (another app's row is not there). */
export function appRowOf<T extends AppIdTable>(table: T, entity: string) {
  return async (db: Tx, appId: number, id: number): Promise<T['$inferSelect']> => {
    const [row] = await db
      .select()
      .from(table as PgTable)
      .where(appRowIs(table, appId, id));
    if (!row) throw notFound(entity);
    return row as T['$inferSelect'];
  };
}

/** Every row one app has in a table, in the order given: the query of a list that shows them all. */
export async function appRows<T extends AppTable>(
  db: Tx,
  table: T,
  appId: number,
  ...orderBy: Array<SQL | AnyPgColumn>
): Promise<Array<T['$inferSelect']>> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(eq(table.appId, appId))
    .orderBy(...orderBy);
  return rows as Array<T['$inferSelect']>;
}

/**
 * Changes one app's row of a table by its id and answers the changed row (undefined when it is not
 * there: callers read it first, with `appRowOf`, to audit it).
 */
export async function updateAppRow<T extends AppIdTable>(
  db: Tx,
  table: T,
  appId: number,
  id: number,
  set: PgUpdateSetSource<T>,
): Promise<T['$inferSelect']> {
  const [row] = await db
    .update(table as PgTable)
    .set(set as PgUpdateSetSource<PgTable>)
    .where(appRowIs(table, appId, id))
    .returning();
  return row as T['$inferSelect'];
}

/** Deletes one app's row of a table by its id. */
export async function deleteAppRow(db: Tx, table: AppIdTable, appId: number, id: number): Promise<void> {
  await db.delete(table).where(appRowIs(table, appId, id));
}

/**
 * Whether another row of the app (not `id`; null or undefined on adding) has this name: a name an app's rows
 * of a table may hold once. `name` names the column when it is not `name`.
 */
export async function nameTaken(
  db: Tx,
  table: AppIdTable,
  appId: number,
  value: string,
  id: number | null | undefined,
  name: PgColumn = (table as unknown as { name: PgColumn }).name,
): Promise<boolean> {
  const [same] = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.appId, appId), eq(name, value)));
  return same !== undefined && same.id !== id;
}
