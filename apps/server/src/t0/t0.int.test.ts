import type { T0Event } from '@crdp/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAltResults, addRecord } from '../clinical/test/support.js';
import { auditLog, jobs, t0Patients } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, patch as patchAs, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * T0 events (T0 事件): a data manager defines a patient's index date by a rule, has it worked out
 * for every patient as a job, and reads each patient's T0; a changed rule marks the results
 * stale until the next run. Checked on the embedded database and on PostgreSQL.
 */
describe('T0 events', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  const ids: number[] = [];
  const send = (url: string, payload: unknown, key = admin) => patchAs(t.app, url, payload, key);
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);
  const add = (body: object, key = admin) => post(t.app, '/api/v0.1/t0-events', body, key);
  const run = async (id: number) => {
    const r = await post(t.app, `/api/v0.1/t0-events/${id}/run`, {}, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await t.app.jobs.drain();
    return r.body.data.jobId as number;
  };
  const eventOf = async (id: number) =>
    ((await get(t.app, '/api/v0.1/t0-events', admin)).body.data.items as T0Event[]).find((e) => e.id === id)!;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    for (const mrn of ['T01', 'T02', 'T03']) {
      const p = await post(t.app, '/api/v0.1/cdr/patients', { mrn, name: `T0 病人${mrn}`, gender: 1 }, admin);
      ids.push(p.body.data.id);
    }
    const [a, b, c] = ids as [number, number, number];
    await record(a, 'diagnoses', {
      icd10: 'B18.1',
      name: '慢性乙型病毒性肝炎',
      diagnosedAt: '2021-05-01T08:00:00+08:00',
    });
    await record(a, 'diagnoses', {
      icd10: 'B18.1',
      name: '慢性乙型病毒性肝炎',
      diagnosedAt: '2019-03-02T08:00:00+08:00',
    });
    await record(b, 'diagnoses', {
      icd10: 'b18.10',
      name: '慢性乙型肝炎',
      diagnosedAt: '2022-01-10T08:00:00+08:00',
    });
    await record(c, 'diagnoses', {
      icd10: 'K74.6',
      name: '肝硬化',
      diagnosedAt: '2020-01-01T08:00:00+08:00',
    });
    await addAltResults(t.app, admin, [
      [a, 60, '2020-01-01'],
      [a, 120, '2020-06-01'],
      [a, 200, '2021-01-01'],
      [b, 85, '2023-02-01'],
    ]);
    await record(c, 'visits', {
      kind: 'inpatient',
      department: '肝胆外科',
      admitAt: '2020-02-01T08:00:00+08:00',
    });
    await record(c, 'operations', {
      name: '腹腔镜肝部分切除术',
      code: '50.22',
      operatedAt: '2020-02-03T08:00:00+08:00',
    });
  }, 120_000);
  afterAll(() => t?.close());

  it('works out each patient’s first diagnosis of a code as their T0, as a job', async () => {
    const made = await add({ name: '首次诊断乙肝', rule: { kind: 'firstDiagnosis', icd10Prefix: 'B18.1' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ state: 'new', patients: 0 });
    const id = made.body.data.id as number;
    await run(id);
    expect(await eventOf(id)).toMatchObject({ state: 'ready', patients: 2 });
    const page = await get(t.app, `/api/v0.1/t0-events/${id}/patients`, admin);
    expect(page.status).toBe(200);
    const byMrn = Object.fromEntries(
      page.body.data.items.map((p: { mrn: string; t0: string }) => [p.mrn, p.t0]),
    );
    // The earliest of patient 1's two diagnoses; patient 2's lower-case code counts too.
    expect(byMrn).toEqual({ T01: '2019-03-02T00:00:00.000Z', T02: '2022-01-10T00:00:00.000Z' });
    expect(page.body.data.byYear).toEqual([
      { year: '2019', n: 1 },
      { year: '2022', n: 1 },
    ]);
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 't0.run'));
    expect(audits.length).toBe(1);
  });

  it('takes the first lab over a threshold, the first operation and the first admission', async () => {
    const cases = [
      [
        { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 80 },
        { T01: '2020-06-01', T02: '2023-02-01' },
      ],
      [{ kind: 'firstLab', itemCode: 'ALT', comparator: '>=', threshold: 200 }, { T01: '2021-01-01' }],
      [{ kind: 'firstOperation', keyword: '肝部分切除' }, { T03: '2020-02-03' }],
      [{ kind: 'firstOperation', keyword: '50.2' }, { T03: '2020-02-03' }],
      [{ kind: 'firstAdmission', department: '肝胆外科' }, { T03: '2020-02-01' }],
      [{ kind: 'firstAdmission', department: '消化内科' }, {}],
    ] as const;
    for (const [rule, want] of cases) {
      const made = await add({ name: `规则 ${rule.kind}`, rule });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      await run(made.body.data.id);
      const page = await get(t.app, `/api/v0.1/t0-events/${made.body.data.id}/patients`, admin);
      const got = Object.fromEntries(
        page.body.data.items.map((p: { mrn: string; t0: string }) => [p.mrn, p.t0.slice(0, 10)]),
      );
      // Stored in UTC; 08:00 in Beijing is midnight UTC of the same day.
      expect(got, JSON.stringify(rule)).toEqual(want);
    }
  });

  it('marks the results stale when the rule changes, until the next run', async () => {
    const made = await add({
      name: '首次 ALT 升高',
      rule: { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 100 },
    });
    const id = made.body.data.id as number;
    await run(id);
    expect(await eventOf(id)).toMatchObject({ state: 'ready', patients: 1 });
    const renamed = await send(`/api/v0.1/t0-events/${id}`, { name: '首次 ALT 升高（改名）' });
    expect(renamed.body.data).toMatchObject({ state: 'ready', description: '' });
    const changed = await send(`/api/v0.1/t0-events/${id}`, {
      rule: { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 50 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.state).toBe('stale');
    await run(id);
    expect(await eventOf(id)).toMatchObject({ state: 'ready', patients: 2 });
  });

  it('refuses a second run while one is queued, and a rule that does not hold, changing nothing', async () => {
    const made = await add({ name: '排队', rule: { kind: 'firstDiagnosis', icd10Prefix: 'K74' } });
    const id = made.body.data.id as number;
    const first = await post(t.app, `/api/v0.1/t0-events/${id}/run`, {}, admin);
    expect(first.status).toBe(200);
    await t.app.jobs.drain();
    // The job as another process would be running it (a run here is over before the next call).
    await t.app.db.update(jobs).set({ status: 'running' }).where(eq(jobs.id, first.body.data.jobId));
    const second = await post(t.app, `/api/v0.1/t0-events/${id}/run`, {}, admin);
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/^无法完成：.*正在计算/);
    await t.app.db.update(jobs).set({ status: 'succeeded' }).where(eq(jobs.id, first.body.data.jobId));
    const before = (await get(t.app, '/api/v0.1/t0-events', admin)).body.data.items.length;
    for (const rule of [
      { kind: 'firstLab', itemCode: 'ALT', comparator: '>' },
      { kind: 'firstLab', itemCode: 'ALT', comparator: '=>', threshold: 1 },
      { kind: 'firstDiagnosis', icd10Prefix: "B18%' or 1=1" },
      { kind: 'lastDiagnosis', icd10Prefix: 'B18' },
      { kind: 'firstOperation', keyword: 'a\u0000b' },
    ]) {
      const r = await add({ name: '坏规则', rule });
      expect(r.status, JSON.stringify(rule)).toBe(400);
      expect(r.body.message).toContain('rule');
    }
    expect((await get(t.app, '/api/v0.1/t0-events', admin)).body.data.items.length).toBe(before);
  });

  it('keeps each app’s events to itself and deletes an event with its results', async () => {
    const made = await add({ name: '删除我', rule: { kind: 'firstDiagnosis', icd10Prefix: 'B18' } });
    const id = made.body.data.id as number;
    await run(id);
    expect((await get(t.app, '/api/v0.1/t0-events', other.key)).body.data.items).toEqual([]);
    const theirs = await get(t.app, `/api/v0.1/t0-events/${id}/patients`, other.key);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('T0 事件不存在');
    expect((await post(t.app, `/api/v0.1/t0-events/${id}/run`, {}, other.key)).status).toBe(404);
    expect((await del(t.app, `/api/v0.1/t0-events/${id}`, other.key)).status).toBe(404);
    expect((await del(t.app, `/api/v0.1/t0-events/${id}`, admin)).status).toBe(200);
    expect(await t.app.db.select().from(t0Patients).where(eq(t0Patients.eventId, id))).toEqual([]);
  });

  it('is the zero point of a research subject: baseline and later labs, survival and follow-up from T0', async () => {
    const made = await add({
      name: '首次 ALT>80',
      rule: { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 80 },
    });
    const eventId = made.body.data.id as number;
    await run(eventId);
    // The research catalogue offers the calculated T0 events as zero points.
    const cat = await get(t.app, '/api/v0.1/research/variable-catalogue?kind=t0&q=ALT', admin);
    expect(cat.body.data.find((c: { code: string }) => c.code === String(eventId))).toMatchObject({
      kind: 't0',
      name: '首次 ALT>80',
      patients: 2,
    });
    const subject = await post(
      t.app,
      '/api/v0.1/research/subjects',
      {
        name: 'T0 零点队列',
        criteria: { match: 'all', inclusion: [{ kind: 'diagnosis', codes: ['B18'] }], exclusion: [] },
        variables: [
          {
            key: 'alt_base',
            label: 'ALT 基线',
            source: 'lab',
            itemCode: 'ALT',
            aggregate: 'last',
            t0EventId: eventId,
          },
          {
            key: 'alt_after',
            label: 'ALT T0 后',
            source: 'lab',
            itemCode: 'ALT',
            aggregate: 'last',
            t0EventId: eventId,
            t0Window: 'afterT0',
          },
          { key: 'surv', label: '乙肝生存', source: 'survival', codes: ['B18'], t0EventId: eventId },
          { key: 'fu', label: 'T0 以来天数', source: 't0Days', t0EventId: eventId },
        ],
      },
      admin,
    );
    expect(subject.status, JSON.stringify(subject.body)).toBe(200);
    const sid = subject.body.data.id as number;
    expect(
      (await post(t.app, `/api/v0.1/research/subjects/${sid}/status`, { to: 'recruiting' }, admin)).status,
    ).toBe(200);
    const recruited = await post(
      t.app,
      `/api/v0.1/research/subjects/${sid}/recruit`,
      { mode: 'criteria' },
      admin,
    );
    expect(recruited.body.data).toEqual({ matched: 2, added: 2 });
    const data = await get(t.app, `/api/v0.1/research/subjects/${sid}/data?size=5`, admin);
    const v = Object.fromEntries(
      data.body.data.variables.map(
        (x: { key: string; completeness: number; summary: { mean?: number }; events?: number }) => [x.key, x],
      ),
    );
    // T01: T0 2020-06-01 (ALT 120), results up to it 60, 120; after it 200. T02: T0 2023-02-01 (ALT 85), nothing after.
    expect(v.alt_base).toMatchObject({ completeness: 1 });
    expect(v.alt_base.summary.mean).toBeCloseTo((120 + 85) / 2, 10);
    expect(v.alt_after).toMatchObject({ completeness: 0.5 });
    expect(v.alt_after.summary.mean).toBeCloseTo(200, 10);
    // T01's B18 diagnosis of 2021-05-01 is 334 days after T0; T02 has none after (time 0, censored).
    expect(v.surv.events).toBe(1);
    expect(v.surv.summary.mean).toBeCloseTo(334 / 2, 6);
    expect(v.fu).toMatchObject({ completeness: 1 });
    // A zero point must be an event of the app.
    const bad = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: '坏零点', variables: [{ key: 'fu', label: 'x', source: 't0Days', t0EventId: 999_999 }] },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('999999');
    const theirs = await post(
      t.app,
      '/api/v0.1/research/subjects',
      { name: '别人的零点', variables: [{ key: 'fu', label: 'x', source: 't0Days', t0EventId: eventId }] },
      other.key,
    );
    expect(theirs.status).toBe(400);
    // An event a subject counts time from is not deleted.
    const gone = await del(t.app, `/api/v0.1/t0-events/${eventId}`, admin);
    expect(gone.status).toBe(409);
    expect(gone.body.message).toContain('T0 零点队列');
  });

  it('is the zero point of a disease library’s indicators: values in a window after T0, refused for an unknown event', async () => {
    const made = await add({
      name: '首次 ALT>80（专病库）',
      rule: { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 80 },
    });
    const eventId = made.body.data.id as number;
    await run(eventId);
    const compute = (template_str: string, key = admin) =>
      post(
        t.app,
        '/api/v0.1/diseaselibrary/compute_indicator',
        { template_str, template_params: {}, patient_ids: ids },
        key,
      );
    const valuesOf = async (template: string) => {
      const r = await compute(template);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return Object.fromEntries(
        (r.body.data.values as Array<{ patientId: number; value: unknown }>).map((v) => [
          v.patientId,
          v.value,
        ]),
      );
    };
    const [a, b] = ids as [number, number, number];
    // T01's T0 is 2020-06-01 (ALT 120), T02's 2023-02-01 (ALT 85); T03 has none and gets no value.
    expect(await valuesOf(`max lab.value where code = "ALT" after t0 ${eventId} within 200 days`)).toEqual({
      [a]: 120,
      [b]: 85,
    });
    expect(await valuesOf(`max lab.value where code = "ALT" after t0 ${eventId} within 250 days`)).toEqual({
      [a]: 200,
      [b]: 85,
    });
    expect(await valuesOf(`count lab where code = "ALT" before t0 ${eventId}`)).toMatchObject({
      [a]: 2,
      [b]: 1,
    });
    const unknown = await compute('count lab after t0 999999');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('999999');
    expect((await compute(`count lab after t0 ${eventId}`, other.key)).status).toBe(400);

    // A common template whose rule counts from the event keeps the event from being deleted.
    const form = await post(
      t.app,
      '/api/v0.1/crf/forms',
      {
        name: 'T0 专病表',
        definition: {
          pages: [
            {
              key: 'p',
              title: 'T0',
              items: [{ key: 'alt', type: 'textQuestion', title: 'T0 后 ALT', textType: 'number' }],
            },
          ],
        },
      },
      admin,
    );
    const formId = form.body.data.id as number;
    await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: 'v1' }, admin);
    const template = (rule: string) =>
      post(
        t.app,
        '/api/v0.1/diseaselibrary/templates',
        { name: `T0 模板 ${rule.length}`, crfFormId: formId, sourceRules: { alt: rule } },
        admin,
      );
    const refused = await template('latest lab.value after t0 999999');
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('sourceRules.alt');
    const saved = await template(`first lab.value where code = "ALT" after t0 ${eventId} within 30 days`);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const gone = await del(t.app, `/api/v0.1/t0-events/${eventId}`, admin);
    expect(gone.status).toBe(409);
    expect(gone.body.message).toContain(saved.body.data.name);
    expect((await eventOf(eventId)).id).toBe(eventId);
  });

  it('is the zero point of charts: lab results by days and period from T0, patients by T0 month', async () => {
    const made = await add({
      name: '图表零点 ALT>100',
      rule: { kind: 'firstLab', itemCode: 'ALT', comparator: '>', threshold: 100 },
    });
    await run(made.body.data.id as number);
    const V = '/api/v0.1/visualization/aggregate';
    const only = { field: 't0_event', op: 'eq', value: '图表零点 ALT>100' };
    // T01 alone has an ALT over 100: T0 2020-06-01 (120); 60 was 152 days before, 200 is 214 days after.
    const days = await post(
      t.app,
      V,
      {
        dataset: 'lab_results_from_t0',
        dimensions: ['days_from_t0', 'period'],
        measures: ['avg_value'],
        filters: [only],
      },
      admin,
    );
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect(days.body.data.rows).toEqual([
      { days_from_t0: -152, period: 'T0 前', avg_value: 60 },
      { days_from_t0: 0, period: 'T0 当时', avg_value: 120 },
      { days_from_t0: 214, period: 'T0 后', avg_value: 200 },
    ]);
    const en = await t.app.inject({
      method: 'POST',
      url: V,
      headers: { WeAppAuthorization: admin, 'Accept-Language': 'en-US' },
      payload: {
        dataset: 'lab_results_from_t0',
        dimensions: ['period'],
        measures: ['count'],
        filters: [only],
      },
    });
    expect(
      en
        .json()
        .data.rows.map((r: { period: string }) => r.period)
        .sort(),
    ).toEqual(['After T0', 'At T0', 'Before T0']);
    const months = await post(
      t.app,
      V,
      { dataset: 't0_patients', dimensions: ['t0_month'], measures: ['count'], filters: [only] },
      admin,
    );
    expect(months.body.data.rows).toEqual([{ t0_month: '2020-06', count: 1 }]);
    // Another app sees none of these patients.
    const theirs = await post(
      t.app,
      V,
      { dataset: 't0_patients', dimensions: ['t0_event'], measures: ['count'] },
      other.key,
    );
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.rows).toEqual([]);
  });
});
