import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, diagnoses, patients, visCharts, visits } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { send, startTestApp, type TestApp } from '../test/helper.js';

/**
 * Issue 15 item 7 (chart part): a chart filter's value is checked against its field's type
 * (number, date, text, yes/no) before any SQL. A text in a numeric filter used to reach the
 * database and come back as HTTP 500; a number where a date belongs and an operator the type has
 * no meaning for were run as they came. Now each is a 400 naming the filter, in the caller's
 * language, and nothing is stored.
 */
const V = '/api/v0.1/visualization';
let t: TestApp;
let key: string;
let appId: number;

const call = (url: string, payload: unknown, language = 'zh-CN') =>
  send('POST', t.app, url, payload, key, language);
const aggregate = (filters: unknown[], extra: object = {}, language?: string) =>
  call(`${V}/aggregate`, { dataset: 'patients', measures: ['count'], filters, ...extra }, language);

beforeAll(async () => {
  t = await startTestApp();
  // A hospital of its own: its rows are exactly the ones below.
  ({ key, appId } = await otherAppAdministrator(t.app));
  const born = ['1950-05-01', '1990-05-01', '2015-05-01', '1955-05-01'];
  const ids = (
    await t.app.db
      .insert(patients)
      .values(
        born.map((birthDate, i) => ({
          appId,
          mrn: `F-${i}`,
          name: `筛选${i}`,
          gender: i % 2 === 0 ? 1 : 2,
          birthDate,
          source: 'synthetic',
          sourceId: `F-${i}`,
        })),
      )
      .returning({ id: patients.id })
  ).map((r) => r.id);
  await t.app.db.insert(diagnoses).values({
    appId,
    patientId: ids[0]!,
    icd10: 'I10',
    name: '原发性高血压',
    diagnosedAt: new Date('2024-03-05T08:00:00Z'),
    source: 'synthetic',
    sourceId: 'F-dx-0',
  });
  await t.app.db.insert(visits).values(
    ids.map((patientId, k) => ({
      appId,
      patientId,
      kind: 'outpatient',
      department: k < 2 ? '心内科' : '内分泌科',
      admitAt: new Date(`2024-0${k + 1}-10T00:00:00Z`),
      source: 'synthetic',
      sourceId: `F-v-${k}`,
    })),
  );
}, 120_000);
afterAll(async () => t?.close());

