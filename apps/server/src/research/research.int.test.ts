import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema/index.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { TRANSITIONS } from './status.js';
import { demoAppId, seedCohort, waitForTask } from './test/support.js';

const VARIABLES = [
  { key: 'age', label: '年龄', source: 'age' },
  { key: 'sex', label: '性别', source: 'gender' },
  { key: 'glu', label: '空腹血糖', source: 'lab', itemCode: 'GLU', aggregate: 'last' },
  { key: 'dm', label: '糖尿病', source: 'diagnosis', codes: ['E11'] },
  { key: 'mi', label: '心梗', source: 'survival', codes: ['I21'] },
];

describe('a principal investigator runs a subject from proposal to conclusion', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let subjectId: number;
  let datasetId: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    await seedCohort(t.app, await demoAppId(t.app), 40);
  });
  afterAll(async () => t.close());

  const move = (id: number, to: string, key = admin) =>
    post(t.app, `/api/v0.1/research/subjects/${id}/status`, { to, reason: 'test' }, key);

  it('refuses bad input naming the field, and creates nothing', async () => {
    const before = (await get(t.app, '/api/v0.1/research/subjects', admin)).body.data.total;
    const noName = await post(t.app, '/api/v0.1/research/subjects', { name: '' }, admin);
    expect(noName.status).toBe(400);
    expect(noName.body.message).toContain('name');
    const badCriteria = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: 'x', criteria: { inclusion: [{ kind: 'lab', itemCode: 'GLU', min: 9, max: 3 }] } },
      admin,
    );
    expect(badCriteria.status).toBe(400);
    expect(badCriteria.body.message).toContain('min');
    const badType = await post(t.app, '/api/v0.1/research/subjects', { name: 'x', typeCode: 'nope' }, admin);
    expect(badType.status).toBe(400);
    expect(badType.body.field).toBe('typeCode');
    const dupVar = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: 'x', variables: [VARIABLES[0], VARIABLES[0]] },
      admin,
    );
    expect(dupVar.status).toBe(400);
    expect((await get(t.app, '/api/v0.1/research/subjects', admin)).body.data.total).toBe(before);
  });

  it('first the PI creates a staged subject with criteria and variables', async () => {
    const count = await post(
      t.app,
      '/api/v0.1/research/criteria/count',
      {
        match: 'all',
        inclusion: [{ kind: 'lab', itemCode: 'GLU', min: 4 }],
        exclusion: [{ kind: 'gender', codes: [0] }],
      },
      admin,
    );
    expect(count.body.data.count).toBe(40);
    const r = await post(
      t.app,
      '/api/v0.1/research/subjects',
      {
        name: '糖尿病与心梗队列',
        typeCode: 'cohort',
        startDate: '2024-01-01',
        endDate: '2026-12-31',
        targetSize: 50,
        criteria: {
          match: 'all',
          inclusion: [{ kind: 'visit', visitKinds: ['outpatient', 'inpatient'] }],
          exclusion: [],
        },
        variables: VARIABLES,
      },
      admin,
    );
    expect(r.status).toBe(200);
    subjectId = r.body.data.id;
    expect(r.body.data.status).toBe('staged');
    const detail = await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, admin);
    expect(detail.body.data.myRole).toBe('pi');
    expect(detail.body.data.allowedMoves).toEqual(['recruiting', 'closed']);
    expect(detail.body.data.history[0]).toMatchObject({ from: '', to: 'staged', userName: 'admin' });
  });

  it('refuses an illegal move with the allowed ones, and records nothing', async () => {
    const r = await move(subjectId, 'dataPrepared');
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('recruiting');
    expect(r.body.message).toContain('closed');
    const en = await t.app.inject({
      method: 'POST',
      url: `/api/v0.1/research/subjects/${subjectId}/status`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: { to: 'topicConcluded' },
    });
    expect(en.json().message).toBe(
      'A subject cannot move from "Staged" to "Topic concluded"; allowed now: Recruiting (recruiting), Closed (closed)',
    );
    const detail = await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, admin);
    expect(detail.body.data.history).toHaveLength(1);
  });

  it('a non-member may read but not move the subject (403)', async () => {
    expect((await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, researcher)).status).toBe(200);
    const r = await move(subjectId, 'recruiting', researcher);
    expect(r.status).toBe(403);
  });

  it('recruits by criteria only while recruiting', async () => {
    const early = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'criteria' },
      admin,
    );
    expect(early.status).toBe(409);
    expect((await move(subjectId, 'recruiting')).status).toBe(200);
    const r = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'criteria' },
      admin,
    );
    expect(r.body.data).toEqual({ matched: 40, added: 40 });
    const again = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'criteria' },
      admin,
    );
    expect(again.body.data.added).toBe(0);
  });

  it('shows the cohort by variables and a report', async () => {
    const data = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/data?size=5`, admin);
    expect(data.body.data.enrolled).toBe(40);
    expect(data.body.data.patients.items).toHaveLength(5);
    const glu = data.body.data.variables.find((v: { key: string }) => v.key === 'glu');
    expect(glu.completeness).toBe(1);
    expect(glu.summary.mean).toBeCloseTo(6.75, 10);
    const report = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/report`, admin);
    expect(report.body.data.recruitment).toMatchObject({ enrolled: 40, target: 50, progress: 0.8 });
    expect(report.body.data.keyStatistics.gender.levels).toHaveLength(2);
  });

  it('builds the dataset only while preparing data, then moves on', async () => {
    expect((await move(subjectId, 'recruitmentStopped')).status).toBe(200);
    const blocked = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/datasets`,
      { name: 'd' },
      admin,
    );
    expect(blocked.status).toBe(409);
    expect((await move(subjectId, 'dataPreparing')).status).toBe(200);
    const noData = await move(subjectId, 'dataPrepared');
    expect(noData.status).toBe(409);
    expect(noData.body.message).toContain('dataset');
    const badDerived = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/datasets`,
      { name: 'd', derived: [{ key: 'high', label: '高血糖', op: 'threshold', from: 'nope', value: 7 }] },
      admin,
    );
    expect(badDerived.status).toBe(400);
    expect(badDerived.body.field).toBe('derived.0.from');
    const r = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/datasets`,
      {
        name: '分析集',
        derived: [{ key: 'highGlu', label: '高血糖', op: 'threshold', from: 'glu', value: 7 }],
      },
      admin,
    );
    expect(r.status).toBe(200);
    datasetId = r.body.data.datasetId;
    const task = await waitForTask(t.app, admin, r.body.data.jobId);
    expect(task.status).toBe('succeeded');
    expect(task.result.rows).toBe(40);
    const ds = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/datasets/${datasetId}`, admin);
    const rows = ds.body.data.rows as Array<Record<string, number | string | null>>;
    expect(rows).toHaveLength(40);
    expect(rows[0]).not.toHaveProperty('name');
    expect(rows[0]!.studyNo).toBe('S0001');
    expect(rows.filter((x) => x.mi_event === 1)).toHaveLength(14);
    expect(rows.every((x) => x.highGlu === ((x.glu as number) >= 7 ? 1 : 0))).toBe(true);
    expect(rows.find((x) => x.mi_event === 1)!.mi_time).toBe(30);
    // A survival variable's two columns say which part they are, so the screen words them per language.
    expect(ds.body.data.columns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'mi_time', survival: { part: 'time', of: '心梗' } }),
        expect.objectContaining({ key: 'mi_event', survival: { part: 'event', of: '心梗' } }),
      ]),
    );
    expect((await move(subjectId, 'dataPrepared')).status).toBe(200);
  });

  it('runs each analysis as a task and reads it through get_value_task_result', async () => {
    const run = async (params: unknown) => {
      const r = await post(
        t.app,
        `/api/v0.1/research/subjects/${subjectId}/analyses`,
        { datasetId, params },
        admin,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return waitForTask(t.app, admin, r.body.data.task_id);
    };
    const desc = await run({ method: 'descriptive', variables: ['glu', 'sex'] });
    expect(desc.status).toBe('succeeded');
    expect(desc.result.variables[0]).toMatchObject({
      key: 'glu',
      kind: 'numeric',
      n: 40,
      mean: 6.75,
      median: 6.75,
    });
    const tt = await run({ method: 'groupCompare', test: 'ttest', outcome: 'glu', group: 'dm' });
    expect(tt.result.method).toBe('welch-t');
    expect(tt.result.p).toBeLessThan(0.05);
    const chi = await run({ method: 'groupCompare', test: 'chiSquare', outcome: 'dm', group: 'highGlu' });
    expect(chi.result.df).toBe(1);
    const mw = await run({ method: 'groupCompare', test: 'mannWhitney', outcome: 'age', group: 'sex' });
    expect(mw.result.method).toBe('mann-whitney');
    const lin = await run({ method: 'linear', outcome: 'glu', predictors: ['age'] });
    expect(lin.result.coefficients).toHaveLength(2);
    const logit = await run({ method: 'logistic', outcome: 'dm', predictors: ['glu'] });
    expect(logit.status).toBe('succeeded');
    expect(logit.result.converged).toBe(true);
    expect(logit.result.coefficients[1].oddsRatio).toBeGreaterThan(1);
    const km = await run({ method: 'kaplanMeier', time: 'mi_time', event: 'mi_event', group: 'dm' });
    expect(km.result.curves).toHaveLength(2);
    expect(km.result.logRank.df).toBe(1);
    const bad = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/analyses`,
      { datasetId, params: { method: 'linear', outcome: 'glu', predictors: ['nope'] } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('params.predictors.0');
    // An analysis the data cannot carry fails, and says why in the reader's language.
    const notBinary = await run({ method: 'logistic', outcome: 'glu', predictors: ['age'] });
    expect(notBinary.status).toBe('failed');
    expect(notBinary.error).toBe('Logistic 回归的结局变量只能取 0 或 1');
    expect(notBinary.result).toBeNull();
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/get_value_task_result',
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: { task_id: notBinary.task_id },
    });
    expect(en.json().data.error).toBe('The outcome of a logistic regression must be 0 or 1');
    const threeLevels = await run({ method: 'groupCompare', test: 'ttest', outcome: 'glu', group: 'age' });
    expect(threeLevels.error).toMatch(/^分组变量 age 必须恰好有两个取值，实际有 \d+ 个$/);
    const listed = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/analyses`, admin);
    expect(listed.body.data.find((a: { task_id: number }) => a.task_id === notBinary.task_id).error).toBe(
      'Logistic 回归的结局变量只能取 0 或 1',
    );
    // The generic jobs route words the same failure per request too.
    const job = await get(t.app, `/api/v0.1/jobs/${notBinary.task_id}`, admin);
    expect(job.body.data.status).toBe('failed');
    expect(job.body.data.error).toBe('Logistic 回归的结局变量只能取 0 或 1');
    const jobEn = await t.app.inject({
      method: 'GET',
      url: `/api/v0.1/jobs/${notBinary.task_id}`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
    });
    expect(jobEn.json().data.error).toBe('The outcome of a logistic regression must be 0 or 1');
  });

  it('walks on to the conclusion, after which nothing moves', async () => {
    expect((await move(subjectId, 'calculationDone')).status).toBe(200);
    expect((await move(subjectId, 'topicConcluded')).status).toBe(200);
    const after = await move(subjectId, 'closed');
    expect(after.status).toBe(409);
    expect(after.body.message).toContain('无（终态）');
    const detail = await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, admin);
    expect(detail.body.data.history.map((h: { to: string }) => h.to)).toEqual([
      'staged',
      'recruiting',
      'recruitmentStopped',
      'dataPreparing',
      'dataPrepared',
      'calculationDone',
      'topicConcluded',
    ]);
    const rows = await t.app.db.select().from(auditLog);
    expect(rows.filter((a) => a.entity === 'research_subject' && a.action === 'status')).toHaveLength(6);
  });

  it('every legal move of the table succeeds and every other one is refused', async () => {
    const statuses = Object.keys(TRANSITIONS) as Array<keyof typeof TRANSITIONS>;
    // A path from staged that reaches each status, satisfying the facts some moves need.
    for (const from of statuses) {
      for (const to of statuses) {
        const c = await post(t.app, '/api/v0.1/research/subjects', { name: `m-${from}-${to}` }, admin);
        const id = c.body.data.id as number;
        await t.app.db.execute(
          (await import('drizzle-orm')).sql`update research_subjects set status = ${from} where id = ${id}`,
        );
        const r = await move(id, to);
        const legal = TRANSITIONS[from].includes(to);
        if (!legal) expect(r.status, `${from} -> ${to}`).toBe(409);
        else if (to === 'dataPrepared' || to === 'calculationDone')
          expect(r.status, `${from} -> ${to}`).toBe(409);
        else expect(r.status, `${from} -> ${to}`).toBe(200);
      }
    }
  });

  it('another hospital cannot see or touch the subject, even by its id', async () => {
    const other = await otherAppAdministrator(t.app);
    expect((await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, other.key)).status).toBe(404);
    expect((await get(t.app, `/api/v0.1/research/subjects/${subjectId}/data`, other.key)).status).toBe(404);
    expect(
      (await get(t.app, `/api/v0.1/research/subjects/${subjectId}/datasets/${datasetId}`, other.key)).status,
    ).toBe(404);
    const list = await get(t.app, '/api/v0.1/research/subjects', other.key);
    expect(list.body.data.total).toBe(0);
    const analyses = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/analyses`, admin);
    const taskId = analyses.body.data[0].task_id;
    expect(
      (await post(t.app, '/api/v0.1/get_value_task_result', { task_id: taskId }, other.key)).status,
    ).toBe(404);
    // Its own subject cannot recruit the demo hospital's patients by guessing ids.
    const mine = await post(t.app, '/api/v0.1/research/subjects', { name: '他院课题' }, other.key);
    await post(
      t.app,
      `/api/v0.1/research/subjects/${mine.body.data.id}/status`,
      { to: 'recruiting' },
      other.key,
    );
    const demoPatients = (await get(t.app, `/api/v0.1/research/subjects/${subjectId}/data?size=1`, admin))
      .body.data.patients.items;
    const steal = await post(
      t.app,
      `/api/v0.1/research/subjects/${mine.body.data.id}/recruit`,
      { mode: 'patients', patientIds: [demoPatients[0].id] },
      other.key,
    );
    expect(steal.status).toBe(400);
    expect(steal.body.field).toBe('patientIds.0');
  });

  it('without a session 401; without the function 403 (researchers may not delete)', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/api/v0.1/research/subjects' });
    expect(anon.statusCode).toBe(401);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v0.1/research/subjects/${subjectId}`,
      headers: { WeAppAuthorization: researcher },
    });
    expect(del.statusCode).toBe(403);
  });
});

