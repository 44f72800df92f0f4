/**
 * The chart builder's server aggregate over 100,000 synthetic patients (issue 10: "renders a
 * 100,000-patient aggregate in under a second"), against the hand-written GROUP BY that answers
 * the same question, in the same run and database. Prints the absolute times and
 * `ratio=<ours/raw SQL GROUP BY>` (median over the runs, all three charts together).
 *
 * "Ours" is what one builder request does on the server: check the query against the
 * catalogue, build the SQL, run it, shape the rows; then `toEChartsOption` for the chart, as
 * the browser does before drawing. The data goes into a throw-away database: a fresh
 * PostgreSQL database when DATABASE_URL is set (dropped after), else embedded PGlite in memory.
 * Run: `npx tsx bench/chart-aggregate.ts` (PATIENTS=n to change the size).
 */
import { toEChartsOption } from '@crdp/charts';
import type { Database } from '../apps/server/src/db/client.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';
import { catalogue } from '../apps/server/src/visualization/routes.js';

const PATIENTS = Number(process.env.PATIENTS ?? 100_000);
const BATCH = 20_000;
const RUNS = 15;

const PROVINCES = ['11', '12', '13', '31', '32', '33', '37', '41', '42', '44', '51', '61', '65', '23', '50'];

/** Patients with national IDs across provinces, and about 1.5 diagnoses each, in batches. */
async function generate(db: Database['db'], appId: number) {
  const provinces = `array[${PROVINCES.map((p) => `'${p}'`).join(',')}]`;
  for (let from = 1; from <= PATIENTS; from += BATCH) {
    const to = Math.min(PATIENTS, from + BATCH - 1);
    await db.execute(`
      insert into patients (app_id, mrn, name, gender, birth_date, national_id, source, source_id)
      select ${appId}, 'B' || g, '患者' || g, 1 + (g % 2),
        date '1930-01-01' + ((g * 7919) % 33000),
        (${provinces})[1 + (g * 31) % ${PROVINCES.length}] || '0101' ||
          to_char(date '1930-01-01' + ((g * 7919) % 33000), 'YYYYMMDD') || lpad((g % 1000)::text, 3, '0') || 'X',
        'synthetic', 'b-' || g
      from generate_series(${from}::int, ${to}::int) g`);
  }
  await db.execute(`
    insert into diagnoses (app_id, patient_id, icd10, name, kind, diagnosed_at, source, source_id)
    select ${appId}, p.id, c.icd10, c.name, 'main', timestamptz '2024-01-01' + (p.id % 365) * interval '1 day', 'synthetic', 'bd-' || p.id || '-' || c.k
    from patients p
    join (values (0, 'I10', '原发性高血压'), (1, 'E11.9', '2型糖尿病'), (2, 'K74.6', '肝硬化'), (3, 'J18.9', '肺炎'))
      as c(k, icd10, name) on (p.id + c.k) % 3 = 0 or c.k = p.id % 4
    where p.app_id = ${appId}`);
  await db.execute('analyze patients');
  await db.execute('analyze diagnoses');
}

interface Case {
  name: string;
  query: { dataset: string; dimensions: string[]; measures: string[] };
  spec: Parameters<typeof toEChartsOption>[0];
  raw: (appId: number) => string;
}

const CASES: Case[] = [
  {
    name: 'map: patients by province',
    query: { dataset: 'patients', dimensions: ['province'], measures: ['count'] },
    spec: {
      subtype: 'map',
      channels: { category: [{ field: 'province' }], value: [{ field: 'count', aggregate: 'sum' }] },
    },
    raw: (appId) =>
      `select substr(national_id, 1, 2) as province, count(*)::int as count from patients where app_id = ${appId} group by 1`,
  },
  {
    name: 'sankey: gender to age band',
    query: { dataset: 'patients', dimensions: ['gender', 'age_band'], measures: ['count'] },
    spec: {
      subtype: 'sankey-diagram',
      channels: {
        xs: [{ field: 'gender' }, { field: 'age_band' }],
        value: [{ field: 'count', aggregate: 'sum' }],
      },
    },
    raw: (
      appId,
    ) => `select gender, width_bucket(extract(year from age(current_date, birth_date)), array[18, 45, 65]) as band,
      count(*)::int as count from patients where app_id = ${appId} group by 1, 2`,
  },
  {
    name: 'word cloud: diagnoses by name',
    query: { dataset: 'diagnoses', dimensions: ['diagnosis'], measures: ['count'] },
    spec: {
      subtype: 'word-cloud',
      channels: { text: [{ field: 'diagnosis' }], size: [{ field: 'count', aggregate: 'sum' }] },
    },
    raw: (appId) =>
      `select d.name, count(*)::int as count from diagnoses d join patients p on p.id = d.patient_id where d.app_id = ${appId} group by 1`,
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const { database, drop, kind } = await openThrowAwayDatabase('crdp_bench');
  try {
    const db = database.db;
    const [app] = (
      (await db.execute(
        `insert into apps (app_short_name, name) values ('BENCH', '基准医院') returning app_id`,
      )) as unknown as {
        rows: Array<{ app_id: number }>;
      }
    ).rows;
    const appId = app!.app_id;
    const t0 = performance.now();
    await generate(db, appId);
    const counted = (
      (await db.execute(
        `select (select count(*) from patients)::int as p, (select count(*) from diagnoses)::int as d`,
      )) as unknown as {
        rows: Array<{ p: number; d: number }>;
      }
    ).rows[0]!;
    console.log(
      `${kind}: ${counted.p} patients, ${counted.d} diagnoses generated in ${ms(performance.now() - t0)}`,
    );

    let oursTotal = 0;
    let rawTotal = 0;
    for (const c of CASES) {
      const ours: number[] = [];
      const raw: number[] = [];
      let groups = 0;
      for (let i = 0; i < RUNS + 2; i++) {
        const a = performance.now();
        const result = await catalogue.aggregate(
          db,
          appId,
          { ...c.query, filters: [], limit: 5000 },
          'zh-CN',
        );
        toEChartsOption(c.spec, result.rows);
        const b = performance.now();
        await db.execute(c.raw(appId));
        const e = performance.now();
        groups = result.rows.length;
        if (i >= 2) {
          ours.push(b - a);
          raw.push(e - b);
        }
      }
      const o = median(ours);
      const r = median(raw);
      oursTotal += o;
      rawTotal += r;
      console.log(
        `${c.name}: ${groups} groups; builder aggregate + option ${ms(o)} (max ${ms(Math.max(...ours))}), raw GROUP BY ${ms(r)}`,
      );
    }
    console.log(
      `builder aggregate over ${PATIENTS} patients: ${ms(oursTotal / CASES.length)} per chart (median), under 1 s: ${oursTotal / CASES.length < 1000}`,
    );
    console.log(`ratio=${(oursTotal / rawTotal).toFixed(2)}`);
  } finally {
    await drop();
  }
}

await main();
