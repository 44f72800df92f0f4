import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { freeAccessKey, get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { LIVER_FORM, registerPatients } from './testform.js';

describe('case report forms: design, publish, fill, change with a reason, lock', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let formId: number;
  let recordId: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    await registerPatients(t.app, ['S-001']);
  });
  afterAll(async () => t.close());

  it('a researcher creates a form; bad form JSON is refused naming the path and creates nothing', async () => {
    const bad = await post(
      t.app,
      '/api/v0.1/crf/forms',
      { name: '坏表单', definition: { pages: [{ items: [{ key: 'a', type: 'radio' }] }] } },
      researcher,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toMatch(/^body\.definition\.pages\.0\.items\.0/);
    // The item type in words, never its code (issue 16), in the reader's language.
    expect(bad.body.message).toBe('请求参数错误：body.definition.pages.0.items.0.options: 单选题需要选项');
    const badEn = await t.app.inject({
      method: 'POST',
      url: '/api/v0.1/crf/forms',
      headers: { WeAppAuthorization: researcher, 'accept-language': 'en-US' },
      payload: { name: 'bad form', definition: { pages: [{ items: [{ key: 'a', type: 'radio' }] }] } },
    });
    expect(badEn.statusCode).toBe(400);
    expect(badEn.json().message).toContain('a single choice item needs options');
    expect(badEn.json().message).not.toMatch(/radio|[\u4e00-\u9fff]/);
    const none = await get(t.app, '/api/v0.1/crf/forms', researcher);
    expect(none.body.data.total).toBe(0);

    const made = await post(t.app, '/api/v0.1/crf/forms', { name: '肝病随访', category: '肝病' }, researcher);
    expect(made.status).toBe(200);
    formId = made.body.data.id;
    expect(made.body.data.latestVersion).toBe(0);
  });

  it('nobody fills a form before it is published', async () => {
    const r = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'S-001', answers: {} },
      researcher,
    );
    expect(r.status).toBe(409);
    expect(r.body.errorCode).toBe('crf.notPublished');
  });

  it('a draft with problems cannot be published; the fixed draft becomes version 1', async () => {
    const broken = {
      ...LIVER_FORM,
      showRules: [{ indicatorName: 'nope', condition: 'equals', indicatorVal: 1, selectItems: ['hbvDna'] }],
    };
    expect(
      (await put(t.app, `/api/v0.1/crf/forms/${formId}/draft`, { definition: broken }, researcher)).status,
    ).toBe(200);
    const refused = await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, researcher);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('crf.problems');

    const saved = await put(
      t.app,
      `/api/v0.1/crf/forms/${formId}/draft`,
      { definition: LIVER_FORM },
      researcher,
    );
    expect(saved.body.data.problems).toEqual([]);
    const v1 = await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '首版' }, researcher);
    expect(v1.status).toBe(200);
    expect(v1.body.data.version).toBe(1);
  });

  it('an invalid submit answers 400 with page, question and message, and stores nothing', async () => {
    const r = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'S-001', submit: true, answers: { weight: 70, height: 170, hbsag: 'pos' } },
      researcher,
    );
    expect(r.status).toBe(400);
    expect(r.body.errorCode).toBe('crf.invalid');
    expect(r.body.issues).toEqual([
      expect.objectContaining({ key: 'hbvDna', page: 1, code: 'required', question: 5 }),
    ]);
    expect(r.body.issues[0].message).toContain('第1页');
    const list = await get(t.app, `/api/v0.1/crf/forms/${formId}/records`, researcher);
    expect(list.body.data.total).toBe(0);
  });

  it('unknown items and missing subjects are 400 naming the field', async () => {
    const unknown = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'S-001', answers: { ghost: 1 } },
      researcher,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('body.answers.ghost');
    expect(unknown.body.message).toBe('请求参数错误：body.answers.ghost: 本表单没有这个键的题目');
    const noSubject = await post(t.app, `/api/v0.1/crf/forms/${formId}/records`, { answers: {} }, researcher);
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.field).toBe('body.subjectCode');
    expect(noSubject.body.message).toBe(
      '请求参数错误：body.subjectCode: 请选择记录所属的患者（按姓名或病案号查找），或填写已有的受试者编号',
    );
    const badPatient = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { patientId: 999999, answers: {} },
      researcher,
    );
    expect(badPatient.body.field).toBe('body.patientId');
  });

  it('a draft may be incomplete but not wrong; the server computes BMI and drops hidden answers', async () => {
    const wrong = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'S-001', answers: { weight: 9999 } },
      researcher,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues[0].code).toBe('maxValue');

    const draft = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      {
        subjectCode: 'S-001',
        answers: { weight: 70, height: 175, bmi: 1, hbvDna: 5 },
        methods: { bmi: 'machine' },
      },
      researcher,
    );
    expect(draft.status).toBe(200);
    recordId = draft.body.data.id;
    expect(draft.body.data.status).toBe('draft');
    expect(draft.body.data.answers).toEqual({ weight: 70, height: 175, bmi: 22.9 });
  });

  it('the draft is submitted once complete; the record knows its version', async () => {
    const rec = await get(t.app, `/api/v0.1/crf/records/${recordId}`, researcher);
    expect(rec.body.data.version.version).toBe(1);
    const done = await put(
      t.app,
      `/api/v0.1/crf/records/${recordId}`,
      { answers: { weight: 70, height: 175, hbsag: 'pos', hbvDna: 2000 }, submit: true, revision: 1 },
      researcher,
    );
    expect(done.status).toBe(200);
    expect(done.body.data.record.status).toBe('submitted');
  });

  it('a change of a submitted record needs a reason and is kept with old, new, who and when', async () => {
    const change = { answers: { weight: 80, height: 175, hbsag: 'pos', hbvDna: 2000 }, revision: 2 };
    const noReason = await put(t.app, `/api/v0.1/crf/records/${recordId}`, change, researcher);
    expect(noReason.status).toBe(400);
    expect(noReason.body.errorCode).toBe('crf.reasonRequired');
    expect(noReason.body.field).toBe('body.reasons.weight');

    const stale = await put(
      t.app,
      `/api/v0.1/crf/records/${recordId}`,
      { ...change, revision: 1, reason: 'x' },
      researcher,
    );
    expect(stale.status).toBe(409);

    const fixed = await put(
      t.app,
      `/api/v0.1/crf/records/${recordId}`,
      { ...change, reasons: { weight: '录入错误，原始病历为 80kg' } },
      researcher,
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.changed.sort()).toEqual(['bmi', 'weight']);

    const history = await get(t.app, `/api/v0.1/crf/records/${recordId}/history?item=weight`, researcher);
    expect(history.body.data).toEqual([
      expect.objectContaining({
        itemKey: 'weight',
        oldValue: 70,
        newValue: 80,
        reason: '录入错误，原始病历为 80kg',
        userName: 'researcher',
      }),
    ]);
    const bmi = await get(t.app, `/api/v0.1/crf/records/${recordId}/history?item=bmi`, researcher);
    expect(bmi.body.data[0]).toMatchObject({ oldValue: 22.9, newValue: 26.1 });
    expect(bmi.body.data[0].reason).toContain('自动计算');
  });

  it('a researcher may not lock; a locked record refuses changes until someone with the unlock function unlocks it', async () => {
    expect((await post(t.app, `/api/v0.1/crf/records/${recordId}/lock`, {}, researcher)).status).toBe(403);
    const locked = await post(
      t.app,
      `/api/v0.1/crf/records/${recordId}/lock`,
      { reason: '数据库锁定' },
      admin,
    );
    expect(locked.body.data.status).toBe('locked');
    const refused = await put(
      t.app,
      `/api/v0.1/crf/records/${recordId}`,
      { answers: { weight: 81, height: 175, hbsag: 'pos', hbvDna: 2000 }, revision: 4, reason: '再改' },
      admin,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('crf.locked');
    expect(
      (await post(t.app, `/api/v0.1/crf/records/${recordId}/unlock`, { reason: '' }, admin)).status,
    ).toBe(400);
    const unlocked = await post(
      t.app,
      `/api/v0.1/crf/records/${recordId}/unlock`,
      { reason: '监查要求更正' },
      admin,
    );
    expect(unlocked.body.data.status).toBe('submitted');
    const events = await get(t.app, `/api/v0.1/crf/records/${recordId}/history`, admin);
    expect(events.body.data.map((e: { itemKey: string }) => e.itemKey).slice(0, 2)).toEqual([
      '@unlock',
      '@lock',
    ]);
  });

  it('a new version leaves old records on their version', async () => {
    const v2form = {
      ...LIVER_FORM,
      pages: [
        {
          ...LIVER_FORM.pages[0],
          items: [
            ...(LIVER_FORM.pages[0]!.items as object[]),
            { key: 'alt', type: 'textQuestion', title: 'ALT', textType: 'number' },
          ],
        },
      ],
    };
    await put(t.app, `/api/v0.1/crf/forms/${formId}/draft`, { definition: v2form }, researcher);
    const v2 = await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '加 ALT' }, researcher);
    expect(v2.body.data.version).toBe(2);
    const rec = await get(t.app, `/api/v0.1/crf/records/${recordId}`, researcher);
    expect(rec.body.data.version.version).toBe(1);
    const old = await get(t.app, `/api/v0.1/crf/forms/${formId}/versions/1`, researcher);
    expect(JSON.stringify(old.body.data.definition)).not.toContain('"alt"');
  });

  it("another app's administrator sees none of it", async () => {
    const other = await otherAppAdministrator(t.app);
    expect((await get(t.app, `/api/v0.1/crf/forms/${formId}`, other.key)).status).toBe(404);
    expect((await get(t.app, `/api/v0.1/crf/records/${recordId}`, other.key)).status).toBe(404);
    expect((await get(t.app, `/api/v0.1/crf/records/${recordId}/history`, other.key)).status).toBe(404);
    const list = await get(t.app, '/api/v0.1/crf/forms', other.key);
    expect(list.body.data.total).toBe(0);
    const write = await put(
      t.app,
      `/api/v0.1/crf/records/${recordId}`,
      { answers: {}, revision: 5, reason: 'x' },
      other.key,
    );
    expect(write.status).toBe(404);
  });

  it('a free-access link reaches its form and its own records only', async () => {
    const free = await freeAccessKey(t.app, admin, { scopeKind: 'crf', objectId: String(formId) });
    const form = await get(t.app, `/api/v0.1/crf/forms/${formId}`, free);
    expect(form.status).toBe(200);
    expect(form.body.data.draft).toBeNull();
    const v = await get(t.app, `/api/v0.1/crf/forms/${formId}/versions/2`, free);
    expect(v.status).toBe(200);
    // The researcher's record is not the link's.
    expect((await get(t.app, `/api/v0.1/crf/records/${recordId}`, free)).status).toBe(404);
    const mine = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      { subjectCode: 'P-77', submit: true, answers: { weight: 60, height: 160, hbsag: 'neg' } },
      free,
    );
    expect(mine.status).toBe(200);
    const list = await get(t.app, `/api/v0.1/crf/forms/${formId}/records`, free);
    expect(list.body.data.items.map((x: { id: number }) => x.id)).toEqual([mine.body.data.id]);
    expect((await get(t.app, `/api/v0.1/crf/records/${mine.body.data.id}`, free)).status).toBe(200);
    // Nothing outside the CRF scope: another form, form management, the admin calls.
    const other = await post(t.app, '/api/v0.1/crf/forms', { name: '另一张' }, admin);
    expect((await get(t.app, `/api/v0.1/crf/forms/${other.body.data.id}`, free)).status).toBe(404);
    expect((await get(t.app, '/api/v0.1/crf/forms', free)).status).toBe(403);
    expect((await post(t.app, `/api/v0.1/crf/records/${mine.body.data.id}/lock`, {}, free)).status).toBe(403);
  });
});
