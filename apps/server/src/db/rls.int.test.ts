import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSynthetic } from '../clinical/synthetic/seed.js';
import { makeClinicalObjects } from '../clinical/test/fixtures.js';
import { registerPatients } from '../crf/testform.js';
import {
  HBV_CRITERIA,
  HBV_RULES,
  publishedHbvForm,
  seedHepatitisB,
} from '../disease-library/test/fixtures.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { type Database, type Db, openDatabase } from './client.js';
import { rowsOf } from './rows.js';
import { apps, crfRecords, diagnoses, diseaseLibraries, moduleConfig, patients } from './schema/index.js';
import { appScopeMode, withAppScope } from './scoped.js';

/**
 * Row-level security on app_id (migrations 0021, 0022; db/README.md): inside withAppScope a
 * query without any app filter sees, changes and writes only the scope's app.
 */

/** The SQLSTATE of a failed query (drizzle wraps the driver's error as its cause). */
function sqlState(e: unknown): string | undefined {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined; x; x = x.cause as typeof x)
    if (typeof x.code === 'string') return x.code;
  return undefined;
}

async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  return e === null ? 'accepted' : sqlState(e);
}

/** Tables of this schema that carry app_id. */
async function appTables(db: Db) {
  const r = await db.execute(sql`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and c.column_name = 'app_id' and t.table_type = 'BASE TABLE'
    order by 1`);
  return rowsOf<{ table_name: string }>(r).map((x) => x.table_name);
}

interface Counts {
  a: number;
  b: number;
  none: number;
  total: number;
}

async function counts(
  db: Db | Parameters<Parameters<Db['transaction']>[0]>[0],
  table: string,
  a: number,
  b: number,
) {
  const r = await db.execute(sql`
    select count(*) filter (where app_id = ${a})::int as a, count(*) filter (where app_id = ${b})::int as b,
           count(*) filter (where app_id is null)::int as none, count(*)::int as total
    from ${sql.identifier(table)}`);
  return rowsOf<Counts>(r)[0]!;
}

