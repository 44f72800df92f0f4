import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MTCARS } from '../../../../packages/stats/src/testdata/mtcars.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { demoAppId, seedCohort, waitForTask } from './test/support.js';

// CRF columns are filled with mtcars through the real CRF API, so the regression has a known result.
const FOLLOW_UP = {
  pages: [
    {
      key: 'visit',
      title: '随访',
      items: [
        { key: 'hp', type: 'textQuestion', title: '功率 (hp)', textType: 'number', isRequired: 1 },
        { key: 'wt', type: 'textQuestion', title: '重量 (1000 lb)', textType: 'number', isRequired: 1 },
        {
          key: 'am',
          type: 'radio',
          title: '手动挡',
          isRequired: 1,
          options: [
            { name: '自动', code: 0 },
            { name: '手动', code: 1 },
          ],
        },
        {
          key: 'grade',
          type: 'radio',
          title: '分级',
          options: [
            { name: '轻', code: 'mild' },
            { name: '重', code: 'severe' },
          ],
        },
        { key: 'note', type: 'textQuestion', title: '备注', textType: 'textarea' },
      ],
    },
  ],
};

describe('a dataset reads the answers of the subject’s CRF form', () => {
  let t: TestApp;
  let admin: string;
  let patientIds: number[];
  let formId: number;
  let subjectId: number;
  let datasetId: number;
  const N = MTCARS.length;
  const move = (to: string) =>
    post(t.app, `/api/v0.1/research/subjects/${subjectId}/status`, { to, reason: 'test' }, admin);
  const record = async (patientId: number, answers: Record<string, unknown>, submit = true) => {
    const r = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { patientId, answers, submit },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };
  const answersOf = (i: number) => ({
    hp: MTCARS[i]![0],
    wt: MTCARS[i]![1],
    am: MTCARS[i]![2],
    grade: i % 3 === 0 ? 'severe' : 'mild',
  });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    // 32 patients with a record each, one with only a draft, one with none.
    patientIds = await seedCohort(t.app, await demoAppId(t.app), N + 2, 'CRF');
  });
  afterAll(async () => t.close());

  it('links only a published form of the app', async () => {
    const made = await post(t.app, '/api/v0.1/crf/forms', { name: '随访表', definition: FOLLOW_UP }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    formId = made.body.data.id;
    const unpublished = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: 'x', crfFormId: formId },
      admin,
    );
    expect(unpublished.status).toBe(400);
    expect(unpublished.body.field).toBe('crfFormId');
    expect(unpublished.body.message).toBe('请求参数错误：crfFormId: 该表单还没有发布的版本');
    expect((await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'v1' }, admin)).status).toBe(
      200,
    );
    const forms = await get(t.app, '/api/v0.1/research/crf-forms', admin);
    expect(forms.body.data.map((f: { id: number }) => f.id)).toContain(formId);
    const s = await post(
      t.app,
      '/api/v0.1/research/subjects',
      {
        name: 'CRF 随访课题',
        crfFormId: formId,
        variables: [{ key: 'age', label: '年龄', source: 'age' }],
      },
      admin,
    );
    expect(s.status).toBe(200);
    subjectId = s.body.data.id;
    expect(s.body.data.crfFormId).toBe(formId);
  });

  it('lists the form’s items; only numbers and single choices can be columns', async () => {
    const r = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/crf-items`, admin);
    expect(r.body.data).toMatchObject({ formId, name: '随访表', version: 1 });
    const items = r.body.data.items as Array<{ key: string; kind: string; numericCodes: boolean }>;
    expect(items.map((i) => [i.key, i.kind, i.numericCodes])).toEqual([
      ['hp', 'number', false],
      ['wt', 'number', false],
      ['am', 'choice', true],
      ['grade', 'choice', false],
      ['note', 'other', false],
    ]);
  });

  it('recruits, and fills records through the CRF API: latest submitted record wins, drafts do not count', async () => {
    expect((await move('recruiting')).status).toBe(200);
    const rec = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'patients', patientIds },
      admin,
    );
    expect(rec.body.data).toEqual({ matched: N + 2, added: N + 2 });
    // Patient 0 first submits wrong values, then a later record with the right ones.
    await record(patientIds[0]!, { ...answersOf(0), hp: 999, am: 0 });
    for (let i = 0; i < N; i++) await record(patientIds[i]!, answersOf(i));
    // Patient 1 starts a newer draft: it is not data yet.
    await record(patientIds[1]!, { hp: 1 }, false);
    // Patient N has only a draft; patient N + 1 has nothing.
    await record(patientIds[N]!, { hp: 120, wt: 3, am: 1 }, false);
    expect((await move('recruitmentStopped')).status).toBe(200);
    expect((await move('dataPreparing')).status).toBe(200);
  });

  it('refuses items the form lacks or that are not numbers or choices, naming the item', async () => {
    const url = `/api/v0.1/research/subjects/${subjectId}/datasets`;
    const ghost = await post(t.app, url, { name: 'd', crfItems: ['hp', 'ghost'] }, admin);
    expect(ghost.status).toBe(400);
    expect(ghost.body.field).toBe('crfItems.1');
    expect(ghost.body.message).toContain('ghost');
    const note = await post(t.app, url, { name: 'd', crfItems: ['note'] }, admin);
    expect(note.status).toBe(400);
    expect(note.body.field).toBe('crfItems.0');
    const twice = await post(t.app, url, { name: 'd', crfItems: ['hp', 'hp'] }, admin);
    expect(twice.body.field).toBe('crfItems.1');
    const clash = await post(
      t.app,
      url,
      { name: 'd', crfItems: ['hp'], derived: [{ key: 'hp', label: 'x', op: 'log', from: 'age' }] },
      admin,
    );
    expect(clash.status).toBe(400);
    expect(clash.body.field).toBe('derived.0.key');
    expect((await get(t.app, url, admin)).body.data).toHaveLength(0);
  });

  it('builds one row per recruited patient with the CRF answers: numbers, codes, empty without a record', async () => {
    const r = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/datasets`,
      {
        name: 'CRF 数据集',
        crfItems: ['hp', 'wt', 'am', 'grade'],
        derived: [{ key: 'powerful', label: '大功率', op: 'threshold', from: 'hp', value: 150 }],
      },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    datasetId = r.body.data.datasetId;
    const task = await waitForTask(t.app, admin, r.body.data.jobId);
    expect(task.status).toBe('succeeded');
    const ds = (await get(t.app, `/api/v0.1/research/subjects/${subjectId}/datasets/${datasetId}`, admin))
      .body.data;
    expect(ds.columns).toEqual([
      { key: 'age', label: '年龄', type: 'number' },
      { key: 'hp', label: '功率 (hp)', type: 'number' },
      { key: 'wt', label: '重量 (1000 lb)', type: 'number' },
      // A choice column keeps its options, so statistics treat it as categorical and screens word its codes.
      {
        key: 'am',
        label: '手动挡',
        type: 'number',
        options: [
          { value: 0, label: '自动' },
          { value: 1, label: '手动' },
        ],
      },
      {
        key: 'grade',
        label: '分级',
        type: 'category',
        options: [
          { value: 'mild', label: '轻' },
          { value: 'severe', label: '重' },
        ],
      },
      { key: 'powerful', label: '大功率', type: 'number' },
    ]);
    const rows = ds.rows as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(N + 2);
    for (let i = 0; i < N; i++) {
      const [hp, wt, am] = MTCARS[i]!;
      expect(rows[i], `row ${i}`).toEqual({
        studyNo: `S${String(i + 1).padStart(4, '0')}`,
        age: expect.any(Number),
        hp,
        wt,
        am,
        grade: i % 3 === 0 ? 'severe' : 'mild',
        powerful: hp >= 150 ? 1 : 0,
      });
    }
    for (const i of [N, N + 1])
      expect(rows[i]).toMatchObject({ hp: null, wt: null, am: null, grade: null, powerful: null });
  });

  it('a logistic regression on CRF columns gives R’s glm(am ~ hp + wt) on mtcars', async () => {
    expect((await move('dataPrepared')).status).toBe(200);
    const r = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/analyses`,
      { datasetId, params: { method: 'logistic', outcome: 'am', predictors: ['hp', 'wt'] } },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const res = await waitForTask(t.app, admin, r.body.data.task_id);
    expect(res.status).toBe('succeeded');
    expect(res.result.dropped).toBe(2);
    expect(res.result.converged).toBe(true);
    const [b0, hp, wt] = res.result.coefficients;
    expect(b0.estimate).toBeCloseTo(18.8663, 4);
    expect(hp.estimate).toBeCloseTo(0.03626, 5);
    expect(hp.p).toBeCloseTo(0.0409, 4);
    expect(wt.estimate).toBeCloseTo(-8.08348, 4);
    expect(wt.se).toBeCloseTo(3.06868, 4);
    expect(res.result.deviance).toBeCloseTo(10.059, 3);
    // A code column groups like any other: chi-square of the manual gearbox by grade.
    const chi = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/analyses`,
      { datasetId, params: { method: 'groupCompare', test: 'chiSquare', outcome: 'am', group: 'grade' } },
      admin,
    );
    const c = await waitForTask(t.app, admin, chi.body.data.task_id);
    expect(c.result.rowLevels).toEqual(['mild', 'severe']);
    expect(c.result.dropped).toBe(2);
    const mild = MTCARS.filter((_, i) => i % 3 !== 0);
    expect(c.result.table[0]).toEqual([
      mild.filter((m) => m[2] === 0).length,
      mild.filter((m) => m[2] === 1).length,
    ]);
  });

  it('a subject without a form takes no CRF items', async () => {
    const s = await post(t.app, '/api/v0.1/research/subjects', { name: '无表单' }, admin);
    const id = s.body.data.id;
    for (const to of ['recruiting', 'recruitmentStopped', 'dataPreparing'])
      await post(t.app, `/api/v0.1/research/subjects/${id}/status`, { to }, admin);
    const r = await post(
      t.app,
      `/api/v0.1/research/subjects/${id}/datasets`,
      { name: 'd', crfItems: ['hp'] },
      admin,
    );
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('crfItems');
    expect((await get(t.app, `/api/v0.1/research/subjects/${id}/crf-items`, admin)).body.data).toBeNull();
  });
});
