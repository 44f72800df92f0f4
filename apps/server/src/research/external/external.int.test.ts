import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../../clinical/test/support.js';
import { auditLog } from '../../db/schema/index.js';
import { otherAppAdministrator } from '../../test/harness/fixtures.js';
import { del, get, post, signIn, startTestApp, type TestApp } from '../../test/helper.js';
import { tableOf } from './service.js';
import { mimicCsv } from './test/mimic.js';

/**
 * MIMIC 分析: a researcher imports a MIMIC-like ICU stay table as a CSV, sees its columns typed
 * and its length of stay derived, and runs the research methods (descriptive, logistic) on it as
 * jobs. Checked on both databases.
 */
describe('analysis on an external (MIMIC-like) dataset', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  let id: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    reader = await demoUserWith(t.app, 'mimicreader', ['ResearchAnalysisMimic.query']);
  }, 120_000);
  afterAll(() => t?.close());

  it('types a table: numbers, few-level categories, and a MIMIC stay’s length of stay', () => {
    const table = tableOf(mimicCsv(40));
    expect(table.layout).toBe('mimic_icu');
    const byKey = Object.fromEntries(table.columns.map((c) => [c.key, c.type]));
    expect(byKey).toMatchObject({
      anchor_age: 'number',
      gender: 'category',
      first_careunit: 'category',
      los: 'number',
    });
    // Times have a value per stay: kept in the rows, not offered as categories.
    expect(byKey.intime).toBeUndefined();
    expect(table.rows[0]!.los).toBe(1);
    expect(tableOf('A b,2nd\n1,x').columns.map((c) => c.key)).toEqual(['a_b', 'c_2nd']);
  });

  it('imports the CSV, refuses bad files naming the field, and previews rows', async () => {
    const r = await post(
      t.app,
      '/api/v0.1/external-datasets',
      { name: 'MIMIC ICU 演示', csv: mimicCsv() },
      admin,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    id = r.body.data.id;
    expect(r.body.data).toMatchObject({ layout: 'mimic_icu', rowCount: 40 });
    const ragged = await post(t.app, '/api/v0.1/external-datasets', { name: 'x', csv: 'a,b\n1' }, admin);
    expect(ragged.status).toBe(400);
    expect(ragged.body.field).toBe('body.csv');
    const quote = await post(t.app, '/api/v0.1/external-datasets', { name: 'y', csv: 'a\n"1' }, admin);
    expect(quote.status).toBe(400);
    const twice = await post(
      t.app,
      '/api/v0.1/external-datasets',
      { name: 'MIMIC ICU 演示', csv: 'a\n1' },
      admin,
    );
    expect(twice.body.field).toBe('body.name');
    const preview = await get(t.app, `/api/v0.1/external-datasets/${id}/preview`, admin);
    expect(preview.body.data.rows).toHaveLength(20);
    expect(preview.body.data.rows[0]).toMatchObject({ subject_id: 10000, gender: 'M' });
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'externalDataset.import'), eq(auditLog.entityId, String(id))));
    expect(audits).toHaveLength(1);
  });

  it('runs a logistic regression of death on age and length of stay as a job', async () => {
    const bad = await post(
      t.app,
      `/api/v0.1/external-datasets/${id}/analyses`,
      { params: { method: 'logistic', outcome: 'nope', predictors: ['anchor_age'] } },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('body.params.outcome');
    const r = await post(
      t.app,
      `/api/v0.1/external-datasets/${id}/analyses`,
      { params: { method: 'logistic', outcome: 'hospital_expire_flag', predictors: ['anchor_age', 'los'] } },
      reader,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    let done:
      | { status: string; result: { coefficients: Array<{ name: string; estimate: number }>; n: number } }
      | undefined;
    for (let i = 0; i < 200; i++) {
      await t.app.jobs.drain();
      const list = await get(t.app, `/api/v0.1/external-datasets/${id}/analyses`, reader);
      done = list.body.data.items[0];
      if (done && (done.status === 'succeeded' || done.status === 'failed')) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(done!.status).toBe('succeeded');
    expect(done!.result.n).toBe(40);
    const age = done!.result.coefficients.find((c) => c.name === 'anchor_age')!;
    expect(age.estimate).toBeGreaterThan(0);
  });

  it('keeps the reader from importing and another hospital from seeing it', async () => {
    expect(
      (await post(t.app, '/api/v0.1/external-datasets', { name: 'z', csv: 'a\n1' }, reader)).status,
    ).toBe(403);
    expect((await get(t.app, `/api/v0.1/external-datasets/${id}/preview`, other.key)).status).toBe(404);
    expect((await get(t.app, '/api/v0.1/external-datasets', other.key)).body.data.items).toEqual([]);
    expect((await del(t.app, `/api/v0.1/external-datasets/${id}`, admin)).status).toBe(200);
  });
});
