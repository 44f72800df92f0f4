import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog, observations } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { settleJob, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { call, smallCdr } from './test/cdr.js';

const P = '/api/v0.1/observation';

/**
 * The observation store: a transform task turns a small CDR into observations (full, then
 * incremental: only new, changed and deleted rows), the term-mapping screen writes the coding
 * area's own mapping, and the dashboard counts admissions, labs and operations per day and
 * department. PGlite by default; PostgreSQL with DATABASE_URL.
 */
describe('observation database', () => {
  let t: TestApp;
  let key: string;
  let appId: number;
  let taskId: number;
  let cdr: Awaited<ReturnType<typeof smallCdr>>;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.jobs.stop();
    // A hospital of its own, so the counts are exactly this test's data.
    ({ key, appId } = await otherAppAdministrator(t.app));
    cdr = await smallCdr(t.app, key, [
      { mrn: 'OB-1', day: '2026-03-02', department: '消化内科' },
      { mrn: 'OB-2', day: '2026-03-02', department: '肝胆外科' },
      { mrn: 'OB-3', day: '2026-03-04', department: '消化内科' },
    ]);
  });
  afterAll(async () => t?.close());

  const run = async (full = false) => {
    const r = await call(t.app, 'POST', `${P}/tasks/${taskId}/run`, key, { full });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const job = await settleJob(t.app, key, r.body.data.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const runs = await call(t.app, 'GET', `${P}/tasks/${taskId}/runs`, key);
    return runs.body.data.items[0];
  };

  it('first a data manager adds a task over every domain; its first run takes the whole CDR', async () => {
    const made = await call(t.app, 'POST', `${P}/tasks`, key, {
      name: '全院观察库',
      domains: ['visit', 'diagnosis', 'lab', 'operation', 'drug', 'vital'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    taskId = made.body.data.id;
    expect(made.body.data).toMatchObject({ hasWatermark: false, lastRun: null });
    const first = await run();
    expect(first).toMatchObject({ mode: 'full', status: 'succeeded' });
    expect(first.counts).toEqual({
      visit: { upserted: 3, deleted: 0 },
      diagnosis: { upserted: 3, deleted: 0 },
      lab: { upserted: 6, deleted: 0 },
      operation: { upserted: 3, deleted: 0 },
      drug: { upserted: 3, deleted: 0 },
      vital: { upserted: 3, deleted: 0 },
    });
    const list = await call(t.app, 'GET', `${P}/tasks`, key);
    expect(list.body.data.store).toEqual({ visit: 3, diagnosis: 3, lab: 6, operation: 3, drug: 3, vital: 3 });
    expect(list.body.data.items[0]).toMatchObject({ id: taskId, hasWatermark: true });
    // One row per patient, concept, time and value: the lab's value, unit and the stay's department.
    const [lab] = await t.app.db
      .select()
      .from(observations)
      .where(
        and(
          eq(observations.appId, appId),
          eq(observations.sourceId, cdr[0]!.labIds[1]!),
          eq(observations.domain, 'lab'),
        ),
      );
    expect(lab).toMatchObject({
      concept: '丙氨酸氨基转移酶',
      localCode: 'ALT',
      valueNum: 55,
      unit: 'U/L',
      department: '消化内科',
      patientId: cdr[0]!.patientId,
    });
    const [dx] = await t.app.db
      .select()
      .from(observations)
      .where(and(eq(observations.appId, appId), eq(observations.domain, 'diagnosis')))
      .limit(1);
    // The local term is trimmed, as the coding area keys its mappings.
    expect(dx!.concept).toBe('高血压');
  });

  it('a second run takes only what changed: nothing, then one new, one changed and one deleted lab result', async () => {
    const idle = await run();
    expect(idle.mode).toBe('incremental');
    for (const c of Object.values(idle.counts as Record<string, { upserted: number; deleted: number }>))
      expect(c).toEqual({ upserted: 0, deleted: 0 });
    // A collection run corrects one value and adds a result; another is withdrawn.
    await t.app.db.execute(sql`update lab_results set value_num = 60 where id = ${cdr[1]!.labIds[0]!}`);
    await t.app.db.execute(sql`delete from lab_results where id = ${cdr[2]!.labIds[1]!}`);
    const add = await call(t.app, 'POST', `/api/v0.1/cdr/patients/${cdr[1]!.patientId}/records`, key, {
      table: 'labResults',
      row: {
        visitId: cdr[1]!.visitId,
        itemCode: 'AST',
        itemName: '天门冬氨酸氨基转移酶',
        valueNum: 33,
        unit: 'U/L',
        collectedAt: '2026-03-03T08:00:00+08:00',
      },
    });
    expect(add.status).toBe(200);
    const next = await run();
    expect(next.mode).toBe('incremental');
    expect(next.counts.lab).toEqual({ upserted: 2, deleted: 1 });
    expect(next.counts.visit).toEqual({ upserted: 0, deleted: 0 });
    const [changed] = await t.app.db
      .select()
      .from(observations)
      .where(and(eq(observations.domain, 'lab'), eq(observations.sourceId, cdr[1]!.labIds[0]!)));
    expect(changed!.valueNum).toBe(60);
    // A full run on demand rewrites nothing that is already right.
    const full = await run(true);
    expect(full.mode).toBe('full');
    expect(full.counts.lab).toEqual({ upserted: 0, deleted: 0 });
  });

  it('the dashboard counts admissions, lab results and operations per day and department from the store', async () => {
    const r = await call(t.app, 'GET', `${P}/activity?from=2026-03-01&to=2026-03-05`, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body.data;
    expect(d.days).toHaveLength(5);
    expect(d.days[1]).toEqual({ date: '2026-03-02', admissions: 2, labs: 4, operations: 2 });
    expect(d.days[2]).toEqual({ date: '2026-03-03', admissions: 0, labs: 1, operations: 0 });
    expect(d.days[3]).toEqual({ date: '2026-03-04', admissions: 1, labs: 1, operations: 1 });
    expect(d.totals).toEqual({ admissions: 3, labs: 6, operations: 3, patients: 3 });
    expect(d.byDepartment).toEqual([
      { department: '消化内科', admissions: 2, labs: 3, operations: 2 },
      { department: '肝胆外科', admissions: 1, labs: 3, operations: 1 },
    ]);
    expect([...d.departments].sort()).toEqual(['消化内科', '肝胆外科'].sort());
    expect(d.lastTransformAt).not.toBeNull();
    const one = await call(
      t.app,
      'GET',
      `${P}/activity?from=2026-03-01&to=2026-03-05&department=${encodeURIComponent('肝胆外科')}`,
      key,
    );
    expect(one.body.data.totals).toEqual({ admissions: 1, labs: 3, operations: 1, patients: 1 });
  });

  it('maps a local term through the coding area: the mapping is the coding screens’ own', async () => {
    const before = await call(t.app, 'GET', `${P}/terms?domain=diagnosis`, key);
    expect(before.body.data).toEqual({
      total: 1,
      items: [
        expect.objectContaining({
          term: '高血压',
          localCode: 'I10',
          rows: 3,
          patients: 3,
          mapped: false,
          code: null,
          systemKey: 'ICD10',
        }),
      ],
    });
    const bad = await call(
      t.app,
      'POST',
      `${P}/terms/map`,
      key,
      { domain: 'diagnosis', term: '高血压', action: 'code', code: 'NOPE9' },
      'en-US',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('code');
    const ok = await call(t.app, 'POST', `${P}/terms/map`, key, {
      domain: 'diagnosis',
      term: '高血压',
      action: 'code',
      code: 'i10',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const after = await call(t.app, 'GET', `${P}/terms?domain=diagnosis&mapped=mapped`, key);
    expect(after.body.data.items[0]).toMatchObject({
      term: '高血压',
      mapped: true,
      code: 'I10',
      review: 'unreviewed',
    });
    // The coding area sees the same mapping, with the rows it codes.
    const coding = await call(t.app, 'GET', '/api/v0.1/coding/disease/mappings', key);
    expect(coding.body.data.items).toEqual([
      expect.objectContaining({ term: '高血压', code: 'I10', rows: 3 }),
    ]);
    const unmapped = await call(t.app, 'GET', `${P}/terms?domain=diagnosis&mapped=unmapped`, key);
    expect(unmapped.body.data.total).toBe(0);
    const reset = await call(t.app, 'POST', `${P}/terms/map`, key, {
      domain: 'diagnosis',
      term: '高血压',
      action: 'reset',
    });
    expect(reset.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v0.1/coding/disease/mappings', key)).body.data.total).toBe(0);
    const audits = await t.app.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.appId, appId), like(auditLog.action, 'observation.%')));
    expect(audits.map((a) => a.action).sort()).toEqual(
      [
        'observation.task.add',
        ...Array(4).fill('observation.task.run'),
        'observation.term.map',
        'observation.term.map',
      ].sort(),
    );
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/tasks', { name: '', domains: ['lab'] }, 'name'],
      ['POST', '/tasks', { name: 'x\u0000', domains: ['lab'] }, 'name'],
      ['POST', '/tasks', { name: 'x', domains: [] }, 'domains'],
      ['POST', '/tasks', { name: 'x', domains: ['lab', 'lab'] }, 'domains'],
      ['POST', '/tasks', { name: 'x'.repeat(61), domains: ['lab'] }, 'name'],
      ['POST', '/tasks', { name: 'x', domains: ['xray'] }, 'domains'],
      ['POST', '/terms/map', { domain: 'diagnosis', term: '高血压', action: 'code' }, 'code'],
      ['GET', '/activity?from=2026-03-05&to=2026-03-01', undefined, 'from'],
      ['GET', '/activity?from=2026-02-30&to=2026-03-01', undefined, 'from'],
      ['GET', '/terms?domain=vital', undefined, 'domain'],
    ];
    for (const [method, url, body, field] of cases) {
      const r = await call(t.app, method, P + url, key, body, 'en-US');
      expect(r.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.message, url).toContain(field);
    }
    const list = await call(t.app, 'GET', `${P}/tasks`, key);
    expect(list.body.data.items).toHaveLength(1);
  });

  it('keeps each app to its own tasks and refuses callers without the function', async () => {
    const admin = await signIn(t.app, 'admin');
    expect((await call(t.app, 'GET', `${P}/tasks/${taskId}`, admin)).status).toBe(404);
    expect((await call(t.app, 'POST', `${P}/tasks/${taskId}/run`, admin, {})).status).toBe(404);
    const demo = await call(t.app, 'GET', `${P}/activity?from=2026-03-01&to=2026-03-05`, admin);
    expect(demo.body.data.totals).toEqual({ admissions: 0, labs: 0, operations: 0, patients: 0 });
    const viewer = await demoUserWith(t.app, 'obs-viewer', ['ObservationDashboard.query']);
    expect((await call(t.app, 'GET', `${P}/activity?from=2026-03-01&to=2026-03-05`, viewer)).status).toBe(
      200,
    );
    expect((await call(t.app, 'GET', `${P}/tasks`, viewer)).status).toBe(403);
    expect((await call(t.app, 'POST', `${P}/tasks`, viewer, { name: 'x', domains: ['lab'] })).status).toBe(
      403,
    );
    expect(
      (await call(t.app, 'POST', `${P}/terms/map`, viewer, { domain: 'lab', term: 'x', action: 'noCode' }))
        .status,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${P}/tasks` })).statusCode).toBe(401);
  });

  it('deletes a task but keeps the observations it made', async () => {
    const del = await call(t.app, 'DELETE', `${P}/tasks/${taskId}`, key);
    expect(del.status).toBe(200);
    const list = await call(t.app, 'GET', `${P}/tasks`, key);
    expect(list.body.data.items).toEqual([]);
    expect(list.body.data.store.lab).toBe(6);
  });
});
