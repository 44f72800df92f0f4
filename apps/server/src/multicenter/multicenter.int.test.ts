import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleConfig, patients } from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

describe('two centers run a topic; only aggregates cross hospitals', () => {
  let t: TestApp;
  let lead: string;
  let member: { appId: number; key: string };
  let topicId: number;
  const ids: Record<string, number> = {};

  const patient = async (appId: number, mrn: string, nationalId = '') => {
    const [p] = await t.app.db
      .insert(patients)
      .values({
        appId,
        mrn,
        name: `病人${mrn}`,
        gender: 1,
        birthDate: '1970-01-01',
        nationalId,
        source: 'manual',
        sourceId: mrn,
      })
      .returning();
    ids[mrn] = p!.id;
  };

  beforeAll(async () => {
    t = await startTestApp();
    lead = await signIn(t.app, 'admin');
    member = await otherAppAdministrator(t.app);
    const demo = await demoAppId(t.app);
    await patient(demo, 'L1');
    await patient(demo, 'L2');
    await patient(member.appId, 'M1', '11010519491231002X');
    await patient(member.appId, 'M2', '11010519491231002X');
  });
  afterAll(async () => t.close());

  const topic = {
    name: '多中心高血压研究',
    protocol: { background: '背景', objectives: '目标', design: '前瞻性队列', endpoints: '主要终点' },
    variables: [
      { key: 'sbp', label: '收缩压', min: 60, max: 260 },
      { key: 'smoker', label: '吸烟', required: false },
    ],
  };

  it('is refused while multi-center mode is off', async () => {
    const r = await post(t.app, '/api/v0.1/mc/topics', { ...topic, centerAppIds: [member.appId] }, lead);
    expect(r.status).toBe(403);
    // The administrator switches the site to multi-center mode.
    await t.app.db
      .update(moduleConfig)
      .set({ value: 'multi-center' })
      .where(and(eq(moduleConfig.moduleName, 'features'), eq(moduleConfig.configName, 'mode')));
  });

  it('the leading center creates a topic with the other center; bad input names the field', async () => {
    const bad = await post(t.app, '/api/v0.1/mc/topics', { ...topic, centerAppIds: [999999] }, lead);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('centerAppIds.0');
    const r = await post(t.app, '/api/v0.1/mc/topics', { ...topic, centerAppIds: [member.appId] }, lead);
    expect(r.status).toBe(200);
    topicId = r.body.data.id;
    const seen = await get(t.app, '/api/v0.1/mc/topics', member.key);
    expect(seen.body.data).toEqual([expect.objectContaining({ id: topicId, role: 'member' })]);
  });

  it('each center enters its own patients and cannot enter the other’s', async () => {
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/mc/topics/${topicId}/cases`,
          { patientId: ids.L1, values: { sbp: 150, smoker: 'yes' } },
          lead,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/mc/topics/${topicId}/cases`,
          { patientId: ids.L2, values: { sbp: 130 } },
          lead,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/mc/topics/${topicId}/cases`,
          { patientId: ids.M1, values: { sbp: 300 } },
          member.key,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await post(
          t.app,
          `/api/v0.1/mc/topics/${topicId}/cases`,
          { patientId: ids.M2, values: { sbp: null } },
          member.key,
        )
      ).status,
    ).toBe(200);
    const steal = await post(
      t.app,
      `/api/v0.1/mc/topics/${topicId}/cases`,
      { patientId: ids.L1, values: { sbp: 1 } },
      member.key,
    );
    expect(steal.status).toBe(400);
    expect(steal.body.field).toBe('patientId');
    const own = await get(t.app, `/api/v0.1/mc/topics/${topicId}/cases`, member.key);
    expect(own.body.data.map((c: { mrn: string }) => c.mrn).sort()).toEqual(['M1', 'M2']);
  });

  it('the leading center sees both centers pooled, as aggregates only; the member sees its own', async () => {
    const r = await get(t.app, `/api/v0.1/mc/topics/${topicId}/pooled`, lead);
    expect(r.body.data.total.cases).toBe(4);
    expect(r.body.data.centers).toHaveLength(2);
    const sbp = r.body.data.total.variables.find((v: { key: string }) => v.key === 'sbp');
    expect(sbp).toMatchObject({ n: 3, missing: 1, mean: 580 / 3 });
    expect(JSON.stringify(r.body.data)).not.toContain('病人M');
    const m = await get(t.app, `/api/v0.1/mc/topics/${topicId}/pooled`, member.key);
    expect(m.body.data.centers).toHaveLength(1);
    expect(m.body.data.total.cases).toBe(2);
  });

  it('detection lists each center’s problems; patient-level issues only for the own center', async () => {
    const r = await get(t.app, `/api/v0.1/mc/topics/${topicId}/detection`, lead);
    const other = r.body.data.find((c: { appId: number }) => c.appId === member.appId);
    expect(other.counts).toEqual({ missing: 1, outOfRange: 1, duplicate: 1 });
    expect(other.issues).toEqual([]);
    const mine = await get(t.app, `/api/v0.1/mc/topics/${topicId}/detection`, member.key);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0].issues.map((i: { kind: string }) => i.kind).sort()).toEqual([
      'duplicate',
      'missing',
      'outOfRange',
    ]);
  });

  it('only the leading center edits the protocol; an outside app gets 404', async () => {
    const p = { background: '新背景', objectives: '', design: '', endpoints: '' };
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v0.1/mc/topics/${topicId}/protocol`,
          headers: { WeAppAuthorization: member.key },
          payload: p,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v0.1/mc/topics/${topicId}/protocol`,
          headers: { WeAppAuthorization: lead },
          payload: p,
        })
      ).statusCode,
    ).toBe(200);
    const researcher = await signIn(t.app, 'researcher');
    expect((await get(t.app, `/api/v0.1/mc/topics/${topicId}`, researcher)).status).toBe(403);
    const { sql } = await import('drizzle-orm');
    await t.app.db.execute(sql`delete from mc_topic_centers where app_id = ${member.appId}`);
    expect((await get(t.app, `/api/v0.1/mc/topics/${topicId}/pooled`, member.key)).status).toBe(404);
  });
});
