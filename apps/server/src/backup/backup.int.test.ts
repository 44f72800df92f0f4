import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { notices } from '../db/schema/index.js';
import { fingerprint } from '../test/harness/fingerprint.js';
import { download } from '../test/helper.js';
import { restoreBackup } from './backup.js';

describe('backup and restore of the embedded database', () => {
  const dirs: string[] = [];
  const tmp = async (name: string) => {
    const d = await mkdtemp(path.join(os.tmpdir(), `crdp-${name}-`));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  let source: string;
  let backupFile: string;
  let before: Record<string, string>;
  let adminKeyCount: number;

  beforeAll(async () => {
    source = await tmp('source');
    const config = {
      ...loadConfig({}),
      dataDir: source,
      demoData: true,
      demoPatients: 0,
      demoPassword: 'Backup-Test-1',
      logLevel: 'silent',
    };
    const app = await buildApp({ config, logger: false });
    await mkdir(path.join(source, 'uploads', 'app-1'), { recursive: true });
    await writeFile(path.join(source, 'uploads', 'app-1', 'scan.txt'), '影像报告 attachment');
    await app.db.insert(notices).values({ appId: 1, userId: 1, kind: 'system', title: '备份前的通知' });
    // The operator's command line proves itself with the local token, only from this machine.
    const wrong = await app.inject({
      method: 'GET',
      url: '/api/v0.1/system/backup',
      headers: { 'x-crdp-local-token': 'guess' },
    });
    expect(wrong.statusCode).toBe(401);
    const remote = await app.inject({
      method: 'GET',
      url: '/api/v0.1/system/backup',
      remoteAddress: '10.20.30.40',
      headers: { 'x-crdp-local-token': app.localToken },
    });
    expect(remote.statusCode).toBe(401);
    const login = await app.inject({
      method: 'POST',
      url: '/api/v0.1/login',
      payload: { UserName: 'researcher', Password: 'Backup-Test-1' },
    });
    const researcher = login.json().data.User.SessionKey;
    const denied = await download(app, '/api/v0.1/system/backup', researcher);
    expect(denied.statusCode).toBe(403);
    const dl = await app.inject({
      method: 'GET',
      url: '/api/v0.1/system/backup',
      headers: { 'x-crdp-local-token': app.localToken },
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toMatch(/crdp-backup-.*\.tar/);
    backupFile = path.join(await tmp('file'), 'backup.tar');
    await writeFile(backupFile, dl.rawPayload);
    before = await fingerprint(app.db);
    adminKeyCount = Object.keys(before).length;
    await app.close();
  });

  it('restores into an empty directory with every row and every upload', async () => {
    const target = await tmp('target');
    const manifest = await restoreBackup(backupFile, target);
    expect(manifest.uploads).toBe(true);
    expect(await readFile(path.join(target, 'uploads', 'app-1', 'scan.txt'), 'utf8')).toBe(
      '影像报告 attachment',
    );
    const db = await openDatabase({ dataDir: target });
    const after = await fingerprint(db.db);
    expect(Object.keys(after).length).toBe(adminKeyCount);
    // The notice added before the backup is there, as is everything else.
    expect(after).toEqual(before);
    await db.close();
  });

  it('refuses a directory that already holds data, and a file that is no backup', async () => {
    await expect(restoreBackup(backupFile, source)).rejects.toThrow(/not empty/);
    const bogus = path.join(await tmp('bogus'), 'x.tar');
    await writeFile(bogus, 'not a tar');
    await expect(restoreBackup(bogus, await tmp('empty'))).rejects.toThrow();
  });
});
