import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type * as schema from './schema/index.js';

export type Schema = typeof schema;
/**
 * The drizzle database, the same API over PGlite and node-postgres. It is opened without the
 * relational schema (`db.query.*`, which nothing uses): with it drizzle built a query builder for
 * each of the ~140 tables on every transaction (bench/load.ts).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction or the database itself: services accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL only: the connection pool under `db` (the job queue's pg-boss runs its SQL on it). */
  pool?: pg.Pool;
  /**
   * Reads that tolerate lag (lists, charts, exports, search): a streaming replica's pool when
   * `readUrl` was given, otherwise `db` itself. Read-only: its sessions refuse every write.
   */
  readDb: Db;
  /** PostgreSQL with a replica only: the pool under `readDb`. */
  readPool?: pg.Pool;
  /** A short description for logs, without credentials. */
  label: string;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded only: a consistent tar.gz of the data directory, taken while no query runs. */
  dumpDataDir?: () => Promise<Blob>;
}

/** Extensions the migrations create (0031: pg_trgm for the terminology search); PGlite ships them. Every
 * PGlite that opens a CRDP data directory (the server, the bench checks) loads them. */
export const PGLITE_EXTENSIONS = { pg_trgm };

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface OpenOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Directory that holds the embedded database; `memory` keeps it in memory (tests). */
  dataDir: string | 'memory';
  /** postgres:// URL of a streaming replica of `url` (DATABASE_READ_URL); needs `url`. */
  readUrl?: string | undefined;
}

/** PostgreSQL's view of the pool, `application_name` (pg_stat_activity): which pool a session is. */
export const APPLICATION_NAME = { primary: 'crdp', read: 'crdp-read' } as const;

function openPool(url: string, applicationName: string, readOnly: boolean) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    application_name: applicationName,
    // The read pool refuses writes even when its URL names the primary by mistake.
    ...(readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  // An idle connection that PostgreSQL ends (a restart, pg_terminate_backend, a dropped
  // database) must not take the process down: the pool drops it and opens a new one on demand.
  pool.on('error', (err) => {
    process.emitWarning(`PostgreSQL closed an idle connection: ${err.message}`, { code: 'CRDP_PG_IDLE' });
  });
  // Nor one that is checked out but between statements (idle in a transaction: the server's
  // idle_in_transaction_session_timeout, pg_terminate_backend). pg emits that on the client, where
  // the pool's listener is not; unheard, it would end the process. The client's next query fails
  // instead (the transaction rolls back), and on release the pool drops the connection.
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      process.emitWarning(`PostgreSQL closed a connection in use: ${err.message}`, {
        code: 'CRDP_PG_IN_USE',
      });
    });
  });
  return pool;
}

/** The advisory lock key the migrations run under (any constant shared by every CRDP process). */
export const MIGRATION_LOCK = 727_2201;

/**
 * Runs the migrations under a session advisory lock: nodes started at once on one database take
 * turns (the first applies them, the others then find nothing to do) instead of racing to create
 * the same tables. The lock goes with the connection, also when a migration fails.
 */
async function migrateLocked(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

const describeUrl = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
};

/** Opens the database and applies every committed migration. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.readUrl && !opts.url) throw new Error('A read replica (readUrl) needs the primary (url)');
  if (opts.url) {
    const pool = openPool(opts.url, APPLICATION_NAME.primary, false);
    const db = drizzlePg(pool) as unknown as Db;
    await migrateLocked(pool);
    // The replica replays the primary's migrations; it is never migrated itself.
    const readPool = opts.readUrl ? openPool(opts.readUrl, APPLICATION_NAME.read, true) : undefined;
    const readDb = readPool ? (drizzlePg(readPool) as unknown as Db) : db;
    return {
      db,
      kind: 'postgres',
      pool,
      readDb,
      ...(readPool ? { readPool } : {}),
      label: `postgres ${describeUrl(opts.url)}${opts.readUrl ? `, reads on ${describeUrl(opts.readUrl)}` : ''}`,
      // Readiness is the primary's: a replica that is down fails only the lag-tolerant reads, and
      // must not take every node out of its load balancer (db/README.md, "Read replica").
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        await Promise.all([pool.end(), readPool?.end()]);
      },
    };
  }
  let client: PGlite;
  let unlock = async () => {};
  if (opts.dataDir === 'memory') {
    client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  } else {
    const dir = path.join(opts.dataDir, 'pgdata');
    await mkdir(dir, { recursive: true });
    unlock = await lockDataDir(opts.dataDir);
    try {
      client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
    } catch (e) {
      await unlock();
      throw e;
    }
  }
  const db = drizzlePglite(client) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return {
    db,
    readDb: db,
    kind: 'pglite',
    label: opts.dataDir === 'memory' ? 'embedded (memory)' : `embedded ${path.join(opts.dataDir, 'pgdata')}`,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await client.close();
      await unlock();
    },
    dumpDataDir: () => client.dumpDataDir('gzip'),
  };
}

/**
 * The embedded database is one process's: a second process opening the same directory would
 * corrupt it. A lock file with the owner's pid refuses that; a stale lock of a dead process is taken over.
 */
async function lockDataDir(dataDir: string) {
  const file = path.join(dataDir, '.db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return async () => {
        await rm(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(await readFile(file, 'utf8').catch(() => '0'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(`The embedded database in ${dataDir} is in use by process ${pid}; stop it first`);
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates an embedded database in an empty directory from a `dumpDataDir` archive. */
export async function restoreDataDir(dataDir: string, archive: Blob) {
  const dir = path.join(dataDir, 'pgdata');
  await mkdir(dir, { recursive: true });
  const client = await PGlite.create(dir, { loadDataDir: archive, extensions: PGLITE_EXTENSIONS });
  await client.query('select 1');
  await client.close();
}
