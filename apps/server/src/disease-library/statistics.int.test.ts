import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAppId } from '../research/test/support.js';
import { get, post, settleJob, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { DRINK_FORM } from './test/drink-form.js';
import { HBV_CRITERIA, seedHepatitisB } from './test/fixtures.js';

const P = '/api/v0.1/diseaselibrary';

async function call(
  t: TestApp,
  method: 'POST' | 'PUT',
  url: string,
  payload: unknown,
  key: string,
  locale = 'zh-CN',
) {
  const res = await t.app.inject({
    method,
    url,
    headers: { WeAppAuthorization: key, 'Accept-Language': locale },
    payload: payload as object,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('disease library statistics of a single-choice item', () => {
  let t: TestApp;
  let admin: string;
  let libId: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const appId = await demoAppId(t.app);
    const ids = await seedHepatitisB(t.app, appId);
    const form = await post(
      t.app,
      '/api/v0.1/crf/forms',
      { name: '饮酒随访', definition: DRINK_FORM },
      admin,
    );
    await post(t.app, `/api/v0.1/crf/forms/${form.body.data.id}/publish`, { note: 'v1' }, admin);
    const lib = await post(
      t.app,
      `${P}/libraries`,
      { name: '饮酒统计库', crfFormId: form.body.data.id, criteria: HBV_CRITERIA },
      admin,
    );
    libId = lib.body.data.id;
    const job = await post(t.app, `${P}/libraries/${libId}/push`, {}, admin);
    expect((await settleJob(t.app, admin, job.body.data.jobId)).status).toBe('succeeded');
    // 张一 drinks sometimes (1), 李二 often (3); both ALT 40.
    for (const [id, drink] of [
      [ids.zhang, 1],
      [ids.li, 3],
    ] as const) {
      const p = await get(t.app, `${P}/libraries/${libId}/patients/${id}`, admin);
      const saved = await call(
        t,
        'PUT',
        `${P}/libraries/${libId}/patients/${id}/record`,
        { answers: { drink, alt: 40 }, revision: p.body.data.record.revision },
        admin,
      );
      expect(saved.status).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  it('counts the options by name instead of averaging their codes', async () => {
    const res = await call(t, 'POST', `${P}/libraries/${libId}/statistics`, { itemKeys: ['drink'] }, admin);
    expect(res.status).toBe(200);
    const s = res.body.data.items[0].summary;
    expect(s.kind).toBe('categorical');
    expect(s.mean).toBeUndefined();
    expect(s.levels.map((l: { value: string }) => l.value).sort()).toEqual(['偶尔', '经常']);
  });

  it('compares by a single choice with a chi-square table of names, and words a failed test in the reader’s language', async () => {
    const body = { itemKeys: ['drink', 'alt'], compare: { itemKey: 'drink', a: 1, b: 3 } };
    const zh = await call(t, 'POST', `${P}/libraries/${libId}/statistics`, body, admin, 'zh-CN');
    const [drink, alt] = zh.body.data.comparisons;
    expect(drink.tTest).toBeUndefined();
    expect(drink.chiSquare?.levels ?? []).not.toContain('1');
    // One value per group, both the same: no t-test; the reason is in words of the reader's language.
    expect(alt.error).toMatch(/[\u4e00-\u9fff]/);
    const en = await call(t, 'POST', `${P}/libraries/${libId}/statistics`, body, admin, 'en-US');
    expect(en.body.data.comparisons[1].error).toMatch(/^[A-Z]/);
    expect(en.body.data.comparisons[1].error).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
