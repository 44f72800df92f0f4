import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_JOB } from '../clinical/imports/service.js';
import { auditLog, importRecords, jobs, scheduleRuns, schedules } from '../db/schema/index.js';
import {
  HBV_CRITERIA,
  HBV_RULES,
  publishedHbvForm,
  seedHepatitisB,
} from '../disease-library/test/fixtures.js';
import { enqueueJob } from '../jobs/runner.js';
import { demoAppId } from '../research/test/support.js';
import { otherAppAdministrator, userWithoutRoles } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { Scheduler } from './scheduler.js';

const P = '/api/v0.1/task-scheduling';

describe('task scheduling: jobs and schedules of one app', () => {
  let t: TestApp;
  let admin: string;
  let appId: number;
  let libId: number;
  let other: { appId: number; key: string };
  let otherLibId: number;
  /** The scheduler's clock in these tests: moved by hand, never read from the wall. */
  let now = new Date('2030-01-01T00:00:00Z');

  async function call(method: string, url: string, key: string, payload?: unknown, lang = 'zh-CN') {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { WeAppAuthorization: key, 'accept-language': lang },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }
  const countOf = async (table: typeof schedules | typeof jobs | typeof auditLog | typeof scheduleRuns) =>
    (await t.app.db.select({ n: count() }).from(table))[0]!.n;
  const schedule = async (id: number) =>
    (await t.app.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;
  const runsOf = async (id: number) =>
    t.app.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, id));
  async function makeLibrary(key: string, name: string) {
    const formId = await publishedHbvForm(t.app, key, `${name}表`);
    const lib = await post(
      t.app,
      '/api/v0.1/diseaselibrary/libraries',
      { name, crfFormId: formId, criteria: HBV_CRITERIA, sourceRules: HBV_RULES },
      key,
    );
    expect(lib.status).toBe(200);
    return lib.body.data.id as number;
  }
  async function create(body: Record<string, unknown>, key = admin) {
    return call('POST', `${P}/schedules`, key, body);
  }

  /** The id of a new schedule of the test library, made by the administrator. */
  async function libraryScheduleId(
    name: string,
    kind: string,
    cron: string,
    extra: Record<string, unknown> = {},
  ) {
    const c = await create({ name, kind, params: { libraryId: libId }, cron, ...extra });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    return c.body.data.id as number;
  }

  beforeAll(async () => {
    // One job at a time: the two pushes of one library below run in the order they were queued,
    // so the first adds the patients and the second finds them in (two slots would split them).
    t = await startTestApp({ jobConcurrency: 1 });
    t.app.scheduler.clock = () => now;
    admin = await signIn(t.app, 'admin');
    appId = await demoAppId(t.app);
    await seedHepatitisB(t.app, appId);
    libId = await makeLibrary(admin, '调度乙肝库');
    other = await otherAppAdministrator(t.app);
    otherLibId = await makeLibrary(other.key, '他院乙肝库');
  });
  afterAll(async () => t?.close());

  it('checks a cron expression and gives its next five run times in Asia/Shanghai', async () => {
    const r = await call('GET', `${P}/cron/next?cron=${encodeURIComponent('0 2 * * *')}`, admin);
    expect(r.status).toBe(200);
    expect(r.body.data.timezone).toBe('Asia/Shanghai');
    // 02:00 in Shanghai is 18:00 UTC of the day before, counted from the scheduler's clock.
    expect(r.body.data.next).toEqual([
      '2030-01-01T18:00:00.000Z',
      '2030-01-02T18:00:00.000Z',
      '2030-01-03T18:00:00.000Z',
      '2030-01-04T18:00:00.000Z',
      '2030-01-05T18:00:00.000Z',
    ]);
    const bad = await call(
      'GET',
      `${P}/cron/next?cron=${encodeURIComponent('61 * * * *')}`,
      admin,
      undefined,
      'en-US',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('query.cron');
    expect(bad.body.message).toContain('minute');
  });

  it('refuses bad input naming the field in both languages, and changes nothing', async () => {
    const before = { s: await countOf(schedules), a: await countOf(auditLog), j: await countOf(jobs) };
    const good = {
      name: '坏输入',
      kind: 'diseaseLibrary.push',
      params: { libraryId: libId },
      cron: '0 2 * * *',
    };
    const cases: Array<[Record<string, unknown>, string, string, string]> = [
      [{ ...good, cron: 'every day' }, 'body.cron', 'Cron 表达式无效', 'not a valid cron expression'],
      [{ ...good, cron: '0 0 2 * * *' }, 'body.cron', 'Cron 表达式无效', 'five fields'],
      [{ ...good, cron: '0 0 31 2 *' }, 'body.cron', '不会再触发', 'never fires again'],
      [{ ...good, kind: 'omop.export' }, 'body.kind', '不是可调度的作业类型', 'not a schedulable job kind'],
      [{ ...good, params: {} }, 'body.params.libraryId', '参数无效', 'invalid parameter'],
      [{ ...good, params: { libraryId: 'x' } }, 'body.params.libraryId', '参数无效', 'invalid parameter'],
      [
        { ...good, params: { libraryId: 999_999 } },
        'body.params.libraryId',
        '本应用没有这个 ID 的专病库',
        'no disease library of this app',
      ],
      // Another app's library is refused exactly like a missing one.
      [
        { ...good, params: { libraryId: otherLibId } },
        'body.params.libraryId',
        '本应用没有这个 ID 的专病库',
        'no disease library of this app',
      ],
    ];
    for (const [body, field, zh, en] of cases) {
      const z = await call('POST', `${P}/schedules`, admin, body, 'zh-CN');
      expect(z.status, JSON.stringify(body)).toBe(400);
      expect(z.body.message).toContain(field);
      expect(z.body.message).toContain(zh);
      const e = await call('POST', `${P}/schedules`, admin, body, 'en-US');
      expect(e.status).toBe(400);
      expect(e.body.message).toContain(field);
      expect(e.body.message).toContain(en);
    }
    expect({ s: await countOf(schedules), a: await countOf(auditLog), j: await countOf(jobs) }).toEqual(
      before,
    );
  });

  it('queues a due schedule exactly once per due time, even with two ticks (two processes) at once', async () => {
    now = new Date('2030-01-01T00:00:00Z');
    const c = await create({
      name: '每日推送',
      kind: 'diseaseLibrary.push',
      params: { libraryId: libId },
      cron: '0 2 * * *',
    });
    expect(c.status).toBe(200);
    const id = c.body.data.id as number;
    expect(c.body.data.nextRunAt).toBe('2030-01-01T18:00:00.000Z');
    const [created] = await t.app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'schedule'),
          eq(auditLog.entityId, String(id)),
          eq(auditLog.action, 'create'),
        ),
      );
    expect(created?.userName).toBe('admin');

    // Not due yet: nothing queued.
    expect(await t.app.scheduler.tick()).toBe(0);
    expect(await runsOf(id)).toHaveLength(0);

    // Due: this process's scheduler and a second one (another server process) tick at once.
    now = new Date('2030-01-01T18:00:30Z');
    const second = new Scheduler(t.app.db, t.app.scheduleKinds);
    second.clock = () => now;
    const queued = await Promise.all([t.app.scheduler.tick(), second.tick(), t.app.scheduler.tick()]);
    expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
    let runs = await runsOf(id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.dueAt?.toISOString()).toBe('2030-01-01T18:00:00.000Z');
    let s = await schedule(id);
    expect(s.lastJobId).toBe(runs[0]!.jobId);
    expect(s.nextRunAt?.toISOString()).toBe('2030-01-02T18:00:00.000Z');
    const [job] = await t.app.db.select().from(jobs).where(eq(jobs.id, runs[0]!.jobId!));
    expect(job?.kind).toBe('diseaseLibrary.push');
    expect(job?.params).toEqual({ libraryId: libId, scheduled: true });
    // The same instant again: nothing more.
    expect(await t.app.scheduler.tick()).toBe(0);

    // The next due time: one more job. Missed days (the servers were off) give one run, not a burst.
    now = new Date('2030-01-05T12:00:00Z');
    expect(await Promise.all([t.app.scheduler.tick(), second.tick()])).toSatisfy(
      (n: number[]) => n[0]! + n[1]! === 1,
    );
    runs = await runsOf(id);
    expect(runs).toHaveLength(2);
    s = await schedule(id);
    expect(s.nextRunAt?.toISOString()).toBe('2030-01-05T18:00:00.000Z');
    const tickAudits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'schedule.run'), eq(auditLog.entityId, String(id))));
    expect(tickAudits).toHaveLength(2);
    expect(tickAudits.every((a) => a.userName === 'schedule' && a.appId === appId)).toBe(true);

    // The queued push runs like the library's own and succeeds; the list shows it with its schedule.
    await t.app.jobs.drain();
    const list = await call('GET', `${P}/jobs?kind=diseaseLibrary.push`, admin);
    const row = list.body.data.list.find((j: { id: number }) => j.id === runs[0]!.jobId);
    expect(row.status).toBe('succeeded');
    expect(row.kindLabel).toBe('专病库患者推送');
    expect(row.schedule).toEqual({ id, name: '每日推送', trigger: 'schedule' });
    expect(row.createdBy).toBe('admin');
    // The result's numbers in words of the reader's language, the library id left out.
    expect(row.summary).toContain('新增 2');
    expect(row.summary).not.toContain('libraryId');
    const en = await call('GET', `${P}/jobs?kind=diseaseLibrary.push`, admin, undefined, 'en-US');
    expect(en.body.data.list[0].kindLabel).toBe('Disease library push');
    expect(en.body.data.list.find((j: { id: number }) => j.id === runs[0]!.jobId).summary).toContain(
      'added 2',
    );
    // The schedule's list row shows its last job's status.
    const sl = await call('GET', `${P}/schedules?name=${encodeURIComponent('每日推送')}`, admin);
    expect(sl.body.data.list[0].lastJob.status).toBe('succeeded');
    expect(sl.body.data.list[0].target).toBe('调度乙肝库');
  });

  it('never runs a disabled schedule; enabling counts the next run from now', async () => {
    now = new Date('2030-02-01T00:00:00Z');
    const id = await libraryScheduleId('停用的', 'diseaseLibrary.fill', '*/5 * * * *', { enabled: false });
    expect((await schedule(id)).nextRunAt).toBeNull();
    const id2 = await libraryScheduleId('后来停用的', 'diseaseLibrary.fill', '*/5 * * * *');
    const off = await call('POST', `${P}/schedules/${id2}/disable`, admin);
    expect(off.status).toBe(200);
    expect((await schedule(id2)).nextRunAt).toBeNull();
    for (const at of ['2030-02-01T01:00:00Z', '2030-03-01T00:00:00Z', '2031-01-01T00:00:00Z']) {
      now = new Date(at);
      await t.app.scheduler.tick();
    }
    expect(await runsOf(id)).toHaveLength(0);
    expect(await runsOf(id2)).toHaveLength(0);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'schedule'),
          eq(auditLog.entityId, String(id2)),
          eq(auditLog.action, 'disable'),
        ),
      );
    expect(audits).toHaveLength(1);

    const on = await call('POST', `${P}/schedules/${id2}/enable`, admin);
    expect(on.body.data.nextRunAt).toBe('2031-01-01T00:05:00.000Z');
    now = new Date('2031-01-01T00:05:00Z');
    expect(await t.app.scheduler.tick()).toBe(1);
    await call('POST', `${P}/schedules/${id2}/disable`, admin);
  });

  it('runs a schedule now without moving its next run; the job and the schedule show each other', async () => {
    now = new Date('2032-01-01T00:00:00Z');
    const id = await libraryScheduleId('立即运行', 'diseaseLibrary.fill', '0 3 * * 1');
    const nextBefore = (await schedule(id)).nextRunAt?.toISOString();
    const r = await call('POST', `${P}/schedules/${id}/run`, admin);
    expect(r.status).toBe(200);
    const jobId = r.body.data.jobId as number;
    await t.app.jobs.drain();
    const detail = await call('GET', `${P}/jobs/${jobId}`, admin);
    expect(detail.body.data.status).toBe('succeeded');
    expect(detail.body.data.params).toEqual({ libraryId: libId, scheduled: true });
    expect(detail.body.data.schedule).toEqual({ id, name: '立即运行', trigger: 'manual' });
    expect(detail.body.data.durationMs).toBeGreaterThanOrEqual(0);
    const s = await call('GET', `${P}/schedules/${id}`, admin);
    expect(s.body.data.nextRunAt).toBe(nextBefore);
    expect(s.body.data.lastJob).toEqual({ id: jobId, status: 'succeeded' });
    expect(s.body.data.runs).toEqual([
      expect.objectContaining({ jobId, trigger: 'manual', status: 'succeeded', dueAt: null }),
    ]);
    const audit = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'schedule.run'), eq(auditLog.entityId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toEqual({ trigger: 'manual', jobId });
  });

  it('a due run whose library is gone queues nothing, says why, and moves on', async () => {
    now = new Date('2033-01-01T00:00:00Z');
    const lib = await makeLibrary(admin, '将删除的库');
    const c = await create({
      name: '库已删除',
      kind: 'diseaseLibrary.push',
      params: { libraryId: lib },
      cron: '0 * * * *',
    });
    const id = c.body.data.id as number;
    const del = await call('DELETE', `/api/v0.1/diseaselibrary/libraries/${lib}`, admin);
    expect(del.status).toBe(200);
    const jobsOfLib = async () =>
      (
        await t.app.db
          .select({ n: count() })
          .from(jobs)
          .where(sql`${jobs.params}->>'libraryId' = ${String(lib)}`)
      )[0]!.n;
    const jobsBefore = await jobsOfLib();
    now = new Date('2033-01-01T01:00:00Z');
    await t.app.scheduler.tick();
    expect(await runsOf(id)).toHaveLength(0);
    expect(await jobsOfLib()).toBe(jobsBefore);
    const s = await schedule(id);
    expect(s.nextRunAt?.toISOString()).toBe('2033-01-01T02:00:00.000Z');
    const view = await call('GET', `${P}/schedules/${id}`, admin, undefined, 'en-US');
    expect(view.body.data.lastError).toContain('no disease library of this app');
    const [a] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'schedule.run'), eq(auditLog.entityId, String(id))));
    expect(a?.outcome).toBe('failure');
    await call('DELETE', `${P}/schedules/${id}`, admin);
    expect(await t.app.db.select().from(schedules).where(eq(schedules.id, id))).toHaveLength(0);
  });

  it('retries a failed job (a new job, linked both ways, audited) and words the failure in the reader language', async () => {
    const failed = await enqueueJob(t.app.db, {
      appId,
      kind: 'diseaseLibrary.push',
      params: { libraryId: 987_654 },
      createdBy: null,
    });
    await t.app.jobs.drain();
    const zh = await call('GET', `${P}/jobs/${failed.id}`, admin, undefined, 'zh-CN');
    expect(zh.body.data.status).toBe('failed');
    expect(zh.body.data.error).toContain('不存在');
    const en = await call('GET', `${P}/jobs/${failed.id}`, admin, undefined, 'en-US');
    expect(en.body.data.error).toContain('not found');

    const r = await call('POST', `${P}/jobs/${failed.id}/retry`, admin);
    expect(r.status).toBe(200);
    const retryId = r.body.data.jobId as number;
    expect(retryId).not.toBe(failed.id);
    const [nj] = await t.app.db.select().from(jobs).where(eq(jobs.id, retryId));
    expect(nj).toMatchObject({
      kind: 'diseaseLibrary.push',
      params: { libraryId: 987_654 },
      createdBy: expect.any(Number),
    });
    const oldView = await call('GET', `${P}/jobs/${failed.id}`, admin);
    expect(oldView.body.data.retriedAs).toEqual([retryId]);
    const newView = await call('GET', `${P}/jobs/${retryId}`, admin);
    expect(newView.body.data.retryOf).toBe(failed.id);
    expect(newView.body.data.createdBy).toBe('admin');
    const [a] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.retry'), eq(auditLog.entityId, String(failed.id))));
    expect(a?.after).toMatchObject({ retryJobId: retryId });
    await t.app.jobs.drain();

    // A job that succeeded is not retried.
    const ok = (await t.app.db.select().from(jobs).where(eq(jobs.status, 'succeeded')).limit(1))[0]!;
    const before = await countOf(jobs);
    const no = await call('POST', `${P}/jobs/${ok.id}/retry`, admin, undefined, 'en-US');
    expect(no.status).toBe(409);
    // A conflict with the data's state, not a malformed request: it says "Cannot be done".
    expect(no.body).toMatchObject({
      errorCode: 'request.conflict',
      message: 'Cannot be done: only a failed or cancelled job can be retried',
    });
    expect(await countOf(jobs)).toBe(before);
  });

  it('cancels a queued job (audited); a running job cannot be cancelled and says so', async () => {
    // A kind no runner of this process handles stays queued, like a job waiting for a worker.
    const q = await enqueueJob(t.app.db, { appId, kind: 'test.waiting', params: {}, createdBy: null });
    const r = await call('POST', `${P}/jobs/${q.id}/cancel`, admin);
    expect(r.status).toBe(200);
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.id, q.id));
    expect(row?.status).toBe('cancelled');
    expect(row?.finishedAt).not.toBeNull();
    const [a] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.cancel'), eq(auditLog.entityId, String(q.id))));
    expect(a?.userName).toBe('admin');
    const listed = await call('GET', `${P}/jobs?status=cancelled`, admin);
    expect(listed.body.data.list.map((j: { id: number }) => j.id)).toContain(q.id);

    const running = await enqueueJob(t.app.db, { appId, kind: 'test.waiting', params: {}, createdBy: null });
    await t.app.db
      .update(jobs)
      .set({ status: 'running', startedAt: new Date() })
      .where(eq(jobs.id, running.id));
    for (const [lang, words] of [
      ['zh-CN', '作业正在运行，不能取消'],
      ['en-US', 'the job is running and cannot be cancelled'],
    ] as const) {
      const no = await call('POST', `${P}/jobs/${running.id}/cancel`, admin, undefined, lang);
      expect(no.status).toBe(409);
      expect(no.body.message).toContain(words);
    }
    const [still] = await t.app.db.select().from(jobs).where(eq(jobs.id, running.id));
    expect(still?.status).toBe('running');
    // A cancelled job may be queued again.
    const again = await call('POST', `${P}/jobs/${q.id}/retry`, admin);
    expect(again.status).toBe(200);
    await t.app.db.delete(jobs).where(sql`kind = 'test.waiting'`);
  });

  it('a cancelled import says so on its record instead of waiting forever', async () => {
    // Attempts used up: no runner takes it, so it stays queued until cancelled.
    // Written with its attempts in one statement: a runner polling between an insert and an update
    // could claim it first (seen on PostgreSQL).
    const [job] = await t.app.db
      .insert(jobs)
      .values({ appId, kind: IMPORT_JOB, params: {}, createdBy: null, attempts: 3 })
      .returning();
    if (!job) throw new Error('job not written');
    const [rec] = await t.app.db
      .insert(importRecords)
      .values({ appId, jobId: job.id, format: 'csv', fileName: 'waiting.csv' })
      .returning();
    const r = await call('POST', `${P}/jobs/${job.id}/cancel`, admin);
    expect(r.status).toBe(200);
    const [after] = await t.app.db.select().from(importRecords).where(eq(importRecords.id, rec!.id));
    expect(after?.status).toBe('cancelled');
    expect(after?.finishedAt).not.toBeNull();
  });

  it('filters the job list by kind, status and time', async () => {
    const all = await call('GET', `${P}/jobs?size=100`, admin);
    expect(all.body.data.total).toBeGreaterThan(0);
    const fills = await call('GET', `${P}/jobs?kind=diseaseLibrary.fill&status=succeeded`, admin);
    expect(fills.body.data.list.length).toBeGreaterThan(0);
    expect(
      fills.body.data.list.every(
        (j: { kind: string; status: string }) => j.kind === 'diseaseLibrary.fill' && j.status === 'succeeded',
      ),
    ).toBe(true);
    const future = await call('GET', `${P}/jobs?from=${encodeURIComponent('2999-01-01T00:00:00Z')}`, admin);
    expect(future.body.data).toEqual({ list: [], total: 0 });
    const bad = await call('GET', `${P}/jobs?status=done`, admin, undefined, 'en-US');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('status');
    const kinds = await call('GET', `${P}/job-kinds`, admin);
    expect(kinds.body.data).toContainEqual({ kind: 'diseaseLibrary.push', label: '专病库患者推送' });
  });

  it("another app sees none of this app's schedules and jobs (404) and changes nothing", async () => {
    now = new Date('2034-01-01T00:00:00Z');
    const id = await libraryScheduleId('本院调度', 'diseaseLibrary.fill', '0 3 * * *');
    const [aJob] = await t.app.db.select().from(jobs).where(eq(jobs.appId, appId)).limit(1);
    const before = {
      s: JSON.stringify(await schedule(id)),
      j: await countOf(jobs),
      a: await countOf(auditLog),
    };
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `${P}/schedules/${id}`],
      ['PUT', `${P}/schedules/${id}`, { name: '偷改' }],
      ['DELETE', `${P}/schedules/${id}`],
      ['POST', `${P}/schedules/${id}/enable`],
      ['POST', `${P}/schedules/${id}/disable`],
      ['POST', `${P}/schedules/${id}/run`],
      ['GET', `${P}/jobs/${aJob!.id}`],
      ['POST', `${P}/jobs/${aJob!.id}/retry`],
      ['POST', `${P}/jobs/${aJob!.id}/cancel`],
    ];
    for (const [method, url, body] of attempts) {
      const r = await call(method, url, other.key, body);
      expect(r.status, `${method} ${url}`).toBe(404);
      expect(r.body.data ?? null).toBeNull();
    }
    const list = await call('GET', `${P}/schedules`, other.key);
    expect(list.body.data.list.map((s: { id: number }) => s.id)).not.toContain(id);
    const jl = await call('GET', `${P}/jobs?size=100`, other.key);
    expect(jl.body.data.list.some((j: { id: number }) => j.id === aJob!.id)).toBe(false);
    expect({
      s: JSON.stringify(await schedule(id)),
      j: await countOf(jobs),
      a: await countOf(auditLog),
    }).toEqual(before);
  });

  it('changes a schedule (audited; a new cron counts from now) and refuses a taken name', async () => {
    now = new Date('2035-06-01T00:00:00Z');
    const id = await libraryScheduleId('甲', 'diseaseLibrary.fill', '0 3 * * *');
    await libraryScheduleId('乙', 'diseaseLibrary.fill', '0 3 * * *');
    const taken = await call('PUT', `${P}/schedules/${id}`, admin, { name: '乙' }, 'en-US');
    expect(taken.status).toBe(400);
    expect(taken.body.message).toContain('body.name');
    const badCron = await call('PUT', `${P}/schedules/${id}`, admin, { cron: '* *' });
    expect(badCron.status).toBe(400);
    expect(badCron.body.message).toContain('body.cron');
    expect((await schedule(id)).cron).toBe('0 3 * * *');
    const u = await call('PUT', `${P}/schedules/${id}`, admin, { name: '甲二', cron: '30  4 * * *' });
    expect(u.status).toBe(200);
    expect(u.body.data.nextRunAt).toBe('2035-06-01T20:30:00.000Z');
    const s = await schedule(id);
    expect(s).toMatchObject({ name: '甲二', cron: '30 4 * * *' });
    const [audit] = await t.app.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'update'),
          eq(auditLog.entity, 'schedule'),
          eq(auditLog.entityId, String(id)),
        ),
      );
    expect(audit?.before).toMatchObject({ name: '甲', cron: '0 3 * * *' });
    expect(audit?.after).toMatchObject({ name: '甲二', cron: '30 4 * * *' });
  });

  it('asks for the functions of the route table', async () => {
    const nobody = await userWithoutRoles(t.app);
    for (const url of [`${P}/jobs`, `${P}/schedules`, `${P}/schedulable-kinds`]) {
      expect((await get(t.app, url, nobody)).status).toBe(403);
      expect((await get(t.app, url)).status).toBe(401);
    }
    const kinds = await call('GET', `${P}/schedulable-kinds`, admin);
    expect(kinds.body.data.kinds.map((k: { kind: string }) => k.kind)).toEqual([
      'diseaseLibrary.push',
      'diseaseLibrary.fill',
      'collection.run',
    ]);
  });
});
