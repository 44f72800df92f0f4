import { TASK_STATUSES, type TaskStatus } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mcTopics, moduleConfig, patients } from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { TOPIC_MOVES } from './topics.js';

describe('two centers run a topic; only aggregates cross hospitals', () => {
  let t: TestApp;
  let lead: string;
  let member: { appId: number; key: string };
  let topicId: number;
  /** One center enters (or changes) a patient's case of the topic. */
  const addCase = (patientId: number | undefined, values: Record<string, unknown>, key: string) =>
    post(t.app, `/api/v0.1/mc/topics/${topicId}/cases`, { patientId, values }, key);
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
    // The other center is invited; it takes part once its administrator accepts.
    expect((await get(t.app, '/api/v0.1/mc/topics', member.key)).body.data).toEqual([]);
    expect((await post(t.app, `/api/v0.1/mc/invitations/${topicId}/accept`, {}, member.key)).status).toBe(
      200,
    );
    const seen = await get(t.app, '/api/v0.1/mc/topics', member.key);
    expect(seen.body.data).toEqual([expect.objectContaining({ id: topicId, role: 'member' })]);
    // Exact pooled numbers below; suppression of small cells has its own test (invitations.int.test.ts).
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/v0.1/mc/topics/${topicId}/settings`,
      headers: { WeAppAuthorization: lead },
      payload: { minCellCount: 1 },
    });
    expect(set.statusCode).toBe(200);
  });

  it('each center enters its own patients and cannot enter the other’s', async () => {
    expect((await addCase(ids.L1, { sbp: 150, smoker: 'yes' }, lead)).status).toBe(200);
    expect((await addCase(ids.L2, { sbp: 130 }, lead)).status).toBe(200);
    expect((await addCase(ids.M1, { sbp: 300 }, member.key)).status).toBe(200);
    expect((await addCase(ids.M2, { sbp: null }, member.key)).status).toBe(200);
    const steal = await addCase(ids.L1, { sbp: 1 }, member.key);
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
    // The issues' detail follows the reader's language (the screen words them from their fields).
    const details = (r: { body: { data: { issues: { detail: string }[] }[] } }) =>
      r.body.data[0]!.issues.map((i) => i.detail);
    expect(details(mine).join('\n')).toMatch(/为空|应在|同一人/);
    expect(details(mine).join('\n')).not.toMatch(/is empty|expected|same person/);
    const en = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/mc/topics/${topicId}/detection`,
      headers: { WeAppAuthorization: member.key, 'accept-language': 'en-US' },
    });
    expect(
      en
        .json()
        .data[0].issues.map((i: { detail: string }) => i.detail)
        .join('\n'),
    ).toMatch(/is empty|expected|same person/);
  });

  it('the create-topic list offers the other centers in multi-center mode, not the own', async () => {
    const r = await get(t.app, '/api/v0.1/mc/centers', lead);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ appId: member.appId, name: '矩阵医院', shortName: 'MATRIX' }]);
  });

  it('the case-entry picker lists only the center’s own patients, names masked', async () => {
    const r = await get(t.app, `/api/v0.1/mc/topics/${topicId}/patients`, member.key);
    expect(r.body.data.map((p: { mrn: string }) => p.mrn).sort()).toEqual(['M1', 'M2']);
    expect(r.body.data[0].name).toBe('病***');
    const found = await get(t.app, `/api/v0.1/mc/topics/${topicId}/patients?keyword=L1`, member.key);
    expect(found.body.data).toEqual([]);
  });

  it('a text value for a numeric variable is refused naming the variable', async () => {
    const r = await addCase(ids.L1, { sbp: 'high' }, lead);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('values.sbp');
    expect(r.body.message).toBe('请求参数错误：values.sbp: 收缩压应为数字');
  });

  describe('topic status moves', () => {
    const move = (to: string, key = lead) =>
      post(t.app, `/api/v0.1/mc/topics/${topicId}/status`, { to }, key);
    const setStatus = (s: string) =>
      t.app.db.update(mcTopics).set({ status: s }).where(eq(mcTopics.id, topicId));

    it('every legal move succeeds and is recorded with who and when', async () => {
      let n = 0;
      for (const [from, tos] of Object.entries(TOPIC_MOVES))
        for (const to of tos) {
          await setStatus(from);
          const r = await move(to);
          expect(r.status, `${from} -> ${to}`).toBe(200);
          expect(r.body.data).toMatchObject({ status: to, moves: TOPIC_MOVES[to as TaskStatus] });
          n++;
        }
      const d = await get(t.app, `/api/v0.1/mc/topics/${topicId}`, lead);
      expect(d.body.data.history).toHaveLength(n);
      expect(d.body.data.history[0]).toMatchObject({ from: 'staged', to: 'recruiting', userName: 'admin' });
      expect(Date.parse(d.body.data.history[0].at)).toBeGreaterThan(Date.now() - 60_000);
      const logged = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'mc_topic'), eq(auditLog.action, 'status')));
      expect(logged.length).toBeGreaterThanOrEqual(n);
    });

    it('every illegal move is refused with 409 naming the moves allowed now; nothing changes', async () => {
      for (const from of TASK_STATUSES) {
        for (const to of TASK_STATUSES.filter((s) => !TOPIC_MOVES[from].includes(s))) {
          await setStatus(from);
          const r = await post(t.app, `/api/v0.1/mc/topics/${topicId}/status`, { to }, lead);
          expect(r.status, `${from} -> ${to}`).toBe(409);
          const [row] = await t.app.db.select().from(mcTopics).where(eq(mcTopics.id, topicId));
          expect(row!.status).toBe(from);
        }
      }
      await setStatus('recruiting');
      const r = await t.app.inject({
        method: 'POST',
        url: `/api/v0.1/mc/topics/${topicId}/status`,
        headers: { WeAppAuthorization: lead, 'accept-language': 'en-US' },
        payload: { to: 'topicConcluded' },
      });
      expect(r.json().message).toBe(
        'A topic cannot move from "Recruiting" to "Topic concluded"; allowed now: Recruitment stopped (recruitmentStopped), Closed (closed)',
      );
      await setStatus('topicConcluded');
      const final = await move('closed');
      expect(final.body.message).toContain('无（终态）');
      const bad = await move('finished');
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('body.to');
    });

    it('a member center sees the status but may not move it', async () => {
      await setStatus('recruiting');
      const r = await move('recruitmentStopped', member.key);
      expect(r.status).toBe(403);
      const seen = await get(t.app, `/api/v0.1/mc/topics/${topicId}`, member.key);
      expect(seen.body.data).toMatchObject({ status: 'recruiting', moves: [], role: 'member' });
      expect(seen.body.data.history.length).toBeGreaterThan(0);
      const [row] = await t.app.db.select().from(mcTopics).where(eq(mcTopics.id, topicId));
      expect(row!.status).toBe('recruiting');
    });

    it('once the data is prepared, cases are frozen (409); data preparing opens them again', async () => {
      await setStatus('dataPrepared');
      const r = await addCase(ids.M1, { sbp: 120 }, member.key);
      expect(r.status).toBe(409);
      expect(r.body.message).toContain('已冻结');
      expect((await move('dataPreparing')).status).toBe(200);
      const again = await addCase(ids.M1, { sbp: 120 }, member.key);
      expect(again.status).toBe(200);
    });
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
