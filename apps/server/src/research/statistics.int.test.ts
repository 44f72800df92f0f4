import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { demoAppId, seedCohort } from './test/support.js';

describe('workbench statistics calls', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    await seedCohort(t.app, await demoAppId(t.app), 6);
    await post(t.app, '/api/v0.1/research/subjects', { name: 'A', typeCode: 'cohort' }, admin);
    const b = await post(t.app, '/api/v0.1/research/subjects', { name: 'B', typeCode: 'registry' }, admin);
    await post(t.app, `/api/v0.1/research/subjects/${b.body.data.id}/status`, { to: 'recruiting' }, admin);
  });
  afterAll(async () => t.close());

  it('topic_count counts subjects by status in the spec envelope', async () => {
    const r = await get(t.app, '/api/v0.1/topic_count', admin);
    expect(r.body.code).toBe(200);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.byStatus).toHaveLength(8);
    expect(r.body.data.byStatus.find((s: { status: string }) => s.status === 'recruiting').count).toBe(1);
  });

  it('topic_count_chart has twelve months ending with this one', async () => {
    const r = await get(t.app, '/api/v0.1/topic_count_chart', admin);
    expect(r.body.data).toHaveLength(12);
    expect(r.body.data[11].count).toBe(2);
  });

  it('topic_type_count counts per project type', async () => {
    const r = await get(t.app, '/api/v0.1/topic_type_count', admin);
    const by = Object.fromEntries(
      r.body.data.map((x: { typeCode: string; count: number }) => [x.typeCode, x.count]),
    );
    expect(by).toMatchObject({ cohort: 1, registry: 1, caseControl: 0 });
  });

  it('data_source_record_statistics counts the app’s clinical records', async () => {
    const r = await get(t.app, '/api/v0.1/data_source_record_statistics', admin);
    const by = Object.fromEntries(
      r.body.data.tables.map((x: { table: string; count: number }) => [x.table, x.count]),
    );
    expect(by).toMatchObject({ patients: 6, visits: 6, lab_results: 6 });
  });

  it('answers only what the user may see: a user without the list function is refused; another app sees none', async () => {
    const someone = await demoUserWith(t.app, 'stat-viewer', []);
    // Each count needs the function of the list it summarises (a role-less member: 403, not zeros).
    expect((await get(t.app, '/api/v0.1/topic_count', someone)).status).toBe(403);
    expect((await get(t.app, '/api/v0.1/data_source_record_statistics', someone)).status).toBe(403);
    const other = await otherAppAdministrator(t.app);
    expect((await get(t.app, '/api/v0.1/topic_count', other.key)).body.data.total).toBe(0);
    expect((await get(t.app, '/api/v0.1/data_source_record_statistics', other.key)).body.data.total).toBe(0);
    expect((await get(t.app, '/api/v0.1/topic_count')).status).toBe(401);
  });
});
