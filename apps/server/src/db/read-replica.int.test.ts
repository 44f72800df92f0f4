import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openThrowAwayDatabase } from '../test/database.js';
import { APPLICATION_NAME, type Database, openDatabase } from './client.js';
import { apps, patients } from './schema/index.js';
import { withAppScope } from './scoped.js';

/**
 * The read pool (DATABASE_READ_URL, db/README.md "Read replica"): its sessions are read-only and
 * named, and the app scope binds on them. Without a replica `readDb` is the primary itself. The
 * read URL here names the test's own database (a replica replays it; bench/cluster and
 * cluster/two-nodes.int.test.ts run a real one).
 */
describe('the read pool', () => {
  let primary: Database;
  let drop: () => Promise<void>;
  let url: string | undefined;

  beforeAll(async () => {
    const t = await openThrowAwayDatabase();
    primary = t.database;
    drop = t.drop;
    url = t.url;
  });
  afterAll(async () => drop?.());

  it('is the primary itself when no read URL is given (and always on the embedded database)', () => {
    expect(primary.readDb).toBe(primary.db);
    expect(primary.readPool).toBeUndefined();
  });

  it('refuses a read URL without a primary', async () => {
    await expect(openDatabase({ dataDir: 'memory', readUrl: 'postgres://u@h/db' })).rejects.toThrow(
      /needs the primary/,
    );
  });

  describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL (skipped on PGlite: it has no replica)', () => {
    let withRead: Database;
    let appA: number;
    let appB: number;

    beforeAll(async () => {
      withRead = await openDatabase({ url, readUrl: url, dataDir: 'memory' });
      const made = await withRead.db
        .insert(apps)
        .values([
          { appShortName: 'read-a', name: '读库甲' },
          { appShortName: 'read-b', name: '读库乙' },
        ])
        .returning({ id: apps.appId });
      [appA, appB] = made.map((r) => r.id) as [number, number];
      await withRead.db.insert(patients).values([
        { appId: appA, mrn: 'R-1', name: '读一', gender: 1, source: 'test', sourceId: 'R-1' },
        { appId: appB, mrn: 'R-2', name: '读二', gender: 2, source: 'test', sourceId: 'R-2' },
      ]);
    });
    afterAll(async () => withRead?.close());

    it('opens its own pool, named crdp-read in pg_stat_activity, and the label says where reads go', async () => {
      expect(withRead.readDb).not.toBe(withRead.db);
      expect(withRead.readPool).toBeDefined();
      const r = await withRead.readPool!.query<{ name: string }>('select current_setting($1) as name', [
        'application_name',
      ]);
      expect(r.rows[0]!.name).toBe(APPLICATION_NAME.read);
      const w = await withRead.pool!.query<{ name: string }>('select current_setting($1) as name', [
        'application_name',
      ]);
      expect(w.rows[0]!.name).toBe(APPLICATION_NAME.primary);
      expect(withRead.label).toMatch(/, reads on /);
    });

    it('refuses every write, even when its URL names the primary', async () => {
      await expect(
        withRead.readDb
          .insert(patients)
          .values({ appId: appA, mrn: 'R-X', name: '写', gender: 1, source: 't', sourceId: 'x' }),
      ).rejects.toMatchObject({ cause: { code: '25006' } }); // read_only_sql_transaction
      const n = await withRead.db.execute(sql`select count(*)::int as n from patients where mrn = 'R-X'`);
      expect((n as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    });

    it('holds an app-scoped read to its app (withAppScope on the read pool)', async () => {
      const seen = await withAppScope(withRead.readDb, appA, (tx) =>
        tx.select({ mrn: patients.mrn }).from(patients),
      );
      expect(seen.map((p) => p.mrn)).toEqual(['R-1']);
    });
  });
});
