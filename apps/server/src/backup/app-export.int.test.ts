import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, patients } from '../db/schema/index.js';
import { parseCsv } from '../files/csv.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { get, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { readZip } from '../test/unzip.js';
import { appExport, type ExportManifest, exportTables } from './app-export.js';

const ZIP = '/api/v0.1/system/database/export';

describe('the export of one app’s own data', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    // 25 patients here (one with a name that needs quoting), 3 in the other hospital.
    await t.app.db.insert(patients).values(
      Array.from({ length: 25 }, (_, i) => ({
        appId: 1,
        mrn: `EXP-${i}`,
        name: i === 0 ? '王"小,明"\n二行' : `导出患者${i}`,
        gender: 1,
        sourceId: `EXP-${i}`,
      })),
    );
    await t.app.db.insert(patients).values(
      Array.from({ length: 3 }, (_, i) => ({
        appId: other.appId,
        mrn: `OTHER-${i}`,
        name: `他院患者${i}`,
        sourceId: `OTHER-${i}`,
      })),
    );
  });
  afterAll(async () => t?.close());

  it('finds every app-scoped table of the schema and leaves the credentials out', () => {
    const names = exportTables().map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(['patients', 'crf_records', 'audit_log', 'lab_results', 'roles']),
    );
    expect(names).not.toContain('sessions');
    expect(names).not.toContain('free_access_keys');
    expect(names).not.toContain('users');
    // A collection source goes without its sealed password.
    const sources = exportTables().find((x) => x.name === 'collection_sources')!;
    expect(sources.columns).toContain('config');
    expect(sources.columns).not.toContain('secret');
    // Composite keys are read in key order too.
    expect(exportTables().find((x) => x.name === 'app_members')!.key).toEqual(['app_id', 'user_id']);
  });

  it('answers this app’s tables and row counts', async () => {
    const res = await get(t.app, '/api/v0.1/system/database', admin);
    expect(res.status).toBe(200);
    const data = res.body.data as {
      engine: string;
      app: { id: number };
      tables: Array<{ name: string; rows: number }>;
    };
    expect(['embedded', 'postgresql']).toContain(data.engine);
    expect(data.app.id).toBe(1);
    expect(res.body.data.leftOut).toEqual(['free_access_keys', 'session_handoffs', 'sessions']);
    expect(data.tables.find((x) => x.name === 'patients')!.rows).toBeGreaterThanOrEqual(25);
    const theirs = await get(t.app, '/api/v0.1/system/database', other.key);
    expect(
      (theirs.body.data.tables as Array<{ name: string; rows: number }>).find((x) => x.name === 'patients')!
        .rows,
    ).toBe(3);
  });

  it('streams only this app’s rows, exactly, with a manifest that counts them; the export is audited', async () => {
    const res = await t.app.inject({ method: 'GET', url: ZIP, headers: { WeAppAuthorization: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/crdp-app-1-.*\.zip/);
    const files = await readZip(res.rawPayload);
    expect(files.has('sessions.csv')).toBe(false);
    const rows = parseCsv(files.get('patients.csv')!);
    const header = rows[0]!;
    const col = (n: string) => header.indexOf(n);
    const body = rows.slice(1);
    expect(body.every((r) => r[col('app_id')] === '1')).toBe(true);
    expect(body.some((r) => r[col('mrn')]!.startsWith('OTHER-'))).toBe(false);
    expect(body.find((r) => r[col('mrn')] === 'EXP-0')![col('name')]).toBe('王"小,明"\n二行');
    const manifest = JSON.parse(files.get('manifest.json')!) as ExportManifest;
    expect(manifest.app.id).toBe(1);
    expect(manifest.leftOut).toEqual(['free_access_keys', 'session_handoffs', 'sessions']);
    for (const table of manifest.tables)
      expect(parseCsv(files.get(table.file)!).length - 1, table.name).toBe(table.rows);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'export'), eq(auditLog.entity, 'app_database')));
    expect(audits.map((a) => a.appId)).toEqual([1]);
  });

  it('reads a table in key order across many small batches without losing or repeating a row', async () => {
    const chunks: Buffer[] = [];
    for await (const c of appExport(t.app.db, { id: 1, name: 'demo' }, 'test', { batch: 4 })) chunks.push(c);
    const files = await readZip(Buffer.concat(chunks));
    const rows = parseCsv(files.get('patients.csv')!).slice(1);
    const ids = rows.map((r) => Number(r[0]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const counted = (await t.app.db.execute(
      sql`select count(*)::int as n from patients where app_id = 1`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(ids.length).toBe(counted.rows[0]!.n);
  });

  it('refuses a user without the function; the other hospital gets its own rows only', async () => {
    const nobody = await userWithoutRoles(t.app);
    const denied = await t.app.inject({ method: 'GET', url: ZIP, headers: { WeAppAuthorization: nobody } });
    expect(denied.statusCode).toBe(403);
    const res = await t.app.inject({ method: 'GET', url: ZIP, headers: { WeAppAuthorization: other.key } });
    const rows = parseCsv((await readZip(res.rawPayload)).get('patients.csv')!).slice(1);
    expect(rows.map((r) => r[2]).sort()).toEqual(['OTHER-0', 'OTHER-1', 'OTHER-2']);
  });

  it('never hands the whole-site backup to a session, even an administrator’s', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v0.1/system/backup',
      headers: { WeAppAuthorization: admin, 'accept-language': 'zh-CN' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('npm run backup');
  });
});
