import { and, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appProducts, apps, auditLog, moduleConfig, patients } from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, send, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * Issue 15 item 4: a center takes part in another hospital's topic only after its administrator
 * accepts; nobody can tell an unknown app from one that did not switch multi-center mode on; the
 * lead's pooled results hide other centers' small cells.
 */
describe('multi-center invitations and small-cell suppression', () => {
  let t: TestApp;
  let lead: string;
  let leadApp: number;
  let member: { appId: number; key: string };
  let quiet: number;
  const pids: Record<string, number> = {};

  const mode = (appId: number, value: string) =>
    t.app.db
      .insert(moduleConfig)
      .values({ appId, configGroup: 'site', moduleName: 'features', configName: 'mode', value });
  const put = (url: string, payload: unknown, key: string, lang = 'zh-CN') =>
    send('PUT', t.app, url, payload, key, lang);
  const auditRows = (app: number, entityId: string, action: string) =>
    t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, app), eq(auditLog.entityId, entityId), eq(auditLog.action, action)));
  const topic = async (name: string, centerAppIds: number[] = []) => {
    const r = await post(
      t.app,
      '/api/v0.1/mc/topics',
      { name, variables: [{ key: 'sbp', label: '收缩压' }], centerAppIds },
      lead,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  const patient = async (app: FastifyInstance, appId: number, mrn: string) => {
    const [p] = await app.db
      .insert(patients)
      .values({ appId, mrn, name: `病人${mrn}`, gender: 1, source: 'manual', sourceId: mrn })
      .returning();
    pids[mrn] = p!.id;
  };
  const enter = (id: number, mrn: string, sbp: number | null, key: string) =>
    post(t.app, `/api/v0.1/mc/topics/${id}/cases`, { patientId: pids[mrn], values: { sbp } }, key);

  beforeAll(async () => {
    t = await startTestApp();
    lead = await signIn(t.app, 'admin');
    leadApp = await demoAppId(t.app);
    member = await otherAppAdministrator(t.app);
    // A third hospital with the research product that never switched multi-center mode on.
    const [q] = await t.app.db.insert(apps).values({ appShortName: 'QUIET', name: '静默医院' }).returning();
    await t.app.db.insert(appProducts).values({ appId: q!.appId, productId: 22 });
    quiet = q!.appId;
    await mode(leadApp, 'multi-center');
    await mode(member.appId, 'multi-center');
    await mode(quiet, 'single-center');
    for (let i = 1; i <= 8; i++) await patient(t.app, leadApp, `L${i}`);
    for (let i = 1; i <= 8; i++) await patient(t.app, member.appId, `M${i}`);
  });
  afterAll(async () => t.close());

  it('an invited center sees only the invitation until its administrator accepts; both audit logs say so', async () => {
    const id = await topic('邀请主题', [member.appId]);
    // Before accepting: the invitation (title, leading hospital, aggregates only), never the topic.
    const inv = await get(t.app, '/api/v0.1/mc/invitations', member.key);
    expect(inv.status).toBe(200);
    expect(inv.body.data).toEqual([
      {
        topicId: id,
        topic: '邀请主题',
        leadCenter: '示范医院',
        invitedAt: expect.any(String),
        shares: 'aggregates',
      },
    ]);
    expect((await get(t.app, '/api/v0.1/mc/topics', member.key)).body.data).toEqual([]);
    for (const path of ['', '/pooled', '/detection', '/cases'])
      expect((await get(t.app, `/api/v0.1/mc/topics/${id}${path}`, member.key)).status, path).toBe(404);
    expect((await enter(id, 'M1', 120, member.key)).status).toBe(404);
    // The lead sees the pending invitation, and its pooled results leave the center out.
    const d = await get(t.app, `/api/v0.1/mc/topics/${id}`, lead);
    expect(d.body.data.centers).toEqual([
      expect.objectContaining({ appId: leadApp, role: 'lead', status: 'accepted' }),
      expect.objectContaining({ appId: member.appId, role: 'member', status: 'pending' }),
    ]);
    expect((await get(t.app, `/api/v0.1/mc/topics/${id}/pooled`, lead)).body.data.centers).toHaveLength(1);
    expect(await auditRows(leadApp, `${id}:${member.appId}`, 'invite')).toHaveLength(1);
    const theirs = await auditRows(member.appId, `${id}:${member.appId}`, 'invite');
    expect(theirs).toHaveLength(1);
    // The other hospital's row names the leading center, not one of its users.
    expect(theirs[0]).toMatchObject({ userId: null, userName: '示范医院' });

    const ok = await post(t.app, `/api/v0.1/mc/invitations/${id}/accept`, {}, member.key);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ topicId: id, status: 'accepted' });
    expect((await get(t.app, '/api/v0.1/mc/invitations', member.key)).body.data).toEqual([]);
    expect((await get(t.app, '/api/v0.1/mc/topics', member.key)).body.data).toEqual([
      expect.objectContaining({ id, role: 'member', leadCenter: '示范医院', centers: 2 }),
    ]);
    expect((await get(t.app, `/api/v0.1/mc/topics/${id}`, member.key)).status).toBe(200);
    expect((await enter(id, 'M1', 120, member.key)).status).toBe(200);
    expect(await auditRows(member.appId, `${id}:${member.appId}`, 'accept')).toHaveLength(1);
    expect(await auditRows(leadApp, `${id}:${member.appId}`, 'accept')).toHaveLength(1);
    // Answering twice is refused; nothing changes.
    const again = await post(t.app, `/api/v0.1/mc/invitations/${id}/decline`, {}, member.key);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('没有待处理的这项邀请');

    // Later the center leaves: the topic is gone for it and its cases leave the pooled results.
    const left = await post(t.app, `/api/v0.1/mc/topics/${id}/leave`, {}, member.key);
    expect(left.status).toBe(200);
    expect((await get(t.app, `/api/v0.1/mc/topics/${id}`, member.key)).status).toBe(404);
    const pooled = await get(t.app, `/api/v0.1/mc/topics/${id}/pooled`, lead);
    expect(pooled.body.data.centers.map((c: { appId: number }) => c.appId)).toEqual([leadApp]);
    expect(await auditRows(member.appId, `${id}:${member.appId}`, 'leave')).toHaveLength(1);
    expect(await auditRows(leadApp, `${id}:${member.appId}`, 'leave')).toHaveLength(1);
    // The leading center cannot leave its own topic.
    expect((await post(t.app, `/api/v0.1/mc/topics/${id}/leave`, {}, lead)).status).toBe(409);
  });

  it('a declined invitation never shows the topic; the lead may withdraw a pending one', async () => {
    const id = await topic('被拒主题', [member.appId]);
    const no = await post(t.app, `/api/v0.1/mc/invitations/${id}/decline`, {}, member.key);
    expect(no.body.data).toEqual({ topicId: id, status: 'declined' });
    expect((await get(t.app, `/api/v0.1/mc/topics/${id}`, member.key)).status).toBe(404);
    expect((await post(t.app, `/api/v0.1/mc/invitations/${id}/accept`, {}, member.key)).status).toBe(404);
    const d = await get(t.app, `/api/v0.1/mc/topics/${id}`, lead);
    expect(d.body.data.centers[1]).toMatchObject({ appId: member.appId, status: 'declined' });
    expect(await auditRows(member.appId, `${id}:${member.appId}`, 'decline')).toHaveLength(1);
    expect(await auditRows(leadApp, `${id}:${member.appId}`, 'decline')).toHaveLength(1);

    // Invited again, then withdrawn before an answer: the invitation disappears.
    const re = await post(t.app, `/api/v0.1/mc/topics/${id}/centers`, { appCode: 'matrix' }, lead);
    expect(re.status, JSON.stringify(re.body)).toBe(200);
    expect(re.body.data).toEqual({
      appId: member.appId,
      name: '矩阵医院',
      role: 'member',
      status: 'pending',
    });
    const dup = await post(t.app, `/api/v0.1/mc/topics/${id}/centers`, { appId: member.appId }, lead);
    expect(dup.status).toBe(409);
    expect((await get(t.app, '/api/v0.1/mc/invitations', member.key)).body.data).toHaveLength(1);
    const w = await post(t.app, `/api/v0.1/mc/topics/${id}/withdraw`, { appId: member.appId }, lead);
    expect(w.status).toBe(200);
    expect((await get(t.app, '/api/v0.1/mc/invitations', member.key)).body.data).toEqual([]);
    expect((await post(t.app, `/api/v0.1/mc/invitations/${id}/accept`, {}, member.key)).status).toBe(404);
    expect(await auditRows(member.appId, `${id}:${member.appId}`, 'withdraw')).toHaveLength(1);
    expect(await auditRows(leadApp, `${id}:${member.appId}`, 'withdraw')).toHaveLength(1);
    // Only the lead invites or withdraws.
    const other = await topic('成员不能邀请', [member.appId]);
    await post(t.app, `/api/v0.1/mc/invitations/${other}/accept`, {}, member.key);
    const byMember = await post(
      t.app,
      `/api/v0.1/mc/topics/${other}/centers`,
      { appId: leadApp },
      member.key,
    );
    expect(byMember.status).toBe(403);
  });

  it('an unknown app and one not in multi-center mode get the very same answer; lists never name it', async () => {
    const id = await topic('枚举主题');
    const ask = async (body: unknown) => {
      const r = await post(t.app, `/api/v0.1/mc/topics/${id}/centers`, body, lead);
      const { requestId: _, ...rest } = r.body;
      return { status: r.status, ...rest };
    };
    // Through the create-topic form (the old code enrolled any existing app here).
    const create = async (centerAppIds: number[]) => {
      const r = await post(
        t.app,
        '/api/v0.1/mc/topics',
        { name: '枚举', variables: [{ key: 'x', label: 'x' }], centerAppIds },
        lead,
      );
      const { requestId: _, ...rest } = r.body;
      return { status: r.status, ...rest };
    };
    const c1 = await create([999_999]);
    expect(c1.status).toBe(400);
    expect(await create([quiet])).toEqual(c1);
    // The same through the invite form, by id and by code.
    const unknownId = await ask({ appId: 999_999 });
    expect(unknownId.status).toBe(400);
    expect(unknownId).toMatchObject({ field: 'appId' });
    expect(await ask({ appId: quiet })).toEqual(unknownId);
    expect(await ask({ appId: leadApp })).toEqual(unknownId);
    const unknownCode = await ask({ appCode: 'NOSUCH' });
    expect(unknownCode.status).toBe(400);
    expect(await ask({ appCode: 'QUIET' })).toEqual(unknownCode);
    expect(JSON.stringify(unknownCode)).not.toContain('静默医院');
    const centers = await get(t.app, '/api/v0.1/mc/centers', lead);
    expect(centers.body.data).toEqual([{ appId: member.appId, name: '矩阵医院', shortName: 'MATRIX' }]);
    expect(JSON.stringify(centers.body)).not.toContain('静默医院');
    // Nothing was written for the refused apps.
    const d = await get(t.app, `/api/v0.1/mc/topics/${id}`, lead);
    expect(d.body.data.centers).toHaveLength(1);
    expect(
      await t.app.db
        .select()
        .from(auditLog)
        .where(like(auditLog.entityId, `%:${quiet}`)),
    ).toEqual([]);
  });

  it('pooled results hide other centers’ small cells as "< minimum"; the setting is validated and audited', async () => {
    const id = await topic('汇总主题', [member.appId]);
    await post(t.app, `/api/v0.1/mc/invitations/${id}/accept`, {}, member.key);
    // Lead: 6 cases (sbp 100..150). Member: one single case.
    for (let i = 1; i <= 6; i++) expect((await enter(id, `L${i}`, 90 + 10 * i, lead)).status).toBe(200);
    expect((await enter(id, 'M1', 222, member.key)).status).toBe(200);

    const pooled = async () => (await get(t.app, `/api/v0.1/mc/topics/${id}/pooled`, lead)).body.data;
    const p = await pooled();
    expect(p.minCellCount).toBe(5);
    const own = p.centers.find((c: { appId: number }) => c.appId === leadApp);
    const theirs = p.centers.find((c: { appId: number }) => c.appId === member.appId);
    expect(own).toMatchObject({ own: true, cases: 6, variables: [{ n: 6, mean: 125 }] });
    expect(theirs).toMatchObject({
      own: false,
      cases: { hidden: 'small' },
      variables: [{ n: { hidden: 'small' }, missing: 0, mean: null, sd: null }],
    });
    // The total would give the single case by subtraction (total − own): it is hidden too.
    expect(p.total).toMatchObject({
      cases: { hidden: 'complementary' },
      variables: [{ n: { hidden: 'complementary' }, mean: null }],
    });
    expect(JSON.stringify(p)).not.toContain('222');
    // Detection: the other center's counts are hidden in the same way.
    const det = (await get(t.app, `/api/v0.1/mc/topics/${id}/detection`, lead)).body.data;
    expect(det.find((c: { appId: number }) => c.appId === member.appId)).toMatchObject({
      cases: { hidden: 'small' },
      completeness: null,
    });
    // The member's own view is exact: it is its own data.
    const m = (await get(t.app, `/api/v0.1/mc/topics/${id}/pooled`, member.key)).body.data;
    expect(m.centers[0]).toMatchObject({ cases: 1, variables: [{ n: 1, mean: 222 }] });

    // The setting: 1–100, named in the answer, in the reader's language; only the lead; audited.
    const url = `/api/v0.1/mc/topics/${id}/settings`;
    for (const bad of [0, 101, 2.5, '3']) {
      const r = await put(url, { minCellCount: bad }, lead);
      expect(r.status, String(bad)).toBe(400);
      expect(r.body.field).toBe('body.minCellCount');
    }
    const en = await put(url, { minCellCount: 0 }, lead, 'en-US');
    expect(en.body.message).toContain('minCellCount');
    expect(en.body.message).not.toMatch(/[\u4e00-\u9fa5]/);
    expect((await put(url, { minCellCount: 1 }, member.key)).status).toBe(403);
    expect((await pooled()).minCellCount).toBe(5);
    const ok = await put(url, { minCellCount: 1 }, lead);
    expect(ok.status).toBe(200);
    const logged = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings'), eq(auditLog.entityId, String(id))));
    expect(logged).toEqual([
      expect.objectContaining({ appId: leadApp, before: { minCellCount: 5 }, after: { minCellCount: 1 } }),
    ]);
    const exact = await pooled();
    expect(exact.centers.find((c: { appId: number }) => c.appId === member.appId)).toMatchObject({
      cases: 1,
      variables: [{ n: 1, mean: 222 }],
    });
    expect(exact.total).toMatchObject({ cases: 7 });

    // Once the other center reaches the minimum its cells and the total are shown again.
    await put(url, { minCellCount: 5 }, lead);
    for (let i = 2; i <= 8; i++) await enter(id, `M${i}`, 120, member.key);
    const p3 = await pooled();
    expect(p3.centers.find((c: { appId: number }) => c.appId === member.appId).cases).toBe(8);
    expect(p3.total.cases).toBe(14);
  });

  it('the workbench count of multi-center topics counts only topics the app accepted', async () => {
    const before = await get(t.app, '/api/v0.1/topic_count', member.key);
    const id = await topic('计数主题', [member.appId]);
    const pending = await get(t.app, '/api/v0.1/topic_count', member.key);
    expect(pending.body.data.multiCenterTopics).toBe(before.body.data.multiCenterTopics);
    await post(t.app, `/api/v0.1/mc/invitations/${id}/accept`, {}, member.key);
    const after = await get(t.app, '/api/v0.1/topic_count', member.key);
    expect(after.body.data.multiCenterTopics).toBe(before.body.data.multiCenterTopics + 1);
  });
});
