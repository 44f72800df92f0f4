// A PostgreSQL primary and a streaming replica of it, made from nothing in a directory of their
// own (initdb, then pg_basebackup -R), on two ports of 127.0.0.1: the database layer of the
// two-node cluster (bench/cluster/README.md). Separate from any PostgreSQL already running.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The directory of PostgreSQL's programs: `PG_BIN`, else the newest /usr/lib/postgresql/N/bin. */
export function findPostgresBin(): string | undefined {
  const given = process.env.PG_BIN;
  if (given) return existsSync(path.join(given, 'initdb')) ? given : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export interface ReplicatedPostgres {
  /** postgres:// URLs of one database on the primary and the same database on the replica. */
  primaryUrl: string;
  replicaUrl: string;
  primaryPort: number;
  replicaPort: number;
  dir: string;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  dir: string;
  primaryPort: number;
  replicaPort: number;
  database: string;
  log?: (line: string) => void;
}

/**
 * initdb refuses to run as root: as root, PostgreSQL's programs run as the `postgres` user
 * (`runuser`), and the directory is given to it.
 */
async function asOwner(bin: string, file: string, args: string[]) {
  const exe = path.join(bin, file);
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  try {
    return await run(cmd, argv, { maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed: ${err.stderr || err.stdout || err.message}`);
  }
}

async function ownedDir(dir: string) {
  await mkdir(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(dir, 0o700);
}

/**
 * Makes and starts the primary (port `primaryPort`) and its streaming replica (`replicaPort`),
 * then creates `database` on the primary; the replica receives it by replication.
 */
export async function startReplicatedPostgres(opts: PostgresOptions): Promise<ReplicatedPostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL programs not found (set PG_BIN or install postgresql)');
  const log = opts.log ?? (() => {});
  await mkdir(opts.dir, { recursive: true });
  if (process.getuid?.() === 0) {
    // runuser postgres must be able to reach the directory (mkdtemp makes it 0700).
    await chmod(opts.dir, 0o755);
  }
  const primary = path.join(opts.dir, 'primary');
  const replica = path.join(opts.dir, 'replica');
  const sockets = path.join(opts.dir, 'sockets');
  const logs = path.join(opts.dir, 'logs');
  await ownedDir(primary);
  await ownedDir(replica);
  await ownedDir(sockets);
  await ownedDir(logs);
  await chmod(logs, 0o755);

  const stopBoth = async () => {
    for (const d of [replica, primary]) {
      if (existsSync(path.join(d, 'postmaster.pid'))) {
        await asOwner(bin, 'pg_ctl', ['-D', d, '-m', 'fast', '-w', 'stop']).catch((e) => log(String(e)));
      }
    }
  };
  // Starts the server of a data directory and waits for it (60 s at the most).
  const startServer = (dir: string, logName: string, extra: string[] = []) =>
    asOwner(bin, 'pg_ctl', ['-D', dir, '-l', path.join(logs, logName), ...extra, '-w', '-t', '60', 'start']);

  try {
    let t = Date.now();
    // --auth=trust on 127.0.0.1 includes the replication lines of pg_hba.conf pg_basebackup needs.
    await asOwner(bin, 'initdb', [
      '-D',
      primary,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-instructions',
    ]);
    await writeFile(
      path.join(primary, 'postgresql.auto.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `port = ${opts.primaryPort}`,
        `unix_socket_directories = '${sockets}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'max_connections = 80',
        'shared_buffers = 64MB',
        // The replica reports the oldest snapshot it still reads, so the primary's vacuum does not
        // remove rows under a long export running there (no recovery conflict cancels it).
        'hot_standby_feedback = on',
        '',
      ].join('\n'),
    );
    if (process.getuid?.() === 0)
      await run('chown', ['postgres:postgres', path.join(primary, 'postgresql.auto.conf')]);
    await startServer(primary, 'primary.log');
    log(`primary on 127.0.0.1:${opts.primaryPort} (initdb + start ${Date.now() - t} ms)`);

    t = Date.now();
    // -R writes standby.signal and primary_conninfo; -X stream copies the WAL written meanwhile.
    await asOwner(bin, 'pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(opts.primaryPort),
      '-U',
      'postgres',
      '-D',
      replica,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    await startServer(replica, 'replica.log', ['-o', `-p ${opts.replicaPort}`]);
    log(`replica on 127.0.0.1:${opts.replicaPort} (pg_basebackup + start ${Date.now() - t} ms)`);
  } catch (e) {
    // Nothing is left running when a step fails.
    await stopBoth();
    throw e;
  }

  const url = (port: number, db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  try {
    const admin = new pg.Client(url(opts.primaryPort, 'postgres'));
    await admin.connect();
    try {
      await admin.query(`create database ${opts.database}`);
    } finally {
      await admin.end();
    }
  } catch (e) {
    await stopBoth();
    throw e;
  }

  const caughtUp = async (timeoutMs = 10_000) => {
    const started = Date.now();
    const p = new pg.Client(url(opts.primaryPort, 'postgres'));
    const r = new pg.Client(url(opts.replicaPort, 'postgres'));
    await p.connect();
    await r.connect();
    try {
      const { rows } = await p.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      const target = rows[0]!.lsn;
      for (;;) {
        const q = await r.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [
          target,
        ]);
        if (q.rows[0]?.done) return Date.now() - started;
        if (Date.now() - started > timeoutMs)
          throw new Error(`the replica did not reach ${target} in ${timeoutMs} ms`);
        await new Promise((res) => setTimeout(res, 20));
      }
    } finally {
      await p.end();
      await r.end();
    }
  };
  await caughtUp(30_000).catch(async (e) => {
    await stopBoth();
    throw e;
  });

  return {
    primaryUrl: url(opts.primaryPort, opts.database),
    replicaUrl: url(opts.replicaPort, opts.database),
    primaryPort: opts.primaryPort,
    replicaPort: opts.replicaPort,
    dir: opts.dir,
    caughtUp,
    stop: stopBoth,
  };
}

/** Removes what `startReplicatedPostgres` made (after `stop`). */
export async function removeReplicatedPostgres(dir: string) {
  await rm(dir, { recursive: true, force: true });
}