describe('typed chart filters', () => {
  // [what, dataset, filters, field named, zh text, en text]
  const BAD: Array<[string, string, unknown[], string, string, string]> = [
    [
      'text in a numeric filter',
      'patients',
      [{ field: 'age', op: 'gte', value: 'abc' }],
      'body.filters.0.value',
      '“年龄（岁）”需要数字（不带引号），收到的是文本',
      '“Age (years)” needs a number (without quotes), got text',
    ],
    [
      'a number written as text',
      'patients',
      [{ field: 'birth_year', op: 'eq', value: '1990' }],
      'body.filters.0.value',
      '“出生年份”需要数字',
      '“Birth year” needs a number',
    ],
    [
      'yes/no in a numeric filter',
      'patients',
      [{ field: 'age', op: 'eq', value: true }],
      'body.filters.0.value',
      '收到的是true/false',
      'got true/false',
    ],
    [
      'a number where a date is expected',
      'patients',
      [{ field: 'filing_month', op: 'gte', value: 202403 }],
      'body.filters.0.value',
      '“建档月份”需要日期，例如 2024、2024-03 或 2024-03-01，收到的是数字',
      '“Filing month” needs a date such as 2024, 2024-03 or 2024-03-01, got a number',
    ],
    [
      'a date that is not on the calendar',
      'visits',
      [{ field: 'month', op: 'lte', value: '2024-02-30' }],
      'body.filters.0.value',
      '需要日期',
      'needs a date',
    ],
    [
      'text in a yes/no filter',
      'patients',
      [{ field: 'hypertension', op: 'eq', value: 'yes' }],
      'body.filters.0.value',
      '“高血压”需要 true 或 false',
      '“Hypertension” needs true or false',
    ],
    [
      'a number in a text filter',
      'visits',
      [{ field: 'department', op: 'eq', value: 5 }],
      'body.filters.0.value',
      '“科室”需要文本',
      '“Department” needs text',
    ],
    [
      'a bad element of an in list (the second filter)',
      'patients',
      [
        { field: 'gender', op: 'eq', value: '男' },
        { field: 'birth_year', op: 'in', value: [1950, 'x'] },
      ],
      'body.filters.1.value.1',
      '“出生年份”需要数字',
      '“Birth year” needs a number',
    ],
    [
      'an unknown field',
      'patients',
      [{ field: 'name', op: 'eq', value: 'x' }],
      'body.filters.0.field',
      '数据集 patients 没有维度 name',
      'unknown dimension name of dataset patients',
    ],
    [
      'contains on a number',
      'patients',
      [{ field: 'age', op: 'contains', value: 6 }],
      'body.filters.0.op',
      '“年龄（岁）”是数字字段，不能用 contains 筛选（可用 eq、ne、in、gte、lte）',
      '“Age (years)” is a number field; contains is not allowed (use eq, ne, in, gte, lte)',
    ],
    [
      'an order on yes/no',
      'patients',
      [{ field: 'hypertension', op: 'gte', value: true }],
      'body.filters.0.op',
      '“高血压”是是/否字段，不能用 gte 筛选',
      '“Hypertension” is a yes/no field; gte is not allowed (use eq, ne)',
    ],
    [
      'an order on text',
      'visits',
      [{ field: 'department', op: 'lte', value: '心' }],
      'body.filters.0.op',
      '不能用 lte 筛选（可用 eq、ne、in、contains）',
      'lte is not allowed (use eq, ne, in, contains)',
    ],
    [
      'in with one value',
      'patients',
      [{ field: 'birth_year', op: 'in', value: 1950 }],
      'body.filters.0.value',
      'in 筛选需要一个值的列表',
      'the in filter needs a list of values',
    ],
    [
      'eq with a list',
      'patients',
      [{ field: 'birth_year', op: 'eq', value: [1950, 1990] }],
      'body.filters.0.value',
      'eq 筛选需要单个值，不是列表',
      'the eq filter needs one value, not a list',
    ],
  ];

  for (const [what, dataset, filters, field, zh, en] of BAD) {
    it(`${what}: 400 naming ${field}, in Chinese and English`, async () => {
      const r = await aggregate(filters, { dataset });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.field).toBe(field);
      expect(r.body.message).toContain(field);
      expect(r.body.message).toContain(zh);
      const e = await aggregate(filters, { dataset }, 'en-US');
      expect(e.status).toBe(400);
      expect(e.body.field).toBe(field);
      expect(e.body.message).toContain(en);
    });
  }

  it('a saved chart with a mistyped filter is refused naming body.query.filters.0.value; nothing is stored or audited', async () => {
    const charts = async () =>
      (await t.app.db.select({ n: count() }).from(visCharts).where(eq(visCharts.appId, appId)))[0]!.n;
    const audits = async () => (await t.app.db.select({ n: count() }).from(auditLog))[0]!.n;
    const [c0, a0] = [await charts(), await audits()];
    const r = await call(`${V}/charts`, {
      name: '按年龄筛选',
      query: {
        dataset: 'patients',
        dimensions: ['gender'],
        measures: ['count'],
        filters: [{ field: 'age', op: 'gte', value: '六十五' }],
      },
      spec: { subtype: 'column', channels: { x: [{ field: 'gender' }], y: [{ field: 'count' }] } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.field).toBe('body.query.filters.0.value');
    expect([await charts(), await audits()]).toEqual([c0, a0]);
  });

  it('well-typed filters of every type still filter in the database', async () => {
    const n = async (dataset: string, filters: unknown[]) => {
      const r = await aggregate(filters, { dataset });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.rows[0].count as number;
    };
    // A fraction against a whole-number field (was a 500: the parameter was read as an integer).
    expect(await n('patients', [{ field: 'birth_year', op: 'gte', value: 1989.5 }])).toBe(2);
    expect(await n('patients', [{ field: 'age', op: 'gte', value: 0.5 }])).toBe(4);
    expect(await n('patients', [{ field: 'birth_year', op: 'in', value: [1950, 1955, 1999] }])).toBe(2);
    expect(await n('patients', [{ field: 'birth_year', op: 'ne', value: 1950 }])).toBe(3);
    expect(await n('patients', [{ field: 'hypertension', op: 'eq', value: true }])).toBe(1);
    expect(await n('patients', [{ field: 'hypertension', op: 'ne', value: true }])).toBe(3);
    expect(await n('patients', [{ field: 'gender', op: 'in', value: ['男'] }])).toBe(2);
    expect(await n('visits', [{ field: 'department', op: 'contains', value: '内分泌' }])).toBe(2);
    expect(await n('visits', [{ field: 'month', op: 'gte', value: '2024-02' }])).toBe(3);
    expect(await n('visits', [{ field: 'month', op: 'lte', value: '2024-02-29' }])).toBe(2);
    expect(await n('visits', [{ field: 'month', op: 'eq', value: '2024-03' }])).toBe(1);
    expect(
      await n('visits', [
        { field: 'month', op: 'gte', value: '2024' },
        { field: 'department', op: 'eq', value: '心内科' },
      ]),
    ).toBe(2);
  });
});
