import type { SciColumnStats, SciRows, SciSnapshotDetail, SciTask } from '@crdp/core';
import { and, eq } from 'drizzle-orm';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAltResults, addRecord, demoUserWith } from '../clinical/test/support.js';
import { auditLog } from '../db/schema/index.js';
import { waitForTask } from '../research/test/support.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { del, get, patch as patchAs, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { SEX_VARIABLE } from '../variables/test/fixtures.js';

/**
 * The scientific database: a researcher defines variables in the variable library, a transform
 * task builds a research subject's snapshot from them (one row per recruited patient, a version
 * per run), previews it page by page with column statistics, exports it as CSV, XLSX and Parquet
 * (read back here with hyparquet, another library than the DuckDB that wrote it) and hands it to
 * the research analyses. Checked on the embedded database and on PostgreSQL.
 */
describe('scientific database', () => {
  let t: TestApp;
  let admin: string;
  let reader: string;
  let other: { appId: number; key: string };
  const P = '/api/v0.1/scientific-database';
  const patch = (url: string, payload: object, key = admin) => patchAs(t.app, url, payload, key);
  const download = async (url: string, key = admin) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { WeAppAuthorization: key } });
    return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
  };
  const record = (patient: number, table: string, row: object) =>
    addRecord(t.app, admin, patient, table, row);
  const patients: number[] = [];
  const vars: Record<string, number> = {};
  let subjectId: number;
  let groupId: number;
  let taskId: number;
  let first: SciSnapshotDetail;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    other = await otherAppAdministrator(t.app);
    reader = await demoUserWith(t.app, 'scireader', ['DatabasesPreview.query', 'DatabasesPreview.get']);
    // Four patients: three with a first visit and ALT results, one with nothing but a sex.
    for (const [mrn, gender, birthDate] of [
      ['SD1', 1, '1970-05-01'],
      ['SD2', 2, '1980-01-15'],
      ['SD3', 2, '1990-07-30'],
      ['SD4', 1, null],
    ] as const) {
      const p = await post(
        t.app,
        '/api/v0.1/cdr/patients',
        { mrn, name: `科研库病人${mrn}`, gender, ...(birthDate ? { birthDate } : {}) },
        admin,
      );
      expect(p.status, JSON.stringify(p.body)).toBe(200);
      patients.push(p.body.data.id);
    }
    const [a, b, c] = patients as [number, number, number];
    for (const [p, d] of [
      [a, '2024-01-01'],
      [b, '2024-03-01'],
      [c, '2024-05-01'],
    ] as const)
      await record(p, 'visits', { kind: 'outpatient', admitAt: `${d}T08:00:00Z` });
    await addAltResults(
      t.app,
      admin,
      [
        [a, 40, '2024-01-05'],
        [a, 90, '2024-01-20'],
        [b, 60, '2024-03-10'],
        [c, 35.5, '2024-05-02'],
      ],
      'Z',
    );
    for (const body of [
      {
        code: 'alt_max_30d',
        labelZh: '首诊 30 天内最大 ALT',
        labelEn: 'Max ALT within 30 days',
        type: 'number',
        unit: 'U/L',
        derivation: { kind: 'lab', itemCode: 'ALT', aggregate: 'max', anchor: 'first_visit', withinDays: 30 },
      },
      SEX_VARIABLE,
      {
        code: 'birth',
        labelZh: '出生日期',
        type: 'date',
        derivation: { kind: 'field', rule: 'value patient.birth_date' },
      },
    ]) {
      const r = await post(t.app, '/api/v0.1/variables', body, admin);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      vars[body.code] = r.body.data.id;
    }
    const g = await post(
      t.app,
      '/api/v0.1/variable-groups',
      { name: '科研库变量组', variableIds: [vars.alt_max_30d, vars.sex, vars.birth] },
      admin,
    );
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    groupId = g.body.data.id;
    // A research subject that recruits the four patients.
    const s = await post(t.app, '/api/v0.1/research/subjects', { name: '科研库课题' }, admin);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    subjectId = s.body.data.id;
    await post(t.app, `/api/v0.1/research/subjects/${subjectId}/status`, { to: 'recruiting' }, admin);
    const rec = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/recruit`,
      { mode: 'patients', patientIds: patients },
      admin,
    );
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('refuses a task naming what is not there, with the field at fault, and changes nothing', async () => {
    const base = { name: '坏任务', subjectId, cohort: 'subject', variableGroupId: groupId };
    const cases: Array<[object, string]> = [
      [{ ...base, subjectId: 999_999 }, 'body.subjectId'],
      [{ ...base, cohort: 'library' }, 'body.libraryId'],
      [{ ...base, variableGroupId: null, variableIds: [vars.sex, 999_999] }, 'body.variableIds.1'],
      [{ ...base, variableGroupId: null, variableIds: [vars.sex, vars.sex] }, 'body.variableIds.1'],
      [{ ...base, variableGroupId: null, variableIds: [] }, 'body.variableIds'],
      [{ ...base, name: 'a\u0000b' }, 'body.name'],
      [{ ...base, name: 'x'.repeat(101) }, 'body.name'],
      [{ ...base, cohort: 'everyone' }, 'body.cohort'],
    ];
    for (const [body, field] of cases) {
      const r = await post(t.app, `${P}/tasks`, body, admin);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.field).toBe(field);
    }
    expect((await get(t.app, `${P}/tasks`, admin)).body.data.items).toHaveLength(0);
  });

  it('builds a versioned snapshot of the subject’s recruited patients from a variable group', async () => {
    const made = await post(
      t.app,
      `${P}/tasks`,
      { name: '乙肝基线库', subjectId, cohort: 'subject', variableGroupId: groupId },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = made.body.data as SciTask;
    taskId = task.id;
    expect(task).toMatchObject({
      subjectName: '科研库课题',
      variableGroupName: '科研库变量组',
      variableCount: 3,
    });
    // Someone without the function may not run it.
    expect((await post(t.app, `${P}/tasks/${taskId}/run`, {}, reader)).status).toBe(403);
    const run = await post(t.app, `${P}/tasks/${taskId}/run`, {}, admin);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.data.version).toBe(1);
    await t.app.jobs.drain();
    const d = await get(t.app, `${P}/preview/snapshots/${run.body.data.snapshotId}`, admin);
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    first = d.body.data;
    expect(first).toMatchObject({
      status: 'ready',
      version: 1,
      rowCount: 4,
      columnCount: 3,
      cohort: 'subject',
    });
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.columns.map((c) => [c.key, c.type])).toEqual([
      ['alt_max_30d', 'number'],
      ['sex', 'category'],
      ['birth', 'date'],
    ]);
    expect(first.columns[0]!.ruleText).toBe(
      'max lab.value where code = "ALT" after first_visit within 30 days',
    );
    const stat = (k: string) => first.stats.find((s) => s.key === k) as SciColumnStats;
    expect(stat('alt_max_30d')).toMatchObject({ present: 3, missing: 1, min: 35.5, max: 90, median: 60 });
    expect(stat('alt_max_30d').histogram.reduce((n, b) => n + b.count, 0)).toBe(3);
    expect(stat('sex').categories).toEqual([
      { value: '1', count: 2 },
      { value: '2', count: 2 },
    ]);
    expect(stat('birth')).toMatchObject({ present: 3, min: '1970-05-01', max: '1990-07-30' });
    const audited = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'sci_snapshot'), eq(auditLog.action, 'create')));
    expect(audited).toHaveLength(1);
  });

  it('pages through the rows in study-number order, without the patients’ identity', async () => {
    const page = async (n: number, key = admin) =>
      get(t.app, `${P}/preview/snapshots/${first.id}/rows?page=${n}&size=3`, key);
    const one = (await page(1)).body.data as SciRows;
    expect(one.total).toBe(4);
    expect(one.items).toEqual([
      { study_no: 'S00001', alt_max_30d: 90, sex: '1', birth: '1970-05-01' },
      { study_no: 'S00002', alt_max_30d: 60, sex: '2', birth: '1980-01-15' },
      { study_no: 'S00003', alt_max_30d: 35.5, sex: '2', birth: '1990-07-30' },
    ]);
    const two = (await page(2, reader)).body.data as SciRows;
    expect(two.items).toEqual([{ study_no: 'S00004', alt_max_30d: null, sex: '1', birth: null }]);
    expect(JSON.stringify(one)).not.toContain('科研库病人');
    expect((await get(t.app, `${P}/preview/snapshots/${first.id}/rows?size=500`, admin)).status).toBe(400);
    // Another hospital does not see it.
    expect((await get(t.app, `${P}/preview/snapshots/${first.id}/rows`, other.key)).status).toBe(404);
  });

  it('exports Parquet that another reader reads back with the same values and types', async () => {
    const r = await download(`${P}/details/snapshots/${first.id}/export?format=parquet`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.apache.parquet');
    expect(String(r.headers['content-disposition'])).toContain(encodeURIComponent('乙肝基线库-v1.parquet'));
    const buf = r.body;
    // A copy of the bytes as an ArrayBuffer of its own (hyparquet reads an ArrayBuffer).
    const file = new Uint8Array(buf).buffer;
    expect(new TextDecoder().decode(new Uint8Array(file, 0, 4))).toBe('PAR1');
    const meta = parquetMetadata(file);
    expect(Number(meta.num_rows)).toBe(4);
    expect(meta.schema.slice(1).map((s) => s.name)).toEqual(['study_no', 'alt_max_30d', 'sex', 'birth']);
    const rows = await parquetReadObjects({ file });
    const dates = rows.map((x) => (x.birth ? (x.birth as Date).toISOString().slice(0, 10) : null));
    expect(rows.map((x) => [x.study_no, x.alt_max_30d, x.sex])).toEqual([
      ['S00001', 90, '1'],
      ['S00002', 60, '2'],
      ['S00003', 35.5, '2'],
      ['S00004', null, '1'],
    ]);
    expect(dates).toEqual(['1970-05-01', '1980-01-15', '1990-07-30', null]);
    // The patient id kept in the stored copy is not in the export.
    expect(Object.keys(rows[0]!)).not.toContain('_patient_id');
  });

  it('exports CSV and XLSX, and audits each export', async () => {
    const csv = await download(`${P}/details/snapshots/${first.id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.body.toString('utf8')).toBe(
      '\ufeffstudy_no,alt_max_30d,sex,birth\r\nS00001,90,1,1970-05-01\r\nS00002,60,2,1980-01-15\r\nS00003,35.5,2,1990-07-30\r\nS00004,,1,\r\n',
    );
    const xlsx = await download(`${P}/details/snapshots/${first.id}/export?format=xlsx`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.body.subarray(0, 2).toString()).toBe('PK');
    expect((await download(`${P}/details/snapshots/${first.id}/export?format=sav`)).status).toBe(400);
    expect((await download(`${P}/details/snapshots/${first.id}/export?format=csv`, reader)).status).toBe(403);
    const exports = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'sci_snapshot'), eq(auditLog.action, 'export')));
    expect(exports.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps version 1 as it was when the data change; the next run is version 2', async () => {
    await record(patients[3]!, 'visits', { kind: 'outpatient', admitAt: '2024-08-01T08:00:00Z' });
    await record(patients[3]!, 'labResults', {
      itemCode: 'ALT',
      itemName: '丙氨酸氨基转移酶',
      valueNum: 120,
      unit: 'U/L',
      collectedAt: '2024-08-03T08:00:00Z',
    });
    const run = await post(t.app, `${P}/tasks/${taskId}/run`, {}, admin);
    expect(run.body.data.version).toBe(2);
    await t.app.jobs.drain();
    const v2 = (await get(t.app, `${P}/preview/snapshots/${run.body.data.snapshotId}/rows?size=10`, admin))
      .body.data as SciRows;
    expect(v2.items[3]).toMatchObject({ study_no: 'S00004', alt_max_30d: 120 });
    const v1 = (await get(t.app, `${P}/preview/snapshots/${first.id}/rows?size=10`, admin)).body
      .data as SciRows;
    expect(v1.items[3]).toMatchObject({ study_no: 'S00004', alt_max_30d: null });
    const list = await get(t.app, `${P}/snapshots?taskId=${taskId}`, admin);
    expect(list.body.data.items.map((s: { version: number }) => s.version)).toEqual([2, 1]);
    const tasks = (await get(t.app, `${P}/tasks`, admin)).body.data.items as SciTask[];
    expect(tasks[0]!.latest).toMatchObject({ version: 2, status: 'ready', rowCount: 4 });
  });

  it('hands a snapshot to the research analyses, which read it as a dataset of the subject', async () => {
    const early = await post(
      t.app,
      `${P}/details/snapshots/${first.id}/research-dataset`,
      { name: 'x' },
      admin,
    );
    expect(early.status).toBe(409); // the subject is still recruiting
    for (const to of ['recruitmentStopped', 'dataPreparing'])
      expect(
        (await post(t.app, `/api/v0.1/research/subjects/${subjectId}/status`, { to }, admin)).status,
      ).toBe(200);
    const made = await post(
      t.app,
      `${P}/details/snapshots/${first.id}/research-dataset`,
      { name: '科研库快照 v1' },
      admin,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ columns: 2, skipped: ['birth'] });
    const datasetId = made.body.data.datasetId as number;
    const rows = await get(t.app, `/api/v0.1/research/subjects/${subjectId}/datasets/${datasetId}`, admin);
    expect(rows.status, JSON.stringify(rows.body)).toBe(200);
    expect(rows.body.data.rows[0]).toEqual({ studyNo: 'S00001', alt_max_30d: 90, sex: '1' });
    expect(
      (await post(t.app, `/api/v0.1/research/subjects/${subjectId}/status`, { to: 'dataPrepared' }, admin))
        .status,
    ).toBe(200);
    const a = await post(
      t.app,
      `/api/v0.1/research/subjects/${subjectId}/analyses`,
      { datasetId, params: { method: 'descriptive', variables: ['alt_max_30d', 'sex'] } },
      admin,
    );
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const done = await waitForTask(t.app, admin, a.body.data.task_id);
    expect(done.status).toBe('succeeded');
    expect(done.result.variables[0]).toMatchObject({ key: 'alt_max_30d', n: 3, median: 60 });
  });

  it('edits, summarises and deletes, each write audited', async () => {
    const renamed = await patch(`${P}/tasks/${taskId}`, { name: '乙肝基线库（改）' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data.variableGroupId).toBe(groupId);
    expect((await patch(`${P}/tasks/${taskId}`, { cohort: 'library' })).body.field).toBe('body.libraryId');
    const o = await get(t.app, `${P}/overview`, admin);
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect(o.body.data).toMatchObject({ tasks: 1, snapshots: 2, ready: 2, rows: 4, variables: 3 });
    expect(o.body.data.bySubject).toEqual([{ subjectId, subjectName: '科研库课题', snapshots: 2, rows: 4 }]);
    expect((await del(t.app, `${P}/snapshots/${first.id}`, other.key)).status).toBe(404);
    expect((await del(t.app, `${P}/snapshots/${first.id}`, admin)).status).toBe(200);
    expect((await get(t.app, `${P}/preview/snapshots/${first.id}`, admin)).status).toBe(404);
    expect((await del(t.app, `${P}/tasks/${taskId}`, admin)).status).toBe(200);
    expect((await get(t.app, `${P}/snapshots`, admin)).body.data.items).toHaveLength(0);
    const trail = await t.app.db.select().from(auditLog).where(eq(auditLog.entity, 'sci_transform_task'));
    expect(trail.map((r) => r.action).sort()).toEqual(['create', 'delete', 'update']);
  });
});
