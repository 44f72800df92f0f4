import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.js';

export interface ThrowAwayDatabase {
  database: Database;
  /** What the database is, for a benchmark's report line. */
  kind: string;
  /** PostgreSQL: the throw-away database's URL (a test may hand it to another process). */
  url?: string;
  drop: () => Promise<void>;
}

/**
 * A throw-away database for a test file or a benchmark: PGlite in memory, or, when DATABASE_URL
 * is set, a fresh PostgreSQL database created for this run and dropped (forcibly) after it.
 */
export async function openThrowAwayDatabase(prefix = 'crdp_test'): Promise<ThrowAwayDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ dataDir: 'memory' });
    return { database, kind: 'PGlite (embedded, in memory)', drop: () => database.close() };
  }
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), dataDir: 'memory' });
  return {
    database,
    kind: 'PostgreSQL',
    url: u.toString(),
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      // Connections of the closed pool may still be saying goodbye: wait for them rather than
      // terminate them (a terminated connection reports an error nobody is listening to any more).
      for (let attempt = 0; ; attempt++) {
        try {
          await c.query(`drop database if exists ${name}${attempt < 20 ? '' : ' with (force)'}`);
          break;
        } catch (e) {
          if (attempt >= 20 || (e as { code?: string }).code !== '55006') throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await c.end();
    },
  };
}
