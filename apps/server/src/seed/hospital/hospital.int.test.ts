import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { get, signIn, startTestApp, type TestApp } from '../../test/helper.js';
import { DEMO_DONE_MARK, DEMO_JOB } from './job.js';

const PATIENTS = 30;

async function rows<T>(app: FastifyInstance, q: SQL) {
  return ((await app.db.execute(q)) as unknown as { rows: T[] }).rows;
}
async function count(app: FastifyInstance, q: SQL) {
  return Number((await rows<{ n: number }>(app, q))[0]!.n);
}

/** What the demo made in each area: the numbers a second start must not change. */
async function census(app: FastifyInstance) {
  const tables = [
    'patients',
    'visits',
    'lab_results',
    'documents',
    'crf_forms',
    'crf_records',
    'diseases',
    'disease_libraries',
    'disease_library_patients',
    'research_subjects',
    'research_datasets',
    'mc_topics',
    'vis_charts',
    'vis_dashboards',
    'qc_rules',
    'qc_plans',
    'qc_tasks',
    'omop_mappings',
    'omop_tasks',
    'schedules',
    'hospital_units',
    't0_events',
    't0_patients',
    'dictionaries',
    'dictionary_entries',
    'jobs',
  ];
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await count(app, sql`select count(*)::int as n from ${sql.identifier(t)}`);
  return out;
}

