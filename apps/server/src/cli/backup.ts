import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { writeBackup } from '../backup/backup.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';

/**
 * `npm run backup [-- FILE]`: a consistent backup of the embedded database and uploads. While the
 * server runs it asks the server (which dumps between queries); otherwise it opens the data itself.
 */
async function main() {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL is set: back PostgreSQL up with pg_dump -Fc (see the README)');
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = path.resolve(process.argv[2] ?? `crdp-backup-${stamp}.tar`);
  const serverFile = path.join(config.dataDir, '.server.json');
  const running = existsSync(serverFile)
    ? (JSON.parse(readFileSync(serverFile, 'utf8')) as { pid: number; url: string; token: string })
    : null;
  if (running && isAlive(running.pid)) {
    const res = await fetch(`${running.url}/api/v0.1/system/backup`, {
      headers: { 'x-crdp-local-token': running.token },
    });
    if (!res.ok || !res.body)
      throw new Error(`The running server refused the backup: HTTP ${res.status} ${await res.text()}`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), createWriteStream(out, { mode: 0o600 }));
    process.stdout.write(`Backup written by the running server (pid ${running.pid}) to ${out}\n`);
    return;
  }
  const database = await openDatabase({ dataDir: config.dataDir });
  try {
    await writeBackup(database, config.dataDir, out);
    process.stdout.write(`Backup of ${config.dataDir} written to ${out}\n`);
  } finally {
    await database.close();
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

main().catch((e) => {
  process.stderr.write(`backup: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
