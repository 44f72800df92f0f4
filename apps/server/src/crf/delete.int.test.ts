import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, crfRecordChanges, crfRecords } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { exportedText } from './test/support.js';
import { LIVER_FORM, registerPatients } from './testform.js';

const ANSWERS = { weight: 70, height: 175, hbsag: 'neg' };

describe('deleting a CRF record: a soft delete with a reason, refused when locked', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let formId: number;
  const ids: Record<'keep' | 'gone' | 'locked', number> = { keep: 0, gone: 0, locked: 0 };

  const exportCsv = () => exportedText(t.app, admin, formId, 'format=csv');
  const exportOdm = (query = '') => exportedText(t.app, admin, formId, `format=odm${query}`);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    formId = (await post(t.app, '/api/v0.1/crf/forms', { name: '删除测试', definition: LIVER_FORM }, admin))
      .body.data.id;
    await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, admin);
    await registerPatients(t.app, ['DEL-keep', 'DEL-gone', 'DEL-locked']);
    for (const k of ['keep', 'gone', 'locked'] as const) {
      const r = await post(
        t.app,
        `/api/v0.1/crf/forms/${formId}/records`,
        { subjectCode: `DEL-${k}`, submit: true, answers: ANSWERS },
        admin,
      );
      expect(r.status).toBe(200);
      ids[k] = r.body.data.id;
    }
    // The record to delete has a changed value with a reason: that history must survive.
    const changed = await put(
      t.app,
      `/api/v0.1/crf/records/${ids.gone}`,
      { answers: { ...ANSWERS, weight: 72 }, revision: 1, reasons: { weight: '复核病历' } },
      admin,
    );
    expect(changed.status).toBe(200);
    expect(
      (await post(t.app, `/api/v0.1/crf/records/${ids.locked}/lock`, { reason: '锁库' }, admin)).status,
    ).toBe(200);
  });
  afterAll(async () => t.close());

  it('refuses a delete without a reason, naming the field, and changes nothing', async () => {
    for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
      const r = await post(t.app, `/api/v0.1/crf/records/${ids.gone}/delete`, body, admin);
      expect(r.status).toBe(400);
      expect(r.body.field).toBe('body.reason');
    }
    const [row] = await t.app.db.select().from(crfRecords).where(eq(crfRecords.id, ids.gone));
    expect(row!.deletedAt).toBeNull();
    expect(row!.revision).toBe(2);
  });

  it('is a function of its own: a researcher without it gets 403', async () => {
    const r = await post(
      t.app,
      `/api/v0.1/crf/records/${ids.gone}/delete`,
      { reason: '重复录入' },
      researcher,
    );
    expect(r.status).toBe(403);
  });

  it('refuses to delete a locked record with a clear message', async () => {
    const r = await post(t.app, `/api/v0.1/crf/records/${ids.locked}/delete`, { reason: '重复录入' }, admin);
    expect(r.status).toBe(409);
    expect(r.body.errorCode).toBe('crf.lockedDelete');
    expect(r.body.message).toContain('锁定');
    const list = await get(t.app, `/api/v0.1/crf/forms/${formId}/records`, admin);
    expect(list.body.data.items.map((x: { id: number }) => x.id)).toContain(ids.locked);
  });

  it('deletes with a reason: the row stays with who, when and why, and the deletion is audited', async () => {
    const r = await post(
      t.app,
      `/api/v0.1/crf/records/${ids.gone}/delete`,
      { reason: ' 重复录入，保留 DEL-keep ' },
      admin,
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: ids.gone, deleteReason: '重复录入，保留 DEL-keep' });
    const [row] = await t.app.db.select().from(crfRecords).where(eq(crfRecords.id, ids.gone));
    expect(row!.deletedAt).not.toBeNull();
    expect(row!.deletedByName).toBe('admin');
    expect(row!.answers).toMatchObject({ weight: 72 });
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'crf.record.delete'), eq(auditLog.entityId, String(ids.gone))));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ reason: '重复录入，保留 DEL-keep', outcome: 'success' });
    expect(audits[0]!.before).toMatchObject({ status: 'submitted', subjectCode: 'DEL-gone' });
  });

  it('keeps the field history and records the deletion in it', async () => {
    const history = await get(t.app, `/api/v0.1/crf/records/${ids.gone}/history`, admin);
    expect(history.status).toBe(200);
    const keys = history.body.data.map((e: { itemKey: string }) => e.itemKey);
    expect(keys[0]).toBe('@delete');
    expect(history.body.data[0].reason).toBe('重复录入，保留 DEL-keep');
    expect(keys).toContain('weight');
    expect(keys).toContain('@submit');
    const weight = history.body.data.find((e: { itemKey: string }) => e.itemKey === 'weight');
    expect(weight).toMatchObject({ oldValue: 70, newValue: 72, reason: '复核病历' });
    const rows = await t.app.db
      .select()
      .from(crfRecordChanges)
      .where(eq(crfRecordChanges.recordId, ids.gone));
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('hides the deleted record from the list, the form count and the exports', async () => {
    const list = await get(t.app, `/api/v0.1/crf/forms/${formId}/records`, admin);
    const listed = list.body.data.items.map((x: { id: number }) => x.id);
    expect(listed).toEqual([ids.keep, ids.locked]);
    expect(list.body.data.total).toBe(2);
    const forms = await get(t.app, '/api/v0.1/crf/forms', admin);
    const form = forms.body.data.items.find((f: { id: number }) => f.id === formId);
    expect(form.records).toBe(2);
    const csv = await exportCsv();
    expect(csv).toContain('DEL-keep');
    expect(csv).not.toContain('DEL-gone');
    // The ODM snapshot leaves it out; the ODM audit trail (the default) keeps it as a removal with its reason.
    const odm = await exportOdm('&audit=false');
    expect(odm).toContain('DEL-keep');
    expect(odm).not.toContain('DEL-gone');
    const trail = await exportOdm();
    expect(trail).toMatch(
      /<SubjectData SubjectKey="DEL-gone">[\s\S]*?TransactionType="Remove"[\s\S]*?<ReasonForChange>\s*重复录入，保留 DEL-keep\s*<\/ReasonForChange>/,
    );
  });

  it('a deleted record takes no more changes and cannot be deleted twice', async () => {
    const save = await put(
      t.app,
      `/api/v0.1/crf/records/${ids.gone}`,
      { answers: { ...ANSWERS, weight: 73 }, revision: 3, reason: '再改' },
      admin,
    );
    expect(save.status).toBe(409);
    expect(save.body.errorCode).toBe('crf.deleted');
    const again = await post(t.app, `/api/v0.1/crf/records/${ids.gone}/delete`, { reason: '再删' }, admin);
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('crf.deleted');
    const lock = await post(t.app, `/api/v0.1/crf/records/${ids.gone}/lock`, { reason: '' }, admin);
    expect(lock.status).toBe(409);
  });

  it("another app's administrator gets 404 and deletes nothing", async () => {
    const other = await otherAppAdministrator(t.app);
    const r = await post(t.app, `/api/v0.1/crf/records/${ids.keep}/delete`, { reason: '越权' }, other.key);
    expect(r.status).toBe(404);
    const [row] = await t.app.db.select().from(crfRecords).where(eq(crfRecords.id, ids.keep));
    expect(row!.deletedAt).toBeNull();
  });
});
