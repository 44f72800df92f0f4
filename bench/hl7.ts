// HL7 v2 listener (apps/server/src/collection/hl7): ORU^R01 messages sent over MLLP by
// BENCH_HL7_CONNECTIONS (default 8) senders, each waiting for its ACK before the next message
// (as an interface engine does), into a listener in its own process; every message is stored in
// hl7_messages before its ACK. Reference in the same run: the very same raw texts written with
// plain single-row INSERTs, autocommit, over as many connections, into a copy of the table.
// Prints messages/s (goal ≥ 500) and ratio=<listener time / INSERT time>. Then the crash check:
// the listener is killed with SIGKILL in the middle of a stream, and every acknowledged control
// id must be in the table (lost=0). PostgreSQL (127.0.0.1:5432) and the embedded database.
// BENCH_HL7_MESSAGES (default 5000), HL7_CRASH_ROUNDS (default 3).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import pg from 'pg';
import { oru } from '../apps/server/src/collection/hl7/test/messages.js';
import { openDatabase, PGLITE_EXTENSIONS } from '../apps/server/src/db/client.js';
import { apps, collectionSources } from '../apps/server/src/db/schema/index.js';
import { createBenchDatabase, postgresAnswers } from './_database.js';

const N = Number(process.env.BENCH_HL7_MESSAGES ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_HL7_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.HL7_CRASH_ROUNDS ?? 3);
const here = path.dirname(fileURLToPath(import.meta.url));

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;
interface Target {
  label: string;
  env: Record<string, string>;
  sourceId: number;
  query: Query;
  /** The reference: the raw texts by plain INSERTs; its time in ms. */
  reference(raws: string[]): Promise<number>;
  drop(): Promise<void>;
}

async function prepare(url: string | undefined, dataDir: string) {
  const database = await openDatabase({ url, dataDir });
  const [app] = await database.db.insert(apps).values({ appShortName: 'BENCH', name: 'bench' }).returning();
  const [s] = await database.db
    .insert(collectionSources)
    .values({ appId: app!.appId, name: 'LIS', kind: 'hl7', config: { listenPort: 0 } })
    .returning();
  await database.close();
  return { appId: app!.appId, sourceId: s!.id };
}

async function postgresTarget(): Promise<Target | null> {
  if (!(await postgresAnswers())) return null;
  const created = await createBenchDatabase('crdp_bench_hl7');
  const url = created.url;
  const { appId, sourceId } = await prepare(url, 'memory');
  const query: Query = async (sql) => {
    const k = new pg.Client(url);
    await k.connect();
    const r = await k.query(sql);
    await k.end();
    return r.rows;
  };
  return {
    label: 'postgres',
    env: { DATABASE_URL: url },
    sourceId,
    query,
    async reference(raws) {
      await query('create table hl7_ref (like hl7_messages including all)');
      const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
      await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.query('select 1')));
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          for (let i = next++; i < raws.length; i = next++)
            await pool.query(
              `insert into hl7_ref (app_id, source_id, control_id, type, raw) values ($1, $2, $3, 'ORU^R01', $4)
               on conflict (source_id, control_id) do nothing`,
              [appId, sourceId, `REF-${i}`, raws[i]],
            );
        }),
      );
      const ms = performance.now() - started;
      await pool.end();
      return ms;
    },
    drop: created.drop,
  };
}

async function embeddedTarget(): Promise<Target> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crdp-hl7-'));
  const { appId, sourceId } = await prepare(undefined, dir);
  const query: Query = async (sql) => {
    const db = await PGlite.create(path.join(dir, 'pgdata'), { extensions: PGLITE_EXTENSIONS });
    const r = await db.query<Record<string, unknown>>(sql);
    await db.close();
    return r.rows;
  };
  return {
    label: 'embedded',
    env: { DATA_DIR: dir, DATABASE_URL: '' },
    sourceId,
    query,
    async reference(raws) {
      // One process owns the embedded database: the reference runs in this one, on the same files.
      const db = await PGlite.create(path.join(dir, 'pgdata'), { extensions: PGLITE_EXTENSIONS });
      await db.query('create table hl7_ref (like hl7_messages including all)');
      const started = performance.now();
      for (let i = 0; i < raws.length; i++)
        await db.query(
          `insert into hl7_ref (app_id, source_id, control_id, type, raw) values ($1, $2, $3, 'ORU^R01', $4)
           on conflict (source_id, control_id) do nothing`,
          [appId, sourceId, `REF-${i}`, raws[i]],
        );
      const ms = performance.now() - started;
      await db.close();
      return ms;
    },
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

async function startListener(t: Target): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '_hl7-listener.ts')], {
    env: { ...process.env, ...t.env, SOURCE_ID: String(t.sourceId) },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: path.join(here, '..'),
  });
  let log = '';
  child.stderr!.on('data', (d) => {
    log += d;
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`listener exited ${code}: ${log}`)));
  });
  return { port, child };
}

