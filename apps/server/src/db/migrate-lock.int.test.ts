import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './client.js';

/**
 * Several nodes started at once on one new PostgreSQL database (npm run cluster, a rolling
 * deployment): each runs the migrations at start. They take turns under an advisory lock, so
 * every migration is applied once and every node starts.
 */
describe.skipIf(!process.env.DATABASE_URL)('migrations of nodes starting at once (PostgreSQL)', () => {
  // A skipped describe still runs its body to collect the tests: nothing here may need the URL.
  const base = process.env.DATABASE_URL ?? '';
  const name = `crdp_migrate_${randomBytes(5).toString('hex')}`;
  const url = () => {
    const u = new URL(base);
    u.pathname = `/${name}`;
    return u.toString();
  };
  const opened: Database[] = [];
  const admin = async (text: string) => {
    const c = new pg.Client(base);
    await c.connect();
    try {
      return (await c.query(text)).rows;
    } finally {
      await c.end();
    }
  };

  afterAll(async () => {
    await Promise.all(opened.map((d) => d.close()));
    if (base) await admin(`drop database if exists ${name} with (force)`);
  });

  it('applies each migration once while three nodes open the same new database together', async () => {
    await admin(`create database ${name}`);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => openDatabase({ url: url(), dataDir: 'memory' })),
    );
    for (const r of results) if (r.status === 'fulfilled') opened.push(r.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
    ]);
    const [row] = (
      await opened[0]!.pool!.query(
        'select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations',
      )
    ).rows;
    expect(row.n).toBeGreaterThan(40);
    expect(row.distinct_n).toBe(row.n);
  });
});
