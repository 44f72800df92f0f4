import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { and, eq, like, sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheaBundle, waitForImport } from '../clinical/test/support.js';
import { auditLog, omopMappings } from '../db/schema/index.js';
import { parseCsv } from '../files/csv.js';
import { otherAppAdministrator } from '../test/harness/fixtures.js';
import { signIn, startTestApp, type TestApp } from '../test/helper.js';
import { readZip } from '../test/unzip.js';
import { CDM_COLUMNS, CDM_TABLES } from './cdm.js';

const P = '/api/v0.1/omop';
const OMOP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/omop');
const DDL = path.join(OMOP_DIR, 'OMOPCDM_postgresql_5.4_ddl.sql');
const PKS = path.join(OMOP_DIR, 'OMOPCDM_postgresql_5.4_primary_keys.sql');

async function call(t: TestApp, method: string, url: string, key: string, payload?: unknown, lang = 'zh-CN') {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { WeAppAuthorization: key, 'accept-language': lang },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  const parse = () => {
    try {
      return res.json();
    } catch {
      return null;
    }
  };
  const body = parse();
  return { status: res.statusCode, body, raw: res.rawPayload, headers: res.headers };
}

/** The column names of each table of the official DDL, in order. */
function officialColumns(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const ddl = readFileSync(DDL, 'utf8');
  for (const m of ddl.matchAll(/CREATE TABLE @cdmDatabaseSchema\.(\w+) \(([\s\S]*?)\);/g)) {
    out.set(
      m[1]!,
      m[2]!
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]!),
    );
  }
  return out;
}

interface CdmDb {
  copy(table: string, csv: string): Promise<void>;
  query<T>(q: string): Promise<T[]>;
  close(): Promise<void>;
  kind: string;
}

/**
 * The official OMOP v5.4 tables with their primary keys: a throw-away schema on PostgreSQL when
 * DATABASE_URL is set (loaded with COPY FROM STDIN), else a throw-away PGlite (COPY FROM a blob).
 */