describe('the demo hospital on first start', () => {
  let t: TestApp;
  let admin: string;
  let before: Record<string, number>;

  beforeAll(async () => {
    t = await startTestApp({ demoPatients: PATIENTS });
    admin = await signIn(t.app, 'admin');
  }, 180_000);
  afterAll(async () => t.close());

  it('answers at once while the demo is prepared as a job, with its progress for the banner', async () => {
    const status = await get(t.app, '/api/v0.1/demo/status', admin);
    expect(status.status).toBe(200);
    expect(status.body.data.state).toBe('preparing');
    expect(status.body.data.progress).toBeLessThan(100);
    expect(await count(t.app, sql`select count(*)::int as n from jobs where kind = ${DEMO_JOB}`)).toBe(1);
    await t.app.jobs.drain();
    // Every job the demo started (push, fill, dataset, analysis, QC, OMOP) succeeded.
    const failed = await rows<{ kind: string; error: string }>(
      t.app,
      sql`select kind, error from jobs where status <> 'succeeded'`,
    );
    expect(failed).toEqual([]);
    const done = await get(t.app, '/api/v0.1/demo/status', admin);
    expect(done.body.data).toEqual({ state: 'ready', progress: 100 });
    // Three phases, each a job that succeeded.
    const demoJobs = await rows<{ status: string }>(
      t.app,
      sql`select status from jobs where kind = ${DEMO_JOB} order by id`,
    );
    expect(demoJobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  }, 240_000);

  it('holds DEMO_PATIENTS coherent patients with a hepatitis B cohort and Chinese notes', async () => {
    expect(await count(t.app, sql`select count(*)::int as n from patients`)).toBe(PATIENTS);
    expect(
      await count(
        t.app,
        sql`select count(distinct patient_id)::int as n from diagnoses where icd10 = 'B18.1'`,
      ),
    ).toBeGreaterThan(0);
    const notes = await rows<{ body: string }>(t.app, sql`select body from documents limit 5`);
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) expect(n.body.match(/[\u4e00-\u9fff]/g)?.length).toBeGreaterThan(30);
    // One weight trajectory per patient: no two weights of a patient more than 10 kg apart.
    const spread = await rows<{ spread: number }>(
      t.app,
      sql`select max(value::float8) - min(value::float8) as spread from physical_exams where item = '体重' group by patient_id`,
    );
    for (const s of spread) expect(s.spread).toBeLessThanOrEqual(10);
    // Labs that match the diagnoses: HBV DNA only with hepatitis B, high glucose with diabetes.
    expect(
      await count(
        t.app,
        sql`select count(*)::int as n from lab_results l where item_code = 'HBVDNA'
            and not exists (select 1 from diagnoses d where d.patient_id = l.patient_id and d.icd10 like 'B18.1%')`,
      ),
    ).toBe(0);
    expect(
      await count(
        t.app,
        sql`select count(*)::int as n from lab_results l where item_code = 'GLU' and value_num < 7
            and exists (select 1 from diagnoses d where d.patient_id = l.patient_id and d.icd10 = 'E11.9')`,
      ),
    ).toBe(0);
  });

  it('fills every built area, linked to the patients, audited as the administrator', async () => {
    const records = await rows<{ status: string; patient_id: number | null }>(
      t.app,
      sql`select r.status, r.patient_id from crf_records r join crf_forms f on f.id = r.form_id
          where f.name = '慢性乙型肝炎随访 CRF' and r.deleted_at is null`,
    );
    expect(new Set(records.map((r) => r.status))).toEqual(
      new Set(['draft', 'submitted', 'verified', 'locked']),
    );
    for (const r of records) expect(r.patient_id).not.toBeNull();
    // The hospital's structure, its departments matching the visits' departments.
    const units = await get(t.app, '/api/v0.1/hospital-units', admin);
    const departments = units.body.data.items.filter((u: { kind: string }) => u.kind === 'department');
    expect(departments.length).toBe(4);
    expect(departments.reduce((n: number, u: { visits: number }) => n + u.visits, 0)).toBeGreaterThan(0);
    expect(await count(t.app, sql`select count(*)::int as n from dictionaries where builtin`)).toBe(6);
    // The cohort's T0 worked out: as many patients as have a B18.1 diagnosis.
    const t0 = await get(t.app, '/api/v0.1/t0-events', admin);
    const event = t0.body.data.items.find((e: { name: string }) => e.name === '首次诊断慢性乙型肝炎');
    expect(event).toMatchObject({ state: 'ready' });
    expect(event.patients).toBe(
      await count(
        t.app,
        sql`select count(distinct patient_id)::int as n from diagnoses where icd10 like 'B18.1%'`,
      ),
    );
    const list = await get(t.app, '/api/v0.1/diseaselibrary/libraries', admin);
    const library = list.body.data.items.find((l: { name: string }) => l.name === '慢性乙型肝炎专病库');
    expect(library).toBeTruthy();
    const pushed = await count(
      t.app,
      sql`select count(*)::int as n from disease_library_patients where library_id = ${library.id}`,
    );
    expect(pushed).toBeGreaterThan(0);
    expect(
      await count(
        t.app,
        sql`select count(*)::int as n from disease_library_patients where library_id = ${library.id} and record_id is not null`,
      ),
    ).toBeGreaterThan(0);
    const subjects = await get(t.app, '/api/v0.1/research/subjects', admin);
    const subject = subjects.body.data.items.find(
      (s: { name: string }) => s.name === '慢性乙型肝炎抗病毒治疗队列研究',
    );
    expect(subject.status).toBe('dataPreparing');
    const datasets = await get(t.app, `/api/v0.1/research/subjects/${subject.id}/datasets`, admin);
    expect(datasets.body.data).toHaveLength(1);
    const analyses = await get(t.app, `/api/v0.1/research/subjects/${subject.id}/analyses`, admin);
    expect(analyses.body.data.map((a: { status: string }) => a.status)).toEqual(['succeeded']);
    expect(subject.status).toBe('dataPreparing');
    const c = await census(t.app);
    expect(c).toMatchObject({ mc_topics: 1, vis_charts: 3, vis_dashboards: 1, qc_plans: 1, qc_tasks: 1 });
    expect(c).toMatchObject({ omop_tasks: 1, schedules: 1, disease_libraries: 1, research_subjects: 1 });
    expect(c.omop_mappings).toBeGreaterThan(0);
    const actors = await rows<{ user_name: string }>(
      t.app,
      sql`select distinct u.user_name from audit_log a join users u on u.user_id = a.user_id
          where a.action like 'crf.%' or a.action like 'research.%'`,
    );
    expect(actors.map((a) => a.user_name)).toEqual(['admin']);
    before = c;
  });

  it('a second start changes nothing', async () => {
    const again = await buildApp({ config: t.config, database: t.app.database, logger: false });
    await again.ready();
    await again.jobs.drain();
    expect(await census(again)).toEqual(before);
    await again.close();
  }, 180_000);

  it('a start after a stop mid-way finishes the demo without making anything twice', async () => {
    // The first process stops taking jobs (its poller would otherwise race the new start for the
    // job queued again, and the new start's drain would return while the old one ran it).
    await t.app.jobs.stop();
    // As if the process stopped while the last phase ran: its job still "running", the end not marked.
    await t.app.db.execute(
      sql`delete from seed_marks where name in (${DEMO_DONE_MARK}, 'demo.step.crf', 'demo.step.charts', 'demo.step.finish')`,
    );
    // Its heartbeat stopped an hour ago: the sweeper of the next start queues it again (on the
    // embedded database the start does so at once: no other process can be running it).
    await t.app.db.execute(
      sql`update jobs set status = 'running', worker_id = 'stopped:1', heartbeat_at = now() - interval '1 hour'
          where id = (select max(id) from jobs where kind = ${DEMO_JOB})`,
    );
    const again = await buildApp({ config: t.config, database: t.app.database, logger: false });
    await again.ready();
    await again.jobs.sweep();
    await again.jobs.drain();
    const status = await get(again, '/api/v0.1/demo/status', admin);
    expect(status.body.data.state).toBe('ready');
    const after = await census(again);
    expect({ ...after, jobs: 0 }).toEqual({ ...before, jobs: 0 });
    await again.close();
  }, 180_000);
});

describe('the demo hospital is off', () => {
  it('with DEMO_DATA=0 or DEMO_PATIENTS=0: accounts only, no job, status off', async () => {
    expect(loadConfig({}).demoPatients).toBe(2000);
    expect(loadConfig({ DEMO_PATIENTS: '120' }).demoPatients).toBe(120);
    expect(() => loadConfig({ DEMO_PATIENTS: 'many' })).toThrow(/DEMO_PATIENTS/);
    const t = await startTestApp({ demoPatients: 0 });
    try {
      const admin = await signIn(t.app, 'admin');
      expect((await get(t.app, '/api/v0.1/demo/status', admin)).body.data).toEqual({
        state: 'off',
        progress: 0,
      });
      expect(await count(t.app, sql`select count(*)::int as n from jobs`)).toBe(0);
      expect(await count(t.app, sql`select count(*)::int as n from patients`)).toBe(0);
    } finally {
      await t.close();
    }
    const off = await startTestApp({ demoData: false, demoPatients: 50 });
    try {
      expect(await count(off.app, sql`select count(*)::int as n from jobs`)).toBe(0);
      expect(
        await count(off.app, sql`select count(*)::int as n from apps where app_short_name = 'DEMO'`),
      ).toBe(0);
    } finally {
      await off.close();
    }
  }, 300_000);
});
