import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, diagnoses, labResults, patients, visits } from '../db/schema/index.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { del, get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';

const V = '/api/v0.1/visualization';
let t: TestApp;
let admin: string;
let demoAppId: number;

/** Known rows: 3 men and 2 women; national IDs from Beijing (11) x3 and Guangdong (44) x2. */
async function seedKnownRows(appId: number, prefix: string) {
  const people = [
    { gender: 1, birthDate: '1950-05-01', nationalId: '110101195005010011' },
    { gender: 1, birthDate: '1990-05-01', nationalId: '110101199005010011' },
    { gender: 1, birthDate: '2015-05-01', nationalId: '440101201505010011' },
    { gender: 2, birthDate: '1955-05-01', nationalId: '110101195505010022' },
    { gender: 2, birthDate: '1985-05-01', nationalId: '440101198505010022' },
  ];
  const rows = await t.app.db
    .insert(patients)
    .values(
      people.map((p, i) => ({
        appId,
        mrn: `${prefix}-${i}`,
        name: `${prefix}${i}`,
        source: 'synthetic',
        sourceId: `${prefix}-${i}`,
        ...p,
      })),
    )
    .returning({ id: patients.id });
  const ids = rows.map((r) => r.id);
  // Hypertension for patients 0, 1, 3; diabetes for 0 and 4.
  await t.app.db.insert(diagnoses).values(
    [
      [0, 'I10', '原发性高血压'],
      [1, 'I10', '原发性高血压'],
      [3, 'I11.9', '高血压性心脏病'],
      [0, 'E11.9', '2型糖尿病'],
      [4, 'E11', '2型糖尿病'],
    ].map(([i, icd10, name], k) => ({
      appId,
      patientId: ids[i as number]!,
      icd10: icd10 as string,
      name: name as string,
      diagnosedAt: new Date('2024-03-05T08:00:00Z'),
      source: 'synthetic',
      sourceId: `${prefix}-dx-${k}`,
    })),
  );
  await t.app.db.insert(labResults).values(
    [
      [0, 40, '2024-01-10'],
      [1, 60, '2024-01-20'],
      [2, 20, '2024-02-10'],
    ].map(([i, v, d], k) => ({
      appId,
      patientId: ids[i as number]!,
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum: v as number,
      collectedAt: new Date(`${d}T08:00:00Z`),
      source: 'synthetic',
      sourceId: `${prefix}-lab-${k}`,
    })),
  );
  await t.app.db.insert(visits).values(
    ids.slice(0, 3).map((patientId, k) => ({
      appId,
      patientId,
      kind: k === 0 ? 'inpatient' : 'outpatient',
      department: k === 0 ? '心内科' : '内分泌科',
      admitAt: new Date('2024-01-01T00:00:00Z'),
      dischargeAt: k === 0 ? new Date('2024-01-05T00:00:00Z') : null,
      source: 'synthetic',
      sourceId: `${prefix}-v-${k}`,
    })),
  );
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await signIn(t.app, 'admin');
  const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
  demoAppId = demo!.appId;
  await seedKnownRows(demoAppId, 'VIS');
}, 60_000);
afterAll(async () => t?.close());

const barSpec = {
  subtype: 'column',
  title: '性别分布',
  channels: { x: [{ field: 'gender' }], y: [{ field: 'count', aggregate: 'sum' }] },
};

