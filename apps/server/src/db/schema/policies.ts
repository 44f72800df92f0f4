import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, check, pgPolicy } from 'drizzle-orm/pg-core';

/*
 * Row-level security and word checks shared by the schema files. No table is imported here, so
 * any schema file may use these (identity.ts included) without an import cycle.
 */

/**
 * The app a transaction is scoped to: the transaction-local setting `crdp.app_id` that
 * `withAppScope` (db/scoped.ts) sets, or null on the system path (jobs, migrations, sign-in,
 * cross-app work), where the setting is unset or empty.
 */
const scopedApp = sql.raw(`nullif(current_setting('crdp.app_id', true), '')::integer`);
const ownRows: SQL = sql`${scopedApp} is null or app_id = ${scopedApp}`;

/**
 * Row-level security on `app_id`, a backstop behind the services' own `app_id` filters (see
 * db/README.md): inside an app scope a row is read, changed, deleted and written only when it
 * is the scope's app; outside one every row is. Every table with an `app_id` column lists this
 * policy; migration 0020 enables RLS and 0021 forces it and creates the role `crdp_scoped`.
 * db/rls.int.test.ts fails for a table with `app_id` without forced RLS and this policy.
 */
export const appScope = () =>
  pgPolicy('app_scope', { as: 'permissive', for: 'all', to: 'public', using: ownRows, withCheck: ownRows });

/**
 * Reading more than the app's own rows (a second permissive policy, SELECT only; writes stay
 * under `appScope`): `condition` says which other rows an app scope may read.
 */
export const appScopeRead = (condition: SQL) =>
  pgPolicy('app_scope_read', { as: 'permissive', for: 'select', to: 'public', using: condition });

/**
 * A CHECK constraint: a word column holds one of the values the code writes. Null passes, as
 * in SQL; the column's NOT NULL decides whether null may be stored.
 */
export const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) => {
  for (const v of values) if (!/^[A-Za-z0-9_.]*$/.test(v)) throw new Error(`oneOf ${name}: bad value ${v}`);
  return check(name, sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`);
};
