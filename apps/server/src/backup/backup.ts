import { createReadStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { type Database, restoreDataDir } from '../db/client.js';

/**
 * A backup is one plain tar file: `manifest.json`, `pgdata.tar.gz` (the embedded database,
 * dumped while no query runs, so it is consistent) and `uploads/` (files of upload items).
 */
export const BACKUP_FORMAT = 'crdp-backup-1';

export async function writeBackup(database: Database, dataDir: string, outFile: string) {
  if (!database.dumpDataDir) {
    throw new Error('This server runs on PostgreSQL: back it up with pg_dump (see the README)');
  }
  const staging = await mkdtemp(path.join(os.tmpdir(), 'crdp-backup-'));
  try {
    const dump = await database.dumpDataDir();
    await writeFile(path.join(staging, 'pgdata.tar.gz'), Buffer.from(await dump.arrayBuffer()));
    const uploads = path.join(dataDir, 'uploads');
    const hasUploads = existsSync(uploads);
    await writeFile(
      path.join(staging, 'manifest.json'),
      JSON.stringify(
        { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), uploads: hasUploads },
        null,
        2,
      ),
    );
    await tar.c({ file: outFile, cwd: staging }, ['manifest.json', 'pgdata.tar.gz']);
    if (hasUploads) await tar.r({ file: outFile, cwd: dataDir }, ['uploads']);
    // It holds password hashes and clinical data: readable by the owner only.
    await chmod(outFile, 0o600);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Restores a backup into an empty data directory; refuses a directory that already holds data. */
export async function restoreBackup(file: string, dataDir: string) {
  if (!existsSync(file)) throw new Error(`No such backup file: ${file}`);
  await mkdir(dataDir, { recursive: true });
  const present = (await readdir(dataDir)).filter((f) => f !== '.db.lock');
  if (present.length)
    throw new Error(
      `${dataDir} is not empty (${present.slice(0, 3).join(', ')}): restore needs an empty DATA_DIR`,
    );
  const staging = await mkdtemp(path.join(os.tmpdir(), 'crdp-restore-'));
  try {
    await tar.x({ file, cwd: staging });
    const manifest = JSON.parse(await readFile(path.join(staging, 'manifest.json'), 'utf8'));
    if (manifest.format !== BACKUP_FORMAT)
      throw new Error(`${file} is not a CRDP backup (format ${manifest.format})`);
    const dump = await readFile(path.join(staging, 'pgdata.tar.gz'));
    await restoreDataDir(dataDir, new Blob([dump]));
    if (manifest.uploads) await tar.x({ file, cwd: dataDir }, ['uploads']);
    return manifest as { format: string; createdAt: string; uploads: boolean };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export const backupStream = (file: string) => createReadStream(file);