describe('row-level security on app_id', () => {
  let t: TestApp;
  let db: Db;
  let appA: number;
  let appB: number;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.db;
    const keyA = await signIn(t.app, 'admin');
    appA = await demoAppId(t.app);
    const other = await otherAppAdministrator(t.app);
    appB = other.appId;
    // Both apps: clinical rows (API and direct), a CRF with a submitted record, a disease library.
    for (const [appId, key] of [
      [appA, keyA],
      [appB, other.key],
    ] as const) {
      await makeClinicalObjects(t.app, key);
      await seedHepatitisB(t.app, appId);
      const formId = await publishedHbvForm(t.app, key);
      await registerPatients(t.app, [`S-${appId}`], appId);
      const rec = await post(
        t.app,
        `/api/v0.1/crf/forms/${formId}/records`,
        { subjectCode: `S-${appId}`, submit: true, answers: { alt: 40 } },
        key,
      );
      expect(rec.status).toBe(200);
      const lib = await post(
        t.app,
        '/api/v0.1/diseaselibrary/libraries',
        { name: '乙肝库', crfFormId: formId, criteria: HBV_CRITERIA, sourceRules: HBV_RULES },
        key,
      );
      expect(lib.status).toBe(200);
    }
    await db.insert(moduleConfig).values([
      { appId: null, configGroup: 'site', moduleName: 'rls-test', configName: 'x', value: 'site' },
      { appId: appB, configGroup: 'site', moduleName: 'rls-test', configName: 'x', value: 'B' },
    ]);
  }, 120_000);
  afterAll(async () => t?.close());

  it('is enabled and forced on every table with app_id, each with the app_scope policy', async () => {
    const res = await db.execute(sql`
      select c.relname as table_name, c.relrowsecurity as rls, c.relforcerowsecurity as forced,
             coalesce((select array_agg(p.policyname::text order by p.policyname) from pg_policies p
                       where p.schemaname = current_schema() and p.tablename = c.relname), '{}') as policies
      from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
        and c.relname in (select table_name from information_schema.columns
                          where table_schema = current_schema() and column_name = 'app_id')
      order by 1`);
    const r = rowsOf<{ table_name: string; rls: boolean; forced: boolean; policies: string[] }>(res);
    const tables = await appTables(db);
    expect(r.map((x) => x.table_name)).toEqual(tables);
    expect(tables.length).toBeGreaterThanOrEqual(56);
    // A table added with app_id but without appScope() in its schema and FORCE in its migration is named here.
    const missing = r.filter((x) => !x.rls || !x.forced || !x.policies.includes('app_scope'));
    expect(missing).toEqual([]);
  });

  it('switches to the role crdp_scoped on this database (the test user is a superuser)', async () => {
    expect(await appScopeMode(db)).toBe('role');
    const inside = await withAppScope(db, appA, async (tx) => {
      const r = await tx.execute(
        sql`select current_user as who, current_setting('crdp.app_id', true) as app`,
      );
      return rowsOf<{ who: string; app: string }>(r)[0];
    });
    expect(inside).toEqual({ who: 'crdp_scoped', app: String(appA) });
    // Both end with the transaction: the connection goes back clean.
    const after = await db.execute(
      sql`select current_user as who, coalesce(current_setting('crdp.app_id', true), '') as app`,
    );
    expect(rowsOf(after)[0]).toEqual({ who: 'postgres', app: '' });
  });

  it('a query without any app filter sees only the scope’s rows, in every app table', async () => {
    const seen: string[] = [];
    for (const table of await appTables(db)) {
      const all = await counts(db, table, appA, appB);
      const scoped = await withAppScope(db, appA, (tx) => counts(tx, table, appA, appB));
      if (all.b > 0) seen.push(table);
      if (table === 'apps') {
        // The tenant directory is readable from any app (names of centers and shared roles).
        expect(scoped, table).toEqual(all);
      } else if (table === 'module_config') {
        // Site defaults (app_id null) are read by every app; other apps' settings are not.
        expect(scoped, table).toEqual({ a: all.a, b: 0, none: all.none, total: all.a + all.none });
      } else {
        expect(scoped, table).toEqual({ a: all.a, b: 0, none: 0, total: all.a });
      }
    }
    // The system path (no scope) sees both apps in the seeded tables.
    for (const table of ['patients', 'visits', 'diagnoses', 'lab_results', 'exam_reports', 'import_records'])
      expect(seen, table).toContain(table);
    for (const table of [
      'crf_forms',
      'crf_form_versions',
      'crf_records',
      'disease_libraries',
      'sessions',
      'audit_log',
    ])
      expect(seen, table).toContain(table);
    expect(seen.length).toBeGreaterThanOrEqual(15);
  });

  it('drizzle queries without a where clause read only the scope’s rows', async () => {
    const rows = await withAppScope(db, appB, (tx) => tx.select({ appId: patients.appId }).from(patients));
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.appId))).toEqual(new Set([appB]));
  });

  it('refuses writing a row of another app inside a scope, and changes no other app’s rows', async () => {
    const patientOfB = {
      appId: appB,
      mrn: 'RLS-B',
      name: '越权',
      source: 'test',
      sourceId: 'rls-b',
    };
    // 42501: new row violates row-level security policy.
    expect(await refusal(withAppScope(db, appA, (tx) => tx.insert(patients).values(patientOfB)))).toBe(
      '42501',
    );
    // Moving own rows to another app is refused too (WITH CHECK).
    expect(await refusal(withAppScope(db, appA, (tx) => tx.update(patients).set({ appId: appB })))).toBe(
      '42501',
    );
    // Site defaults are read in a scope but written only on the system path.
    expect(
      await refusal(
        withAppScope(db, appA, (tx) =>
          tx.insert(moduleConfig).values({
            appId: null,
            configGroup: 'site',
            moduleName: 'rls-test',
            configName: 'y',
            value: '1',
          }),
        ),
      ),
    ).toBe('42501');
    // Another app's row of the readable tenant directory is not changed.
    const renamed = await withAppScope(db, appA, (tx) =>
      tx.update(apps).set({ name: '改名' }).where(eq(apps.appId, appB)).returning(),
    );
    expect(renamed).toEqual([]);
    const [b] = await db.select().from(apps).where(eq(apps.appId, appB));
    expect(b!.name).not.toBe('改名');
    // Nothing was written.
    expect(await db.select().from(patients).where(eq(patients.mrn, 'RLS-B'))).toEqual([]);
    expect((await counts(db, 'patients', appA, appB)).a).toBeGreaterThan(0);
  });

  it('an UPDATE and a DELETE without where touch only the scope’s rows', async () => {
    const before = {
      patients: await counts(db, 'patients', appA, appB),
      diagnoses: await counts(db, 'diagnoses', appA, appB),
      crf_records: await counts(db, 'crf_records', appA, appB),
      disease_libraries: await counts(db, 'disease_libraries', appA, appB),
    };
    for (const c of Object.values(before)) {
      expect(c.a).toBeGreaterThan(0);
      expect(c.b).toBeGreaterThan(0);
    }
    const touched = await withAppScope(db, appA, async (tx) => ({
      updated: await tx.update(patients).set({ phone: '000' }).returning({ appId: patients.appId }),
      diagnoses: await tx.delete(diagnoses).returning({ appId: diagnoses.appId }),
      records: await tx.delete(crfRecords).returning({ appId: crfRecords.appId }),
      libraries: rowsOf<{ app_id: number }>(
        await tx.execute(sql`delete from disease_libraries returning app_id`),
      ),
    }));
    expect(touched.updated.length).toBe(before.patients.a);
    expect(touched.diagnoses.length).toBe(before.diagnoses.a);
    expect(touched.records.length).toBe(before.crf_records.a);
    expect(touched.libraries.length).toBe(before.disease_libraries.a);
    for (const r of [...touched.updated, ...touched.diagnoses, ...touched.records])
      expect(r.appId).toBe(appA);
    for (const r of touched.libraries) expect(r.app_id).toBe(appA);
    // App B's rows are all there and unchanged.
    expect(await counts(db, 'diagnoses', appA, appB)).toEqual({
      ...before.diagnoses,
      a: 0,
      total: before.diagnoses.b,
    });
    expect((await counts(db, 'crf_records', appA, appB)).b).toBe(before.crf_records.b);
    expect((await counts(db, 'disease_libraries', appA, appB)).b).toBe(before.disease_libraries.b);
    const phones = await db.select({ appId: patients.appId, phone: patients.phone }).from(patients);
    for (const p of phones) expect(p.phone === '000', `app ${p.appId}`).toBe(p.appId === appA);
    expect(await db.select().from(diseaseLibraries).where(eq(diseaseLibraries.appId, appB))).toHaveLength(
      before.disease_libraries.b,
    );
  });
});

