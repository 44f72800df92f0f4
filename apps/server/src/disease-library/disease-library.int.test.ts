import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  diseaseLibraries,
  diseaseLibraryFillLog,
  diseaseLibraryPatients,
} from '../db/schema/index.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { download, get, post, put, settleJob, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { enqueueDuePushes } from './push.js';
import {
  addPatient,
  csvLines,
  exportLibrary,
  HBV_CRITERIA,
  HBV_RULES,
  publishedHbvForm,
  seedHepatitisB,
} from './test/fixtures.js';

const P = '/api/v0.1/diseaselibrary';

describe('disease libraries: a hepatitis B library from the clinical data', () => {
  let t: TestApp;
  let admin: string;
  let appId: number;
  let formId: number;
  let libId: number;
  let ids: Awaited<ReturnType<typeof seedHepatitisB>>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    appId = await demoAppId(t.app);
    ids = await seedHepatitisB(t.app, appId);
    formId = await publishedHbvForm(t.app, admin);
  });
  afterAll(async () => t?.close());

  it('refuses a library with bad input, naming the field, and creates nothing', async () => {
    const bad = await post(
      t.app,
      `${P}/libraries`,
      {
        name: '乙肝库',
        crfFormId: formId,
        sourceRules: { alt: 'latest lab.value where code = "ALT" before yesterday' },
      },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('sourceRules.alt');
    const noItem = await post(
      t.app,
      `${P}/libraries`,
      { name: '乙肝库', crfFormId: formId, sourceRules: { nope: 'count visit' } },
      admin,
    );
    expect(noItem.status).toBe(400);
    expect(JSON.stringify(noItem.body)).toContain('sourceRules.nope');
    expect(noItem.body.message).toBe('请求参数错误：body.sourceRules.nope: 表单中没有这个键的题目');
    const noForm = await post(t.app, `${P}/libraries`, { name: '乙肝库', crfFormId: 999_999 }, admin);
    expect(noForm.status).toBe(400);
    expect(JSON.stringify(noForm.body)).toContain('crfFormId');
    expect(noForm.body.message).toContain('本应用没有这个 ID 的表单');
    const list = await get(t.app, `${P}/libraries`, admin);
    expect(list.body.data.total).toBe(0);
  });

  it('creates the library with criteria and rules, and the criteria preview counts two patients', async () => {
    const count = await post(t.app, `${P}/criteria/count`, HBV_CRITERIA, admin);
    expect(count.body.data.count).toBe(2);
    const res = await post(
      t.app,
      `${P}/libraries`,
      {
        name: '乙肝专病库',
        crfFormId: formId,
        criteria: HBV_CRITERIA,
        sourceRules: HBV_RULES,
        filingRule: 'firstVisit',
        searchFields: ['alt', 'admissions'],
      },
      admin,
    );
    expect(res.status).toBe(200);
    libId = res.body.data.id;
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'disease_library'), eq(auditLog.action, 'create')));
    expect(audits).toHaveLength(1);
  });

  it('pushes exactly the matching patients with their reasons; a second push adds only the new one', async () => {
    const job = await post(t.app, `${P}/libraries/${libId}/push`, {}, admin);
    expect(job.status).toBe(200);
    const first = await settleJob(t.app, admin, job.body.data.jobId);
    expect(first.status).toBe('succeeded');
    expect(first.result).toMatchObject({ matched: 2, added: 2, alreadyIn: 0 });
    const rows = await t.app.db
      .select()
      .from(diseaseLibraryPatients)
      .where(eq(diseaseLibraryPatients.libraryId, libId));
    expect(rows.map((r) => r.patientId).sort()).toEqual([ids.zhang, ids.li].sort());
    const zhang = rows.find((r) => r.patientId === ids.zhang)!;
    expect(zhang.reason).toEqual(['diagnosis B18']);
    // People read the reason in words, with the code's name, in their language (not "diagnosis B18").
    const listed = async (locale: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${P}/get_page_disease_library_patient_list`,
        headers: { WeAppAuthorization: admin, 'Accept-Language': locale },
        payload: { library_id: libId, page: 1, size: 20 },
      });
      const items = res.json().data.items as Array<{ patient_id: number; reason: string[] }>;
      return items.find((p) => p.patient_id === ids.zhang)!.reason;
    };
    expect(await listed('zh-CN')).toEqual(['诊断：慢性乙型病毒性肝炎 (B18)']);
    expect(await listed('en-US')).toEqual(['Diagnosis: 慢性乙型病毒性肝炎 (B18)']);
    const one = await get(t.app, `${P}/libraries/${libId}/patients/${ids.zhang}`, admin);
    expect(one.body.data.reason).toEqual(['诊断：慢性乙型病毒性肝炎 (B18)']);
    expect(zhang.filingDate).toBe('2024-01-05');
    expect(zhang.recordId).not.toBeNull();

    const qian = await addPatient(t.app, appId, {
      mrn: 'HB-5',
      name: '钱五',
      visits: [['inpatient', '2024-05-01']],
      diagnoses: [['B18.1', '慢性乙型病毒性肝炎', '2024-05-01']],
    });
    const again = await post(t.app, `${P}/libraries/${libId}/push`, {}, admin);
    await settleJob(t.app, admin, again.body.data.jobId);
    const pushes = await get(t.app, `${P}/libraries/${libId}/pushes`, admin);
    expect(pushes.body.data[0].result).toMatchObject({ matched: 3, added: 1, alreadyIn: 2 });
    const after = await t.app.db
      .select()
      .from(diseaseLibraryPatients)
      .where(eq(diseaseLibraryPatients.libraryId, libId));
    expect(after.map((r) => r.patientId).sort()).toEqual([ids.zhang, ids.li, qian].sort());
  });

  it('answers the computed-indicator call with code 200 and the values of chosen patients', async () => {
    const res = await post(
      t.app,
      `${P}/compute_indicator`,
      {
        template_str: 'latest lab.value where code = {{code}} before first_visit',
        template_params: { code: 'ALT' },
        library_id: libId,
      },
      admin,
    );
    expect(res.body.code).toBe(200);
    expect(res.body.data.text).toBe('latest lab.value where code = "ALT" before first_visit');
    expect(res.body.data.values).toEqual([expect.objectContaining({ patientId: ids.zhang, value: 80 })]);
    const missing = await post(
      t.app,
      `${P}/compute_indicator`,
      { template_str: 'latest lab.value where code = {{code}}' },
      admin,
    );
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('template_params.code');
    expect(missing.body.message).toContain('参数 code 没有给值');
  });

  it('fills machine values, keeps manual ones and logs where each value came from', async () => {
    // 李二's ALT is entered by hand before any fill.
    const li = await get(t.app, `${P}/libraries/${libId}/patients/${ids.li}`, admin);
    const saved = await put(
      t.app,
      `${P}/libraries/${libId}/patients/${ids.li}/record`,
      { answers: { alt: 45 }, revision: li.body.data.record.revision },
      admin,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data.manual).toEqual(['alt']);

    const fill = await post(t.app, `${P}/libraries/${libId}/fill`, {}, admin);
    await settleJob(t.app, admin, fill.body.data.jobId);
    const zhang = await get(t.app, `${P}/libraries/${libId}/patients/${ids.zhang}`, admin);
    expect(zhang.body.data.record.answers).toEqual({
      alt: 80,
      k74Date: '2024-03-05',
      admissions: 2,
      dischargeDx: '慢性乙型病毒性肝炎（出院）',
      age: 53,
    });
    expect(zhang.body.data.itemMethods).toMatchObject({ alt: 'machine', admissions: 'machine' });
    const li2 = await get(t.app, `${P}/libraries/${libId}/patients/${ids.li}`, admin);
    expect(li2.body.data.record.answers).toEqual({ alt: 45, admissions: 1, age: 69 });

    const log = await get(t.app, `${P}/libraries/${libId}/fill_log?patientId=${ids.li}&size=50`, admin);
    const byItem = Object.fromEntries(
      log.body.data.items.map((l: { itemKey: string; outcome: string }) => [l.itemKey, l.outcome]),
    );
    expect(byItem).toEqual({
      alt: 'keptManual',
      k74Date: 'noData',
      admissions: 'filled',
      dischargeDx: 'noData',
      age: 'filled',
    });
    const zAlt = await get(
      t.app,
      `${P}/libraries/${libId}/fill_log?patientId=${ids.zhang}&itemKey=alt`,
      admin,
    );
    expect(zAlt.body.data.items[0].source).toMatchObject({ table: 'lab_results', at: '2024-01-05T08:00:00' });

    // A second fill changes nothing and says so.
    const fill2 = await post(t.app, `${P}/libraries/${libId}/fill`, {}, admin);
    await settleJob(t.app, admin, fill2.body.data.jobId);
    const fills = await get(t.app, `${P}/libraries/${libId}/fills`, admin);
    expect(fills.body.data[0].result.counts).toMatchObject({ filled: 0, keptManual: 1, unchanged: 9 });
  });

  it('lists patients a page at a time with Patient_name and Filing_date', async () => {
    const p1 = await post(
      t.app,
      `${P}/get_page_disease_library_patient_list`,
      { library_id: libId, page: 1, size: 2 },
      admin,
    );
    expect(p1.body.code).toBe(200);
    expect(p1.body.data.total).toBe(3);
    expect(p1.body.data.items.map((i: { Patient_name: string }) => i.Patient_name)).toEqual(['张一', '李二']);
    expect(p1.body.data.items[0].Filing_date).toBe('2024-01-05');
    const p2 = await post(
      t.app,
      `${P}/get_page_disease_library_patient_list`,
      { library_id: libId, page: 2, size: 2 },
      admin,
    );
    expect(p2.body.data.items.map((i: { Patient_name: string }) => i.Patient_name)).toEqual(['钱五']);
    const filtered = await post(
      t.app,
      `${P}/get_page_disease_library_patient_list`,
      { library_id: libId, filters: { name: '李' } },
      admin,
    );
    expect(filtered.body.data.total).toBe(1);
    const bad = await post(
      t.app,
      `${P}/get_page_disease_library_patient_list`,
      { library_id: libId, size: 0 },
      admin,
    );
    expect(bad.status).toBe(400);
  });

  it('searches on indicator values and refuses items outside the search settings', async () => {
    const res = await post(
      t.app,
      `${P}/libraries/${libId}/search`,
      { conditions: [{ itemKey: 'admissions', op: '>=', value: 2 }] },
      admin,
    );
    expect(res.body.data.items.map((i: { name: string }) => i.name)).toEqual(['张一']);
    const empty = await post(
      t.app,
      `${P}/libraries/${libId}/search`,
      { conditions: [{ itemKey: 'alt', op: 'empty' }] },
      admin,
    );
    expect(empty.body.data.items.map((i: { name: string }) => i.name)).toEqual(['钱五']);
    const outside = await post(
      t.app,
      `${P}/libraries/${libId}/search`,
      { conditions: [{ itemKey: 'note', op: 'notEmpty' }] },
      admin,
    );
    expect(outside.status).toBe(400);
    expect(JSON.stringify(outside.body)).toContain('conditions.0.itemKey');
    expect(outside.body.message).toContain('该题目在本专病库中不可检索');
  });

  it('reports missing indicators and marks one as not obtainable with a reason', async () => {
    const m = await get(t.app, `${P}/libraries/${libId}/missing?itemKey=k74Date`, admin);
    const k74 = m.body.data.items.find((i: { key: string }) => i.key === 'k74Date');
    expect(k74).toMatchObject({ total: 3, missing: 2 });
    expect(m.body.data.patients.map((p: { name: string }) => p.name).sort()).toEqual(['李二', '钱五'].sort());
    const noReason = await post(
      t.app,
      `${P}/libraries/${libId}/patients/${ids.li}/unobtainable`,
      { itemKey: 'k74Date' },
      admin,
    );
    expect(noReason.status).toBe(400);
    const mark = await post(
      t.app,
      `${P}/libraries/${libId}/patients/${ids.li}/unobtainable`,
      { itemKey: 'k74Date', reason: '外院诊断，无记录' },
      admin,
    );
    expect(mark.body.data.unobtainable).toEqual({ k74Date: '外院诊断，无记录' });
    const m2 = await get(t.app, `${P}/libraries/${libId}/missing`, admin);
    expect(m2.body.data.items.find((i: { key: string }) => i.key === 'k74Date')).toMatchObject({
      missing: 2,
      unobtainable: 1,
    });
  });

  it('computes statistics that match hand-computed values', async () => {
    const res = await post(
      t.app,
      `${P}/libraries/${libId}/statistics`,
      { itemKeys: ['admissions', 'age'] },
      admin,
    );
    const adm = res.body.data.items[0].summary;
    // admissions 2, 1, 1: mean 4/3, SD sqrt(1/3), median 1.
    expect(adm.n).toBe(3);
    expect(adm.mean).toBeCloseTo(4 / 3, 10);
    expect(adm.sd).toBeCloseTo(Math.sqrt(1 / 3), 10);
    expect(adm.median).toBe(1);
    const cmp = await post(
      t.app,
      `${P}/libraries/${libId}/statistics`,
      { itemKeys: ['age'], compare: { itemKey: 'admissions', a: 1, b: 2 } },
      admin,
    );
    expect(cmp.body.data.groups).toEqual({ a: 2, b: 1 });
  });

  it('exports chosen indicators as CSV and XLSX with a data dictionary', async () => {
    const { jobId, file } = await exportLibrary(t.app, admin, libId, ['alt', 'admissions']);
    const lines = csvLines(file.body);
    expect(lines[0]).toBe('patient_id,mrn,name,filing_date,alt,admissions');
    expect(lines[1]).toBe(`${ids.zhang},HB-1,张一,2024-01-05,80,2`);
    const dict = await download(t.app, `${P}/exports/${jobId}/download?dictionary=1`, admin);
    expect(dict.body).toContain('alt,基线 ALT (U/L),textQuestion,"latest lab.value where code = ""ALT""');
    const { file: xf } = await exportLibrary(t.app, admin, libId, ['alt'], 'xlsx');
    expect(xf.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const bad = await post(t.app, `${P}/libraries/${libId}/export`, { itemKeys: ['nope'] }, admin);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('itemKeys.0');
    expect(bad.body.message).toBe('请求参数错误：body.itemKeys.0: 专病库的表单中没有这个键的题目');
  });

  it('answers the workbench statistics calls and the dashboard', async () => {
    const s = await get(t.app, `${P}/disease_library_statistics`, admin);
    expect(s.body).toMatchObject({ code: 200, data: { libraries: 1, patients: 3 } });
    const r = await get(t.app, `${P}/rdr_statistics`, admin);
    expect(r.body.data).toMatchObject({ patients: 5, libraryRecords: 3 });
    const d = await get(t.app, `${P}/libraries/${libId}/dashboard`, admin);
    expect(d.body.data.enrolment).toEqual([
      { month: '2024-01', count: 1 },
      { month: '2024-02', count: 1 },
      { month: '2024-05', count: 1 },
    ]);
  });

  it('repeats a push on its schedule, once per due time', async () => {
    await put(t.app, `${P}/libraries/${libId}`, { pushEveryHours: 24 }, admin);
    await t.app.db.execute(
      sql`update disease_libraries set next_push_at = now() - interval '1 minute' where id = ${libId}`,
    );
    expect(await enqueueDuePushes(t.app.db)).toBe(1);
    expect(await enqueueDuePushes(t.app.db)).toBe(0);
    const queued = await get(t.app, `${P}/libraries/${libId}/pushes`, admin);
    await settleJob(t.app, admin, queued.body.data[0].id);
    const pushes = await get(t.app, `${P}/libraries/${libId}/pushes`, admin);
    expect(pushes.body.data[0]).toMatchObject({ scheduled: true, result: { added: 0, alreadyIn: 3 } });
  });

  it('refuses a user without the function (403) and hides the library from another hospital', async () => {
    const lab = await userWithoutRoles(t.app);
    const denied = await post(t.app, `${P}/libraries/${libId}/push`, {}, lab);
    expect(denied.status).toBe(403);
    const other = await otherAppAdministrator(t.app);
    await addPatient(t.app, other.appId, {
      mrn: 'HB-X',
      name: '外院乙肝',
      diagnoses: [['B18.1', '慢性乙型病毒性肝炎', '2024-01-01']],
    });
    expect((await get(t.app, `${P}/libraries/${libId}`, other.key)).status).toBe(404);
    expect((await post(t.app, `${P}/libraries/${libId}/push`, {}, other.key)).status).toBe(404);
    const list = await post(
      t.app,
      `${P}/get_page_disease_library_patient_list`,
      { library_id: libId },
      other.key,
    );
    expect(list.status).toBe(404);
    // The other hospital's hepatitis B patient never enters this library.
    const last = await post(t.app, `${P}/libraries/${libId}/push`, {}, admin);
    await settleJob(t.app, admin, last.body.data.jobId);
    const rows = await t.app.db
      .select()
      .from(diseaseLibraryPatients)
      .where(eq(diseaseLibraryPatients.libraryId, libId));
    expect(rows).toHaveLength(3);
  });

  it('leaves a deleted CRF record out of statistics, search, exports and fills', async () => {
    const zhang = await get(t.app, `${P}/libraries/${libId}/patients/${ids.zhang}`, admin);
    const recordId = zhang.body.data.record.id as number;
    const del = await post(t.app, `/api/v0.1/crf/records/${recordId}/delete`, { reason: '重复建档' }, admin);
    expect(del.status).toBe(200);
    const stats = await post(
      t.app,
      `${P}/libraries/${libId}/statistics`,
      { itemKeys: ['admissions'] },
      admin,
    );
    // 张一's two admissions are gone with the record: 李二 and 钱三 keep one each.
    expect(stats.body.data.items[0].summary).toMatchObject({ n: 2, mean: 1 });
    const { file } = await exportLibrary(t.app, admin, libId, ['alt']);
    expect(file.body).toContain(`${ids.zhang},HB-1,张一,2024-01-05,\r\n`);
    // A fill writes nothing into the deleted record.
    const fill = await post(t.app, `${P}/libraries/${libId}/fill`, {}, admin);
    await settleJob(t.app, admin, fill.body.data.jobId);
    const after = await get(t.app, `${P}/libraries/${libId}/patients/${ids.zhang}`, admin);
    expect(after.body.data.record.revision).toBe(zhang.body.data.record.revision + 1);
  });

  it('deleting a library keeps its filings and fill log, audited; the library leaves lists and answers 404', async () => {
    const rowsOf = async () => ({
      filings: (
        await t.app.db
          .select()
          .from(diseaseLibraryPatients)
          .where(eq(diseaseLibraryPatients.libraryId, libId))
      ).length,
      log: (
        await t.app.db.select().from(diseaseLibraryFillLog).where(eq(diseaseLibraryFillLog.libraryId, libId))
      ).length,
    });
    // Reading the fill log (it names patients) leaves one read row per page.
    const [last] = await t.app.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect((await get(t.app, `${P}/libraries/${libId}/fill_log?size=5`, admin)).status).toBe(200);
    const reads = await t.app.db.select().from(auditLog).where(gt(auditLog.id, last!.id));
    expect(reads.map((r) => [r.action, r.entity])).toEqual([['read', 'disease_library_fill_log']]);
    const before = await rowsOf();
    expect(before.filings).toBe(3);
    expect(before.log).toBeGreaterThan(0);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${P}/libraries/${libId}`,
      headers: { WeAppAuthorization: admin },
    });
    expect(del.statusCode).toBe(200);
    // The rows stay in the database.
    expect(await rowsOf()).toEqual(before);
    const [lib] = await t.app.db.select().from(diseaseLibraries).where(eq(diseaseLibraries.id, libId));
    expect(lib?.deletedAt).not.toBeNull();
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'disease_library'),
          eq(auditLog.action, 'delete'),
          eq(auditLog.entityId, String(libId)),
        ),
      );
    expect(audits).toHaveLength(1);
    // Gone from the lists and the workbench count.
    const list = await get(t.app, `${P}/libraries`, admin);
    expect(list.body.data.items.map((l: { id: number }) => l.id)).not.toContain(libId);
    const storage = await get(t.app, `${P}/storage`, admin);
    expect(storage.body.data.map((l: { id: number }) => l.id)).not.toContain(libId);
    const stats = await get(t.app, `${P}/disease_library_statistics`, admin);
    expect(stats.body.data.byLibrary.map((l: { id: number }) => l.id)).not.toContain(libId);
    // Every use answers 404, like a library that never existed.
    expect((await get(t.app, `${P}/libraries/${libId}`, admin)).status).toBe(404);
    expect((await post(t.app, `${P}/libraries/${libId}/push`, {}, admin)).status).toBe(404);
    expect((await post(t.app, `${P}/libraries/${libId}/fill`, {}, admin)).status).toBe(404);
    expect((await get(t.app, `${P}/libraries/${libId}/fill_log`, admin)).status).toBe(404);
    expect((await get(t.app, `${P}/libraries/${libId}/patients/${ids.li}`, admin)).status).toBe(404);
    const page = await post(
      t.app,
      `${P}/get_page_disease_library_patient_list`,
      { library_id: libId },
      admin,
    );
    expect(page.status).toBe(404);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${P}/libraries/${libId}`,
      headers: { WeAppAuthorization: admin },
    });
    expect(again.statusCode).toBe(404);
    // Its name is free for a new library.
    const reused = await post(
      t.app,
      `${P}/libraries`,
      { name: '乙肝专病库', crfFormId: formId, criteria: HBV_CRITERIA, sourceRules: HBV_RULES },
      admin,
    );
    expect(reused.status).toBe(200);
  });
});
