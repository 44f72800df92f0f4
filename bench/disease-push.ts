/**
 * A disease-library push (issue 8) over N synthetic patients, against a plain
 * `INSERT ... SELECT` of the same rows with hand-written SQL of the same criteria, in the same
 * run and database. Criteria: chronic hepatitis B (B18) in, liver cancer (C22) out, age 18-90.
 * Two references, both hand-written SQL of the same criteria run in the same database and run:
 * the same rows written into the same tables (a CRF record and a library row with filing date and
 * reasons per patient, in one `INSERT ... SELECT` statement, under the same foreign keys,
 * indexes and row-level security), and the bare `INSERT ... SELECT` of patient and filing date
 * into a table with nothing on it. Prints the times, rows per second,
 * `ratio=<push / same rows in the same tables>` and `ratio_bare=<push / bare table>` (medians).
 *
 * "Push" is `pushPatients`, the work of the push job: the compiled criteria, the filing date
 * (first visit), the reasons, a CRF record per new patient, walked in id ranges with progress.
 * A second push of the same library adds nobody; its time is printed too. The data goes into a
 * throw-away database: a fresh PostgreSQL database when DATABASE_URL is set (dropped after),
 * else embedded PGlite in memory. Patients come from the synthetic generator of
 * `npm run seed:synthetic`. Run: `npx tsx bench/disease-push.ts` (PATIENTS=n to change the size).
 * BENCH_PUSH_URL=postgres://…/crdp_scale runs it on a kept database instead (the 1,000,000
 * patients of `npm run bench -- scale`, app DEMO), seeding nothing and removing every row it wrote.
 */
import { seedSynthetic } from '../apps/server/src/clinical/synthetic/seed.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { pushPatients } from '../apps/server/src/disease-library/push.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';

// The embedded database takes synthetic patients by INSERT (about 100 rows each): keep it small there.
const KEPT = process.env.BENCH_PUSH_URL;
const PATIENTS = Number(process.env.PATIENTS ?? (process.env.DATABASE_URL ? 20_000 : 2_000));
const RUNS = Number(process.env.RUNS ?? (KEPT ? 1 : 3));

const CRITERIA = {
  match: 'all',
  inclusion: [
    { kind: 'diagnosis', codes: ['B18'] },
    { kind: 'age', min: 18, max: 90 },
  ],
  exclusion: [{ kind: 'diagnosis', codes: ['C22'] }],
};

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** The same rows by hand: the patients of the criteria with their first-visit filing date. */
const plainInsert = (appId: number) => `
  insert into bench_push_ref (patient_id, filing_date)
  select p.id, coalesce((select min(v.admit_at)::date from visits v where v.patient_id = p.id), current_date)
  from patients p
  where p.app_id = ${appId}
    and exists (select 1 from diagnoses d where d.patient_id = p.id and d.icd10 like 'B18%')
    and p.birth_date is not null
    and extract(year from age(current_date, p.birth_date)) between 18 and 90
    and not exists (select 1 from diagnoses d where d.patient_id = p.id and d.icd10 like 'C22%')`;

/** The same rows into the library's own tables, by hand: CRF records, then library rows naming them. */
const sameTablesInsert = (appId: number, formId: number, versionId: number, libraryId: number) => `
  with hit as materialized (
    select p.id from patients p
    where p.app_id = ${appId}
      and exists (select 1 from diagnoses d where d.patient_id = p.id and d.icd10 like 'B18%')
      and p.birth_date is not null
      and extract(year from age(current_date, p.birth_date)) between 18 and 90
      and not exists (select 1 from diagnoses d where d.patient_id = p.id and d.icd10 like 'C22%')
  ),
  made as (
    insert into crf_records (app_id, form_id, version_id, patient_id, subject_code, answers, methods, status,
      created_by_name, updated_by_name)
    select ${appId}, ${formId}, ${versionId}, h.id, 'REF${libraryId}-' || h.id, '{}', '{}', 'draft', 'bench', 'bench'
    from hit h
    returning id, patient_id
  )
  insert into disease_library_patients (app_id, library_id, patient_id, filing_date, reason, record_id)
  select ${appId}, ${libraryId}, m.patient_id,
    coalesce((select min(v.admit_at)::date from visits v where v.patient_id = m.patient_id), current_date),
    '["诊断 B18", "年龄 18-90 岁"]'::jsonb, m.id
  from made m`;

/** A fresh database with PATIENTS synthetic patients, or the kept one of BENCH_PUSH_URL. */
async function open() {
  if (KEPT) {
    const database = await openDatabase({ url: KEPT, dataDir: 'memory' });
    const [app] = rowsOf<{ app_id: number }>(
      await database.db.execute(`select app_id from apps where app_short_name = 'DEMO'`),
    );
    if (!app) throw new Error('BENCH_PUSH_URL: the database has no DEMO app');
    const [count] = rowsOf<{ n: number }>(
      await database.db.execute(`select count(*)::int as n from patients where app_id = ${app.app_id}`),
    );
    return {
      database,
      kind: 'PostgreSQL (kept)',
      appId: app.app_id,
      patients: Number(count!.n),
      drop: () => database.close(),
    };
  }
  const { database, drop, kind } = await openThrowAwayDatabase('crdp_bench');
  const [app] = rowsOf<{ app_id: number }>(
    await database.db.execute(
      `insert into apps (app_short_name, name) values ('BENCH', '基准医院') returning app_id`,
    ),
  );
  const t0 = performance.now();
  const seeded = await seedSynthetic(database.db, {
    appId: app!.app_id,
    patients: PATIENTS,
    seed: 8,
    batchSize: 1000,
    workers: 1,
  });
  await database.db.execute('analyze');
  console.log(
    `${kind}: ${seeded.patients} synthetic patients, ${seeded.rows} rows in ${ms(performance.now() - t0)}`,
  );
  return { database, kind, appId: app!.app_id, patients: PATIENTS, drop };
}

