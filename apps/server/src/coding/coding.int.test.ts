import type {
  CodedRow,
  CodingAgreement,
  CodingItem,
  CodingMapping,
  CodingMarker,
  CodingReview,
  CodingReviewBatch,
  CodingTask,
} from '@crdp/core';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import {
  appMembers,
  apps,
  auditLog,
  diagnoses,
  labResults,
  operations,
  orders,
  patients,
  roles,
  roleUsers,
  users,
} from '../db/schema/index.js';
import { deleteOldJobs } from '../jobs/retention.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { get, post, settleJob, signIn, startTestApp, TEST_PASSWORD, type TestApp } from '../test/helper.js';

/**
 * Coding and coding QC (编码, 编码质控): a disease task over the CDR's diagnoses proposes ICD-10
 * codes with scores and reasons; a coder accepts, picks another, marks "no code" and accepts in
 * bulk; the mappings code every matching CDR row at read time (original text kept); a second
 * person reviews a sample, a disagreement goes back with its reason, agreement is counted per
 * coder and task; maintenance markers list mappings whose code was retired or whose version
 * changed. Operations take the same path with local ICD-9-CM-3 codes. Permissions, app scoping,
 * audit of every write, bad input. On PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
describe('coding and coding QC', () => {
  let t: TestApp;
  let admin: string;
  let reviewer: string;
  let nobody: string;
  let other: { appId: number; key: string };
  let demoAppId: number;
  const C = '/api/v0.1/coding';
  const audits = async (action: string) =>
    (await t.app.db.select().from(auditLog).where(eq(auditLog.action, action))).length;

  const DIAGNOSES: Array<[string, number]> = [
    ['慢乙肝', 3],
    ['2型糖尿病', 2],
    ['高血压病', 4],
    ['冠心病', 1],
    ['急性阑尾炎', 1],
    ['  慢乙肝 ', 1], // the same term once trimmed
    ['体检', 1],
  ];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    nobody = await userWithoutRoles(t.app);
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    demoAppId = demo!.appId;
    // A second person with the administrator's role: the reviewer.
    const [u] = await t.app.db
      .insert(users)
      .values({ userName: 'codingreviewer', passwordHash: await hashPassword(TEST_PASSWORD) })
      .returning();
    await t.app.db.insert(appMembers).values({ appId: demoAppId, userId: u!.userId });
    const [role] = await t.app.db.select().from(roles).where(eq(roles.roleName, '系统管理员'));
    await t.app.db.insert(roleUsers).values({ roleId: role!.roleId, userId: u!.userId });
    reviewer = await signIn(t.app, 'codingreviewer');
    // CDR rows: diagnoses and operations of two patients.
    const made = await t.app.db
      .insert(patients)
      .values([
        { appId: demoAppId, mrn: 'COD-1', name: '编码甲', sourceId: 'cod-1', source: 'synthetic' },
        { appId: demoAppId, mrn: 'COD-2', name: '编码乙', sourceId: 'cod-2', source: 'synthetic' },
      ])
      .returning({ id: patients.id });
    let n = 0;
    for (const [name, count] of DIAGNOSES)
      for (let i = 0; i < count; i++)
        await t.app.db.insert(diagnoses).values({
          appId: demoAppId,
          patientId: made[n % 2]!.id,
          name,
          icd10: name === '高血压病' ? 'HIS-77' : '',
          diagnosedAt: new Date('2026-01-02T08:00:00Z'),
          source: 'synthetic',
          sourceId: `cod-dx-${n++}`,
        });
    for (const [i, name] of ['腹腔镜胆囊切除术', '腹腔镜下胆囊切除术', '阑尾切除术'].entries())
      await t.app.db.insert(operations).values({
        appId: demoAppId,
        patientId: made[0]!.id,
        name,
        operatedAt: new Date('2026-01-03T08:00:00Z'),
        source: 'synthetic',
        sourceId: `cod-op-${i}`,
      });
  }, 120_000);
  afterAll(() => t?.close());

  const newTask = async (kind: string, name: string, key = admin) => {
    const res = await post(t.app, `${C}/${kind}/tasks`, { name }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const task = res.body.data as CodingTask;
    await settleJob(t.app, key, task.jobId!);
    return (await get(t.app, `${C}/${kind}/task?taskId=${task.id}`, key)).body.data as CodingTask;
  };
  const itemsOf = async (kind: string, taskId: number, key = admin) => {
    const res = await get(t.app, `${C}/${kind}/items?taskId=${taskId}`, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.items as CodingItem[];
  };
  let diseaseTask: CodingTask;

  it('collects the distinct diagnoses with counts and proposes ICD-10 codes with a score and a reason', async () => {
    diseaseTask = await newTask('disease', '首批诊断编码');
    expect(diseaseTask).toMatchObject({
      status: 'succeeded',
      terms: 6,
      rows: 13,
      pending: 6,
      systemKey: 'ICD10',
    });
    const items = await itemsOf('disease', diseaseTask.id);
    expect(items.map((i) => [i.term, i.rows])).toEqual([
      ['慢乙肝', 4],
      ['高血压病', 4],
      ['2型糖尿病', 2],
      ['体检', 1],
      ['冠心病', 1],
      ['急性阑尾炎', 1],
    ]);
    const top = Object.fromEntries(items.map((i) => [i.term, i.candidates[0]]));
    expect(top.慢乙肝).toMatchObject({ code: 'B18', reason: 'synonym' });
    expect(top['2型糖尿病']).toMatchObject({ code: 'E11', reason: 'synonym' });
    expect(top.急性阑尾炎).toMatchObject({ code: 'K35', reason: 'exact', score: 1 });
    expect(top.高血压病!.code).toBe('I10');
    for (const i of items) expect(i.candidates.length).toBeLessThanOrEqual(5);
    expect(await audits('coding.task.add')).toBe(1);
  });

  it('lets a coder accept, pick another code, mark no code and accept in bulk; every decision audited', async () => {
    const items = await itemsOf('disease', diseaseTask.id);
    const byTerm = Object.fromEntries(items.map((i) => [i.term, i]));
    const accept = await post(
      t.app,
      `${C}/disease/items/decide`,
      { itemId: byTerm.慢乙肝!.id, action: 'code', code: 'B18' },
      admin,
    );
    expect(accept.status, JSON.stringify(accept.body)).toBe(200);
    expect(accept.body.data).toMatchObject({ status: 'coded', code: 'B18', displayZh: '慢性病毒性肝炎' });
    // Picked by search: a code that was not among the candidates.
    const pick = await post(
      t.app,
      `${C}/disease/items/decide`,
      { itemId: byTerm.冠心病!.id, action: 'code', code: 'i25', how: 'search' },
      admin,
    );
    expect(pick.body.data).toMatchObject({ status: 'coded', code: 'I25' });
    const none = await post(
      t.app,
      `${C}/disease/items/decide`,
      { itemId: byTerm.体检!.id, action: 'noCode' },
      admin,
    );
    expect(none.body.data).toMatchObject({ status: 'noCode', code: null });
    const bulk = await post(
      t.app,
      `${C}/disease/items/bulk-accept`,
      { taskId: diseaseTask.id, minScore: 0.9 },
      admin,
    );
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.data.accepted).toBeGreaterThanOrEqual(2);
    const task = (await get(t.app, `${C}/disease/task?taskId=${diseaseTask.id}`, admin)).body
      .data as CodingTask;
    expect(task.pending + task.coded + task.noCode).toBe(6);
    expect(task.noCode).toBe(1);
    expect(await audits('coding.decide')).toBe(3);
    expect(await audits('coding.bulkAccept')).toBe(1);
    const mappings = (await get(t.app, `${C}/disease/mappings?size=50`, admin)).body.data
      .items as CodingMapping[];
    const hbv = mappings.find((m) => m.term === '慢乙肝')!;
    expect(hbv).toMatchObject({
      code: 'B18',
      how: 'suggestion',
      reason: 'synonym',
      rows: 4,
      review: 'unreviewed',
    });
    expect(mappings.find((m) => m.term === '冠心病')).toMatchObject({ how: 'search', code: 'I25' });
  });

  it('codes every matching CDR row at read time, keeping the original text, and future rows too', async () => {
    const rows = (await get(t.app, `${C}/disease/rows?size=100`, admin)).body.data.items as CodedRow[];
    const hbv = rows.filter((r) => r.originalText.trim() === '慢乙肝');
    expect(hbv).toHaveLength(4);
    expect(hbv.every((r) => r.code === 'B18' && r.systemKey === 'ICD10')).toBe(true);
    expect(hbv.some((r) => r.originalText === '  慢乙肝 ')).toBe(true);
    expect(rows.find((r) => r.originalText === '高血压病')).toMatchObject({ sourceCode: 'HIS-77' });
    expect(rows.find((r) => r.originalText === '体检')).toMatchObject({ code: null });
    // A row collected later is coded by the same mapping, without anyone touching it.
    const [p] = await t.app.db.select().from(patients).where(eq(patients.mrn, 'COD-1'));
    await t.app.db.insert(diagnoses).values({
      appId: demoAppId,
      patientId: p!.id,
      name: '慢乙肝',
      diagnosedAt: new Date(),
      source: 'synthetic',
      sourceId: 'cod-dx-later',
    });
    const [later] = await t.app.db
      .execute<{ code: string }>(
        sql`select code from cdr_coded_diagnoses where app_id = ${demoAppId} and original_text = '慢乙肝' order by id desc limit 1`,
      )
      .then((r) => (r as unknown as { rows: Array<{ code: string }> }).rows);
    expect(later!.code).toBe('B18');
    // The stored text is unchanged.
    const stored = await t.app.db.select().from(diagnoses).where(eq(diagnoses.sourceId, 'cod-dx-later'));
    expect(stored[0]!.name).toBe('慢乙肝');
    // A new task leaves out terms already mapped.
    const again = await newTask('disease', '第二批');
    expect(again.terms).toBe(
      6 -
        (await (async () => {
          const m = (await get(t.app, `${C}/disease/mappings?size=50`, admin)).body.data
            .items as CodingMapping[];
          return m.length;
        })()),
    );
  });

  it('codes operations through the same path with local ICD-9-CM-3 codes', async () => {
    const added = await post(
      t.app,
      '/api/v0.1/terminology/local-codes/surgery',
      { code: '51.2301', displayZh: '腹腔镜下胆囊切除术', synonyms: ['LC'] },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    await post(
      t.app,
      '/api/v0.1/terminology/local-codes/surgery',
      { code: '47.0901', displayZh: '阑尾切除术' },
      admin,
    );
    const task = await newTask('surgery', '手术编码');
    expect(task).toMatchObject({ terms: 3, systemKey: 'ICD9CM3' });
    const items = await itemsOf('surgery', task.id);
    const top = Object.fromEntries(items.map((i) => [i.term, i.candidates[0]]));
    expect(top.腹腔镜下胆囊切除术).toMatchObject({ code: '51.2301', reason: 'exact' });
    expect(top.腹腔镜胆囊切除术!.code).toBe('51.2301');
    expect(top.阑尾切除术).toMatchObject({ code: '47.0901', reason: 'exact' });
    const bulk = await post(
      t.app,
      `${C}/surgery/items/bulk-accept`,
      { taskId: task.id, minScore: 0.8 },
      admin,
    );
    expect(bulk.body.data.accepted).toBe(3);
    const rows = (await get(t.app, `${C}/surgery/rows`, admin)).body.data.items as CodedRow[];
    expect(rows.every((r) => r.code !== null)).toBe(true);
  });

  it('codes lab items to LOINC and drug orders to local drug codes through the same path', async () => {
    const [p] = await t.app.db.select().from(patients).where(eq(patients.mrn, 'COD-2'));
    for (const [i, name] of ['血红蛋白', '血红蛋白', '谷丙转氨酶'].entries())
      await t.app.db.insert(labResults).values({
        appId: demoAppId,
        patientId: p!.id,
        itemCode: `L${i}`,
        itemName: name,
        valueNum: 120,
        collectedAt: new Date('2026-01-04T08:00:00Z'),
        source: 'synthetic',
        sourceId: `cod-lab-${i}`,
      });
    const lab = await newTask('lab', '检验编码');
    expect(lab).toMatchObject({ systemKey: 'LOINC', terms: 2, rows: 3 });
    const labItems = await itemsOf('lab', lab.id);
    expect(labItems.find((i) => i.term === '血红蛋白')!.candidates[0]).toMatchObject({
      code: '718-7',
      reason: 'exact',
    });

    const drug = await post(
      t.app,
      '/api/v0.1/terminology/local-codes/drug',
      { code: 'B01AC06', displayZh: '阿司匹林', synonyms: ['拜阿司匹灵'] },
      admin,
    );
    expect(drug.status, JSON.stringify(drug.body)).toBe(200);
    for (const [i, [category, name]] of [
      ['drug', '拜阿司匹灵'],
      ['other', '一级护理'],
    ].entries())
      await t.app.db.insert(orders).values({
        appId: demoAppId,
        patientId: p!.id,
        category: category!,
        name: name!,
        startAt: new Date('2026-01-04T08:00:00Z'),
        source: 'synthetic',
        sourceId: `cod-ord-${i}`,
      });
    const drugs = await newTask('drug', '药品编码');
    // Only drug orders are drug terms.
    expect(drugs).toMatchObject({ systemKey: 'DRUG', terms: 1 });
    const [aspirin] = await itemsOf('drug', drugs.id);
    expect(aspirin!.candidates[0]).toMatchObject({
      code: 'B01AC06',
      reason: 'synonym',
      matched: '拜阿司匹灵',
    });
    const decided = await post(
      t.app,
      `${C}/drug/items/decide`,
      { itemId: aspirin!.id, action: 'code', code: 'B01AC06' },
      admin,
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const rows = (await get(t.app, `${C}/drug/rows`, admin)).body.data.items as CodedRow[];
    expect(rows).toEqual([expect.objectContaining({ originalText: '拜阿司匹灵', code: 'B01AC06' })]);
  });

  it('has a second person review a sample; a disagreement goes back with its reason; agreement per coder and task', async () => {
    const batch = await post(
      t.app,
      `${C}/qc/batches`,
      { kind: 'disease', taskId: diseaseTask.id, samplePercent: 100 },
      reviewer,
    );
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const reviews = (await get(t.app, `${C}/qc/reviews?batchId=${batch.body.data.id}`, reviewer)).body.data
      .items as CodingReview[];
    expect(reviews.length).toBeGreaterThanOrEqual(4);
    // The coder may not review their own coding.
    const own = await post(
      t.app,
      `${C}/qc/reviews/verdict`,
      { reviewId: reviews[0]!.id, verdict: 'agree' },
      admin,
    );
    expect(own.status).toBe(409);
    expect(own.body.message).toMatch(/第二人/);
    const noReason = await post(
      t.app,
      `${C}/qc/reviews/verdict`,
      { reviewId: reviews[0]!.id, verdict: 'disagree' },
      reviewer,
    );
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/reason/);
    const chd = reviews.find((r) => r.term === '冠心病')!;
    const no = await post(
      t.app,
      `${C}/qc/reviews/verdict`,
      {
        reviewId: chd.id,
        verdict: 'disagree',
        reason: '应编码到 I25.1 的类目，确认病历',
        suggestedCode: 'I20',
      },
      reviewer,
    );
    expect(no.status, JSON.stringify(no.body)).toBe(200);
    expect(no.body.data).toMatchObject({ verdict: 'disagree', reviewedByName: 'codingreviewer' });
    for (const r of reviews.filter((x) => x.id !== chd.id))
      expect(
        (await post(t.app, `${C}/qc/reviews/verdict`, { reviewId: r.id, verdict: 'agree' }, reviewer)).status,
      ).toBe(200);
    // Back to the coder: the item shows the reviewer's reason.
    const items = await itemsOf('disease', diseaseTask.id);
    expect(items.find((i) => i.term === '冠心病')).toMatchObject({
      review: 'disputed',
      reviewReason: expect.stringMatching(/I25\.1/),
    });
    const rates = (await get(t.app, `${C}/qc/agreement`, reviewer)).body.data as CodingAgreement[];
    const mine = rates.find(
      (r) => r.kind === 'disease' && r.taskId === diseaseTask.id && r.coderName === 'admin',
    )!;
    expect(mine.reviewed).toBe(reviews.length);
    expect(mine.agreed).toBe(reviews.length - 1);
    expect(mine.rate).toBeCloseTo((reviews.length - 1) / reviews.length);
    const batches = (await get(t.app, `${C}/qc/batches`, reviewer)).body.data.items as CodingReviewBatch[];
    expect(batches[0]).toMatchObject({
      reviewed: reviews.length,
      agreed: reviews.length - 1,
      taskName: '首批诊断编码',
    });
    // The coder decides again: the mapping is reviewed afresh.
    const redo = await post(
      t.app,
      `${C}/disease/items/decide`,
      { itemId: items.find((i) => i.term === '冠心病')!.id, action: 'code', code: 'I20' },
      admin,
    );
    expect(redo.body.data).toMatchObject({ code: 'I20', review: 'unreviewed' });
    expect(await audits('coding.review.verdict')).toBe(reviews.length);
    expect(await audits('coding.review.batch')).toBe(1);
    // A sample draws fewer.
    const half = await post(t.app, `${C}/qc/batches`, { kind: 'disease', samplePercent: 20 }, reviewer);
    const drawn = (await get(t.app, `${C}/qc/reviews?batchId=${half.body.data.id}`, reviewer)).body.data
      .total;
    expect(drawn).toBeLessThan(reviews.length);
    expect(drawn).toBeGreaterThan(0);
  });

  it('marks mappings whose code was retired or whose terminology version changed, and confirms one that still stands', async () => {
    expect((await get(t.app, `${C}/qc/markers`, admin)).body.data.total).toBe(0);
    // A new ICD-10 version that leaves out K35 (acute appendicitis): K35 is retired, the version changes.
    await t.app.db.execute(
      sql`update terminology_concepts set retired = true where system_key = 'ICD10' and code = 'K35'`,
    );
    await t.app.db.execute(
      sql`update terminology_systems set version = 'test-2027' where system_key = 'ICD10'`,
    );
    const markers = (await get(t.app, `${C}/qc/markers?size=100`, admin)).body.data.items as CodingMarker[];
    const k35 = markers.find((m) => m.code === 'K35')!;
    expect(k35.reasons).toEqual(['retired', 'versionChanged']);
    const b18 = markers.find((m) => m.code === 'B18')!;
    expect(b18).toMatchObject({ reasons: ['versionChanged'], currentVersion: 'test-2027' });
    const refused = await post(t.app, `${C}/qc/markers/confirm`, { mappingId: k35.mappingId }, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/mappingId/);
    const ok = await post(t.app, `${C}/qc/markers/confirm`, { mappingId: b18.mappingId }, admin);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const after = (await get(t.app, `${C}/qc/markers?size=100`, admin)).body.data.items as CodingMarker[];
    expect(after.find((m) => m.code === 'B18')).toBeUndefined();
    expect(await audits('coding.marker.confirm')).toBe(1);
    // A retired code is no longer accepted as a decision.
    const items = await itemsOf('disease', diseaseTask.id);
    const res = await post(
      t.app,
      `${C}/disease/items/decide`,
      { itemId: items[0]!.id, action: 'code', code: 'K35' },
      admin,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/code/);
  });

  it('enforces each action on the server and keeps each hospital to its own', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `${C}/disease/tasks`],
      ['POST', `${C}/disease/tasks`, { name: 'x' }],
      ['GET', `${C}/disease/items?taskId=${diseaseTask.id}`],
      ['POST', `${C}/disease/items/decide`, { itemId: 1, action: 'noCode' }],
      ['POST', `${C}/disease/items/bulk-accept`, { taskId: diseaseTask.id, minScore: 0.9 }],
      ['POST', `${C}/disease/tasks/delete`, { taskId: diseaseTask.id }],
      ['GET', `${C}/surgery/mappings`],
      ['GET', `${C}/lab/tasks`],
      ['GET', `${C}/drug/rows`],
      ['GET', `${C}/qc/batches`],
      ['POST', `${C}/qc/batches`, { kind: 'disease' }],
      ['GET', `${C}/qc/reviews`],
      ['POST', `${C}/qc/reviews/verdict`, { reviewId: 1, verdict: 'agree' }],
      ['GET', `${C}/qc/markers`],
      ['POST', `${C}/qc/markers/confirm`, { mappingId: 1 }],
    ];
    for (const [method, url, body] of calls) {
      const res = method === 'GET' ? await get(t.app, url, nobody) : await post(t.app, url, body, nobody);
      expect(res.status, `${method} ${url}`).toBe(403);
      const anonymous = method === 'GET' ? await get(t.app, url) : await post(t.app, url, body);
      expect(anonymous.status, `${method} ${url} without a session`).toBe(401);
    }
    // Another hospital sees none of this one's tasks, terms, mappings or reviews, and cannot change them.
    expect((await get(t.app, `${C}/disease/tasks`, other.key)).body.data.total).toBe(0);
    expect((await get(t.app, `${C}/disease/task?taskId=${diseaseTask.id}`, other.key)).status).toBe(404);
    expect((await get(t.app, `${C}/disease/items?taskId=${diseaseTask.id}`, other.key)).status).toBe(404);
    expect((await get(t.app, `${C}/disease/mappings`, other.key)).body.data.total).toBe(0);
    expect((await get(t.app, `${C}/disease/rows`, other.key)).body.data.total).toBe(0);
    expect((await get(t.app, `${C}/qc/reviews`, other.key)).body.data.total).toBe(0);
    const items = await itemsOf('disease', diseaseTask.id);
    const theirs = await post(
      t.app,
      `${C}/disease/items/decide`,
      { itemId: items[0]!.id, action: 'noCode' },
      other.key,
    );
    expect(theirs.status).toBe(404);
    const del = await post(t.app, `${C}/disease/tasks/delete`, { taskId: diseaseTask.id }, other.key);
    expect(del.status).toBe(404);
    // Their own task finds none of this hospital's diagnoses.
    const res = await post(t.app, `${C}/disease/tasks`, { name: '他院' }, other.key);
    const job = await settleJob(t.app, other.key, res.body.data.jobId);
    expect(job.result).toMatchObject({ terms: 0 });
  });

  it('refuses bad input with a 400 naming the problem, changing nothing', async () => {
    const count = async () =>
      Number(
        (
          (await t.app.db.execute(sql`select (select count(*) from coding_tasks) + (select count(*) from coding_mappings)
          + (select count(*) from coding_reviews) as n`)) as unknown as { rows: Array<{ n: number }> }
        ).rows[0]!.n,
      );
    const before = await count();
    const cases: Array<[string, unknown, RegExp]> = [
      [`${C}/disease/tasks`, { name: ' ' }, /name/],
      [`${C}/disease/tasks`, {}, /name/],
      [`${C}/disease/items/decide`, { itemId: 1, action: 'code' }, /code/],
      [`${C}/disease/items/decide`, { itemId: 1, action: 'code', code: '中文' }, /code/],
      [`${C}/disease/items/decide`, { itemId: 'x', action: 'noCode' }, /itemId/],
      [`${C}/disease/items/decide`, { itemId: 1, action: 'maybe' }, /action/],
      [`${C}/disease/items/bulk-accept`, { taskId: 1, minScore: 0.1 }, /minScore/],
      [`${C}/qc/batches`, { kind: 'tumour' }, /kind/],
      [`${C}/qc/batches`, { kind: 'disease', samplePercent: 0 }, /samplePercent/],
      [`${C}/qc/batches`, { kind: 'lab' }, /没有符合条件|no mappings/],
      [`${C}/qc/reviews/verdict`, { reviewId: 1, verdict: 'perhaps' }, /verdict/],
    ];
    for (const [url, body, message] of cases) {
      const res = await post(t.app, url, body, admin);
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.message, `${url} ${JSON.stringify(body)}`).toMatch(message);
    }
    expect((await get(t.app, `${C}/disease/items?taskId=0`, admin)).status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("keeps a coding task's job past the retention, and reads a task whose job is gone by its terms", async () => {
    const task = await newTask('surgery', '旧任务', admin);
    await t.app.db.execute(
      sql`update jobs set finished_at = now() - interval '400 days' where id = ${task.jobId}`,
    );
    expect(await deleteOldJobs(t.app.db, 30)).toBe(0);
    expect((await get(t.app, `${C}/surgery/task?taskId=${task.id}`, admin)).body.data.status).toBe(
      'succeeded',
    );
    // A task whose job was removed all the same (by hand) still opens when it holds terms.
    await t.app.db.execute(sql`delete from jobs where id = ${diseaseTask.jobId}`);
    const after = (await get(t.app, `${C}/disease/task?taskId=${diseaseTask.id}`, admin)).body
      .data as CodingTask;
    expect(after).toMatchObject({ jobId: null, status: 'succeeded', terms: 6 });
  });

  it('deletes a task, keeping its mappings', async () => {
    const before = (await get(t.app, `${C}/disease/mappings?size=100`, admin)).body.data.total;
    const res = await post(t.app, `${C}/disease/tasks/delete`, { taskId: diseaseTask.id }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await get(t.app, `${C}/disease/task?taskId=${diseaseTask.id}`, admin)).status).toBe(404);
    expect((await get(t.app, `${C}/disease/mappings?size=100`, admin)).body.data.total).toBe(before);
    expect(await audits('coding.task.delete')).toBe(1);
    const left = await t.app.db
      .select()
      .from(diagnoses)
      .where(inArray(diagnoses.sourceId, ['cod-dx-0']));
    expect(left).toHaveLength(1);
  });
});
