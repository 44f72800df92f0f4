import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openThrowAwayDatabase, type ThrowAwayDatabase } from '../test/database.js';
import { AutoAnalyze, analyzeTables, staleTables } from './analyze.js';
import { rowsOf } from './rows.js';
import { seedMarks } from './schema/index.js';

/** A logger that keeps what it was told (the database under test is real). */
function keptLog() {
  const lines: Array<{ level: string; obj: unknown; msg: string }> = [];
  const at =
    (level: string) =>
    (obj: unknown, msg = '') =>
      lines.push({ level, obj, msg });
  const log = { info: at('info'), warn: at('warn'), error: at('error') } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const estimate = async (t: ThrowAwayDatabase, table: string) =>
  Number(
    rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select reltuples::float8 as n from pg_class where relname = ${table}`),
    )[0]?.n,
  );

describe('planner statistics (db/analyze.ts)', () => {
  let t: ThrowAwayDatabase;
  beforeAll(async () => {
    t = await openThrowAwayDatabase();
  });
  afterAll(async () => t.drop());

  it('finds a table that grew since its statistics, analyses it, and then finds nothing', async () => {
    const { log, lines } = keptLog();
    const stats = new AutoAnalyze(t.database, log, { intervalMs: 0, delayMs: 0 });
    await stats.check();
    expect(await staleTables(t.database.db)).toEqual([]);

    const rows = Array.from({ length: 6000 }, (_, i) => ({ name: `analyze-test-${i}` }));
    for (let i = 0; i < rows.length; i += 1000)
      await t.database.db.insert(seedMarks).values(rows.slice(i, i + 1000));
    expect(await staleTables(t.database.db)).toContain('seed_marks');
    expect(await estimate(t, 'seed_marks')).toBeLessThan(1000);

    await stats.check();
    expect(await staleTables(t.database.db)).toEqual([]);
    // ANALYZE of a table this small reads every row: the estimate is the count.
    expect(await estimate(t, 'seed_marks')).toBeGreaterThanOrEqual(6000);
    const done = lines.findLast((l) => l.msg === 'database: statistics refreshed');
    expect(done?.level).toBe('info');
    expect((done?.obj as { tables?: string[] } | undefined)?.tables).toContain('seed_marks');
    await stats.stop();
  });

  it('a nudge checks once after its delay; stop ends the timers', async () => {
    const { log, lines } = keptLog();
    const stats = new AutoAnalyze(t.database, log, { intervalMs: 0, delayMs: 10 });
    await t.database.db.execute(
      sql`insert into seed_marks(name) select 'analyze-more-' || g from generate_series(1, 20000) g`,
    );
    stats.nudge();
    stats.nudge();
    await expect.poll(() => lines.filter((l) => l.msg === 'database: statistics refreshed').length).toBe(1);
    expect(await estimate(t, 'seed_marks')).toBeGreaterThanOrEqual(26000);
    await stats.stop();
    stats.nudge();
    expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it('analyzeTables analyses the tables named, quoted', async () => {
    await t.database.db.execute(
      sql`insert into seed_marks(name) select 'analyze-named-' || g from generate_series(1, 30000) g`,
    );
    await analyzeTables(t.database.db, [seedMarks]);
    expect(await estimate(t, 'seed_marks')).toBeGreaterThanOrEqual(56000);
    await analyzeTables(t.database.db, []);
  });
});
