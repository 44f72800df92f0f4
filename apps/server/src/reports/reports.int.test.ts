import type { Report, ReportCreate, ReportResult } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { reports } from '../db/schema/reports.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { readZip } from '../test/unzip.js';

/**
 * Report query (报表查询): a data manager keeps a report over the CDR built from the cohort model,
 * runs it with its parameters and exports it; nothing of another hospital is ever read. Checked
 * on the embedded database and on PostgreSQL.
 */
describe('reports', () => {
  let t: TestApp;
  let admin: string;
  let other: { appId: number; key: string };

  const patient = async (key: string, body: object) => {
    const r = await post(t.app, '/api/v0.1/cdr/patients', body, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  const record = async (key: string, id: number, table: string, row: object) => {
    const r = await post(t.app, `/api/v0.1/cdr/patients/${id}/records`, { table, row }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  const patch = async (url: string, payload: object, key = admin) => {
    const res = await t.app.inject({ method: 'PATCH', url, headers: { WeAppAuthorization: key }, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const exportFile = (id: number, payload: object, key = admin) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v0.1/reports/${id}/export`,
      headers: { WeAppAuthorization: key },
      payload,
    });

  /** Hepatitis B diagnoses in a period, with the patient's MRN and sex; cirrhosis excluded. */
  const hbv: ReportCreate = {
    name: '乙肝诊断明细',
    description: '按诊断编码前缀和诊断日期',
    definition: {
      source: 'diagnoses',
      criteria: { match: 'all', inclusion: [], exclusion: [{ kind: 'diagnosis', codes: ['K74'] }] },
      columns: [
        'patients.mrn',
        'patients.gender',
        'diagnoses.icd10',
        'diagnoses.name',
        'diagnoses.diagnosedAt',
      ],
      filters: [
        { field: 'diagnoses.icd10', op: 'prefix', param: 'icd' },
        { field: 'diagnoses.diagnosedAt', op: 'between', param: 'period' },
      ],
      params: [
        { key: 'icd', label: 'ICD-10 前缀', type: 'text', required: true },
        { key: 'period', label: '诊断日期', type: 'dateRange' },
      ],
      sort: { column: 'diagnoses.diagnosedAt' },
    },
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    const a = await patient(admin, { mrn: 'R01', name: '报表甲', gender: 1, birthDate: '1970-01-01' });
    const b = await patient(admin, { mrn: 'R02', name: '报表乙', gender: 2, birthDate: '1985-06-01' });
    const c = await patient(admin, { mrn: 'R03', name: '报表丙', gender: 1, birthDate: '1960-01-01' });
    const dx = (icd10: string, name: string, day: string) => ({
      icd10,
      name,
      diagnosedAt: `${day}T08:00:00+08:00`,
    });
    await record(admin, a, 'diagnoses', dx('B18.1', '慢性乙型病毒性肝炎', '2021-05-01'));
    await record(admin, a, 'diagnoses', dx('B18.1', '=HYPERLINK("x")', '2023-02-01'));
    await record(admin, b, 'diagnoses', dx('b18.10', '慢性乙型肝炎', '2022-01-10'));
    await record(admin, c, 'diagnoses', dx('B18.1', '慢性乙型病毒性肝炎', '2020-03-03'));
    await record(admin, c, 'diagnoses', dx('K74.6', '肝硬化', '2020-04-01'));
    await record(admin, a, 'visits', {
      kind: 'inpatient',
      department: '消化内科',
      admitAt: '2021-05-01T08:00:00+08:00',
    });
    await record(admin, b, 'visits', {
      kind: 'outpatient',
      department: '感染科',
      admitAt: '2022-01-10T08:00:00+08:00',
    });
    // Another hospital with the same kind of patients: never in this app's reports.
    const x = await patient(other.key, { mrn: 'R01', name: '别院甲', gender: 1 });
    await record(other.key, x, 'diagnoses', dx('B18.1', '别院乙肝', '2021-06-01'));
  }, 120_000);
  afterAll(() => t?.close());

  let id: number;

  it('saves a report with parameters and runs it: rows of this app only, filters and exclusion applied', async () => {
    const made = await post(t.app, '/api/v0.1/reports', hbv, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    id = made.body.data.id;
    expect(made.body.data).toMatchObject({ name: '乙肝诊断明细', createdByName: 'admin', lastRun: null });
    const run = await post(t.app, `/api/v0.1/reports/${id}/run`, { params: { icd: 'B18' } }, admin);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const r = run.body.data as ReportResult;
    // R03 has cirrhosis (excluded); the lower-case code counts; Beijing dates and times.
    expect(r.rows).toEqual([
      ['R01', 1, 'B18.1', '慢性乙型病毒性肝炎', '2021-05-01 08:00'],
      ['R02', 2, 'b18.10', '慢性乙型肝炎', '2022-01-10 08:00'],
      ['R01', 1, 'B18.1', '=HYPERLINK("x")', '2023-02-01 08:00'],
    ]);
    expect(r).toMatchObject({ total: 3, patients: 2, page: 1 });
    expect(r.columns.map((c) => c.kind)).toEqual(['text', 'gender', 'text', 'text', 'date']);
    const ranged = await post(
      t.app,
      `/api/v0.1/reports/${id}/run`,
      { params: { icd: 'B18.1', period: { from: '2021-01-01', to: '2022-12-31' } }, size: 1 },
      admin,
    );
    // A prefix matches in any case (b18.10 too); the range keeps 2021 and 2022; one row a page.
    expect(ranged.body.data).toMatchObject({
      total: 2,
      patients: 2,
      size: 1,
      rows: [['R01', 1, 'B18.1', '慢性乙型病毒性肝炎', '2021-05-01 08:00']],
    });
    // The last run's facts are kept for the data-factory directory.
    const [row] = await t.app.db.select().from(reports).where(eq(reports.id, id));
    expect(row!.lastRun).toMatchObject({ rows: 2, patients: 2, filled: { 'patients.mrn': 2 } });
  });

  it('reports over patients and visits with fixed filters, criteria and sorting', async () => {
    const visits = await post(
      t.app,
      '/api/v0.1/reports/preview',
      {
        definition: {
          source: 'visits',
          columns: ['patients.mrn', 'visits.kind', 'visits.department'],
          filters: [{ field: 'visits.department', op: 'eq', param: 'dept' }],
          params: [{ key: 'dept', label: '科室', type: 'text' }],
        },
        params: { dept: '消化内科' },
      },
      admin,
    );
    expect(visits.status, JSON.stringify(visits.body)).toBe(200);
    expect(visits.body.data.rows).toEqual([['R01', 'inpatient', '消化内科']]);
    // A preview may leave a required parameter empty: it filters nothing then.
    const open = await post(t.app, '/api/v0.1/reports/preview', { definition: hbv.definition }, admin);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect(open.body.data).toMatchObject({ total: 3, patients: 2 });
    const people = await post(
      t.app,
      '/api/v0.1/reports/preview',
      {
        definition: {
          source: 'patients',
          criteria: { inclusion: [{ kind: 'diagnosis', codes: ['B18'] }] },
          columns: ['patients.mrn', 'patients.age', 'patients.birthDate'],
          filters: [{ field: 'patients.gender', op: 'eq', value: 1 }],
          sort: { column: 'patients.birthDate', desc: true },
        },
      },
      admin,
    );
    expect(people.status, JSON.stringify(people.body)).toBe(200);
    expect(people.body.data.rows.map((r: unknown[]) => [r[0], r[2]])).toEqual([
      ['R01', '1970-01-01'],
      ['R03', '1960-01-01'],
    ]);
    expect(typeof people.body.data.rows[0][1]).toBe('number');
  });

  it('exports CSV (formula guard, words for codes) and XLSX, and audits saves, changes, exports and deletes', async () => {
    const csv = await exportFile(id, { params: { icd: 'B18' }, format: 'csv' });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(encodeURIComponent('乙肝诊断明细'));
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('患者·病案号,患者·性别,诊断·ICD-10 编码,诊断·诊断名称,诊断·诊断时间');
    expect(lines[1]).toBe('R01,男,B18.1,慢性乙型病毒性肝炎,2021-05-01 08:00');
    expect(lines[3]).toBe(`R01,男,B18.1,"'=HYPERLINK(""x"")",2023-02-01 08:00`);
    expect(lines.length).toBe(4);
    const en = await t.app.inject({
      method: 'POST',
      url: `/api/v0.1/reports/${id}/export`,
      headers: { WeAppAuthorization: admin, 'accept-language': 'en-US' },
      payload: { params: { icd: 'B18' } },
    });
    expect(en.body.replace(/^\ufeff/, '').split('\r\n')[0]).toBe(
      'Patients·MRN,Patients·Sex,Diagnoses·ICD-10,Diagnoses·Diagnosis,Diagnoses·Diagnosed',
    );
    const xlsx = await exportFile(id, { params: { icd: 'B18' }, format: 'xlsx' });
    expect(xlsx.statusCode).toBe(200);
    const files = await readZip(xlsx.rawPayload);
    const sheet = files.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('慢性乙型肝炎');
    expect(sheet).toContain('=HYPERLINK(&quot;x&quot;)');
    expect(sheet.match(/<row /g)?.length).toBe(4);

    const renamed = await patch(`/api/v0.1/reports/${id}`, { name: '乙肝诊断明细（新）' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data.definition.columns.length).toBe(5);
    const actions = async () =>
      (
        await t.app.db
          .select({ action: auditLog.action, after: auditLog.after })
          .from(auditLog)
          .where(and(eq(auditLog.entity, 'report'), eq(auditLog.entityId, String(id))))
      ).map((a) => a.action);
    expect(await actions()).toEqual(
      expect.arrayContaining(['report.add', 'read', 'report.export', 'report.edit']),
    );
    const [exported] = await t.app.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.export'), eq(auditLog.entityId, String(id))));
    // The export's trace names the parameters, never their values.
    expect(exported!.after).toEqual({ format: 'csv', rows: 3, params: ['icd'] });
  });

  it('refuses bad parameters and bad definitions, naming them, storing nothing', async () => {
    const run = (params: object) => post(t.app, `/api/v0.1/reports/${id}/run`, { params }, admin);
    const missing = await run({});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('params.icd');
    expect(missing.body.message).toContain('ICD-10 前缀');
    expect((await run({ icd: 5 })).status).toBe(400);
    expect((await run({ icd: 'B18', nope: 'x' })).body.message).toContain('nope');
    expect((await run({ icd: 'B18', period: { from: '2026-02-30' } })).status).toBe(400);
    expect((await run({ icd: 'B\u0000' })).status).toBe(400);
    const before = (await get(t.app, '/api/v0.1/reports', admin)).body.data.items.length;
    const bad: Array<[object, string]> = [
      [{ columns: ['patients.name'] }, 'definition.columns.0'],
      [{ columns: ['diagnoses.icd10', 'diagnoses.icd10'] }, 'definition.columns.1'],
      [{ columns: ['visits.kind'] }, 'definition.columns.0'],
      [{ filters: [{ field: 'diagnoses.icd10', op: 'gte', value: 'B' }] }, 'definition.filters.0.op'],
      [{ filters: [{ field: 'diagnoses.icd10', op: 'eq', value: 3 }] }, 'definition.filters.0.value'],
      [{ filters: [{ field: 'diagnoses.icd10', op: 'eq' }] }, 'definition.filters.0.value'],
      [{ filters: [{ field: 'diagnoses.icd10', op: 'eq', param: 'ghost' }] }, 'definition.filters.0.param'],
      [{ params: [{ key: 'unused', label: '没用', type: 'text' }] }, 'definition.params.0.key'],
      [{ sort: { column: 'patients.mrn' } }, 'definition.sort.column'],
      [{ source: 'users' }, 'source'],
      [{ columns: 'patients.mrn' }, 'columns'],
      [{ sql: 'select 1' }, 'sql'],
    ];
    for (const [change, where] of bad) {
      const body = {
        name: `坏报表 ${where}`,
        definition: { source: 'diagnoses', columns: ['diagnoses.icd10'], ...change },
      };
      const r = await post(t.app, '/api/v0.1/reports', body, admin);
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(r.body.message, JSON.stringify(change)).toContain(where);
    }
    const nul = await post(t.app, '/api/v0.1/reports', { ...hbv, name: 'a\u0000b' }, admin);
    expect(nul.status).toBe(400);
    const twice = await post(t.app, '/api/v0.1/reports', { ...hbv, name: '乙肝诊断明细（新）' }, admin);
    expect(twice.status).toBe(409);
    expect((await get(t.app, '/api/v0.1/reports', admin)).body.data.items.length).toBe(before);
  });

  it('keeps each app’s reports to itself: another app gets 404, its own report reads only its rows', async () => {
    expect((await get(t.app, '/api/v0.1/reports', other.key)).body.data.items).toEqual([]);
    const theirs = await post(t.app, `/api/v0.1/reports/${id}/run`, { params: { icd: 'B18' } }, other.key);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('报表不存在');
    expect((await exportFile(id, { params: { icd: 'B18' } }, other.key)).statusCode).toBe(404);
    expect((await patch(`/api/v0.1/reports/${id}`, { name: 'x' }, other.key)).status).toBe(404);
    expect((await del(t.app, `/api/v0.1/reports/${id}`, other.key)).status).toBe(404);
    expect((await post(t.app, '/api/v0.1/reports/999999/run', { params: {} }, admin)).status).toBe(404);
    const own = await post(t.app, '/api/v0.1/reports', hbv, other.key);
    expect(own.status).toBe(200);
    const mine = await post(
      t.app,
      `/api/v0.1/reports/${own.body.data.id}/run`,
      { params: { icd: 'B' } },
      other.key,
    );
    expect(mine.body.data.rows).toEqual([['R01', 1, 'B18.1', '别院乙肝', '2021-06-01 08:00']]);
  });

  it('lets a reader without the export function run but not export, and one without query do nothing', async () => {
    const reader = await demoUserWith(t.app, 'report-reader', ['DataLakeSouthWest.query']);
    expect(
      (await post(t.app, `/api/v0.1/reports/${id}/run`, { params: { icd: 'B18' } }, reader)).status,
    ).toBe(200);
    const refused = await exportFile(id, { params: { icd: 'B18' } }, reader);
    expect(refused.statusCode).toBe(403);
    const nobody = await demoUserWith(t.app, 'report-nobody', ['DataLakeCdrBrowser.query']);
    expect((await get(t.app, '/api/v0.1/reports', nobody)).status).toBe(403);
    expect((await post(t.app, '/api/v0.1/reports', { ...hbv, name: '无权' }, nobody)).status).toBe(403);
  });

  it('lets only its maker change or delete a report; another reader gets 403 naming the maker, and nothing changes', async () => {
    const reader = await demoUserWith(t.app, 'report-reader-2', ['DataLakeSouthWest.query']);
    const before = (await get(t.app, '/api/v0.1/reports', admin)).body.data.items.find(
      (r: Report) => r.id === id,
    );
    const edit = await patch(`/api/v0.1/reports/${id}`, { name: '被改名' }, reader);
    expect(edit.status).toBe(403);
    expect(edit.body).toMatchObject({ errorCode: 'report.notOwner' });
    expect(edit.body.message).toContain('admin');
    expect((await del(t.app, `/api/v0.1/reports/${id}`, reader)).status).toBe(403);
    const after = (await get(t.app, '/api/v0.1/reports', admin)).body.data.items.find(
      (r: Report) => r.id === id,
    );
    expect(after).toEqual(before);
    // The reader's own report is theirs to change.
    const mine = await post(t.app, '/api/v0.1/reports', { ...hbv, name: '读者自己的报表' }, reader);
    expect(mine.status).toBe(200);
    expect((await patch(`/api/v0.1/reports/${mine.body.data.id}`, { name: '读者改名' }, reader)).status).toBe(
      200,
    );
    expect((await del(t.app, `/api/v0.1/reports/${mine.body.data.id}`, reader)).status).toBe(200);
  });

  it('deletes a report (audited)', async () => {
    expect((await del(t.app, `/api/v0.1/reports/${id}`, admin)).status).toBe(200);
    const list = (await get(t.app, '/api/v0.1/reports', admin)).body.data.items as Report[];
    expect(list.find((r) => r.id === id)).toBeUndefined();
    const [gone] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.delete'), eq(auditLog.entityId, String(id))));
    expect(gone).toBeDefined();
  });
});
