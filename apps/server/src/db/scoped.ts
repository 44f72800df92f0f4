import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * Row-level security on `app_id` (migrations 0021 and 0022, db/README.md): a backstop behind the
 * services' own `app_id` filters. Inside `withAppScope(db, appId, fn)` a query that forgets its
 * filter still sees, changes and writes only rows of `appId`.
 */

/** A drizzle transaction over the same schema as `Db`. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The NOLOGIN role of migration 0022: data rights only, held to the policies. */
export const SCOPED_ROLE = 'crdp_scoped';

/**
 * How an app scope binds on this database:
 * - `role`: the connection may take `crdp_scoped`; scoped transactions switch to it, so even a
 *   superuser connection is held to the policies (PGlite and the development PostgreSQL).
 * - `setting`: the role is missing (the migration's user could not create it) or not ours; scoped
 *   transactions only set `crdp.app_id`, which binds a connection that is neither superuser nor
 *   BYPASSRLS (the forced policies hold even the tables' owner).
 * - `none`: as `setting`, but the connection is a superuser or BYPASSRLS and skips every policy:
 *   only the services' own filters hold.
 */
export type AppScopeMode = 'role' | 'setting' | 'none';

const modes = new WeakMap<Db, Promise<AppScopeMode>>();

/** The mode of this database, asked once per `Db`. */
export function appScopeMode(db: Db): Promise<AppScopeMode> {
  let mode = modes.get(db);
  if (!mode) {
    mode = readMode(db);
    modes.set(db, mode);
    mode.catch(() => modes.delete(db));
  }
  return mode;
}

async function readMode(db: Db): Promise<AppScopeMode> {
  // PostgreSQL 16 split membership into INHERIT and SET; SET ROLE needs the SET option there.
  const r = await db.execute(sql`
    select
      coalesce((
        select case when current_setting('server_version_num')::int >= 160000
                    then pg_has_role(current_user, r.oid, 'SET')
                    else pg_has_role(current_user, r.oid, 'MEMBER') end
               and has_table_privilege(r.oid, 'apps', 'SELECT')
        from pg_roles r where r.rolname = ${SCOPED_ROLE}), false) as can_switch,
      (select rolsuper or rolbypassrls from pg_roles where rolname = current_user) as skips_policies`);
  const row = (r as unknown as { rows: Array<{ can_switch: boolean; skips_policies: boolean }> }).rows[0];
  if (row?.can_switch) return 'role';
  return row?.skips_policies ? 'none' : 'setting';
}

/**
 * Runs `fn` in a transaction scoped to one app: `crdp.app_id` is set for the transaction only
 * (`set_config(…, true)`) and, in mode `role`, the transaction switches to `crdp_scoped`
 * (`SET LOCAL ROLE`). Both end with the transaction, so a pooled connection goes back clean.
 * Take `db`, never a transaction: a scope set inside an outer transaction would outlive `fn`.
 */
export async function withAppScope<T>(
  db: Db,
  appId: number,
  fn: (tx: DbTransaction) => Promise<T>,
): Promise<T> {
  if (!Number.isSafeInteger(appId) || appId <= 0) throw new TypeError(`withAppScope: bad app id ${appId}`);
  const mode = await appScopeMode(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('crdp.app_id', ${String(appId)}, true)`);
    if (mode === 'role') await tx.execute(sql.raw(`set local role ${SCOPED_ROLE}`));
    return fn(tx);
  });
}
