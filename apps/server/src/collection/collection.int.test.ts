import type { CollectionRun } from '@crdp/core';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog, collectionSources, labResults, patients } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import {
  del,
  download,
  get,
  patch as patchAs,
  post,
  signIn,
  startTestApp,
  type TestApp,
} from '../test/helper.js';
import { type HisSource, hisTemplates, openHisMysql, openHisPg } from './test/his.js';

/**
 * Data collection from a hospital system's database: a data manager adds the HIS as a source,
 * maps its tables with templates, tries them without writing, runs a task, and reruns it; the
 * CDR gets each row once, refused rows keep their reasons, changes keep before and after.
 * The source is a real PostgreSQL (and MariaDB when there is one); the CDR is the test's
 * database (PGlite, or PostgreSQL with DATABASE_URL).
 */
const his = await openHisPg();
const maria = await openHisMysql();
if ('skip' in his) console.log(his.skip);
if ('skip' in maria) console.log(maria.skip);

describe.skipIf('skip' in his)('collection from a PostgreSQL hospital system', () => {
  const source = his as HisSource;
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  let sourceId: number;
  let templates: { patients: number; labs: number };
  let taskId: number;
  const patch = (url: string, payload: unknown, key = admin) => patchAs(t.app, url, payload, key);
  const run = async (): Promise<CollectionRun> => {
    const r = await post(t.app, `/api/v0.1/collection/tasks/${taskId}/run`, {}, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await t.app.jobs.drain();
    for (let i = 0; i < 100; i++) {
      const v = (await get(t.app, `/api/v0.1/collection/runs/${r.body.data.runId}`, admin)).body
        .data as CollectionRun;
      if (v.status !== 'queued' && v.status !== 'running') return v;
      await new Promise((res) => setTimeout(res, 50));
      await t.app.jobs.drain();
    }
    throw new Error('the run did not finish');
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await source.drop();
  });

  it('stores a source with its password encrypted, never shown, and lists the source’s tables', async () => {
    const password = 'His-Secret-Pw-2026';
    const added = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'HIS', kind: 'postgresql', config: source.config, password },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    sourceId = added.body.data.id;
    expect(added.body.data.hasPassword).toBe(true);
    expect(JSON.stringify(added.body)).not.toContain(password);
    const [row] = await t.app.db.select().from(collectionSources).where(eq(collectionSources.id, sourceId));
    expect(row!.secret).toMatch(/^v1\./);
    expect(row!.secret).not.toContain(password);
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'collection.source.add'));
    expect(JSON.stringify(audits)).not.toContain(password);
    // The real password of this machine's source (trust auth takes any).
    await patch(`/api/v0.1/collection/sources/${sourceId}`, { password: source.password });
    const list = await get(t.app, '/api/v0.1/collection/sources', admin);
    expect(JSON.stringify(list.body)).not.toContain(password);

    const probe = await post(t.app, `/api/v0.1/collection/sources/${sourceId}/probe`, {}, admin);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    const names = probe.body.data.tables.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(['his.patient', 'his.lab_result']));
  });

  it('refuses bad sources and templates with a reason, and changes nothing', async () => {
    const noHost = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'X', kind: 'postgresql', config: { database: 'x', user: 'u' } },
      admin,
    );
    expect(noHost.status).toBe(400);
    expect(JSON.stringify(noHost.body)).toContain('host');
    const nul = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'X\u0000', kind: 'mysql', config: source.config },
      admin,
    );
    expect(nul.status).toBe(400);
    const injected = hisTemplates(sourceId).patients;
    const bad = await post(
      t.app,
      '/api/v0.1/collection/templates',
      { ...injected, spec: { ...injected.spec, table: 'his.patient; drop table his.patient' } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('spec.table');
    const labs = hisTemplates(sourceId).labs;
    const noPatient = await post(
      t.app,
      '/api/v0.1/collection/templates',
      { ...labs, spec: { ...labs.spec, patientColumn: '' } },
      admin,
    );
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.message).toMatch(/患者/);
    const wrongPort = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'Nowhere', kind: 'postgresql', config: { ...source.config, port: 1 } },
      admin,
    );
    const probe = await post(
      t.app,
      `/api/v0.1/collection/sources/${wrongPort.body.data.id}/probe`,
      {},
      admin,
    );
    expect(probe.status).toBe(422);
    expect(probe.body.message).toMatch(/连接被拒绝|无法连接/);
    expect((await del(t.app, `/api/v0.1/collection/sources/${wrongPort.body.data.id}`, admin)).status).toBe(
      200,
    );
    expect((await get(t.app, '/api/v0.1/collection/templates', admin)).body.data.items).toEqual([]);
  });

  it('maps sample rows without writing (unit test, chosen rows), with every refused row and its reason', async () => {
    const tp = hisTemplates(sourceId);
    const a = await post(t.app, '/api/v0.1/collection/templates', tp.patients, admin);
    const b = await post(t.app, '/api/v0.1/collection/templates', tp.labs, admin);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    templates = { patients: a.body.data.id, labs: b.body.data.id };

    const sample = await get(
      t.app,
      `/api/v0.1/collection/templates/${templates.labs}/sample?limit=10`,
      admin,
    );
    expect(sample.status).toBe(200);
    expect(sample.body.data.keys).toEqual(['1', '2', '3', '4', '5']);
    const test = await post(
      t.app,
      `/api/v0.1/collection/templates/${templates.labs}/unit-test`,
      { limit: 10 },
      admin,
    );
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body.data.read).toBe(5);
    expect(test.body.data.mapped.map((m: { key: string }) => m.key)).toEqual(['1', '2', '3', '5']);
    expect(test.body.data.mapped[0].values).toEqual({
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum: 56,
      unit: 'U/L',
      collectedAt: '2026-03-02T09:00:00+08:00',
    });
    expect(test.body.data.rejected).toEqual([
      expect.objectContaining({
        key: '4',
        field: 'collectedAt',
        message: expect.stringContaining('2026-02-30'),
      }),
    ]);
    // Chosen rows, and an edited mapping tried before it is saved: creatinine in μmol/L.
    const chosen = await post(
      t.app,
      `/api/v0.1/collection/templates/${templates.labs}/unit-test`,
      {
        keys: ['2'],
        spec: {
          ...tp.labs.spec,
          fields: tp.labs.spec.fields.map((f) =>
            f.field === 'valueNum' ? { ...f, transforms: [{ kind: 'unit', factor: 88.4 }] } : f,
          ),
        },
      },
      admin,
    );
    expect(chosen.body.data.mapped).toEqual([
      expect.objectContaining({ key: '2', values: expect.objectContaining({ valueNum: 106.08 }) }),
    ]);
    const n = await t.app.db.select().from(patients).where(like(patients.source, 'collect:%'));
    expect(n).toEqual([]);
  });

  it('runs a task: patients then results, refused rows kept with reasons, a rerun adds nothing twice', async () => {
    const made = await post(
      t.app,
      '/api/v0.1/collection/tasks',
      { name: 'HIS 每日采集', templateIds: [templates.patients, templates.labs], batchSize: 2 },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    taskId = made.body.data.id;
    const dry = await post(t.app, `/api/v0.1/collection/tasks/${taskId}/test`, {}, admin);
    expect(dry.body.data.templates.map((x: { pending: number }) => x.pending)).toEqual([3, 5]);

    const first = await run();
    expect(first.status).toBe('succeeded');
    expect(first).toMatchObject({ rowsRead: 8, rowsInserted: 6, rowsUpdated: 0, rowsRejected: 2 });
    const src = `collect:${sourceId}`;
    const ps = await t.app.db.select().from(patients).where(eq(patients.source, src));
    expect(ps.map((p) => [p.mrn, p.name, p.gender, p.birthDate]).sort()).toEqual([
      ['H001', '张伟', 1, '1965-03-12'],
      ['H002', '李娜', 2, '1972-01-05'],
      ['H003', '王芳', 2, '1980-02-29'],
    ]);
    const labs = await t.app.db.select().from(labResults).where(eq(labResults.source, src));
    expect(labs).toHaveLength(3);
    const zhang = ps.find((p) => p.mrn === 'H001')!;
    expect(
      labs
        .filter((l) => l.patientId === zhang.id)
        .map((l) => l.itemCode)
        .sort(),
    ).toEqual(['ALT', 'CREA']);

    const rejects = await get(t.app, `/api/v0.1/collection/runs/${first.id}/rejects`, admin);
    expect(rejects.body.data.items.map((r: { key: string }) => r.key).sort()).toEqual(['4', '5']);
    expect(rejects.body.data.items.find((r: { key: string }) => r.key === '5').message).toContain('H999');

    // The 360 view of a collected patient shows the collected results.
    const view = await get(t.app, `/api/v0.1/360/measurementlist/${zhang.id}`, admin);
    expect(view.status).toBe(200);
    expect(JSON.stringify(view.body)).toContain('CREA');

    const second = await run();
    expect(second).toMatchObject({ status: 'succeeded', rowsRead: 0, rowsInserted: 0, rowsUpdated: 0 });
    expect(await t.app.db.select().from(labResults).where(eq(labResults.source, src))).toHaveLength(3);

    // The HIS corrects a name: the next run reads only that row and records before and after.
    await source.exec("update his.patient set name = '张伟强', updated_at = now() where patient_no = 'H001'");
    const third = await run();
    expect(third).toMatchObject({ rowsRead: 1, rowsInserted: 0, rowsUpdated: 1 });
    const changes = await get(t.app, `/api/v0.1/collection/changes?patientId=${zhang.id}&op=update`, admin);
    expect(changes.body.data.items[0].diff).toEqual([{ field: 'name', before: '张伟', after: '张伟强' }]);
    const inserted = await get(
      t.app,
      `/api/v0.1/collection/changes?runId=${first.id}&table=labResults`,
      admin,
    );
    expect(inserted.body.data.total).toBe(3);
  });

  it('monitors, reports and exports the volumes per source and table', async () => {
    const m = await get(t.app, '/api/v0.1/collection/monitoring', admin);
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    const s = m.body.data.sources.find((x: { id: number }) => x.id === sourceId);
    expect(s).toMatchObject({
      rowsRead: 9,
      rowsWritten: 7,
      rowsRejected: 2,
      failedRuns: 0,
      lastStatus: 'succeeded',
    });
    expect(m.body.data.tasks[0].runs).toBe(3);
    expect(m.body.data.trend.at(-1)).toMatchObject({ written: 7, rejected: 2, runs: 3 });
    const r = await get(t.app, '/api/v0.1/collection/report?period=month', admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const byTable = Object.fromEntries(
      r.body.data.rows.map((x: { table: string; inserted: number; updated: number; rejected: number }) => [
        x.table,
        [x.inserted, x.updated, x.rejected],
      ]),
    );
    expect(byTable).toEqual({ patients: [3, 1, 0], labResults: [3, 0, 2] });
    const csv = await download(t.app, '/api/v0.1/collection/report/export?format=csv', admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('检验结果');
    expect(csv.body).toContain('HIS');
  });

  it('keeps another app out and cancels a queued run', async () => {
    for (const url of [
      `/api/v0.1/collection/tasks/${taskId}/test`,
      `/api/v0.1/collection/sources/${sourceId}/probe`,
    ]) {
      expect((await post(t.app, url, {}, other.key)).status).toBe(404);
    }
    expect((await get(t.app, `/api/v0.1/collection/templates/${templates.labs}`, other.key)).status).toBe(
      404,
    );
    expect((await get(t.app, '/api/v0.1/collection/sources', other.key)).body.data.items).toEqual([]);
    const queued = await post(t.app, `/api/v0.1/collection/tasks/${taskId}/run`, {}, admin);
    const again = await post(t.app, `/api/v0.1/collection/tasks/${taskId}/run`, {}, admin);
    expect(again.status).toBe(409);
    const cancelled = await post(
      t.app,
      `/api/v0.1/collection/runs/${queued.body.data.runId}/cancel`,
      {},
      admin,
    );
    expect(cancelled.body.data.status).toBe('cancelled');
    await t.app.jobs.drain();
    const after = await get(t.app, `/api/v0.1/collection/runs/${queued.body.data.runId}`, admin);
    expect(after.body.data.status).toBe('cancelled');
    const inUse = await del(t.app, `/api/v0.1/collection/templates/${templates.labs}`, admin);
    expect(inUse.status).toBe(409);
    // A name already taken is a 400 naming the field, never a 500.
    const twin = await post(
      t.app,
      '/api/v0.1/collection/tasks',
      { name: '另一个任务', templateIds: [templates.patients] },
      admin,
    );
    const clash = await patch(`/api/v0.1/collection/tasks/${twin.body.data.id}`, { name: 'HIS 每日采集' });
    expect(clash.status).toBe(400);
    expect(clash.body.message).toContain('同名');
  });

  it('masks national ID numbers for a reader without the patient-details function', async () => {
    const nid = '110101196503120018';
    await source.exec(
      `update his.patient set id_card = '${nid}', updated_at = now() where patient_no = 'H001'`,
    );
    const r = await run();
    expect(r).toMatchObject({ status: 'succeeded', rowsUpdated: 1 });
    const full = await get(t.app, `/api/v0.1/collection/changes?runId=${r.id}`, admin);
    expect(full.body.data.items[0].diff).toEqual([{ field: 'nationalId', before: '', after: nid }]);
    const viewer = await demoUserWith(t.app, 'collectviewer', [
      'DataLakeChangeRecords.query',
      'DataLakeUnitTest.query',
      'DataLakeCollectionDetail.get',
    ]);
    const seen = await get(t.app, `/api/v0.1/collection/changes?runId=${r.id}`, viewer);
    expect(seen.status).toBe(200);
    expect(seen.body.data.items[0].diff[0].after).toBe('110101********0018');
    const test = await post(
      t.app,
      `/api/v0.1/collection/templates/${templates.patients}/unit-test`,
      { keys: ['H001'] },
      viewer,
    );
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body.data.mapped[0].values.nationalId).toBe('110101********0018');
    expect(JSON.stringify(test.body)).not.toContain(nid);
    const mine = await post(
      t.app,
      `/api/v0.1/collection/templates/${templates.patients}/unit-test`,
      { keys: ['H001'] },
      admin,
    );
    expect(mine.body.data.mapped[0].values.nationalId).toBe(nid);
  });
});