async function main() {
  const { database, drop, appId, patients } = await open();
  let formId: number | undefined;
  try {
    const db = database.db;
    const q = async <T>(s: string) => rowsOf<T>(await db.execute(s));
    const definition = {
      pages: [{ key: 'p', title: '乙肝', items: [{ key: 'alt', type: 'textQuestion', title: 'ALT' }] }],
    };
    const [form] = await q<{ id: number }>(
      `insert into crf_forms (app_id, name, draft, latest_version) values (${appId}, '乙肝专病表', '${JSON.stringify(definition)}', 1) returning id`,
    );
    formId = form!.id;
    const [formVersion] = await q<{ id: number }>(
      `insert into crf_form_versions (app_id, form_id, version, definition) values (${appId}, ${form!.id}, 1, '${JSON.stringify(definition)}') returning id`,
    );
    await db.execute(
      'create table if not exists bench_push_ref (patient_id bigint primary key, filing_date date not null)',
    );

    const ours: number[] = [];
    const again: number[] = [];
    const plain: number[] = [];
    const same: number[] = [];
    let added = 0;
    let reference = 0;
    for (let run = 0; run < RUNS; run++) {
      const [lib] = await q<{ id: number }>(
        `insert into disease_libraries (app_id, name, crf_form_id, criteria, filing_rule)
         values (${appId}, '乙肝专病库 ${run}', ${form!.id}, '${JSON.stringify(CRITERIA)}', 'firstVisit') returning id`,
      );
      const by = { userId: null, userName: 'bench', jobId: null };
      let a = performance.now();
      const first = await pushPatients(db, appId, lib!.id, by);
      ours.push(performance.now() - a);
      added = first.added;
      a = performance.now();
      const second = await pushPatients(db, appId, lib!.id, by);
      again.push(performance.now() - a);
      if (second.added !== 0) throw new Error(`the second push added ${second.added} patients`);

      await db.execute('truncate bench_push_ref');
      a = performance.now();
      await db.execute(plainInsert(appId));
      plain.push(performance.now() - a);
      const [n] = await q<{ n: number }>('select count(*)::int as n from bench_push_ref');
      reference = Number(n!.n);
      if (reference !== added)
        throw new Error(`push added ${added}, the plain INSERT ... SELECT ${reference}`);

      const [refLib] = await q<{ id: number }>(
        `insert into disease_libraries (app_id, name, crf_form_id, criteria, filing_rule)
         values (${appId}, '参照库 ${run}', ${form!.id}, '${JSON.stringify(CRITERIA)}', 'firstVisit') returning id`,
      );
      a = performance.now();
      await db.execute(sameTablesInsert(appId, form!.id, formVersion!.id, refLib!.id));
      same.push(performance.now() - a);
      const [m] = await q<{ n: number }>(
        `select count(*)::int as n from disease_library_patients where library_id = ${refLib!.id}`,
      );
      if (Number(m!.n) !== added) throw new Error(`push added ${added}, the same-tables reference ${m!.n}`);
    }
    const o = median(ours);
    const p = median(plain);
    const r = median(same);
    console.log(
      `push of ${added} of ${patients} patients: ${ms(o)} (${Math.round(added / (o / 1000))} rows/s, with a CRF record each); second push (nobody new) ${ms(median(again))}`,
    );
    console.log(
      `plain INSERT ... SELECT of the same ${reference} rows: ${ms(p)} (${Math.round(reference / (p / 1000))} rows/s)`,
    );
    console.log(
      `the same rows by hand into the same tables (CRF records + library rows): ${ms(r)} (${Math.round(reference / (r / 1000))} rows/s)`,
    );
    console.log(`ratio=${(o / r).toFixed(2)}`);
    console.log(`ratio_bare=${(o / p).toFixed(2)}`);
  } finally {
    // On the kept database, take away every row this run wrote (libraries, their rows, records, form).
    if (KEPT && formId !== undefined) {
      const db = database.db;
      await db.execute(
        `delete from disease_library_patients where library_id in (select id from disease_libraries where crf_form_id = ${formId})`,
      );
      await db.execute(`delete from disease_libraries where crf_form_id = ${formId}`);
      await db.execute(`delete from crf_records where form_id = ${formId}`);
      await db.execute(`delete from crf_form_versions where form_id = ${formId}`);
      await db.execute(`delete from crf_forms where id = ${formId}`);
      await db.execute('drop table if exists bench_push_ref');
    }
    await drop();
  }
}

await main();