describe('the dataset catalogue', () => {
  it('lists datasets with their dimensions and measures in the caller’s language', async () => {
    const r = await get(t.app, `${V}/datasets`, admin);
    expect(r.status).toBe(200);
    const patientsSet = r.body.data.find((d: { id: string }) => d.id === 'patients');
    expect(patientsSet.label).toBe('患者');
    expect(patientsSet.dimensions.map((d: { key: string }) => d.key)).toContain('province');
  });

  it('groups patients by gender in the database', async () => {
    const r = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'patients', dimensions: ['gender'], measures: ['count'] },
      admin,
    );
    expect(r.status).toBe(200);
    expect(r.body.data.rows).toEqual([
      { gender: '女', count: 2 },
      { gender: '男', count: 3 },
    ]);
    expect(r.body.data.columns.map((c: { kind: string }) => c.kind)).toEqual(['dimension', 'measure']);
  });

  it('reads the province from the national ID and translates labels per locale', async () => {
    const r = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'patients', dimensions: ['province', 'age_band'], measures: ['count'] },
      admin,
    );
    const byKey = Object.fromEntries(
      r.body.data.rows.map((x: Record<string, unknown>) => [`${x.province}/${x.age_band}`, x.count]),
    );
    expect(byKey).toEqual({ '北京/65岁及以上': 2, '北京/18-44岁': 1, '广东/0-17岁': 1, '广东/18-44岁': 1 });
    const en = await t.app.inject({
      method: 'POST',
      url: `${V}/aggregate`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: { dataset: 'patients', dimensions: ['gender'], measures: ['count'] },
    });
    expect(
      en
        .json()
        .data.rows.map((x: { gender: string }) => x.gender)
        .sort(),
    ).toEqual(['Female', 'Male']);
  });

  it('counts diagnoses by ICD-10 chapter and patients with flags for a venn diagram', async () => {
    const r = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'diagnoses', dimensions: ['icd10_chapter'], measures: ['count', 'patients'] },
      admin,
    );
    expect(r.body.data.rows).toEqual([
      { icd10_chapter: '内分泌、营养和代谢疾病', count: 2, patients: 2 },
      { icd10_chapter: '循环系统疾病', count: 3, patients: 3 },
    ]);
    const flags = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'patients', dimensions: ['hypertension', 'diabetes'], measures: ['count'] },
      admin,
    );
    const combos = Object.fromEntries(
      flags.body.data.rows.map((x: Record<string, unknown>) => [`${x.hypertension}/${x.diabetes}`, x.count]),
    );
    expect(combos).toEqual({ 'true/true': 1, 'true/false': 2, 'false/true': 1, 'false/false': 1 });
  });

  it('averages lab values per month and applies filters', async () => {
    const r = await post(
      t.app,
      `${V}/aggregate`,
      {
        dataset: 'lab_results',
        dimensions: ['month'],
        measures: ['avg_value', 'count'],
        filters: [{ field: 'item_code', op: 'eq', value: 'ALT' }],
      },
      admin,
    );
    expect(r.body.data.rows).toEqual([
      { month: '2024-01', avg_value: 50, count: 2 },
      { month: '2024-02', avg_value: 20, count: 1 },
    ]);
    const stay = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'visits', dimensions: ['kind'], measures: ['count', 'avg_stay_days'] },
      admin,
    );
    expect(stay.body.data.rows).toEqual([
      { kind: '住院', count: 1, avg_stay_days: 4 },
      { kind: '门诊', count: 2, avg_stay_days: null },
    ]);
  });

  it('answers 400 naming the field for unknown datasets, fields and filters, and never runs client SQL', async () => {
    const cases: Array<[unknown, string]> = [
      [{ dataset: 'nope', measures: ['count'] }, 'dataset'],
      [{ dataset: 'patients', dimensions: ['password_hash'], measures: ['count'] }, 'dimensions.0'],
      [{ dataset: 'patients', measures: ['sum_salary'] }, 'measures.0'],
      [
        { dataset: 'patients', measures: ['count'], filters: [{ field: 'name', op: 'eq', value: 'x' }] },
        'filters.0.field',
      ],
      [
        { dataset: 'patients', dimensions: ['gender; drop table patients'], measures: ['count'] },
        'dimensions',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await post(t.app, `${V}/aggregate`, body, admin);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body)).toContain(field);
    }
  });

  it('sees only the rows of the caller’s app', async () => {
    const other = await otherAppAdministrator(t.app);
    await seedKnownRows(other.appId, 'OTHER');
    await seedKnownRows(other.appId, 'OTHER2');
    const mine = await post(t.app, `${V}/aggregate`, { dataset: 'patients', measures: ['count'] }, admin);
    const theirs = await post(
      t.app,
      `${V}/aggregate`,
      { dataset: 'patients', measures: ['count'] },
      other.key,
    );
    expect(mine.body.data.rows).toEqual([{ count: 5 }]);
    expect(theirs.body.data.rows).toEqual([{ count: 10 }]);
    // A chart saved in one app is not found from the other.
    const saved = await post(
      t.app,
      `${V}/charts`,
      {
        name: 'A',
        query: { dataset: 'patients', dimensions: ['gender'], measures: ['count'] },
        spec: barSpec,
      },
      admin,
    );
    expect((await get(t.app, `${V}/charts/${saved.body.data.id}`, other.key)).status).toBe(404);
    expect((await del(t.app, `${V}/charts/${saved.body.data.id}`, other.key)).status).toBe(404);
  });
});

