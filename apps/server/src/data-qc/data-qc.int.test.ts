import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import {
  apps,
  auditLog,
  diagnoses,
  labResults,
  patients,
  qcFaults,
  qcPlans,
  qcRules,
  visits,
} from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { download, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { runTask } from './tasks.js';

/**
 * The QC story: a data manager of a small hospital (its own app, with a handful of known rows)
 * writes one rule of each kind, gathers them in a plan and runs it; each rule finds exactly the
 * rows at fault. Bad input is refused naming the field, the demo hospital sees none of it, every
 * write leaves an audit row, and the export holds the faults.
 */
const Q = '/api/v0.1/data-qc';
let t: TestApp;
let demoKey: string;
let key: string;
let appId: number;
/** Row ids by name: p0..p3 patients, v0..v2 visits, l0..l4 labs, d0..d2 diagnoses. */
const ids: Record<string, number> = {};

async function call(
  method: 'PUT' | 'DELETE' | 'POST' | 'GET',
  url: string,
  k: string,
  payload?: unknown,
  lang?: string,
) {
  const res = await t.app.inject({
    method,
    url,
    headers: { WeAppAuthorization: k, ...(lang ? { 'accept-language': lang } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  const json = res.headers['content-type']?.toString().includes('json');
  return { status: res.statusCode, body: json ? res.json() : null, headers: res.headers, text: res.body };
}

async function seed() {
  const people = [
    { name: '张三', phone: '13800000000', address: '北京', birthDate: '1980-01-01' },
    { name: '李四', phone: 'abc', address: '', birthDate: '2999-01-01' },
    { name: '王五', phone: '', address: '   ', birthDate: null },
    { name: '赵六', phone: '1380000000', address: '上海', birthDate: '1990-06-01' },
  ];
  const ps = await t.app.db
    .insert(patients)
    .values(people.map((p, i) => ({ appId, mrn: `QC-${i}`, source: 'synthetic', sourceId: `qc-${i}`, ...p })))
    .returning({ id: patients.id });
  ps.forEach((p, i) => {
    ids[`p${i}`] = p.id;
  });
  const vs = await t.app.db
    .insert(visits)
    .values(
      [
        ['p0', '2024-01-01T08:00:00Z', '2024-01-05T08:00:00Z'],
        ['p1', '2024-02-10T08:00:00Z', '2024-02-01T08:00:00Z'],
        ['p2', '2024-03-01T08:00:00Z', null],
      ].map(([p, a, d], i) => ({
        appId,
        patientId: ids[p!]!,
        kind: 'inpatient',
        admitAt: new Date(a!),
        dischargeAt: d ? new Date(d) : null,
        source: 'synthetic',
        sourceId: `qc-v${i}`,
      })),
    )
    .returning({ id: visits.id });
  vs.forEach((v, i) => {
    ids[`v${i}`] = v.id;
  });
  const labs = await t.app.db
    .insert(labResults)
    .values(
      (
        [
          ['p0', 'ALT', 40, ''],
          ['p1', 'ALT', 520, ''],
          ['p2', 'AST', 900, ''],
          ['p3', 'ALT', null, '阴性'],
          ['p3', 'ALT', -1, ''],
        ] as const
      ).map(([p, code, value, text], i) => ({
        appId,
        patientId: ids[p]!,
        itemCode: code,
        itemName: code,
        valueNum: value,
        valueText: text,
        collectedAt: new Date('2024-01-02T08:00:00Z'),
        source: 'synthetic',
        sourceId: `qc-l${i}`,
      })),
    )
    .returning({ id: labResults.id });
  labs.forEach((l, i) => {
    ids[`l${i}`] = l.id;
  });
  const ds = await t.app.db
    .insert(diagnoses)
    .values(
      [
        ['p0', 'main'],
        ['p1', 'secondary'],
        ['p2', 'other'],
      ].map(([p, kind], i) => ({
        appId,
        patientId: ids[p!]!,
        name: '诊断',
        kind: kind!,
        diagnosedAt: new Date('2024-01-02T08:00:00Z'),
        source: 'synthetic',
        sourceId: `qc-d${i}`,
      })),
    )
    .returning({ id: diagnoses.id });
  ds.forEach((d, i) => {
    ids[`d${i}`] = d.id;
  });
}

/** One rule of each kind, with the rows each must find (by seed name) and how many it checks. */
const RULES = [
  {
    body: { name: '地址必填', table: 'patients', kind: 'required', column: 'address' },
    faults: ['p1', 'p2'],
    checked: 4,
  },
  {
    body: {
      name: 'ALT 范围',
      table: 'labResults',
      kind: 'range',
      column: 'valueNum',
      min: 0,
      max: 200,
      filterColumn: 'itemCode',
      filterValue: 'ALT',
    },
    faults: ['l1', 'l4'],
    checked: 3,
  },
  {
    body: { name: '手机号格式', table: 'patients', kind: 'pattern', column: 'phone', pattern: '^1\\d{10}$' },
    faults: ['p1', 'p3'],
    checked: 3,
  },
  {
    body: {
      name: '诊断类型',
      table: 'diagnoses',
      kind: 'allowed',
      column: 'kind',
      values: ['main', 'secondary'],
      severity: 'warning',
    },
    faults: ['d2'],
    checked: 3,
  },
  {
    body: {
      name: '入院早于出院',
      table: 'visits',
      kind: 'date_order',
      column: 'admitAt',
      otherColumn: 'dischargeAt',
    },
    faults: ['v1'],
    checked: 2,
  },
  {
    body: { name: '出生日期不在未来', table: 'patients', kind: 'future_date', column: 'birthDate' },
    faults: ['p1'],
    checked: 3,
  },
];
const ruleIds: number[] = [];
let planId = 0;
let taskId = 0;

async function runPlan(plan: number) {
  const task = await call('POST', `${Q}/tasks`, key, { planId: plan });
  expect(task.status, JSON.stringify(task.body)).toBe(200);
  expect(task.body.data.status).toBe('queued');
  await t.app.jobs.drain();
  return task.body.data.id as number;
}

beforeAll(async () => {
  t = await startTestApp();
  demoKey = await signIn(t.app, 'admin');
  const other = await otherAppAdministrator(t.app);
  key = other.key;
  appId = other.appId;
  await seed();
});
afterAll(async () => t.close());

describe('data quality control', () => {
  it('first the data manager writes one rule of each kind and a plan of them', async () => {
    const catalogue = await call('GET', `${Q}/catalogue`, key);
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.data.tables.map((x: { key: string }) => x.key)).toContain('labResults');
    for (const r of RULES) {
      const res = await call('POST', `${Q}/rules`, key, r.body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ name: r.body.name, kind: r.body.kind, enabled: true });
      ruleIds.push(res.body.data.id);
    }
    const plan = await call('POST', `${Q}/plans`, key, { name: '入组前质控', ruleIds });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body.data.rules.map((r: { id: number }) => r.id)).toEqual(ruleIds);
    planId = plan.body.data.id;
    const list = await call('GET', `${Q}/rules?size=50`, key);
    expect(list.body.data.total).toBe(RULES.length);
  });

  it('running the plan finds exactly the faulty rows of each rule, with their patients', async () => {
    taskId = await runPlan(planId);
    const task = await call('GET', `${Q}/tasks/${taskId}`, key);
    expect(task.body.data).toMatchObject({ status: 'succeeded', rules: RULES.length, skipped: 0 });
    const report = await call('GET', `${Q}/reports/${taskId}`, key);
    expect(report.status).toBe(200);
    const rows = report.body.data.rules as Array<{
      id: number;
      name: string;
      checked: number;
      faults: number;
      passRate: number;
    }>;
    const totalChecked = RULES.reduce((s, r) => s + r.checked, 0);
    const totalFaults = RULES.reduce((s, r) => s + r.faults.length, 0);
    expect(report.body.data.overall).toMatchObject({
      checked: totalChecked,
      faults: totalFaults,
      skipped: 0,
    });
    expect(report.body.data.overall.passRate).toBeCloseTo((totalChecked - totalFaults) / totalChecked, 10);
    for (const [i, r] of RULES.entries()) {
      const row = rows[i]!;
      expect(row.name).toBe(r.body.name);
      expect({ checked: row.checked, faults: row.faults }, r.body.name).toEqual({
        checked: r.checked,
        faults: r.faults.length,
      });
      expect(row.passRate).toBeCloseTo((r.checked - r.faults.length) / r.checked, 10);
      const faults = await call('GET', `${Q}/reports/${taskId}/faults?taskRuleId=${row.id}&size=50`, key);
      expect(faults.status).toBe(200);
      const found = (faults.body.data.items as Array<{ rowId: number }>)
        .map((f) => f.rowId)
        .sort((a, b) => a - b);
      expect(found, r.body.name).toEqual(r.faults.map((n) => ids[n]!).sort((a, b) => a - b));
    }
    // The date-order fault names both dates and its patient.
    const order = await call('GET', `${Q}/reports/${taskId}/faults?taskRuleId=${rows[4]!.id}`, key);
    expect(order.body.data.items[0]).toMatchObject({
      patientName: '李四',
      patientMrn: 'QC-1',
      value: '2024-02-10T08:00:00Z',
      otherValue: '2024-02-01T08:00:00Z',
    });
    expect(order.body.data.items[0].message).toContain('晚于');
    // Searching by patient narrows the list.
    const li = await call(
      'GET',
      `${Q}/reports/${taskId}/faults?keyword=${encodeURIComponent('李四')}&size=50`,
      key,
    );
    expect(li.body.data.total).toBe(5);
    expect(new Set(li.body.data.items.map((f: { patientId: number }) => f.patientId))).toEqual(
      new Set([ids.p1]),
    );
  });

  it('keeps at most the cap of faulty rows per rule, with the true count', async () => {
    const task = await call('POST', `${Q}/tasks`, key, { planId });
    const id = task.body.data.id as number;
    // After its job, the same task is run again with a cap of 1 (a rerun starts over).
    await t.app.jobs.drain();
    const result = await runTask(t.app.db, appId, id, ruleIds, undefined, 1);
    expect(result.faults).toBe(9);
    const report = await call('GET', `${Q}/reports/${id}`, key);
    const required = report.body.data.rules[0];
    expect(required).toMatchObject({ faults: 2, stored: 1 });
    const stored = await t.app.db.select().from(qcFaults).where(eq(qcFaults.taskId, id));
    expect(stored).toHaveLength(RULES.length);
    // An attempt that another attempt of the job has taken over stops before its next rule.
    await expect(runTask(t.app.db, appId, id, ruleIds, undefined, 1, async () => false)).rejects.toThrow(
      /taken over/,
    );
  });

  it('words a failed task in the reader’s language when its job kept the message key', async () => {
    const task = await call('POST', `${Q}/tasks`, key, { planId });
    const id = task.body.data.id as number;
    await t.app.jobs.drain();
    // A failure as the runner stores one: English text, and the key to word it again.
    await t.app.db.execute(sql`update jobs set status = 'failed', error = 'Please log in first',
      result = '{"failure":{"key":"auth.required","values":{}}}'::jsonb
      where id = (select job_id from qc_tasks where id = ${id})`);
    const zh = await call('GET', `${Q}/tasks/${id}`, key, undefined, 'zh-CN');
    expect(zh.body.data).toMatchObject({ status: 'failed', error: '请先登录' });
    const en = await call('GET', `${Q}/tasks?page=1&size=50`, key, undefined, 'en-US');
    expect(en.body.data.items.find((x: { id: number }) => x.id === id).error).toBe('Please log in first');
  });

  it('refuses bad rules naming the field, in Chinese and English, and changes nothing', async () => {
    const count = async () => {
      const [r] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(qcRules);
      const [a] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
      return { rules: r!.n, audit: a!.n };
    };
    const before = await count();
    const base = { name: '坏规则', table: 'patients', kind: 'required', column: 'address' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ table: 'pg_user' }, 'body.table'],
      [{ column: 'password_hash' }, 'body.column'],
      [{ column: 'valueNum' }, 'body.column'],
      [{ kind: 'range', column: 'gender' }, 'body.min'],
      [{ kind: 'range', column: 'gender', min: 5, max: 1 }, 'body.max'],
      [{ kind: 'range', column: 'name', min: 1 }, 'body.column'],
      [{ kind: 'pattern', column: 'phone' }, 'body.pattern'],
      [{ kind: 'pattern', column: 'phone', pattern: '(' }, 'body.pattern'],
      [{ kind: 'pattern', column: 'phone', pattern: '^(a+)+$' }, 'body.pattern'],
      [{ kind: 'pattern', column: 'phone', pattern: '^(\\d)\\1$' }, 'body.pattern'],
      [{ kind: 'pattern', column: 'phone', pattern: '^(?<y>\\d+)$' }, 'body.pattern'],
      [{ kind: 'allowed', column: 'name', values: [' '] }, 'body.values'],
      [{ kind: 'allowed', column: 'gender', values: ['1', 'x'] }, 'body.values.1'],
      [{ kind: 'date_order', column: 'birthDate' }, 'body.otherColumn'],
      [{ kind: 'date_order', column: 'birthDate', otherColumn: 'birthDate' }, 'body.otherColumn'],
      [{ kind: 'date_order', column: 'birthDate', otherColumn: 'name' }, 'body.otherColumn'],
      [{ filterValue: 'ALT' }, 'body.filterColumn'],
      [{ filterColumn: 'gender', filterValue: '1' }, 'body.filterColumn'],
      [{ filterColumn: 'mrn' }, 'body.filterValue'],
      [{ kind: 'sql' }, 'body.kind'],
      [{ name: '' }, 'body.name'],
    ];
    for (const [change, field] of cases) {
      const zh = await call('POST', `${Q}/rules`, key, { ...base, ...change });
      expect(zh.status, JSON.stringify(change)).toBe(400);
      expect(zh.body.field, JSON.stringify(change)).toBe(field);
      expect(zh.body.message).toContain(field);
      expect(zh.body.message).toMatch(/[\u4e00-\u9fa5]/);
      const en = await call('POST', `${Q}/rules`, key, { ...base, ...change }, 'en-US');
      expect(en.body.message).toContain(field);
      expect(en.body.message).not.toMatch(/[\u4e00-\u9fa5]{2}/);
    }
    // A change to an existing rule is refused the same way and leaves the rule as it was.
    const put = await call('PUT', `${Q}/rules/${ruleIds[1]}`, key, { ...RULES[1]!.body, min: 300, max: 1 });
    expect(put.body.field).toBe('body.max');
    const rule = await call('GET', `${Q}/rules/${ruleIds[1]}`, key);
    expect(rule.body.data).toMatchObject({ min: 0, max: 200 });
    // Plans: a rule of another app, a repeated rule, no rule at all.
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    const [demoRule] = await t.app.db
      .insert(qcRules)
      .values({ appId: demo!.appId, name: 'demo', tableKey: 'patients', kind: 'required', columnKey: 'name' })
      .returning();
    const bad = await call('POST', `${Q}/plans`, key, { name: 'x', ruleIds: [ruleIds[0], demoRule!.id] });
    expect(bad.body.field).toBe('body.ruleIds.1');
    const twice = await call('POST', `${Q}/plans`, key, { name: 'x', ruleIds: [ruleIds[0], ruleIds[0]] });
    expect(twice.body.field).toBe('body.ruleIds.1');
    const none = await call('POST', `${Q}/plans`, key, { name: 'x', ruleIds: [] });
    expect(none.body.field).toBe('body.ruleIds');
    const noPlan = await call('POST', `${Q}/tasks`, key, { planId: 999_999 });
    expect(noPlan.body.field).toBe('body.planId');
    await t.app.db.delete(qcRules).where(eq(qcRules.id, demoRule!.id));
    expect(await count()).toEqual(before);
  });

  it('a plan refuses disabled rules; a rule disabled later is skipped when the plan runs', async () => {
    const off = await call('POST', `${Q}/rules/${ruleIds[5]}/disable`, key);
    expect(off.body.data.enabled).toBe(false);
    const refused = await call('POST', `${Q}/plans`, key, {
      name: '含停用规则',
      ruleIds: [ruleIds[0], ruleIds[5]],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('body.ruleIds.1');
    const id = await runPlan(planId);
    const report = await call('GET', `${Q}/reports/${id}`, key);
    const skipped = report.body.data.rules[5];
    expect(skipped).toMatchObject({ skipped: true, checked: 0, faults: 0, passRate: null });
    expect(report.body.data.overall.skipped).toBe(1);
    const faults = await call('GET', `${Q}/reports/${id}/faults?taskRuleId=${skipped.id}`, key);
    expect(faults.body.data.total).toBe(0);
    // A plan of disabled rules only, or a disabled plan, does not run.
    const single = await call('POST', `${Q}/plans`, key, { name: '单规则', ruleIds: [ruleIds[0]] });
    await call('POST', `${Q}/rules/${ruleIds[0]}/disable`, key);
    const noRule = await call('POST', `${Q}/tasks`, key, { planId: single.body.data.id });
    expect(noRule.body.field).toBe('body.planId');
    await call('POST', `${Q}/rules/${ruleIds[0]}/enable`, key);
    await call('POST', `${Q}/plans/${single.body.data.id}/disable`, key);
    const disabledPlan = await call('POST', `${Q}/tasks`, key, { planId: single.body.data.id });
    expect(disabledPlan.status).toBe(400);
    expect(disabledPlan.body.field).toBe('body.planId');
    await call('POST', `${Q}/rules/${ruleIds[5]}/enable`, key);
  });

  it("another hospital sees none of this app's rules, plans, tasks or faults", async () => {
    for (const url of [
      `${Q}/rules/${ruleIds[0]}`,
      `${Q}/plans/${planId}`,
      `${Q}/tasks/${taskId}`,
      `${Q}/reports/${taskId}`,
      `${Q}/reports/${taskId}/faults`,
      `${Q}/reports/${taskId}/export`,
    ]) {
      const res = await call('GET', url, demoKey);
      expect(res.status, url).toBe(404);
      expect(res.body.data ?? null).toBeNull();
    }
    // Even a bad body answers 404, and nothing changes.
    const put = await call('PUT', `${Q}/rules/${ruleIds[0]}`, demoKey, { name: '' });
    expect(put.status).toBe(404);
    expect((await call('DELETE', `${Q}/plans/${planId}`, demoKey)).status).toBe(404);
    expect((await call('POST', `${Q}/rules/${ruleIds[0]}/disable`, demoKey)).status).toBe(404);
    const run = await call('POST', `${Q}/tasks`, demoKey, { planId });
    expect(run.body.field).toBe('body.planId');
    const [plan] = await t.app.db.select().from(qcPlans).where(eq(qcPlans.id, planId));
    expect(plan).toBeDefined();
    for (const list of ['rules', 'plans', 'tasks', 'reports']) {
      const res = await call('GET', `${Q}/${list}?size=200`, demoKey);
      expect(res.status, list).toBe(200);
      expect(res.body.data.items, list).toEqual([]);
    }
    // And every fault of this app's tasks is about this app's own patients.
    const patientIds = new Set([ids.p0, ids.p1, ids.p2, ids.p3]);
    const faults = await t.app.db.select().from(qcFaults).where(eq(qcFaults.appId, appId));
    expect(faults.length).toBeGreaterThan(0);
    for (const f of faults) expect(patientIds.has(f.patientId)).toBe(true);
  });

  it('exports the faults as CSV and XLSX, and writes an audit row for each write and export', async () => {
    const csv = await call('GET', `${Q}/reports/${taskId}/export?format=csv`, key);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.text
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('规则,严重程度,数据表,记录ID,患者ID,病案号,姓名,值,比较值,说明');
    expect(lines).toHaveLength(1 + 9);
    expect(lines.filter((l) => l.startsWith('ALT 范围,错误,检验结果,'))).toHaveLength(2);
    expect(csv.text).toContain(`入院早于出院,错误,就诊,${ids.v1},${ids.p1},QC-1,李四,2024-02-10T08:00:00Z`);
    const xlsx = await download(t.app, `${Q}/reports/${taskId}/export?format=xlsx`, key);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.appId, appId));
    const has = (entity: string, action: string) =>
      rows.filter((r) => r.entity === entity && r.action === action).length;
    expect(has('qc_rule', 'create')).toBe(RULES.length);
    expect(has('qc_rule', 'disable')).toBe(2);
    expect(has('qc_rule', 'enable')).toBe(2);
    expect(has('qc_plan', 'create')).toBe(2);
    expect(has('qc_plan', 'disable')).toBe(1);
    expect(has('qc_task', 'create')).toBeGreaterThanOrEqual(3);
    expect(has('qc_task', 'data_qc.task.finish')).toBeGreaterThanOrEqual(3);
    expect(has('qc_report', 'export')).toBe(2);
    const [created] = rows.filter((r) => r.entity === 'qc_rule' && r.action === 'create');
    expect(created!.userName).toBe('matrixadmin');
  });

  it('masks phones in reports for a user who may not see identity, and refuses what the user may not do', async () => {
    const [demo] = await t.app.db.select().from(apps).where(eq(apps.appShortName, 'DEMO'));
    await t.app.db.insert(patients).values({
      appId: demo!.appId,
      mrn: 'QCMASK-1',
      name: '掩码患者',
      phone: '1381234567x',
      source: 'synthetic',
      sourceId: 'qcmask-1',
    });
    const rule = await call('POST', `${Q}/rules`, demoKey, {
      name: '电话格式',
      table: 'patients',
      kind: 'pattern',
      column: 'phone',
      pattern: '^1\\d{10}$',
    });
    const plan = await call('POST', `${Q}/plans`, demoKey, { name: '电话', ruleIds: [rule.body.data.id] });
    const task = await call('POST', `${Q}/tasks`, demoKey, { planId: plan.body.data.id });
    await t.app.jobs.drain();
    const viewer = await demoUserWith(t.app, 'qcviewer', [
      'DataQcReport.query',
      'DataQcReport.get',
      'DataQcReport.export',
    ]);
    const url = `${Q}/reports/${task.body.data.id}`;
    const seen = await call('GET', `${url}/faults?keyword=QCMASK`, viewer);
    expect(seen.status).toBe(200);
    expect(seen.body.data.items[0]).toMatchObject({ patientMrn: 'QCMASK-1', value: '138****567x' });
    expect(seen.body.data.items[0].message).not.toContain('1381234567x');
    const full = await call('GET', `${url}/faults?keyword=QCMASK`, demoKey);
    expect(full.body.data.items[0].value).toBe('1381234567x');
    const csv = await call('GET', `${url}/export`, viewer);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('QCMASK-1');
    expect(csv.text).not.toContain('1381234567x');
    // The report reader may not write rules or run plans.
    expect((await call('POST', `${Q}/rules`, viewer, RULES[0]!.body)).status).toBe(403);
    expect((await call('POST', `${Q}/tasks`, viewer, { planId: plan.body.data.id })).status).toBe(403);
  });

  it('deletes a rule (plans lose it, reports keep it) and a finished task, audited', async () => {
    const del = await call('DELETE', `${Q}/rules/${ruleIds[3]}`, key);
    expect(del.status).toBe(200);
    const plan = await call('GET', `${Q}/plans/${planId}`, key);
    expect(plan.body.data.ruleIds).not.toContain(ruleIds[3]);
    const report = await call('GET', `${Q}/reports/${taskId}`, key);
    expect(report.body.data.rules[3]).toMatchObject({ name: '诊断类型', ruleId: null, faults: 1 });
    const gone = await call('DELETE', `${Q}/tasks/${taskId}`, key);
    expect(gone.status).toBe(200);
    expect((await call('GET', `${Q}/reports/${taskId}`, key)).status).toBe(404);
    const left = await t.app.db.select().from(qcFaults).where(eq(qcFaults.taskId, taskId));
    expect(left).toEqual([]);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, appId), eq(auditLog.action, 'delete')));
    expect(audits.map((a) => a.entity).sort()).toEqual(['qc_rule', 'qc_task']);
  });
});
