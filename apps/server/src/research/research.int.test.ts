import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
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
        centers: ['示范医院'],
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
