// Throw-away PostgreSQL databases for the benchmarks: made fresh for a run, dropped after it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server the benchmarks use; DATABASE_URL names another. */
export const BENCH_POSTGRES = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function onServer<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Whether a PostgreSQL server answers at `base`; says so when it does not. */
export async function postgresAnswers(base = BENCH_POSTGRES, skipped = 'PostgreSQL part skipped') {
  try {
    await onServer(base, async () => undefined);
    return true;
  } catch {
    console.log(`no PostgreSQL at ${new URL(base).host}: ${skipped}`);
    return false;
  }
}

/** A new empty database on the server of `base`, named `<prefix>_<random>`. */
export async function createBenchDatabase(
  prefix = 'crdp_bench',
  base = BENCH_POSTGRES,
): Promise<BenchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await onServer(base, (c) => c.query(`create database ${name}`));
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: () =>
      onServer(base, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
