import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/**
 * Security logs that a refused request is meant to grow: the audit of denied and failed
 * attempts, sign-in attempts for throttling, and the sliding expiry of the caller's session.
 */
export const GROWS_ON_REFUSAL = new Set(['audit_log', 'login_attempts', 'login_throttle', 'sessions']);

/** A digest of every row of every table (but the security logs): equal digests mean nothing changed. */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: Array<{ table_name: string }> };
  const out: Record<string, string> = {};
  for (const { table_name } of tables.rows) {
    if (GROWS_ON_REFUSAL.has(table_name)) continue;
    const r = (await db.execute(
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${table_name}" t`,
      ),
    )) as unknown as { rows: Array<{ n: number; h: string | null }> };
    out[table_name] = `${r.rows[0]?.n}:${r.rows[0]?.h}`;
  }
  return out;
}