/**
 * The fallback: a production database user that owns the tables but may not create or take roles.
 * The migration still succeeds (with a NOTICE), withAppScope only sets crdp.app_id, and the forced
 * policies hold the owner to it. PostgreSQL only (PGlite has just its superuser).
 */
describe.runIf(process.env.DATABASE_URL)('row-level security for a table owner without CREATEROLE', () => {
  const suffix = randomBytes(5).toString('hex');
  const owner = `crdp_owner_${suffix}`;
  const dbName = `crdp_owner_test_${suffix}`;
  const adminUrl = process.env.DATABASE_URL!;
  let database: Database | undefined;

  async function asAdmin(text: string) {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  }

  beforeAll(async () => {
    await asAdmin(`create role ${owner} login nosuperuser nocreaterole nocreatedb nobypassrls`);
    await asAdmin(`create database ${dbName} owner ${owner}`);
    const u = new URL(adminUrl);
    u.username = owner;
    u.password = '';
    u.pathname = `/${dbName}`;
    database = await openDatabase({ url: u.toString(), dataDir: 'memory' });
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await asAdmin(`drop database if exists ${dbName} with (force)`);
    await asAdmin(`drop role if exists ${owner}`);
  });

  it('migrates, scopes by the setting alone, and refuses another app’s row', async () => {
    const db = database!.db;
    expect(await appScopeMode(db)).toBe('setting');
    const [a, b] = await db
      .insert(apps)
      .values([
        { appShortName: 'OWN-A', name: 'A' },
        { appShortName: 'OWN-B', name: 'B' },
      ])
      .returning();
    const patient = (appId: number, mrn: string) => ({
      appId,
      mrn,
      name: mrn,
      source: 'test',
      sourceId: mrn,
    });
    await db
      .insert(patients)
      .values([patient(a!.appId, 'A-1'), patient(a!.appId, 'A-2'), patient(b!.appId, 'B-1')]);
    const inA = await withAppScope(db, a!.appId, async (tx) => {
      const r = await tx.execute(
        sql`select current_user as who, count(*)::int as n from patients group by 1`,
      );
      return rowsOf<{ who: string; n: number }>(r)[0];
    });
    expect(inA).toEqual({ who: owner, n: 2 });
    expect(
      await refusal(withAppScope(db, a!.appId, (tx) => tx.insert(patients).values(patient(b!.appId, 'B-2')))),
    ).toBe('42501');
    // The system path (no scope) still sees both apps.
    expect(await db.select().from(patients)).toHaveLength(3);
  });

  it('the synthetic seeder writes with INSERT where COPY FROM is refused under the policies', async () => {
    const [c] = await database!.db.insert(apps).values({ appShortName: 'OWN-C', name: 'C' }).returning();
    const res = await seedSynthetic(database!.db, {
      appId: c!.appId,
      patients: 3,
      seed: 7,
      pool: database!.pool!,
    });
    expect(res.patients).toBe(3);
    expect(await database!.db.select().from(patients).where(eq(patients.appId, c!.appId))).toHaveLength(3);
  });
});
