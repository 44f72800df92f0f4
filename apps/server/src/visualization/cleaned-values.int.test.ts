import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanBloodPressure } from '../cleaning/test/fixtures.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * The chart builder's `cleaned_values` dataset (issue 18: cleaned values usable by charts). A
 * cleaning task reads blood pressure from four notes of two patients; the dataset groups them
 * by name, document kind, department of the note's visit, fault, day and month, with the
 * numbers worked out by hand below. Checked on the embedded database and on PostgreSQL.
 *
 *   patient A, visit 心内科: 入院记录 2024-03-05 血压150/90, 病程记录 2024-03-06 血压130/70
 *   patient A, no visit:     病程记录 2024-04-02 血压1300/80 (1300 out of range: a fault)
 *   patient B, no visit:     入院记录 2024-03-20 血压120/80
 */
describe('chart dataset of cleaned values', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  const V = '/api/v0.1/visualization/aggregate';
  const sbp = { field: 'code', op: 'eq', value: 'SBP' };
  const sorted = (rows: unknown[]) =>
    [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  const inLocale = async (locale: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: V,
      headers: { WeAppAuthorization: admin, 'Accept-Language': locale },
      payload,
    });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    const patient = async (mrn: string) =>
      (await post(t.app, '/api/v0.1/cdr/patients', { mrn, name: `图表清洗${mrn}`, gender: 1 }, admin)).body
        .data.id as number;
    const a = await patient('CV01');
    const b = await patient('CV02');
    const visit = await post(
      t.app,
      `/api/v0.1/cdr/patients/${a}/records`,
      {
        table: 'visits',
        row: { kind: 'inpatient', department: '心内科', admitAt: '2024-03-04T12:00:00+08:00' },
      },
      admin,
    );
    expect(visit.status, JSON.stringify(visit.body)).toBe(200);
    const visitId = visit.body.data.id as number;
    for (const [who, kind, title, body, at, visitOf] of [
      [a, 'admission', '入院记录', '体格检查：血压150/90mmHg。', '2024-03-05T12:00:00+08:00', visitId],
      [a, 'progress', '病程记录', '查体：血压130/70mmHg。', '2024-03-06T12:00:00+08:00', visitId],
      [a, 'progress', '病程记录', '血压1300/80mmHg（录入错误）', '2024-04-02T12:00:00+08:00', null],
      [b, 'admission', '入院记录', '体格检查：血压120/80mmHg。', '2024-03-20T12:00:00+08:00', null],
    ] as const) {
      const r = await post(
        t.app,
        `/api/v0.1/cdr/patients/${who}/records`,
        {
          table: 'documents',
          row: { kind, title, body, writtenAt: at, ...(visitOf ? { visitId: visitOf } : {}) },
        },
        admin,
      );
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect((await cleanBloodPressure(t.app, admin, '图表血压')).status).toBe('succeeded');
  }, 120_000);
  afterAll(() => t?.close());

  it('is in the catalogue in both languages', async () => {
    const zh = await get(t.app, '/api/v0.1/visualization/datasets', admin);
    expect(zh.status).toBe(200);
    const mine = zh.body.data.find((d: { id: string }) => d.id === 'cleaned_values');
    expect(mine.label).toBe('文本结构化结果');
    expect(mine.dimensions.map((d: { key: string }) => d.key)).toEqual(
      expect.arrayContaining(['name', 'unit', 'document_kind', 'day', 'month', 'department', 'fault']),
    );
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/v0.1/visualization/datasets',
      headers: { WeAppAuthorization: admin, 'Accept-Language': 'en-US' },
    });
    expect(en.json().data.find((d: { id: string }) => d.id === 'cleaned_values').label).toBe(
      'Values from clinical text',
    );
  });

  it('groups values by unit, document kind, department and fault; faults count but are no value', async () => {
    const r = await post(
      t.app,
      V,
      {
        dataset: 'cleaned_values',
        dimensions: ['unit', 'document_kind', 'department', 'fault'],
        measures: ['count', 'avg_value'],
        filters: [sbp],
      },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = (document_kind: string, department: string, fault: string, avg_value: number | null) => ({
      unit: 'mmHg',
      document_kind,
      department,
      fault,
      count: 1,
      avg_value,
    });
    expect(sorted(r.body.data.rows)).toEqual(
      sorted([
        row('入院记录', '心内科', '无', 150),
        row('入院记录', '-', '无', 120),
        row('病程记录', '心内科', '无', 130),
        row('病程记录', '-', '超出范围', null),
      ]),
    );
    const en = await inLocale('en-US', {
      dataset: 'cleaned_values',
      dimensions: ['document_kind', 'fault'],
      measures: ['count'],
      filters: [sbp],
    });
    expect(en.statusCode).toBe(200);
    expect(sorted(en.json().data.rows)).toEqual(
      sorted([
        { document_kind: 'Admission note', fault: 'None', count: 2 },
        { document_kind: 'Progress note', fault: 'None', count: 1 },
        { document_kind: 'Progress note', fault: 'Out of range', count: 1 },
      ]),
    );
  });

  it('charts by month and day: average, minimum and maximum without the faulted 1300', async () => {
    const months = await post(
      t.app,
      V,
      {
        dataset: 'cleaned_values',
        dimensions: ['month'],
        measures: ['count', 'patients', 'avg_value', 'min_value', 'max_value'],
        filters: [{ field: 'name', op: 'eq', value: '收缩压' }],
      },
      admin,
    );
    expect(months.status, JSON.stringify(months.body)).toBe(200);
    // March: 150, 130 (A) and 120 (B) -> 400 / 3 = 133.33; April: only the faulted 1300.
    expect(months.body.data.rows).toEqual([
      { month: '2024-03', count: 3, patients: 2, avg_value: 133.33, min_value: 120, max_value: 150 },
      { month: '2024-04', count: 1, patients: 1, avg_value: null, min_value: null, max_value: null },
    ]);
    const days = await post(
      t.app,
      V,
      {
        dataset: 'cleaned_values',
        dimensions: ['day', 'name'],
        measures: ['avg_value'],
        filters: [
          { field: 'day', op: 'gte', value: '2024-03-06' },
          { field: 'day', op: 'lte', value: '2024-03-31' },
        ],
      },
      admin,
    );
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect(sorted(days.body.data.rows)).toEqual(
      sorted([
        { day: '2024-03-06', name: '收缩压', avg_value: 130 },
        { day: '2024-03-06', name: '舒张压', avg_value: 70 },
        { day: '2024-03-20', name: '收缩压', avg_value: 120 },
        { day: '2024-03-20', name: '舒张压', avg_value: 80 },
      ]),
    );
    const bad = await post(
      t.app,
      V,
      { dataset: 'cleaned_values', dimensions: ['sentence'], measures: ['count'] },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('body.dimensions.0');
  });

  it('shows another app none of these values', async () => {
    const theirs = await post(
      t.app,
      V,
      { dataset: 'cleaned_values', dimensions: ['name'], measures: ['count'] },
      other.key,
    );
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.rows).toEqual([]);
  });
});