async function officialCdm(): Promise<CdmDb> {
  const ddl = readFileSync(DDL, 'utf8');
  const pks = readFileSync(PKS, 'utf8');
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `cdm_${Math.random().toString(36).slice(2, 10)}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.query(ddl.replaceAll('@cdmDatabaseSchema', schema));
    await c.query(pks.replaceAll('@cdmDatabaseSchema', schema));
    return {
      kind: 'PostgreSQL',
      copy: async (table, csv) => {
        const stream = c.query(copyFrom(`copy ${schema}.${table} from stdin with (format csv, header true)`));
        await new Promise<void>((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', reject);
          stream.end(csv);
        });
      },
      query: async (q) => (await c.query(q.replaceAll('cdm.', `${schema}.`))).rows,
      close: async () => {
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  }
  const db = await PGlite.create();
  await db.exec('create schema cdm');
  await db.exec(ddl.replaceAll('@cdmDatabaseSchema', 'cdm'));
  await db.exec(pks.replaceAll('@cdmDatabaseSchema', 'cdm'));
  return {
    kind: 'PGlite',
    copy: async (table, csv) => {
      await db.query(`copy cdm.${table} from '/dev/blob' with (format csv, header true)`, [], {
        blob: new Blob([csv]),
      });
    },
    query: async (q) => (await db.query(q)).rows as never,
    close: () => db.close(),
  };
}

describe('OMOP CDM v5.4 export', () => {
  let t: TestApp;
  let demoKey: string;
  let key: string;
  let appId: number;
  /** Codes of this run, so nothing else in the database matches them. */
  const RUN = Date.now().toString(36).toUpperCase();
  const UNMAPPED_DX = `Z99.${RUN}`;
  const ids: Record<string, number> = {};
  let taskId: number;
  let zip: Map<string, string>;

  async function record(pid: number, table: string, row: Record<string, unknown>) {
    const r = await call(t, 'POST', `/api/v0.1/cdr/patients/${pid}/records`, key, { table, row });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as number;
  }

  beforeAll(async () => {
    t = await startTestApp();
    // Jobs run when the test drains them, so a task's status is what the test expects.
    await t.app.jobs.stop();
    demoKey = await signIn(t.app, 'admin');
    // The export runs in a hospital of its own, so its counts are exactly this test's data.
    const other = await otherAppAdministrator(t.app);
    key = other.key;
    appId = other.appId;
    const patient = async (mrn: string, gender: number, birthDate?: string) => {
      const r = await call(t, 'POST', '/api/v0.1/cdr/patients', key, {
        mrn,
        name: `患者${mrn}`,
        gender,
        nationalId: '11010519491231002X',
        ...(birthDate ? { birthDate } : {}),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.id as number;
    };
    ids.a = await patient('OM-A', 1, '1960-03-04');
    ids.b = await patient('OM-B', 2, '1975-01-01');
    ids.c = await patient('OM-C', 3);
    ids.visitA = await record(ids.a, 'visits', {
      kind: 'inpatient',
      admitAt: '2024-03-01T08:00:00+08:00',
      dischargeAt: '2024-03-09T10:30:00+08:00',
    });
    ids.visitB = await record(ids.b, 'visits', { kind: 'outpatient', admitAt: '2024-04-02T09:00:00+08:00' });
    ids.dxA1 = await record(ids.a, 'diagnoses', {
      visitId: ids.visitA,
      icd10: 'i10',
      name: '原发性高血压',
      kind: 'main',
      diagnosedAt: '2024-03-01T09:00:00+08:00',
    });
    ids.dxA2 = await record(ids.a, 'diagnoses', {
      icd10: UNMAPPED_DX,
      name: '未映射的诊断',
      kind: 'secondary',
      diagnosedAt: '2024-03-02T09:00:00+08:00',
    });
    ids.dxB = await record(ids.b, 'diagnoses', {
      icd10: UNMAPPED_DX,
      name: '未映射的诊断',
      diagnosedAt: '2024-04-02T09:30:00+08:00',
    });
    ids.dxC = await record(ids.c, 'diagnoses', { icd10: 'I10', name: '高血压', diagnosedAt: '2024-05-01' });
    ids.labA = await record(ids.a, 'labResults', {
      visitId: ids.visitA,
      itemCode: 'GLU',
      itemName: '葡萄糖',
      valueNum: 6.1,
      unit: 'mmol/L',
      refLow: 3.9,
      refHigh: 6.1,
      collectedAt: '2024-03-02T07:15:00+08:00',
    });
    ids.labB = await record(ids.b, 'labResults', {
      itemCode: `HBA1C-${RUN}`,
      itemName: '糖化血红蛋白',
      valueNum: 7,
      unit: `pct-${RUN}`,
      collectedAt: '2024-04-02T10:00:00+08:00',
    });
    ids.drugA = await record(ids.a, 'orders', {
      visitId: ids.visitA,
      category: 'drug',
      code: 'MET500',
      name: '二甲双胍片',
      dose: '500',
      doseUnit: 'mg',
      route: 'PO',
      frequency: 'bid',
      startAt: '2024-03-02T08:00:00+08:00',
      stopAt: '2024-03-09T08:00:00+08:00',
    });
    ids.orderOther = await record(ids.a, 'orders', {
      category: 'other',
      name: '低盐饮食',
      startAt: '2024-03-02T08:00:00+08:00',
    });
  });
  afterAll(async () => t?.close());

  it('adds, edits and lists mappings, audited, normalizing ICD-10 codes', async () => {
    const maps = [
      { kind: 'condition', sourceCode: ' i10 ', conceptId: 320128, conceptName: 'Essential hypertension' },
      { kind: 'measurement', sourceCode: 'GLU', conceptId: 3004501, conceptName: 'Glucose [Mass/volume]' },
      { kind: 'unit', sourceCode: 'mmol/L', conceptId: 8753, conceptName: 'millimole per liter' },
      { kind: 'drug', sourceCode: 'MET500', conceptId: 1503297, conceptName: 'metformin', note: '片剂' },
    ];
    for (const m of maps) {
      const r = await call(t, 'POST', `${P}/mappings`, key, m);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids[`map_${m.kind}`] = r.body.data.id;
    }
    expect((await call(t, 'GET', `${P}/mappings/${ids.map_condition}`, key)).body.data.sourceCode).toBe(
      'I10',
    );
    const edited = await call(t, 'PUT', `${P}/mappings/${ids.map_measurement}`, key, {
      ...maps[1],
      conceptName: 'Glucose [Mass/volume] in Serum or Plasma',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.conceptName).toBe('Glucose [Mass/volume] in Serum or Plasma');
    const list = await call(t, 'GET', `${P}/mappings?kind=condition`, key);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.builtin.map((b: { conceptId: number }) => b.conceptId)).toEqual([
      8507, 8532, 9201, 9202, 9203,
    ]);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, appId), like(auditLog.action, 'omop.mapping.%')));
    expect(audits.map((a) => a.action).sort()).toEqual([
      'omop.mapping.create',
      'omop.mapping.create',
      'omop.mapping.create',
      'omop.mapping.create',
      'omop.mapping.update',
    ]);
    expect(
      (audits.find((a) => a.action === 'omop.mapping.update')!.before as { conceptName: string }).conceptName,
    ).toBe('Glucose [Mass/volume]');
  });

  it('refuses bad mapping input with 400 naming the field, in both languages, and stores nothing', async () => {
    const before = await t.app.db.select().from(omopMappings).where(eq(omopMappings.appId, appId));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'condition', sourceCode: 'E11', conceptId: 0, conceptName: 'x' }, 'conceptId'],
      [{ kind: 'condition', sourceCode: 'E11', conceptId: -5, conceptName: 'x' }, 'conceptId'],
      [{ kind: 'condition', sourceCode: 'E11', conceptId: 1.5, conceptName: 'x' }, 'conceptId'],
      [{ kind: 'condition', sourceCode: '  ', conceptId: 201826, conceptName: 'x' }, 'sourceCode'],
      [{ kind: 'condition', sourceCode: 'x'.repeat(51), conceptId: 201826, conceptName: 'x' }, 'sourceCode'],
      [{ kind: 'diagnosis', sourceCode: 'E11', conceptId: 201826, conceptName: 'x' }, 'kind'],
      [{ kind: 'gender', sourceCode: 'M', conceptId: 8507, conceptName: 'MALE' }, 'sourceCode'],
      [{ kind: 'visit', sourceCode: 'home', conceptId: 581476, conceptName: 'Home Visit' }, 'sourceCode'],
      [{ kind: 'condition', sourceCode: 'I10', conceptId: 320128, conceptName: 'dup' }, 'sourceCode'],
      [{ kind: 'condition', sourceCode: 'E11', conceptId: 201826, conceptName: '' }, 'conceptName'],
    ];
    for (const [body, field] of cases) {
      const zh = await call(t, 'POST', `${P}/mappings`, key, body);
      expect(zh.status, JSON.stringify(body)).toBe(400);
      expect(zh.body.field ?? '', JSON.stringify(zh.body)).toContain(field);
      expect(zh.body.message).toMatch(/[\u4e00-\u9fff]/);
      const en = await call(t, 'POST', `${P}/mappings`, key, body, 'en-US');
      expect(en.status).toBe(400);
      expect(en.body.message).toContain(field);
      expect(en.body.message).not.toMatch(/[\u4e00-\u9fff]/);
    }
    const dupEn = await call(t, 'POST', `${P}/mappings`, key, cases[8]![0], 'en-US');
    expect(dupEn.body.message).toContain('already exists');
    const after = await t.app.db.select().from(omopMappings).where(eq(omopMappings.appId, appId));
    expect(after).toEqual(before);
  });

  it('refuses a CSV with bad rows, reporting each with its row number and reason, and stores none of it', async () => {
    const csv = [
      'kind,source_code,concept_id,concept_name',
      'condition,E11.9,201826,Type 2 diabetes mellitus',
      'diagnosis,E10,201254,Type 1 diabetes',
      'condition,E66,abc,Obesity',
      'gender,X,8507,MALE',
      'measurement,,3004410,HbA1c',
      'condition,e11.9,201826,again',
      'unit,%,8554,percent',
    ].join('\n');
    const r = await call(t, 'POST', `${P}/mappings/import`, key, { fileName: 'bad.csv', text: csv }, 'en-US');
    expect(r.status).toBe(200);
    expect(r.body.data.stored).toBe(false);
    expect(r.body.data.inserted).toBe(0);
    expect(r.body.data.faults).toEqual([
      { row: 2, field: 'kind', message: expect.stringContaining('kind must be one of') },
      { row: 3, field: 'concept_id', message: expect.stringContaining('positive integer') },
      { row: 4, field: 'source_code', message: expect.stringContaining('gender source code') },
      { row: 5, field: 'source_code', message: expect.stringContaining('empty') },
      { row: 6, field: 'source_code', message: expect.stringContaining('repeats row 1') },
    ]);
    const zh = await call(t, 'POST', `${P}/mappings/import`, key, { fileName: 'bad.csv', text: csv });
    expect(zh.body.data.faults[0].message).toMatch(/类型应为/);
    const stored = await t.app.db.select().from(omopMappings).where(eq(omopMappings.appId, appId));
    expect(stored.some((m) => m.sourceCode === 'E11.9' || m.sourceCode === '%')).toBe(false);
    // A file without a needed column is refused as a whole, naming the column.
    const noColumn = await call(t, 'POST', `${P}/mappings/import`, key, {
      fileName: 'x.csv',
      text: 'kind,source_code,concept_name\ncondition,E11,x',
    });
    expect(noColumn.status).toBe(400);
    expect(noColumn.body.field).toBe('text');
    expect(noColumn.body.message).toContain('concept_id');
  });

  it('imports a good CSV (upserting by kind and code), exports it back, and audits the import', async () => {
    const csv =
      '\uFEFFkind,source_code,concept_id,concept_name,note\r\ncondition,E11.9,201826,"Type 2 diabetes mellitus, without complications",\r\ncondition,I10,320128,Essential hypertension,from file\r\n';
    const r = await call(t, 'POST', `${P}/mappings/import`, key, { fileName: 'good.csv', text: csv });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ stored: true, total: 2, inserted: 1, updated: 1, faults: [] });
    const out = await call(t, 'GET', `${P}/mappings/export`, key);
    expect(out.status).toBe(200);
    expect(out.headers['content-type']).toContain('text/csv');
    const rows = parseCsv(out.raw.toString('utf8'));
    expect(rows[0]).toEqual(['kind', 'source_code', 'concept_id', 'concept_name', 'note']);
    expect(rows).toContainEqual([
      'condition',
      'E11.9',
      '201826',
      'Type 2 diabetes mellitus, without complications',
      '',
    ]);
    expect(rows).toContainEqual(['condition', 'I10', '320128', 'Essential hypertension', 'from file']);
    expect(rows.length).toBe(6);
    const [a] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.appId, appId), eq(auditLog.action, 'omop.mapping.import')));
    expect(a!.after).toMatchObject({ fileName: 'good.csv', inserted: 1, updated: 1 });
  });

  it('lists the built-in rules without writing them, writes them on the first change, and refuses unknown pairs', async () => {
    const first = await call(t, 'GET', `${P}/rules`, key);
    expect(first.body.data.stored).toBe(false);
    expect(first.body.data.items.map((r: { targetTable: string }) => r.targetTable)).toEqual([
      'person',
      'observation_period',
      'visit_occurrence',
      'condition_occurrence',
      'drug_exposure',
      'measurement',
    ]);
    expect(first.body.data.items.every((r: { id: null }) => r.id === null)).toBe(true);
    const bad = await call(t, 'POST', `${P}/rules`, key, {
      sourceTable: 'diagnoses',
      targetTable: 'measurement',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('targetTable');
    expect((await call(t, 'GET', `${P}/rules`, key)).body.data.stored).toBe(false);
    const written = await call(t, 'POST', `${P}/rules/defaults`, key, {});
    expect(written.body.data.stored).toBe(true);
    const drug = written.body.data.items.find(
      (r: { targetTable: string }) => r.targetTable === 'drug_exposure',
    );
    const dup = await call(t, 'POST', `${P}/rules`, key, {
      sourceTable: 'orders',
      targetTable: 'drug_exposure',
    });
    expect(dup.status).toBe(400);
    const off = await call(t, 'POST', `${P}/rules/${drug.id}/disable`, key, {});
    expect(off.body.data.enabled).toBe(false);
    const on = await call(t, 'POST', `${P}/rules/${drug.id}/enable`, key, {});
    expect(on.body.data.enabled).toBe(true);
    const actions = (
      await t.app.db
        .select({ a: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.appId, appId), like(auditLog.action, 'omop.rule.%')))
    ).map((x) => x.a);
    expect(actions).toEqual(['omop.rule.defaults', 'omop.rule.disable', 'omop.rule.enable']);
  });

  it('exports the CDM as a ZIP of one CSV per table with the v5.4 columns, mapped concepts and 0 for unmapped codes', async () => {
    const start = await call(t, 'POST', `${P}/tasks`, key, { name: '第一次导出' });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    taskId = start.body.data.id;
    expect(start.body.data.status).toBe('queued');
    await t.app.jobs.drain();
    const task = await call(t, 'GET', `${P}/tasks/${taskId}`, key);
    expect(task.body.data.status, JSON.stringify(task.body.data)).toBe('succeeded');
    const res = task.body.data.result;
    expect(res.counts).toEqual({
      person: 2,
      observation_period: 2,
      visit_occurrence: 2,
      condition_occurrence: 3,
      drug_exposure: 1,
      measurement: 2,
    });
    expect(res.personsWithoutBirthDate).toBe(1);
    expect(res.unmapped.condition).toEqual({
      rows: 2,
      codes: 1,
      top: [{ code: UNMAPPED_DX, example: '未映射的诊断', count: 2 }],
    });
    expect(res.unmapped.measurement.top).toEqual([
      { code: `HBA1C-${RUN}`, example: '糖化血红蛋白', count: 1 },
    ]);
    expect(res.unmapped.unit.top[0].code).toBe(`pct-${RUN}`);
    expect(res.unmapped.drug.rows).toBe(0);
    expect(res.unmapped.gender.rows).toBe(0);
    expect(res.unmapped.visit.rows).toBe(0);

    const dl = await call(t, 'GET', `${P}/tasks/${taskId}/download`, key);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('application/zip');
    zip = await readZip(dl.raw);
    expect([...zip.keys()]).toEqual(CDM_TABLES.map((x) => `${x}.csv`));
    const table = (name: string) => {
      const rows = parseCsv(zip.get(`${name}.csv`)!);
      const header = rows[0]!;
      return rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
    };
    for (const name of CDM_TABLES) expect(parseCsv(zip.get(`${name}.csv`)!)[0]).toEqual(CDM_COLUMNS[name]);

    const persons = table('person');
    expect(persons.map((p) => Number(p.person_id)).sort()).toEqual([ids.a, ids.b].sort());
    const a = persons.find((p) => Number(p.person_id) === ids.a)!;
    expect(a).toMatchObject({
      gender_concept_id: '8507',
      year_of_birth: '1960',
      month_of_birth: '3',
      day_of_birth: '4',
      person_source_value: String(ids.a),
      gender_source_value: '1',
    });
    expect(persons.find((p) => Number(p.person_id) === ids.b)!.gender_concept_id).toBe('8532');
    // Privacy: neither the name, the national ID nor the MRN leaves the hospital.
    for (const text of zip.values()) {
      expect(text).not.toContain('11010519491231002X');
      expect(text).not.toContain('OM-A');
      expect(text).not.toContain('患者');
    }

    const visits = table('visit_occurrence');
    expect(visits.find((v) => Number(v.visit_occurrence_id) === ids.visitA)).toMatchObject({
      visit_concept_id: '9201',
      visit_start_date: '2024-03-01',
      visit_start_datetime: '2024-03-01 08:00:00',
      visit_end_date: '2024-03-09',
      visit_type_concept_id: '32817',
      visit_source_value: 'inpatient',
    });
    expect(visits.find((v) => Number(v.visit_occurrence_id) === ids.visitB)!.visit_concept_id).toBe('9202');

    const conditions = table('condition_occurrence');
    expect(conditions.find((c) => Number(c.condition_occurrence_id) === ids.dxA1)).toMatchObject({
      condition_concept_id: '320128',
      condition_source_value: 'I10',
      condition_status_concept_id: '32902',
      visit_occurrence_id: String(ids.visitA),
      condition_type_concept_id: '32817',
    });
    const unmapped = conditions.find((c) => Number(c.condition_occurrence_id) === ids.dxA2)!;
    expect(unmapped).toMatchObject({ condition_concept_id: '0', condition_source_value: UNMAPPED_DX });
    expect(conditions.some((c) => Number(c.condition_occurrence_id) === ids.dxC)).toBe(false);

    const labs = table('measurement');
    expect(labs.find((m) => Number(m.measurement_id) === ids.labA)).toMatchObject({
      measurement_concept_id: '3004501',
      value_as_number: '6.1',
      unit_concept_id: '8753',
      unit_source_value: 'mmol/L',
      range_low: '3.9',
      range_high: '6.1',
      measurement_time: '07:15',
      measurement_source_value: 'GLU',
    });
    expect(labs.find((m) => Number(m.measurement_id) === ids.labB)).toMatchObject({
      measurement_concept_id: '0',
      unit_concept_id: '0',
      measurement_source_value: `HBA1C-${RUN}`,
    });

    const drugs = table('drug_exposure');
    expect(drugs).toHaveLength(1);
    expect(drugs[0]).toMatchObject({
      drug_exposure_id: String(ids.drugA),
      drug_concept_id: '1503297',
      drug_exposure_start_date: '2024-03-02',
      drug_exposure_end_date: '2024-03-09',
      sig: '500 mg PO bid',
      route_source_value: 'PO',
      dose_unit_source_value: 'mg',
      drug_source_value: 'MET500',
    });
    const periods = table('observation_period');
    expect(periods.find((o) => Number(o.person_id) === ids.a)).toMatchObject({
      observation_period_start_date: '2024-03-01',
      observation_period_end_date: '2024-03-09',
      period_type_concept_id: '32817',
    });
  });

  it('the CSVs have the official column order and load into the official v5.4 DDL with its primary keys', async () => {
    const official = officialColumns();
    for (const name of CDM_TABLES) expect([...CDM_COLUMNS[name]], name).toEqual(official.get(name));
    const cdm = await officialCdm();
    try {
      for (const name of CDM_TABLES) await cdm.copy(name, zip.get(`${name}.csv`)!);
      const [c] = await cdm.query<{ n: number }>(
        `select count(*)::int as n from cdm.condition_occurrence where condition_concept_id = 0 and condition_source_value = '${UNMAPPED_DX}'`,
      );
      expect(c!.n).toBe(2);
      const [m] = await cdm.query<{ v: string; u: number }>(
        `select value_as_number::text as v, unit_concept_id as u from cdm.measurement where measurement_concept_id = 3004501`,
      );
      expect(m).toEqual({ v: '6.1', u: 8753 });
      const [p] = await cdm.query<{ n: number }>('select count(*)::int as n from cdm.person');
      expect(p!.n).toBe(2);
      const [d] = await cdm.query<{ start: string }>(
        `select visit_start_datetime::text as start from cdm.visit_occurrence where visit_concept_id = 9201`,
      );
      expect(d!.start).toBe('2024-03-01 08:00:00');
      // Loading the same rows again breaks the primary keys: the ids are the CRDP ids, unique per table.
      await expect(cdm.copy('person', zip.get('person.csv')!)).rejects.toThrow();
    } finally {
      await cdm.close();
    }
  });

  it('honours disabled rules: a disabled table is not in the next ZIP', async () => {
    const rules = (await call(t, 'GET', `${P}/rules`, key)).body.data.items;
    const drug = rules.find((r: { targetTable: string }) => r.targetTable === 'drug_exposure');
    await call(t, 'POST', `${P}/rules/${drug.id}/disable`, key, {});
    const start = await call(t, 'POST', `${P}/tasks`, key, {});
    await t.app.jobs.drain();
    const task = await call(t, 'GET', `${P}/tasks/${start.body.data.id}`, key);
    expect(task.body.data.tables).not.toContain('drug_exposure');
    const z = await readZip((await call(t, 'GET', `${P}/tasks/${start.body.data.id}/download`, key)).raw);
    expect(z.has('drug_exposure.csv')).toBe(false);
    expect(z.has('person.csv')).toBe(true);
    await call(t, 'POST', `${P}/rules/${drug.id}/enable`, key, {});
    // A finished task can be renamed and deleted (with its file); the audit keeps both.
    const renamed = await call(t, 'PUT', `${P}/tasks/${start.body.data.id}`, key, { name: '无药品' });
    expect(renamed.body.data.name).toBe('无药品');
    expect((await call(t, 'DELETE', `${P}/tasks/${start.body.data.id}`, key)).status).toBe(200);
    expect((await call(t, 'GET', `${P}/tasks/${start.body.data.id}`, key)).status).toBe(404);
    const actions = (
      await t.app.db
        .select({ a: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.appId, appId), like(auditLog.action, 'omop.task.%')))
    ).map((x) => x.a);
    expect(actions).toEqual(
      expect.arrayContaining([
        'omop.task.start',
        'omop.task.download',
        'omop.task.update',
        'omop.task.delete',
      ]),
    );
  });

  it('pages through tables larger than one read (5,000 rows) without losing or repeating a row', async () => {
    const extra = 12_001;
    await t.app.db.execute(
      sql`insert into lab_results (app_id, patient_id, item_code, item_name, value_num, unit, collected_at, source, source_id)
        select ${appId}, ${ids.a}, 'GLU', '葡萄糖', 4 + (g % 30) / 10.0, 'mmol/L',
          timestamptz '2024-03-03 08:00:00+08' + make_interval(mins => g), 'synthetic', 'omop-bulk-' || g
        from generate_series(1, ${extra}) g`,
    );
    const start = await call(t, 'POST', `${P}/tasks`, key, {});
    await t.app.jobs.drain();
    const task = await call(t, 'GET', `${P}/tasks/${start.body.data.id}`, key);
    expect(task.body.data.result.counts.measurement).toBe(2 + extra);
    const z = await readZip((await call(t, 'GET', `${P}/tasks/${start.body.data.id}/download`, key)).raw);
    const rows = parseCsv(z.get('measurement.csv')!).slice(1);
    expect(rows).toHaveLength(2 + extra);
    const measurementIds = rows.map((r) => Number(r[0]));
    expect(new Set(measurementIds).size).toBe(rows.length);
    expect(measurementIds).toEqual([...measurementIds].sort((x, y) => x - y));
    expect(rows.filter((r) => r[2] === '3004501')).toHaveLength(1 + extra);
    // The person's observation period now reaches the last of the new results.
    const period = parseCsv(z.get('observation_period.csv')!).find((r) => Number(r[1]) === ids.a)!;
    expect(period[3]).toBe('2024-03-11');
    await t.app.db.execute(
      sql`delete from lab_results where app_id = ${appId} and source_id like 'omop-bulk-%'`,
    );
  });

  it("keeps every app's mappings, rules, tasks and files to itself", async () => {
    const list = await call(t, 'GET', `${P}/tasks`, demoKey);
    expect(list.body.data.items.some((x: { id: number }) => x.id === taskId)).toBe(false);
    for (const url of [
      `${P}/tasks/${taskId}`,
      `${P}/tasks/${taskId}/download`,
      `${P}/mappings/${ids.map_condition}`,
    ]) {
      const r = await call(t, 'GET', url, demoKey);
      expect(r.status, url).toBe(404);
      expect(r.body.data ?? null).toBeNull();
    }
    const put = await call(t, 'PUT', `${P}/mappings/${ids.map_condition}`, demoKey, {
      kind: 'condition',
      sourceCode: 'I10',
      conceptId: 1,
      conceptName: 'stolen',
    });
    expect(put.status).toBe(404);
    expect((await call(t, 'DELETE', `${P}/tasks/${taskId}`, demoKey)).status).toBe(404);
    const maps = await call(t, 'GET', `${P}/mappings?keyword=I10`, demoKey);
    expect(maps.body.data.items.some((m: { id: number }) => m.id === ids.map_condition)).toBe(false);
    const mine = await call(t, 'GET', `${P}/mappings/${ids.map_condition}`, key);
    expect(mine.body.data.conceptId).toBe(320128);
  });

  it('refuses to download a task that has not succeeded', async () => {
    const start = await call(t, 'POST', `${P}/tasks`, key, {}, 'en-US');
    const dl = await call(t, 'GET', `${P}/tasks/${start.body.data.id}/download`, key, undefined, 'en-US');
    expect(dl.status).toBe(400);
    expect(dl.body.message).toContain('queued');
    const del = await call(t, 'DELETE', `${P}/tasks/${start.body.data.id}`, key, undefined, 'en-US');
    expect(del.status).toBe(400);
    expect(del.body.message).toContain('still running');
    await t.app.jobs.drain();
  });
  it("exports Synthea's SNOMED CT conditions with their code as source value, mapped by an imported SNOMED map", async () => {
    // The demo hospital holds no patients in tests: the Synthea bundle is its only clinical data.
    const { name, bundle } = syntheaBundle();
    const imp = await call(t, 'POST', '/api/v0.1/imports/fhir', demoKey, { fileName: name, bundle });
    expect(imp.status, JSON.stringify(imp.body)).toBe(200);
    expect((await waitForImport(t.app, demoKey, imp.body.data.id)).status).toBe('succeeded');
    const found = await call(t, 'GET', '/api/v0.1/360?keyword=Kermit', demoKey);
    const kermit = String(found.body.data.items[0].id);
    const csv = 'kind,source_code,concept_id,concept_name\ncondition,38341003,316866,Hypertensive disorder\n';
    const mapped = await call(t, 'POST', `${P}/mappings/import`, demoKey, {
      fileName: 'snomed.csv',
      text: csv,
    });
    expect(mapped.body.data, JSON.stringify(mapped.body)).toMatchObject({ stored: true, inserted: 1 });

    const start = await call(t, 'POST', `${P}/tasks`, demoKey, { name: 'Synthea' });
    await t.app.jobs.drain();
    const task = await call(t, 'GET', `${P}/tasks/${start.body.data.id}`, demoKey);
    expect(task.body.data.status, JSON.stringify(task.body.data)).toBe('succeeded');
    // Unmapped SNOMED codes are listed by code (with the condition's name) for the data manager to map next.
    expect(task.body.data.result.unmapped.condition.top).toContainEqual({
      code: '444814009',
      example: 'Viral sinusitis (disorder)',
      count: 3,
    });
    expect(task.body.data.result.unmapped.condition.top.map((u: { code: string }) => u.code)).not.toContain(
      '38341003',
    );
    const z = await readZip((await call(t, 'GET', `${P}/tasks/${start.body.data.id}/download`, demoKey)).raw);
    const rows = parseCsv(z.get('condition_occurrence.csv')!);
    const header = rows[0]!;
    const conditions = rows
      .slice(1)
      .map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])))
      .filter((c) => c.person_id === kermit);
    expect(conditions).toHaveLength(6);
    expect(conditions.map((c) => c.condition_source_value).sort()).toEqual([
      '232353008',
      '233678006',
      '38341003',
      '444814009',
      '444814009',
      '444814009',
    ]);
    expect(conditions.find((c) => c.condition_source_value === '38341003')).toMatchObject({
      condition_concept_id: '316866',
      condition_source_concept_id: '0',
    });
    expect(
      conditions.filter((c) => c.condition_source_value !== '38341003').map((c) => c.condition_concept_id),
    ).toEqual(['0', '0', '0', '0', '0']);
  });
});
