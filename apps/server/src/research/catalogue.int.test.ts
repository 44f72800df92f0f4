import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labResults } from '../db/schema/index.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { get, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { demoAppId, seedCohort } from './test/support.js';

const URL = '/api/v0.1/research/variable-catalogue';

describe("a subject's variables come from the app's own data", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const appId = await demoAppId(t.app);
    const ids = await seedCohort(t.app, appId, 12, 'C');
    // A second lab item on a few patients, with a name that holds a LIKE wildcard.
    await t.app.db.insert(labResults).values(
      ids.slice(0, 3).map((patientId, i) => ({
        appId,
        patientId,
        itemCode: 'ALT',
        itemName: '丙氨酸氨基转移酶_ALT',
        valueNum: 30 + i,
        unit: 'U/L',
        collectedAt: new Date(Date.UTC(2024, 5, 1 + i)),
        source: 'synthetic',
        sourceId: `alt${i}`,
      })),
    );
  });
  afterAll(async () => t.close());

  it('lists lab items by code with their name, unit and patient count, most frequent first', async () => {
    const r = await get(t.app, `${URL}?kind=lab`, admin);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      { kind: 'lab', code: 'GLU', name: '空腹血糖', unit: 'mmol/L', patients: 12 },
      { kind: 'lab', code: 'ALT', name: '丙氨酸氨基转移酶_ALT', unit: 'U/L', patients: 3 },
    ]);
  });

  it('searches part of a code or a name, wildcards taken literally', async () => {
    const byName = await get(t.app, `${URL}?kind=lab&q=${encodeURIComponent('转移酶')}`, admin);
    expect(byName.body.data.map((i: { code: string }) => i.code)).toEqual(['ALT']);
    const byCode = await get(t.app, `${URL}?kind=lab&q=gl`, admin);
    expect(byCode.body.data.map((i: { code: string }) => i.code)).toEqual(['GLU']);
    const underscore = await get(t.app, `${URL}?kind=lab&q=_`, admin);
    expect(underscore.body.data.map((i: { code: string }) => i.code)).toEqual(['ALT']);
  });

  it('lists diagnosis categories (three-character ICD-10) named by their most frequent name', async () => {
    const r = await get(t.app, `${URL}?kind=diagnosis`, admin);
    const codes = r.body.data.map((i: { code: string; name: string }) => `${i.code} ${i.name}`);
    expect(codes).toEqual(expect.arrayContaining(['E11 2型糖尿病', 'I21 急性心肌梗死', 'Z00 健康查体']));
    const mi = r.body.data.find((i: { code: string }) => i.code === 'I21');
    expect(mi.patients).toBe(4);
    const search = await get(t.app, `${URL}?kind=diagnosis&q=i21`, admin);
    expect(search.body.data).toEqual([
      { kind: 'diagnosis', code: 'I21', name: '急性心肌梗死', unit: '', patients: 4 },
    ]);
  });

  it('refuses an unknown kind or a too-large page naming the parameter', async () => {
    const kind = await get(t.app, `${URL}?kind=drug`, admin);
    expect(kind.status).toBe(400);
    expect(kind.body.message).toContain('kind');
    const limit = await get(t.app, `${URL}?kind=lab&limit=500`, admin);
    expect(limit.status).toBe(400);
    expect(limit.body.message).toContain('limit');
  });

  it("shows nothing of another app's data, and nothing to a user without the function", async () => {
    const other = await otherAppAdministrator(t.app);
    const r = await get(t.app, `${URL}?kind=lab`, other.key);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    const none = await userWithoutRoles(t.app);
    expect((await get(t.app, `${URL}?kind=lab`, none)).status).toBe(403);
  });
});
