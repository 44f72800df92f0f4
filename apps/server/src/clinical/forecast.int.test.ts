import type { CdrForecast } from '@crdp/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/**
 * 医院预测浏览: admissions per day (Beijing days, empty days counted 0) and the next 30 days by
 * the seasonal naive method, on the embedded database and on PostgreSQL.
 */
describe('hospital forecast', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };
  // Three weeks from Monday 2025-03-03: admissions per weekday 3,4,5,4,3,1,0 (week 3 has one more on Monday).
  const week = [3, 4, 5, 4, 3, 1, 0];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    const p = await post(t.app, '/api/v0.1/cdr/patients', { mrn: 'FC01', name: '预测', gender: 1 }, admin);
    const visits: string[] = [];
    for (let w = 0; w < 3; w += 1)
      for (let d = 0; d < 7; d += 1) {
        const n = week[d]! + (w === 2 && d === 0 ? 1 : 0);
        const day = new Date(Date.UTC(2025, 2, 3 + w * 7 + d)).toISOString().slice(0, 10);
        // 23:30 in Beijing is 15:30 UTC the same day; 00:30 would be the day before in UTC.
        for (let i = 0; i < n; i += 1) visits.push(`${day}T${i % 2 ? '23:30' : '00:30'}:00+08:00`);
      }
    for (const admitAt of visits) {
      const r = await post(
        t.app,
        `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
        { table: 'visits', row: { kind: 'inpatient', department: '消化内科', admitAt } },
        admin,
      );
      expect(r.status).toBe(200);
    }
    // One outpatient visit: too little for a forecast.
    await post(
      t.app,
      `/api/v0.1/cdr/patients/${p.body.data.id}/records`,
      { table: 'visits', row: { kind: 'outpatient', admitAt: '2025-03-05T09:00:00+08:00' } },
      admin,
    );
  }, 180_000);
  afterAll(() => t?.close());

  it('counts admissions per Beijing day and repeats the last week with widening intervals', async () => {
    const r = await get(t.app, '/api/v0.1/cdr/forecast?kind=inpatient&history=28', admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const f = r.body.data as CdrForecast;
    // The last admission is on Saturday 2025-03-22 (Sunday had none).
    expect(f.asOf).toBe('2025-03-22');
    expect(f.history).toHaveLength(28);
    expect(f.history.slice(0, 7).every((h) => h.n === 0)).toBe(true);
    expect(f.history.slice(-6).map((h) => h.n)).toEqual([4, 4, 5, 4, 3, 1]);
    // The series starts at the first admission (Monday 2025-03-03): 20 days, differences of lag 7
    // are all 0 except week 3's Monday (+1) → σ = √(1/13).
    expect(f.sigma).toBeCloseTo(Math.sqrt(1 / 13), 10);
    expect(f.forecast).toHaveLength(30);
    expect(f.forecast[0]).toMatchObject({ date: '2025-03-23', mean: 0, lo95: 0 });
    expect(f.forecast.slice(1, 8).map((p) => p.mean)).toEqual([4, 4, 5, 4, 3, 1, 0]);
    expect(f.forecast[1]!.hi95 - 4).toBeCloseTo(1.959964 * Math.sqrt(1 / 13), 5);
    expect(f.forecast[7]!.hi95 - f.forecast[7]!.mean).toBeCloseTo(1.959964 * Math.sqrt(2 / 13), 5);
    expect(f.notice).toBeNull();
  });

  it('says why there is no forecast when there is too little data, in the reader’s language', async () => {
    const zh = await get(t.app, '/api/v0.1/cdr/forecast?kind=outpatient&history=28', admin);
    expect(zh.body.data.forecast).toEqual([]);
    expect(zh.body.data.notice).toBe('预测至少需要两个完整周期（14 天）的数据，现有 1 天');
    const theirs = await get(t.app, '/api/v0.1/cdr/forecast?kind=inpatient', other.key);
    expect(theirs.body.data).toMatchObject({ asOf: null, history: [], forecast: [] });
    const bad = await get(t.app, '/api/v0.1/cdr/forecast?kind=inpatient&history=5', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('history');
  });
});
