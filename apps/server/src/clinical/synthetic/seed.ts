import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { analyzeTables } from '../../db/analyze.js';
import type { Db, Tx } from '../../db/client.js';
import { CDR_TABLES, type CdrTable } from '../records.js';
import { type Batch, emptyBatch, generatePatient, MAX_VISITS_PER_PATIENT } from './generate.js';

const TABLES = Object.keys(CDR_TABLES) as CdrTable[];

/** The SQL names of the clinical tables the generator fills. */
export const CDR_TABLE_NAMES = TABLES.map((t) => getTableName(CDR_TABLES[t].table as PgTable));

async function reserve(db: Tx, sequence: string, n: number): Promise<number[]> {
  const res = await db.execute(
    sql`select nextval(${sequence}::regclass)::text as id from generate_series(1, ${n})`,
  );
  return (res as unknown as { rows: Array<{ id: string }> }).rows.map((r) => Number(r.id));
}

/** Generates patients [from, to) of a seed into one batch, with ids reserved from the sequences. */
export async function makeBatch(db: Tx, appId: number, seed: number, from: number, to: number) {
  const n = to - from;
  const [pids, vids] = await Promise.all([
    reserve(db, 'patients_id_seq', n),
    reserve(db, 'visits_id_seq', n * MAX_VISITS_PER_PATIENT),
  ]);
  const batch = emptyBatch();
  let v = 0;
  for (let i = 0; i < n; i++) {
    generatePatient(seed, from + i, appId, { patientId: pids[i]!, nextVisitId: () => vids[v++]! }, batch);
  }
  return batch;
}

const rowCount = (b: Batch) => TABLES.reduce((s, t) => s + b[t].length, 0);

/** Writes a batch with multi-row INSERTs (PGlite and PostgreSQL alike), in one transaction. */
export async function insertBatch(db: Db, batch: Batch) {
  await db.transaction(async (tx) => {
    for (const t of TABLES) {
      const rows = batch[t];
      for (let i = 0; i < rows.length; i += 1000) {
        await tx.insert(CDR_TABLES[t].table as PgTable).values(rows.slice(i, i + 1000) as never);
      }
    }
  });
  return rowCount(batch);
}

/** The columns a batch's rows fill in one table (their keys and SQL names), and the table's name. */
export function columnsOf(t: CdrTable, sample: Record<string, unknown>) {
  const table = CDR_TABLES[t].table as PgTable;
  const cols = Object.entries(getTableColumns(table) as Record<string, PgColumn>)
    .filter(([k]) => k in sample)
    .map(([key, c]) => ({ key, name: c.name }));
  return { name: getTableName(table), cols };
}

function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  let s: string;
  if (v instanceof Date) s = v.toISOString();
  else if (typeof v === 'object') s = JSON.stringify(v);
  else s = String(v);
  return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/**
 * Writes a batch with COPY FROM STDIN on one pg client (PostgreSQL only), in one transaction;
 * `schema` names another schema holding tables of the same names (the scale benchmark's plain
 * reference tables).
 */
export async function copyBatch(client: pg.PoolClient, batch: Batch, schema = 'public') {
  await client.query('begin');
  try {
    for (const t of TABLES) {
      const rows = batch[t];
      if (!rows.length) continue;
      const { name, cols } = columnsOf(t, rows[0]!);
      const stream = client.query(
        copyFrom(`COPY "${schema}"."${name}" (${cols.map((c) => `"${c.name}"`).join(', ')}) FROM STDIN`),
      );
      function* lines() {
        let chunk = '';
        for (const row of rows) {
          chunk += `${cols.map((c) => copyValue(row[c.key])).join('\t')}\n`;
          if (chunk.length > 1 << 16) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      }
      await pipeline(Readable.from(lines()), stream);
    }
    await client.query('commit');
  } catch (e) {
    await client.query('rollback');
    throw e;
  }
  return rowCount(batch);
}

export interface SeedOptions {
  appId: number;
  patients: number;
  seed: number;
  /** The first patient index to write (a seeding that resumes after the ones already written). */
  from?: number;
  /** Patients per batch (one transaction each). */
  batchSize?: number;
  /**
   * A pause after each batch, so requests are answered while a seeding runs in the server: on the
   * embedded database every query runs on this process's one thread, a batch holds it.
   */
  pauseMs?: number;
  /** Batches written at once (PostgreSQL COPY path only). */
  workers?: number;
  /** When given, rows go in by COPY on this pool; else by INSERT through Drizzle. */
  pool?: pg.Pool;
  onProgress?: (done: number, rows: number) => void | Promise<void>;
}

/** Writes `patients` synthetic patients; patient i of a seed is always the same person. */
export async function seedSynthetic(db: Db, o: SeedOptions) {
  const size = o.batchSize ?? 500;
  // PostgreSQL refuses COPY FROM into a table whose row-level security applies to this user (a
  // non-superuser owner: the policies on app_id are forced, db/README.md); INSERT then.
  const active = await db.execute(sql`select row_security_active('patients') as active`);
  const pool = (active as unknown as { rows: Array<{ active: boolean }> }).rows[0]?.active
    ? undefined
    : o.pool;
  let next = o.from ?? 0;
  let done = next;
  let rows = 0;
  let analysedAt = Math.max(done, size);
  const cdrTables = TABLES.map((t) => CDR_TABLES[t].table as PgTable);
  const worker = async () => {
    const client = pool ? await pool.connect() : null;
    try {
      for (;;) {
        const from = next;
        if (from >= o.patients) return;
        const to = Math.min(o.patients, from + size);
        next = to;
        const batch = await makeBatch(db, o.appId, o.seed, from, to);
        // Add after the await: `rows += await ...` would read `rows` before another worker's update.
        const written = client ? await copyBatch(client, batch) : await insertBatch(db, batch);
        rows += written;
        done += to - from;
        // Statistics as the tables grow (each time they double): a plan made while they were
        // nearly empty (a seq scan per foreign-key check) is made again (db/analyze.ts).
        if (done >= analysedAt * 2) {
          analysedAt = done;
          await analyzeTables(db, cdrTables);
        }
        await o.onProgress?.(done, rows);
        if (o.pauseMs) await new Promise((r) => setTimeout(r, o.pauseMs));
      }
    } finally {
      client?.release();
    }
  };
  await Promise.all(Array.from({ length: pool ? (o.workers ?? 2) : 1 }, worker));
  // The planner's statistics, before anyone queries the new rows (db/analyze.ts).
  await analyzeTables(db, cdrTables);
  return { patients: done - (o.from ?? 0), rows };
}
