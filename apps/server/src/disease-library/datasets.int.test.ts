import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAppId } from '../research/test/support.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { HBV_CRITERIA, publishedHbvForm, seedHepatitisB } from './test/fixtures.js';

const V = '/api/v0.1/visualization';

describe('the disease-library dataset of the chart builder', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const appId = await demoAppId(t.app);
    await seedHepatitisB(t.app, appId);
    const formId = await publishedHbvForm(t.app, admin);
    const lib = await post(
      t.app,
      '/api/v0.1/diseaselibrary/libraries',
      { name: '乙肝库', crfFormId: formId, criteria: HBV_CRITERIA, filingRule: 'firstVisit' },
      admin,
    );
    await post(t.app, `/api/v0.1/diseaselibrary/libraries/${lib.body.data.id}/push`, {}, admin);
    await t.app.jobs.drain();
  });
  afterAll(async () => t?.close());

  it('is listed next to the clinical datasets', async () => {
    const r = await get(t.app, `${V}/datasets`, admin);
    const set = r.body.data.find((d: { id: string }) => d.id === 'library_patients');
    expect(set).toMatchObject({ label: '专病库患者' });
  });

  it('counts library patients by library, gender and filing month in the database', async () => {
    const r = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'library_patients', dimensions: ['library', 'gender', 'filing_month'], measures: ['count'] },
      admin,
    );
    expect(r.status).toBe(200);
    // 张一 (male, first visit 2024-01) and 李二 (female, 2024-02); 王三 has liver cancer, 赵四 no B18.
    expect(r.body.data.rows).toEqual([
      { library: '乙肝库', gender: '女', filing_month: '2024-02', count: 1 },
      { library: '乙肝库', gender: '男', filing_month: '2024-01', count: 1 },
    ]);
  });
});