const stopChild = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

/** Sends messages from `connections` senders until `more()` says stop; the acknowledged control ids. */
async function stream(port: number, make: (i: number) => string | Hl7Message | null, connections: number) {
  const acked: string[] = [];
  const refused: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 5000 });
      try {
        for (;;) {
          const i = next++;
          const text = make(i);
          if (text === null) break;
          const msg = typeof text === 'string' ? Hl7Message.parse(text) : text;
          const id = msg.getSegment('MSH')!.getField(10).toString();
          const ack = await client.sendAndWait(msg, { timeoutMs: 3000 });
          if (ack.getSegment('MSA')?.getField(1)?.toString() === 'AA') acked.push(id);
          else refused.push(id);
        }
      } catch {
        // the listener died (crash check)
      } finally {
        await client.close().catch(() => {});
      }
    }),
  );
  return { acked, refused };
}

async function throughput(t: Target) {
  const raws = Array.from({ length: N }, (_, i) => oru({ controlId: `ORU-${i}`, order: `L${i}` }));
  // The senders' messages are made beforehand: what is timed is the listener, not their parse.
  const messages = raws.map((r) => Hl7Message.parse(r));
  const { port, child } = await startListener(t);
  // Warm-up: connections, the first statements.
  await stream(port, (i) => (i < 50 ? oru({ controlId: `WARM-${i}` }) : null), CONNECTIONS);
  const started = performance.now();
  const r = await stream(port, (i) => messages[i] ?? null, CONNECTIONS);
  const ms = performance.now() - started;
  await stopChild(child, 'SIGTERM');
  const counted = (await t.query(
    `select count(*)::int as n from hl7_messages where control_id like 'ORU-%'`,
  )) as Array<{ n: number }>;
  const n = counted[0]?.n ?? 0;
  const ref = await t.reference(raws);
  const rate = (N / ms) * 1000;
  console.log(
    `${t.label}: ${N} ORU^R01 over ${CONNECTIONS} connections, ${r.acked.length} ACKed (AA), ${r.refused.length} refused, ${n} stored: ${(ms / 1000).toFixed(2)} s, ${rate.toFixed(0)} messages/s (goal ≥ 500${rate >= 500 ? ', met' : ', MISSED'})`,
  );
  console.log(
    `${t.label}: reference (plain INSERT of the same raw texts): ${(ref / 1000).toFixed(2)} s, ${((N / ref) * 1000).toFixed(0)} rows/s; ratio=${(ms / ref).toFixed(2)}`,
  );
  if (r.acked.length !== N || n !== N)
    throw new Error(`${t.label}: ${N} sent, ${r.acked.length} ACKed, ${n} stored`);
}

async function crash(t: Target) {
  let acked = 0;
  let lost = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const { port, child } = await startListener(t);
    let stop = false;
    const sending = stream(
      port,
      (i) => (stop ? null : oru({ controlId: `CRASH-${round}-${i}` })),
      CONNECTIONS,
    );
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 1500));
    await stopChild(child, 'SIGKILL');
    stop = true;
    const r = await sending;
    const present = new Set(
      (await t.query(`select control_id from hl7_messages where control_id like 'CRASH-${round}-%'`)).map(
        (x) => String(x.control_id),
      ),
    );
    const missing = r.acked.filter((id) => !present.has(id));
    acked += r.acked.length;
    lost += missing.length;
    console.log(
      `${t.label} crash round ${round}: killed (SIGKILL) after ${r.acked.length} ACKs, ${present.size} stored, ${missing.length} ACKed but lost`,
    );
  }
  console.log(
    `${t.label}: ${acked} acknowledged, ${lost} lost, crash ratio=${((acked - lost) / Math.max(1, acked)).toFixed(3)}`,
  );
  if (lost) throw new Error(`${t.label}: ${lost} acknowledged messages lost`);
}

let failed = false;
for (const make of [postgresTarget, embeddedTarget]) {
  const t = await make();
  if (!t) continue;
  try {
    await throughput(t);
    await crash(t);
  } catch (e) {
    console.log(`FAILED: ${(e as Error).message}`);
    failed = true;
  } finally {
    await t.drop();
  }
}
process.exit(failed ? 1 : 0);
