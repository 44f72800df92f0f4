import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CollectionRun } from '@crdp/core';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labResults, patients } from '../db/schema/index.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { get, post, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { csvPatientTemplate } from './test/files.js';
import { genderField } from './test/his.js';

/**
 * File sources: a folder of CSV files and a folder of FHIR R4 bundles inside the server's
 * COLLECTION_FILES_ROOT, read as tables by the same templates, tasks and reruns as a database.
 * The FHIR folder holds the repository's Synthea bundles (fixtures/synthea, with their licence).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const SYNTHEA = path.resolve(here, '../../../../fixtures/synthea');
const KERMIT = 'Kermit_Trantow_f1a650a5-737e-4fd7-828e-03c3348b9524.json';
const P = '/api/v0.1/collection';

describe('collection from folders of CSV files and FHIR bundles', () => {
  let t: TestApp;
  let admin: string;
  const run = async (taskId: number, key = admin): Promise<CollectionRun> => {
    const r = await post(t.app, `${P}/tasks/${taskId}/run`, {}, key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (let i = 0; i < 200; i++) {
      await t.app.jobs.drain();
      const v = (await get(t.app, `${P}/runs/${r.body.data.runId}`, key)).body.data as CollectionRun;
      if (v.status !== 'queued' && v.status !== 'running') return v;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('the run did not finish');
  };
  const source = async (body: object) => {
    const r = await post(t.app, `${P}/sources`, body, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  const template = async (body: object) => {
    const r = await post(t.app, `${P}/templates`, body, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };
  const task = async (name: string, templateIds: number[]) => {
    const r = await post(t.app, `${P}/tasks`, { name, templateIds }, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    const root = t.config.collectionFilesRoot;
    await mkdir(path.join(root, 'his-export'), { recursive: true });
    // A HIS export as hospitals write it: Chinese headers, a BOM, CRLF, a quoted cell with a comma.
    await writeFile(
      path.join(root, 'his-export', 'patients.csv'),
      '\uFEFF病案号,姓名,性别,出生日期\r\nF001,"王,小明",M,19800102\r\nF002,李四,F,19751231\r\nF010,赵六,M,19900101\r\n',
    );
    await writeFile(
      path.join(root, 'his-export', 'lab_results.csv'),
      'result_id,patient_no,item,value,taken\n1,F001,ALT,56,2026-03-01 08:00:00\n2,F001,AST,30,2026-03-01 08:00:00\n10,F002,ALT,12,2026-03-02 09:30:00\n',
    );
    await mkdir(path.join(root, 'synthea'), { recursive: true });
    await copyFile(path.join(SYNTHEA, KERMIT), path.join(root, 'synthea', KERMIT));
  }, 120_000);
  afterAll(async () => t?.close());

  it('reads a CSV folder as tables, collects it through templates, and a rerun after new rows adds only them', async () => {
    const id = await source({ name: 'HIS 导出文件', kind: 'csv', config: { folder: 'his-export' } });
    const probe = await post(t.app, `${P}/sources/${id}/probe`, {}, admin);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    const tables = Object.fromEntries(
      (probe.body.data.tables as Array<{ name: string; columns: Array<{ name: string; type: string }> }>).map(
        (x) => [x.name, x.columns],
      ),
    );
    expect(Object.keys(tables).sort()).toEqual(['lab_results', 'patients']);
    // Chinese headers become col_<n>, the header shown beside it.
    expect(tables.patients).toEqual([
      { name: 'col_1', type: 'text · 病案号' },
      { name: 'col_2', type: 'text · 姓名' },
      { name: 'col_3', type: 'text · 性别' },
      { name: 'col_4', type: 'text · 出生日期' },
    ]);
    const pt = await template(csvPatientTemplate(id, 'CSV 病人', true));
    const lt = await template({
      name: 'CSV 检验',
      sourceId: id,
      target: 'labResults',
      spec: {
        table: 'lab_results',
        keyColumn: 'result_id',
        patientColumn: 'patient_no',
        fields: [
          { field: 'itemCode', column: 'item' },
          { field: 'itemName', column: 'item' },
          { field: 'valueNum', column: 'value' },
          {
            field: 'collectedAt',
            column: 'taken',
            transforms: [{ kind: 'date', format: 'yyyy-MM-dd HH:mm:ss' }],
          },
        ],
      },
    });
    // The unit test maps the first rows without writing.
    const unit = await post(t.app, `${P}/templates/${lt}/unit-test`, { limit: 10 }, admin);
    expect(unit.status, JSON.stringify(unit.body)).toBe(200);
    expect(unit.body.data.mapped).toHaveLength(3);
    const taskId = await task('CSV 采集', [pt, lt]);
    const first = await run(taskId);
    expect(first).toMatchObject({ status: 'succeeded', rowsRead: 6, rowsInserted: 6, rowsRejected: 0 });
    const cdrSource = `collect:${id}`;
    const ps = await t.app.db.select().from(patients).where(eq(patients.source, cdrSource));
    expect(ps.map((p) => [p.mrn, p.name, p.gender]).sort()).toEqual([
      ['F001', '王,小明', 1],
      ['F002', '李四', 2],
      ['F010', '赵六', 1],
    ]);
    const ls = await t.app.db.select().from(labResults).where(eq(labResults.source, cdrSource));
    // Keys 1, 2, 10 in number order (not text order, where 10 comes before 2).
    expect(ls.map((l) => [l.sourceId, l.itemCode, l.valueNum]).sort()).toEqual([
      ['1', 'ALT', 56],
      ['10', 'ALT', 12],
      ['2', 'AST', 30],
    ]);
    // Nothing new: nothing read twice, nothing doubled.
    expect(await run(taskId)).toMatchObject({ status: 'succeeded', rowsInserted: 0, rowsUpdated: 0 });
    // The export grows and one value is corrected: the rerun updates that row and adds the new one.
    await writeFile(
      path.join(t.config.collectionFilesRoot, 'his-export', 'lab_results.csv'),
      'result_id,patient_no,item,value,taken\n1,F001,ALT,58,2026-03-01 08:00:00\n2,F001,AST,30,2026-03-01 08:00:00\n10,F002,ALT,12,2026-03-02 09:30:00\n11,F010,ALT,40,2026-03-03 10:00:00\n',
    );
    const third = await run(taskId);
    expect(third).toMatchObject({ status: 'succeeded', rowsInserted: 1, rowsUpdated: 1 });
    expect(await t.app.db.$count(labResults, eq(labResults.source, cdrSource))).toBe(4);
  });

  it('reads FHIR bundles as one table per resource type and collects patients and observations from Synthea', async () => {
    const id = await source({ name: 'Synthea FHIR', kind: 'fhir', config: { folder: 'synthea' } });
    const probe = await post(t.app, `${P}/sources/${id}/probe`, {}, admin);
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    const names = (probe.body.data.tables as Array<{ name: string }>).map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Patient', 'Encounter', 'Condition', 'Observation']));
    const pt = await template({
      name: 'FHIR 病人',
      sourceId: id,
      target: 'patients',
      spec: {
        table: 'Patient',
        keyColumn: 'id',
        fields: [
          { field: 'mrn', column: 'mrn' },
          { field: 'name', column: 'name' },
          genderField('gender', 'male', 'female'),
          { field: 'birthDate', column: 'birth_date', transforms: [{ kind: 'date', format: 'yyyy-MM-dd' }] },
        ],
      },
    });
    const ot = await template({
      name: 'FHIR 检验',
      sourceId: id,
      target: 'labResults',
      spec: {
        table: 'Observation',
        keyColumn: 'id',
        patientColumn: 'subject',
        fields: [
          { field: 'itemCode', column: 'code' },
          { field: 'itemName', column: 'display' },
          { field: 'valueNum', column: 'value' },
          { field: 'valueText', column: 'value_text' },
          { field: 'unit', column: 'unit' },
          { field: 'collectedAt', column: 'effective' },
        ],
      },
    });
    const taskId = await task('FHIR 采集', [pt, ot]);
    const r = await run(taskId);
    expect(r.status, JSON.stringify(r)).toBe('succeeded');
    const cdrSource = `collect:${id}`;
    const [kermit] = await t.app.db.select().from(patients).where(eq(patients.source, cdrSource));
    expect(kermit).toMatchObject({ gender: 1 });
    expect(kermit!.name).toContain('Kermit');
    const obs = await t.app.db
      .select()
      .from(labResults)
      .where(and(eq(labResults.source, cdrSource), like(labResults.itemName, '%Body Height%')));
    expect(obs.length).toBeGreaterThan(0);
    expect(obs.every((o) => o.patientId === kermit!.id && o.unit === 'cm' && (o.valueNum ?? 0) > 0)).toBe(
      true,
    );
    expect(r.rowsInserted + r.rowsRejected).toBe(r.rowsRead);
    // A second run reads nothing new and changes nothing.
    expect(await run(taskId)).toMatchObject({ status: 'succeeded', rowsInserted: 0, rowsUpdated: 0 });
  });

  it('keeps file sources inside the files folder and names a missing folder', async () => {
    for (const folder of ['../etc', '/etc', 'a/../../b'])
      expect(
        (await post(t.app, `${P}/sources`, { name: `坏-${folder}`, kind: 'csv', config: { folder } }, admin))
          .status,
        folder,
      ).toBe(400);
    expect(
      (await post(t.app, `${P}/sources`, { name: '无目录', kind: 'fhir', config: {} }, admin)).status,
    ).toBe(400);
    const id = await source({ name: '还没有的目录', kind: 'csv', config: { folder: 'not-yet' } });
    const probe = await post(t.app, `${P}/sources/${id}/probe`, {}, admin);
    expect(probe.status).toBe(422);
    expect(probe.body.message).toContain('没有文件夹 not-yet');
    const other = await otherAppAdministrator(t.app);
    expect((await post(t.app, `${P}/sources/${id}/probe`, {}, other.key)).status).toBe(404);
  });
});
