import type { DataFactoryDataset, DataFactoryDetail } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { makeDiseaseLibraryObjects } from '../disease-library/test/fixtures.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * The data factory directory (数据工厂目录): the app's derived datasets (here a calculated T0 event
 * and a saved report) appear by themselves with their facts; people curate them; another
 * hospital sees none of them. Checked on the embedded database and on PostgreSQL.
 */
describe('data factory directory', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  let t0Id: number;
  let reportId: number;
  const P = '/api/v0.1/data-factory';
  const patch = async (url: string, payload: object, key = admin) => {
    const res = await t.app.inject({ method: 'PATCH', url, headers: { WeAppAuthorization: key }, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const list = async (key = admin, q = '') =>
    (await get(t.app, `${P}/datasets${q}`, key)).body.data.items as DataFactoryDataset[];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    for (const [mrn, icd10, day] of [
      ['F01', 'B18.1', '2021-05-01'],
      ['F02', 'B18.1', '2022-01-10'],
      ['F03', 'I10', '2020-01-01'],
    ] as const) {
      const p = await post(t.app, '/api/v0.1/cdr/patients', { mrn, name: `工厂${mrn}`, gender: 2 }, admin);
      await post(
        t.app,
        `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
        { table: 'diagnoses', row: { icd10, name: icd10, diagnosedAt: `${day}T08:00:00+08:00` } },
        admin,
      );
    }
    const e = await post(
      t.app,
      '/api/v0.1/t0-events',
      { name: '首次乙肝诊断', rule: { kind: 'firstDiagnosis', icd10Prefix: 'B18' } },
      admin,
    );
    t0Id = e.body.data.id;
    await post(t.app, `/api/v0.1/t0-events/${t0Id}/run`, {}, admin);
    await t.app.jobs.drain();
    const r = await post(
      t.app,
      '/api/v0.1/reports',
      {
        name: '诊断清单',
        definition: {
          source: 'diagnoses',
          columns: ['patients.mrn', 'diagnoses.icd10', 'patients.birthDate'],
          filters: [{ field: 'diagnoses.icd10', op: 'prefix', param: 'icd' }],
          params: [{ key: 'icd', label: '编码前缀', type: 'text' }],
        },
      },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    reportId = r.body.data.id;
  }, 120_000);
  afterAll(() => t?.close());

  it('lists the derived datasets by themselves, with rows, patients and when they were refreshed', async () => {
    let items = await list();
    const t0 = items.find((i) => i.kind === 't0Event' && i.sourceId === t0Id)!;
    expect(t0).toMatchObject({
      name: '首次乙肝诊断',
      owner: 'admin',
      source: 't0_patients',
      rows: 2,
      patients: 2,
      entry: null,
    });
    expect(t0.refreshedAt).not.toBeNull();
    // A report never run has no facts yet; after a run it has the run's.
    expect(items.find((i) => i.kind === 'report')).toMatchObject({
      sourceId: reportId,
      rows: null,
      refreshedAt: null,
    });
    await post(t.app, `/api/v0.1/reports/${reportId}/run`, { params: {} }, admin);
    items = await list();
    expect(items.find((i) => i.kind === 'report')).toMatchObject({
      rows: 3,
      patients: 3,
      source: 'reports:diagnoses',
    });
    expect((await list(admin, '?kind=t0Event')).map((i) => i.kind)).toEqual(['t0Event']);
  });

  it('shows a dataset’s fields with how many rows fill each', async () => {
    const d = (await get(t.app, `${P}/datasets/t0Event/${t0Id}`, admin)).body.data as DataFactoryDetail;
    expect(d.fields.map((f) => [f.key, f.filled])).toEqual([
      ['patientId', 2],
      ['t0', 2],
      ['sourceTable', 2],
      ['sourceId', 2],
    ]);
    const r = (await get(t.app, `${P}/datasets/report/${reportId}`, admin)).body.data as DataFactoryDetail;
    // Nobody has a birth date: the report's column is empty.
    expect(r.fields.map((f) => [f.key, f.kind, f.filled])).toEqual([
      ['patients.mrn', 'text', 3],
      ['diagnoses.icd10', 'text', 3],
      ['patients.birthDate', 'date', 0],
    ]);
    expect((await get(t.app, `${P}/datasets/report/999999`, admin)).status).toBe(404);
    expect((await get(t.app, `${P}/datasets/formula/1`, admin)).status).toBe(400);
  });

  it('curates a dataset (description, tags, steward), audited, found by its tags; one entry per dataset', async () => {
    const made = await post(
      t.app,
      `${P}/entries`,
      {
        kind: 't0Event',
        sourceId: t0Id,
        description: '乙肝队列的零时点',
        tags: ['乙肝', 'T0'],
        steward: '数据管理员',
      },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const entryId = made.body.data.id as number;
    expect((await list(admin, `?keyword=${encodeURIComponent('乙肝')}`)).map((i) => i.kind)).toEqual([
      't0Event',
    ]);
    const twice = await post(t.app, `${P}/entries`, { kind: 't0Event', sourceId: t0Id }, admin);
    expect(twice.status).toBe(409);
    const edited = await patch(`${P}/entries/${entryId}`, { tags: ['乙肝'] });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ tags: ['乙肝'], steward: '数据管理员' });
    const t0 = (await list()).find((i) => i.kind === 't0Event')!;
    expect(t0.entry).toMatchObject({ id: entryId, description: '乙肝队列的零时点', tags: ['乙肝'] });
    expect((await del(t.app, `${P}/entries/${entryId}`, admin)).status).toBe(200);
    // The dataset stays: only its curation went.
    expect((await list()).find((i) => i.kind === 't0Event')!.entry).toBeNull();
    const actions = (
      await t.app.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'data_factory_entry'), eq(auditLog.entityId, String(entryId))))
    ).map((a) => a.action);
    expect(actions.sort()).toEqual(['dataFactory.add', 'dataFactory.delete', 'dataFactory.edit']);
  });

  it('refuses bad curation naming the field, and another app’s or an unknown dataset with 404', async () => {
    const bad: Array<[object, string]> = [
      [{ kind: 't0Event', sourceId: t0Id, tags: ['a\u0000'] }, 'tags'],
      [{ kind: 't0Event', sourceId: t0Id, tags: ['x', 'x'] }, 'tags'],
      [{ kind: 't0Event', sourceId: 'one' }, 'sourceId'],
      [{ kind: 'rawTable', sourceId: 1 }, 'kind'],
      [{ kind: 't0Event', sourceId: t0Id, steward: 5 }, 'steward'],
    ];
    for (const [body, field] of bad) {
      const r = await post(t.app, `${P}/entries`, body, admin);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain(field);
    }
    expect((await post(t.app, `${P}/entries`, { kind: 'report', sourceId: 999999 }, admin)).status).toBe(404);
    // Another hospital: sees none of these datasets, cannot curate or read them.
    expect(await list(other.key)).toEqual([]);
    expect((await get(t.app, `${P}/datasets/t0Event/${t0Id}`, other.key)).status).toBe(404);
    expect((await post(t.app, `${P}/entries`, { kind: 't0Event', sourceId: t0Id }, other.key)).status).toBe(
      404,
    );
    const mine = await post(t.app, `${P}/entries`, { kind: 'report', sourceId: reportId }, admin);
    const entryId = mine.body.data.id as number;
    expect((await patch(`${P}/entries/${entryId}`, { steward: 'x' }, other.key)).status).toBe(404);
    expect((await del(t.app, `${P}/entries/${entryId}`, other.key)).status).toBe(404);
    expect((await list()).filter((i) => i.entry).length).toBe(1);
  });

  it('finds a disease library’s cohort and a research dataset with their facts and fields', async () => {
    await makeDiseaseLibraryObjects(t.app, admin, await demoAppId(t.app));
    const subject = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: '工厂课题', variables: [{ key: 'age', label: '年龄', source: 'age' }] },
      admin,
    );
    const sid = subject.body.data.id as number;
    for (const to of ['recruiting', 'recruitmentStopped', 'dataPreparing'])
      await post(t.app, `/api/v0.1/research/subjects/${sid}/status`, { to }, admin);
    const ds = await post(t.app, `/api/v0.1/research/subjects/${sid}/datasets`, { name: '基线' }, admin);
    expect(ds.status, JSON.stringify(ds.body)).toBe(200);
    await t.app.jobs.drain();
    const items = await list();
    const lib = items.find((i) => i.kind === 'diseaseLibrary')!;
    // The library’s hepatitis B criteria take the story’s F01 and F02 and the fixture’s own patient.
    expect(lib).toMatchObject({
      name: '矩阵专病库',
      source: 'disease_library_patients',
      rows: 3,
      patients: 3,
    });
    expect(lib.refreshedAt).not.toBeNull();
    const libFields = (await get(t.app, `${P}/datasets/diseaseLibrary/${lib.sourceId}`, admin)).body.data
      .fields as DataFactoryDetail['fields'];
    expect(Object.fromEntries(libFields.map((f) => [f.key, f.filled]))).toMatchObject({
      patientId: 3,
      filingDate: 3,
      reason: 3,
    });
    // Nobody was recruited: the dataset is built and empty.
    const research = items.find((i) => i.kind === 'researchDataset')!;
    expect(research).toMatchObject({ name: '工厂课题 · 基线', rows: 0, patients: 0 });
    const rFields = (await get(t.app, `${P}/datasets/researchDataset/${research.sourceId}`, admin)).body.data
      .fields as DataFactoryDetail['fields'];
    expect(rFields.find((f) => f.key === 'age')).toMatchObject({ label: '年龄', filled: 0 });
  });

  it('refuses a user without the functions', async () => {
    const reader = await demoUserWith(t.app, 'factory-reader', ['DataLakeDirectoryDataFactory.query']);
    expect((await get(t.app, `${P}/datasets`, reader)).status).toBe(200);
    expect((await get(t.app, `${P}/datasets/t0Event/${t0Id}`, reader)).status).toBe(403);
    expect((await post(t.app, `${P}/entries`, { kind: 't0Event', sourceId: t0Id }, reader)).status).toBe(403);
  });
});
