import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { reasonText } from '../http/logging.js';
import type { Database, Tx } from './client.js';
import { rowsOf } from './rows.js';

/**
 * Planner statistics.
 *
 * PostgreSQL's planner chooses joins from the statistics ANALYZE collects. The server's
 * autovacuum collects them on its own, but only after its thresholds and a delay; the embedded
 * database (PGlite, one process, no background workers) never does. Without them every table
 * looks like a few rows: the OMOP export of the 2,000-patient demo took 37 s instead of 2.6 s
 * (nested loops over a bitmap scan of the whole app, 32,354 times), and on the embedded
 * database the process answers nothing meanwhile.
 *
 * So: a bulk write (synthetic patients, an import) analyses the tables it wrote, on both
 * databases; and on the embedded one, `AutoAnalyze` does autovacuum's analysing: after a job
 * and every minute it analyses the tables that grew by a fifth since their last ANALYZE
 * (or were never analysed and hold rows). Its check is one catalogue query.
 */
export async function analyzeTables(db: Tx, tables: PgTable[]) {
  if (!tables.length) return;
  const names = sql.join(
    tables.map((t) => sql.identifier(getTableName(t))),
    sql`, `,
  );
  await db.execute(sql`analyze ${names}`);
}

/** Tables of the public schema whose statistics are missing or older than a fifth of their growth. */
export async function staleTables(db: Tx): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and pg_relation_size(c.oid) > 0
        and (c.reltuples < 0
          or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.2 + 8)
      order by 1`),
  );
  return rows.map((r) => r.name);
}

export interface AutoAnalyzeOptions {
  /** The periodic check; 0 turns it off (a nudge still checks). */
  intervalMs?: number;
  /** How long a nudge waits, so a burst of jobs brings one check. */
  delayMs?: number;
}

/** Autovacuum's analysing for the embedded database: see the note above. */
export class AutoAnalyze {
  private timer: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly opts: AutoAnalyzeOptions = {},
  ) {}

  start() {
    // The first check after a period, not at once: a start is often followed by a bulk write
    // (the demo's patients), whose plans are better made from no statistics than from a few rows.
    const every = this.opts.intervalMs ?? 60_000;
    if (every > 0) {
      this.timer = setInterval(() => this.nudge(), every);
      this.timer.unref();
    }
  }

  /** Checks soon (after `delayMs`); a nudge while one is pending is the same check. */
  nudge() {
    if (this.stopped || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      void this.check();
    }, this.opts.delayMs ?? 2_000);
    this.pending.unref();
  }

  /** Analyses the stale tables now; resolves when done. Never throws: a failure is logged. */
  check(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        const stale = await staleTables(this.database.db);
        if (!stale.length || this.stopped) return;
        const started = performance.now();
        await this.database.db.execute(
          sql`analyze ${sql.join(
            stale.map((t) => sql.identifier(t)),
            sql`, `,
          )}`,
        );
        this.log.info(
          { tables: stale, ms: Math.round(performance.now() - started) },
          'database: statistics refreshed',
        );
      } catch (e) {
        this.log.warn({ reason: reasonText(e) }, 'database: statistics not refreshed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pending) clearTimeout(this.pending);
    this.timer = this.pending = null;
    await this.running;
  }
}
