import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apps, jobs } from '../../db/schema/index.js';
import type { JobLog } from '../worker.js';

/** Waits until `check` gives a value other than undefined/false, polling; fails after `ms` naming what it waited for. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An app row for the jobs of a queue test (the jobs table needs one). */
export async function testApp(db: Db, name = 'jobs-test') {
  const [a] = await db.insert(apps).values({ appShortName: name, name }).returning({ id: apps.appId });
  return a!.id;
}

export const jobRow = async (db: Db, id: number) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

export const statusCounts = async (db: Db) => {
  const rows = await db
    .select({ status: jobs.status, n: sql<number>`count(*)::int` })
    .from(jobs)
    .groupBy(jobs.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
};

/** A log that keeps its lines, so a test can see what the queue reported. */
export function capturingLog() {
  const lines: Array<{ level: string; msg: string; obj: Record<string, unknown> }> = [];
  const at =
    (level: string) =>
    (obj: object, msg: string): void => {
      lines.push({ level, msg, obj: obj as Record<string, unknown> });
    };
  const log: JobLog = { info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

/** A gate a handler waits at until the test opens it. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}