describe('a subject’s team: principal investigator, members with roles, time window', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let ids: Record<string, number>;
  let otherUserId: number;
  let subjectId: number;
  const create = (body: unknown, key = admin) => post(t.app, '/api/v0.1/research/subjects', body, key);
  const total = async (query = '') =>
    (await get(t.app, `/api/v0.1/research/subjects?size=200${query}`, admin)).body.data.total as number;
  const put = async (url: string, payload: unknown, key: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: { WeAppAuthorization: key },
      payload: payload as object,
    });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    await otherAppAdministrator(t.app);
    const { users } = await import('../db/schema/index.js');
    const { eq } = await import('drizzle-orm');
    const [o] = await t.app.db.select().from(users).where(eq(users.userName, 'matrixadmin'));
    otherUserId = o!.userId;
    const list = await get(t.app, '/api/v0.1/research/users', admin);
    ids = Object.fromEntries(
      (list.body.data as Array<{ userId: number; userName: string }>).map((u) => [u.userName, u.userId]),
    );
  });
  afterAll(async () => t.close());

  it('lists only the users of the app to pick from', async () => {
    expect(ids.admin).toBeGreaterThan(0);
    expect(ids.researcher).toBeGreaterThan(0);
    expect(Object.values(ids)).not.toContain(otherUserId);
  });

  it('refuses a member or PI from another app, a person listed twice and a second pi, naming the field', async () => {
    const before = await total();
    const foreign = await create({ name: 'x', members: [{ userId: otherUserId, role: 'statistician' }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.field).toBe('members.0.userId');
    expect(foreign.body.message).toBe(`请求参数错误：members.0.userId: 用户 ${otherUserId} 不是本应用的用户`);
    const foreignPi = await create({ name: 'x', piUserId: otherUserId });
    expect(foreignPi.status).toBe(400);
    expect(foreignPi.body.field).toBe('piUserId');
    const missing = await create({ name: 'x', members: [{ userId: 2_000_000, role: 'investigator' }] });
    expect(missing.body.field).toBe('members.0.userId');
    const twice = await create({
      name: 'x',
      members: [
        { userId: ids.researcher, role: 'investigator' },
        { userId: ids.researcher, role: 'statistician' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.field).toBe('members.1.userId');
    const twoPis = await create({ name: 'x', members: [{ userId: ids.researcher, role: 'pi' }] });
    expect(twoPis.status).toBe(400);
    expect(twoPis.body.field).toBe('members.0.role');
    const badRole = await create({ name: 'x', members: [{ userId: ids.researcher, role: 'boss' }] });
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toContain('members');
    expect(await total()).toBe(before);
  });

  it('refuses a time window that ends before it starts or names no calendar day, also on a patch', async () => {
    const before = await total();
    const reversed = await create({ name: 'x', startDate: '2025-03-01', endDate: '2025-02-28' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.field).toBe('endDate');
    const feb30 = await create({ name: 'x', startDate: '2024-02-30' });
    expect(feb30.status).toBe(400);
    expect(feb30.body.message).toContain('startDate');
    expect(feb30.body.message).toContain('不是真实存在的日期');
    expect(reversed.body.message).toBe(
      '请求参数错误：endDate: 结束日期（2025-02-28）早于开始日期（2025-03-01）',
    );
    expect(await total()).toBe(before);
    const ok = await create({ name: '窗口', startDate: '2024-01-01', endDate: '2024-12-31' });
    expect(ok.status).toBe(200);
    const id = ok.body.data.id;
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v0.1/research/subjects/${id}`,
      headers: { WeAppAuthorization: admin },
      payload: { startDate: '2025-01-01' },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().field).toBe('startDate');
    const detail = await get(t.app, `/api/v0.1/research/subjects/${id}`, admin);
    expect(detail.body.data).toMatchObject({ startDate: '2024-01-01', endDate: '2024-12-31' });
  });

  it('keeps every field a PATCH leaves out (a rename wiped the description and target size)', async () => {
    const made = await create({ name: '改名前', description: '保留的描述', targetSize: 50 });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v0.1/research/subjects/${made.body.data.id}`,
      headers: { WeAppAuthorization: admin },
      payload: { name: '改名后' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const stored = await get(t.app, `/api/v0.1/research/subjects/${made.body.data.id}`, admin);
    expect(stored.body.data).toMatchObject({ name: '改名后', description: '保留的描述', targetSize: 50 });
    // Gone again, so the list counts of the tests below see only their own subjects.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v0.1/research/subjects/${made.body.data.id}`,
      headers: { WeAppAuthorization: admin },
    });
    expect(del.statusCode).toBe(200);
  });

  it('refuses centers while multi-center mode is off, naming centers in both languages, and changes nothing', async () => {
    const before = await total();
    const r = await create({ name: '单中心课题', centers: ['示范医院'] });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('centers');
    expect(r.body.message).toContain('多中心模式未开启');
    expect(r.body.message).toContain('centers');
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/research/subjects',
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: { name: 'single center', centers: ['Demo hospital'] },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().field).toBe('centers');
    expect(en.json().message).toContain('Multi-center mode is off');
    expect(await total()).toBe(before);
    // No centers, or an empty list, is fine with the mode off; a patch naming centers is refused.
    const plain = await create({ name: '单中心课题', centers: [] });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v0.1/research/subjects/${plain.body.data.id}`,
      headers: { WeAppAuthorization: admin },
      payload: { centers: ['示范医院'] },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().field).toBe('centers');
    const stored = await get(t.app, `/api/v0.1/research/subjects/${plain.body.data.id}`, admin);
    expect(stored.body.data.centers).toEqual([]);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v0.1/research/subjects/${plain.body.data.id}`,
      headers: { WeAppAuthorization: admin },
    });
    expect(del.statusCode).toBe(200);
    // The administrator switches the site to multi-center mode: centers are accepted from now on.
    const { moduleConfig } = await import('../db/schema/index.js');
    const { and, eq } = await import('drizzle-orm');
    await t.app.db
      .update(moduleConfig)
      .set({ value: 'multi-center' })
      .where(and(eq(moduleConfig.moduleName, 'features'), eq(moduleConfig.configName, 'mode')));
  });

  it('creates a subject with a PI from the app and members with roles; the creator stays as coordinator', async () => {
    const r = await create({
      name: '团队课题',
      typeCode: 'caseControl',
      piUserId: ids.researcher,
      members: [{ userId: ids.researcher, role: 'statistician' }],
      centers: ['示范医院', '协作医院'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    subjectId = r.body.data.id;
    const d = (await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, admin)).body.data;
    expect(d.piUserId).toBe(ids.researcher);
    expect(d.centers).toEqual(['示范医院', '协作医院']);
    expect(d.members.map((m: { userName: string; role: string }) => [m.userName, m.role])).toEqual([
      ['researcher', 'pi'],
      ['admin', 'coordinator'],
    ]);
    expect(d.myRole).toBe('coordinator');
    expect(d.canManageMembers).toBe(true);
  });

  it('filters the list by member, status and type, each against the stored subjects', async () => {
    expect(await total(`&memberId=${ids.researcher}`)).toBe(1);
    const mine = await get(t.app, `/api/v0.1/research/subjects?memberId=${ids.researcher}`, admin);
    // The list names the PI by login and display name, as the detail's members do.
    expect(mine.body.data.items[0]).toMatchObject({
      id: subjectId,
      piName: 'researcher',
      piNickname: '科研人员',
    });
    expect(await total(`&memberId=${ids.admin}`)).toBe(2);
    expect(await total(`&memberId=${otherUserId}`)).toBe(0);
    expect(await total('&typeCode=caseControl')).toBe(1);
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/v0.1/research/subjects?typeCode=caseControl',
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
    });
    expect(en.json().data.items[0].typeName).toBe('Case-control study');
    expect(await total('&typeCode=cohort')).toBe(1);
    expect(await total('&status=staged')).toBe(2);
    expect(
      (await post(t.app, `/api/v0.1/research/subjects/${subjectId}/status`, { to: 'recruiting' }, researcher))
        .status,
    ).toBe(200);
    expect(await total('&status=staged')).toBe(1);
    expect(await total('&status=recruiting')).toBe(1);
    expect(await total(`&status=recruiting&memberId=${ids.researcher}&typeCode=caseControl`)).toBe(1);
    expect(await total(`&status=recruiting&typeCode=cohort`)).toBe(0);
    const bad = await get(t.app, '/api/v0.1/research/subjects?status=nope', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status');
  });

  it('the members panel: the PI or the edit function changes members and roles, audited; others get 403', async () => {
    const nobody = await userWithoutRoles(t.app);
    const { users } = await import('../db/schema/index.js');
    const { eq } = await import('drizzle-orm');
    const [nb] = await t.app.db.select().from(users).where(eq(users.userName, 'matrixnobody'));
    const url = `/api/v0.1/research/subjects/${subjectId}/members`;
    const added = await put(
      url,
      {
        members: [
          { userId: ids.admin, role: 'dataManager' },
          { userId: nb!.userId, role: 'investigator' },
        ],
      },
      researcher,
    );
    expect(added.status).toBe(200);
    expect(added.body.data.members.map((m: { userId: number; role: string }) => [m.userId, m.role])).toEqual([
      [ids.researcher, 'pi'],
      [ids.admin, 'dataManager'],
      [nb!.userId, 'investigator'],
    ]);
    const audits = (await t.app.db.select().from(auditLog)).filter(
      (a) => a.entity === 'research_subject' && a.action === 'members',
    );
    expect(audits).toHaveLength(1);
    // A member without the PI role or the edit function may not change the team.
    const refused = await put(url, { members: [] }, nobody);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('负责人');
    const foreign = await put(url, { members: [{ userId: otherUserId, role: 'investigator' }] }, admin);
    expect(foreign.status).toBe(400);
    expect(foreign.body.field).toBe('members.0.userId');
    const foreignPi = await put(url, { piUserId: otherUserId, members: [] }, admin);
    expect(foreignPi.body.field).toBe('piUserId');
    // The edit function hands the PI role over; the new PI, with no functions at all, manages the team.
    const handed = await put(
      url,
      { piUserId: nb!.userId, members: [{ userId: ids.admin, role: 'coordinator' }] },
      admin,
    );
    expect(handed.status).toBe(200);
    expect(handed.body.data.piUserId).toBe(nb!.userId);
    const byPi = await put(
      url,
      {
        members: [
          { userId: ids.researcher, role: 'statistician' },
          { userId: ids.admin, role: 'coordinator' },
        ],
      },
      nobody,
    );
    expect(byPi.status).toBe(200);
    const d = (await get(t.app, `/api/v0.1/research/subjects/${subjectId}`, admin)).body.data;
    expect(d.piUserId).toBe(nb!.userId);
    expect(d.members.map((m: { userName: string; role: string }) => [m.userName, m.role])).toEqual([
      ['matrixnobody', 'pi'],
      ['admin', 'coordinator'],
      ['researcher', 'statistician'],
    ]);
    expect(await total(`&memberId=${nb!.userId}`)).toBe(1);
    const other = await otherAppKey();
    expect((await put(url, { members: [] }, other)).status).toBe(404);
  });

  const otherAppKey = () => signIn(t.app, 'matrixadmin');
});