describe.skipIf('skip' in maria)('collection from a MariaDB/MySQL hospital system', () => {
  const source = maria as HisSource;
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    await source.drop();
  });

  it('collects the same HIS from MariaDB, dates as the system writes them', async () => {
    const s = await post(
      t.app,
      '/api/v0.1/collection/sources',
      { name: 'LIS', kind: 'mysql', config: source.config, password: source.password },
      admin,
    );
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const probe = await post(t.app, `/api/v0.1/collection/sources/${s.body.data.id}/probe`, {}, admin);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    expect(probe.body.data.version).toMatch(/MariaDB|MySQL/);
    const tp = hisTemplates(s.body.data.id, '');
    const a = await post(t.app, '/api/v0.1/collection/templates', tp.patients, admin);
    const b = await post(t.app, '/api/v0.1/collection/templates', tp.labs, admin);
    const task = await post(
      t.app,
      '/api/v0.1/collection/tasks',
      { name: 'LIS', templateIds: [a.body.data.id, b.body.data.id] },
      admin,
    );
    const started = await post(t.app, `/api/v0.1/collection/tasks/${task.body.data.id}/run`, {}, admin);
    await t.app.jobs.drain();
    const runView = await get(t.app, `/api/v0.1/collection/runs/${started.body.data.runId}`, admin);
    expect(runView.body.data, JSON.stringify(runView.body)).toMatchObject({
      status: 'succeeded',
      rowsInserted: 6,
      rowsRejected: 2,
    });
    const src = `collect:${s.body.data.id}`;
    const ps = await t.app.db
      .select()
      .from(patients)
      .where(and(eq(patients.source, src), eq(patients.mrn, 'H002')));
    expect(ps[0]).toMatchObject({ name: '李娜', gender: 2, birthDate: '1972-01-05' });
    await post(t.app, `/api/v0.1/collection/tasks/${task.body.data.id}/run`, {}, admin);
    await t.app.jobs.drain();
    expect(await t.app.db.select().from(labResults).where(eq(labResults.source, src))).toHaveLength(3);
  });
});
