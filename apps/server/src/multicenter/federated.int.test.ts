import type { FederatedJob } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcTopicCases, moduleConfig, patients } from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { auc, binning, ks } from './federated-models.js';

/**
 * Federated jobs (spec 000 §3's model and metric maps): two centers hold 30 cases each of a
 * topic; the leading center runs homoLR, boost, binning and evaluation over both, as pooled,
 * aggregate-only analyses; the member center lists them and sees metrics, never rows.
 */
describe('federated jobs between the centers of a topic', () => {
  let t: TestApp;
  let lead: string;
  let member: { appId: number; key: string };
  let topicId: number;

  beforeAll(async () => {
    t = await startTestApp();
    lead = await signIn(t.app, 'admin');
    member = await otherAppAdministrator(t.app);
    await t.app.db
      .update(moduleConfig)
      .set({ value: 'multi-center' })
      .where(and(eq(moduleConfig.moduleName, 'features'), eq(moduleConfig.configName, 'mode')));
    const r = await post(
      t.app,
      '/api/v0.1/mc/topics',
      {
        name: '联邦学习演示',
        protocol: { background: '', objectives: '', design: '', endpoints: '' },
        variables: [
          { key: 'age', label: '年龄' },
          { key: 'sbp', label: '收缩压' },
          { key: 'event', label: '卒中' },
        ],
        centerAppIds: [member.appId],
      },
      lead,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    topicId = r.body.data.id;
    await post(t.app, `/api/v0.1/mc/invitations/${topicId}/accept`, {}, member.key);
    const demo = await demoAppId(t.app);
    for (const [appId, prefix] of [
      [demo, 'FL'],
      [member.appId, 'FM'],
    ] as const)
      for (let i = 0; i < 30; i++) {
        const [p] = await t.app.db
          .insert(patients)
          .values({
            appId,
            mrn: `${prefix}${i}`,
            name: `联邦${prefix}${i}`,
            gender: 1,
            source: 'manual',
            sourceId: `${prefix}${i}`,
          })
          .returning();
        const age = 40 + ((i * 11) % 45);
        const sbp = 110 + ((i * 17) % 70);
        // Risk rises with age and pressure; a fixed pseudo-random part keeps the classes overlapping.
        const noise = ((i * 7919 + prefix.charCodeAt(1) * 31) % 100) / 100;
        const event = ((age - 40) / 45) * 0.6 + ((sbp - 110) / 70) * 0.3 + noise * 0.5 > 0.65 ? 1 : 0;
        await t.app.db
          .insert(mcTopicCases)
          .values({ topicId, appId, patientId: p!.id, values: { age, sbp, event } });
      }
  }, 120_000);
  afterAll(() => t?.close());

  it('computes AUC, KS and bins by their textbook definitions', () => {
    expect(auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).toBe(0.75);
    expect(ks([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).toBe(0.5);
    const b = binning([0, 0, 1, 1], [1, 2, 3, 4], 2);
    expect(b.bins.map((x) => [x.lower, x.upper, x.count, x.events])).toEqual([
      [null, 2, 2, 0],
      [2, null, 2, 2],
    ]);
    expect(b.iv).toBeGreaterThan(1);
  });

  const run = async (model: string, extra: object = {}) => {
    const r = await post(
      t.app,
      `/api/v0.1/mc/topics/${topicId}/federated`,
      { model, outcome: 'event', predictors: ['age', 'sbp'], ...extra },
      lead,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  const settled = async (id: number) => {
    for (let i = 0; i < 200; i++) {
      await t.app.jobs.drain();
      const list = (await get(t.app, `/api/v0.1/mc/topics/${topicId}/federated`, lead)).body.data
        .items as FederatedJob[];
      const j = list.find((x) => x.id === id)!;
      if (j.status === 'succeeded' || j.status === 'failed') return j;
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new Error('federated job did not finish');
  };

  it('runs homoLR, boost, binning and evaluation over both centers and reports their metrics', async () => {
    const lr = await settled(await run('homoLR'));
    expect(lr.error, JSON.stringify(lr)).toBeNull();
    expect(lr).toMatchObject({ status: 'succeeded', centers: 2, cases: 60 });
    expect(Object.keys(lr.metrics).sort()).toEqual(['accuracy', 'auc', 'ks', 'logLoss']);
    expect(lr.metrics.auc!).toBeGreaterThan(0.7);
    const boost = await settled(await run('boost', { rounds: 20 }));
    expect(boost.metrics.auc!).toBeGreaterThan(0.7);
    const bins = await settled(await run('binning', { bins: 4 }));
    expect(Object.keys(bins.metrics)).toEqual(['iv']);
    const evaluation = await settled(await run('evaluation'));
    expect(Object.keys(evaluation.metrics).sort()).toEqual(['accuracy', 'auc', 'ks', 'precision', 'recall']);
    // Aggregates only: no patient's name, MRN or case values.
    expect(JSON.stringify(evaluation)).not.toMatch(/联邦|FL1|FM1/);
  });

  it('lets the member list the jobs but not start one; bad variables name the field', async () => {
    const seen = await get(t.app, `/api/v0.1/mc/topics/${topicId}/federated`, member.key);
    expect(seen.status).toBe(200);
    expect(seen.body.data.items.length).toBe(4);
    const refused = await post(
      t.app,
      `/api/v0.1/mc/topics/${topicId}/federated`,
      { model: 'homoLR', outcome: 'event', predictors: ['age'] },
      member.key,
    );
    expect(refused.status).toBe(403);
    const bad = await post(
      t.app,
      `/api/v0.1/mc/topics/${topicId}/federated`,
      { model: 'homoLR', outcome: 'event', predictors: ['weight'] },
      lead,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('body.predictors.0');
    const model = await post(
      t.app,
      `/api/v0.1/mc/topics/${topicId}/federated`,
      { model: 'deepNet', outcome: 'event', predictors: ['age'] },
      lead,
    );
    expect(model.status).toBe(400);
  });
});
