import { readFileSync } from 'node:fs';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { crfRecords } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { post, signIn, startTestApp, type TestApp } from '../test/helper.js';

/** The HL7 C-CDA R2.1 Discharge Summary example (CC0, fixtures/cda, see fixtures/SOURCES.md). */
const dischargeSummary = readFileSync(
  new URL('../../../../fixtures/cda/ccda_Discharge_Summary.xml', import.meta.url),
  'utf8',
);

const FORM = {
  pages: [
    {
      key: 'p1',
      title: '入院信息',
      items: [
        { key: 'height', type: 'textQuestion', title: '身高', code: '8302-2', unit: 'm', textType: 'number' },
        {
          key: 'weight',
          type: 'textQuestion',
          title: '体重',
          code: '3141-9',
          unit: 'kg',
          textType: 'number',
        },
        {
          key: 'sbp',
          type: 'textQuestion',
          title: '收缩压',
          code: '8480-6',
          unit: 'mmHg',
          textType: 'number',
        },
        { key: 'drug', type: 'textQuestion', title: '出院带药', code: '197806' },
      ],
    },
  ],
};

/** Prefill as a server call (issue 21): the answers a C-CDA document gives a form, nothing stored. */
describe('CRF prefill from a case record', () => {
  let t: TestApp;
  let admin: string;
  let formId: number;
  const url = () => `/api/v0.1/crf/forms/${formId}/prefill`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const made = await post(t.app, '/api/v0.1/crf/forms', { name: '出院小结预填', definition: FORM }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    formId = made.body.data.id;
    expect(
      (await post(t.app, `${url().replace('/prefill', '')}/publish`, { note: 'v1' }, admin)).status,
    ).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('answers the vital signs and the drug of a C-CDA discharge summary, converted, and stores nothing', async () => {
    const [before] = await t.app.db.select({ n: count() }).from(crfRecords);
    const r = await post(t.app, url(), { xml: dischargeSummary }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.answers).toEqual({
      height: 1.77,
      weight: 86,
      sbp: 80,
      drug: 'ibuprofen 600 MG Oral Tablet',
    });
    // What has no item is listed with its reason.
    expect(r.body.data.unmatched.length).toBeGreaterThan(0);
    expect(r.body.data.unmatched[0].reason).toBeTruthy();
    const [after] = await t.app.db.select({ n: count() }).from(crfRecords);
    expect(after!.n).toBe(before!.n);
  });

  it('refuses what is not a CDA document, naming the field, and checks the caller', async () => {
    const bad = await post(t.app, url(), { xml: '<html><body>入院记录</body></html>' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'body.xml' });
    expect(bad.body.message).toContain('ClinicalDocument');
    expect((await post(t.app, url(), { xml: '' }, admin)).status).toBe(400);
    const other = await otherAppAdministrator(t.app);
    expect((await post(t.app, url(), { xml: dischargeSummary }, other.key)).status).toBe(404);
    const reader = await demoUserWith(t.app, 'prefill-reader', ['CrfHepatopathyPoc.query']);
    expect((await post(t.app, url(), { xml: dischargeSummary }, reader)).status).toBe(403);
  });
});