describe('saved charts and dashboards', () => {
  it('saves, lists, changes and deletes a chart, with audit rows', async () => {
    const query = { dataset: 'patients', dimensions: ['gender'], measures: ['count'] };
    const created = await post(t.app, `${V}/charts`, { name: '性别', query, spec: barSpec }, admin);
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    const list = await get(t.app, `${V}/charts`, admin);
    expect(list.body.data.map((c: { id: number }) => c.id)).toContain(id);
    const changed = await put(
      t.app,
      `${V}/charts/${id}`,
      {
        name: '性别分布',
        query,
        spec: {
          ...barSpec,
          subtype: 'pie',
          channels: { category: [{ field: 'gender' }], value: [{ field: 'count' }] },
        },
      },
      admin,
    );
    expect(changed.body.data.name).toBe('性别分布');
    expect(changed.body.data.spec.subtype).toBe('pie');
    // The same chart is reachable from the data-lake area.
    const viaLake = await get(t.app, `/api/v0.1/data-lake/visualization/charts/${id}`, admin);
    expect(viaLake.body.data.name).toBe('性别分布');
    const trail = await get(t.app, '/api/v0.1/audit?entity=vis_chart', admin);
    if (trail.status === 200) expect(JSON.stringify(trail.body)).toContain('vis_chart');
    expect((await del(t.app, `${V}/charts/${id}`, admin)).status).toBe(200);
    expect((await get(t.app, `${V}/charts/${id}`, admin)).status).toBe(404);
  });

  it('refuses a chart that is not a chart or names a field its query does not answer', async () => {
    const query = { dataset: 'patients', dimensions: ['gender'], measures: ['count'] };
    const noMeasure = await post(
      t.app,
      `${V}/charts`,
      { name: 'x', query, spec: { subtype: 'column', channels: { x: [{ field: 'gender' }] } } },
      admin,
    );
    expect(noMeasure.status).toBe(400);
    expect(JSON.stringify(noMeasure.body)).toContain('spec.channels');
    const stray = await post(
      t.app,
      `${V}/charts`,
      {
        name: 'x',
        query,
        spec: { ...barSpec, channels: { ...barSpec.channels, color: [{ field: 'province' }] } },
      },
      admin,
    );
    expect(stray.status).toBe(400);
    expect(JSON.stringify(stray.body)).toContain('spec.channels.color.0.field');
    const badSubtype = await post(
      t.app,
      `${V}/charts`,
      { name: 'x', query, spec: { subtype: 'pie3d' } },
      admin,
    );
    expect(badSubtype.status).toBe(400);
  });

  it('keeps dashboards of the app’s own charts only', async () => {
    const query = { dataset: 'patients', dimensions: ['gender'], measures: ['count'] };
    const chart = await post(t.app, `${V}/charts`, { name: 'D', query, spec: barSpec }, admin);
    const board = await post(
      t.app,
      `${V}/dashboards`,
      { name: '总览', tiles: [{ chartId: chart.body.data.id, span: 12 }] },
      admin,
    );
    expect(board.status).toBe(200);
    const loaded = await get(t.app, `${V}/dashboards/${board.body.data.id}`, admin);
    expect(loaded.body.data.charts.map((c: { name: string }) => c.name)).toEqual(['D']);
    const unknown = await put(
      t.app,
      `${V}/dashboards/${board.body.data.id}`,
      { name: '总览', tiles: [{ chartId: 999999, span: 12 }] },
      admin,
    );
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('tiles.0.chartId');
    expect((await del(t.app, `${V}/dashboards/${board.body.data.id}`, admin)).status).toBe(200);
  });

  it('refuses a user without the builder’s functions', async () => {
    const nobody = await userWithoutRoles(t.app);
    const r = await post(
      t.app,
      `${V}/charts`,
      { name: 'x', query: { dataset: 'patients', measures: ['count'] }, spec: barSpec },
      nobody,
    );
    expect(r.status).toBe(403);
    expect(
      (await post(t.app, `${V}/aggregate`, { dataset: 'patients', measures: ['count'] }, nobody)).status,
    ).toBe(403);
  });
});

describe('the demo month bar', () => {
  it('answers twelve months within the two demo ranges, the same on every call', async () => {
    const a = await get(t.app, '/analysis/month-bar?year=2024');
    const b = await get(t.app, '/analysis/month-bar?year=2024');
    expect(a.status).toBe(200);
    expect(a.body.data.result).toHaveLength(12);
    expect(a.body.data.result).toEqual(b.body.data.result);
    for (const e of a.body.data.result) {
      expect(e.y).toBeGreaterThanOrEqual(1);
      expect(e.y).toBeLessThanOrEqual(22);
      expect(e.y2).toBeGreaterThanOrEqual(1);
      expect(e.y2).toBeLessThanOrEqual(30);
    }
  });
});
