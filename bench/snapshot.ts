/**
 * A scientific-database snapshot of PATIENTS patients × VARIABLES variables (default 100,000 ×
 * 200: 180 numbers, 10 categories, 10 dates), built the way the `sci.snapshot` job builds it —
 * each variable's values asked from the database by its own SQL, lined up in DuckDB
 * (@duckdb/node-api) one row per patient with study numbers, per-column statistics (present,
 * distinct, min, median, max, mean, sd, a ten-bin histogram; the 20 most frequent values of a
 * category; min/median/max of a date), written as one Parquet file and stored in the database in
 * 4 MB parts — against the same build in plain PostgreSQL SQL, in the same database and run: one
 * INSERT … SELECT of the wide rows (study number, an array of the numbers and one of the texts,
 * the same 200 value queries as left joins) and the same statistics by SQL over the stored rows
 * (unnest … with ordinality, grouped by column). Prints both times, the share of ours spent in the
 * value queries, and `ratio=<DuckDB build / PostgreSQL build>`.
 *
 * The variables' values come from cheap SQL over a table of the patients (numbers with one
 * decimal, a seventh of each column missing), not from the variable library's templates over a
 * clinical data repository of 100,000 patients: those queries are the same on both sides and
 * would only add the same seconds to both. The data goes into a throw-away database: a fresh
 * PostgreSQL database when DATABASE_URL is set (dropped after), else embedded PGlite in memory.
 * Run: `npm run bench -- snapshot` (PATIENTS=n VARIABLES=n to change the size).
 */
import type { SciColumnStats } from '@crdp/core';
import { buildSnapshotFile, type EngineColumn } from '../apps/server/src/scientific-database/engine.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';

const PATIENTS = Number(process.env.PATIENTS ?? 100_000);
const VARIABLES = Number(process.env.VARIABLES ?? 200);
const PART = 4 * 1024 * 1024;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const columns: EngineColumn[] = Array.from({ length: VARIABLES }, (_, i) => ({
  key: `v${i}`,
  type: i % 10 === 9 ? 'category' : i % 20 === 3 ? 'date' : 'number',
}));

/** Variable i's values: (patient_id, v), a seventh of the patients without one. */
function valueSql(i: number): string {
  const c = columns[i]!;
  const v =
    c.type === 'number'
      ? `((id * 31 + ${i * 17}) % 1000) / 10.0`
      : c.type === 'category'
        ? `((id + ${i}) % 4)::text`
        : `to_char(date '2020-01-01' + ((id * 7 + ${i}) % 1500)::int, 'YYYY-MM-DD')`;
  return `select id as patient_id, ${v} as v from bench_patients where (id + ${i}) % 7 <> 0`;
}

async function main() {
  const t = await openThrowAwayDatabase('crdp_bench_snapshot');
  const db = t.database.db;
  const run = (q: string) => db.execute(q);
  try {
    await run('create table bench_patients (id bigint primary key, filing_date date not null)');
    await run(`insert into bench_patients select g, date '2024-01-01' + (g % 365)::int
      from generate_series(1, ${PATIENTS}) g`);
    await run(
      'create table bench_parts (snapshot_id int, part int, bytes bytea, primary key (snapshot_id, part))',
    );
    await run(`create table bench_ref_rows (snapshot_id int, row_no int, patient_id bigint, study_no text,
      nums float8[], txts text[])`);
    await run('analyze bench_patients');
    console.log(`${t.kind}: ${PATIENTS.toLocaleString()} patients × ${VARIABLES} variables`);

    // Ours: the job's way.
    const t0 = performance.now();
    const patients = rowsOf<{ id: number | string }>(
      await run('select id from bench_patients order by filing_date, id'),
    ).map((r) => Number(r.id));
    const index = new Map(patients.map((p, i) => [p, i]));
    let queries = 0;
    const { file, stats } = await buildSnapshotFile(patients, columns, async (i) => {
      const q0 = performance.now();
      const got = rowsOf<{ patient_id: number | string; v: unknown }>(await run(valueSql(i)));
      const rows: number[] = [];
      const values: Array<number | string> = [];
      for (const r of got) {
        const at = index.get(Number(r.patient_id));
        if (at === undefined || r.v === null) continue;
        rows.push(at);
        values.push(columns[i]!.type === 'number' ? Number(r.v) : String(r.v));
      }
      queries += performance.now() - q0;
      return { rows, values };
    });
    // The file in parts, as the job stores it (hex here: the bench has no query builder).
    for (let part = 0, at = 0; at < file.length; part++, at += PART)
      await run(
        `insert into bench_parts values (1, ${part}, decode('${file.subarray(at, at + PART).toString('hex')}', 'hex'))`,
      );
    const ours = performance.now() - t0;
    console.log(
      `DuckDB build: ${s(ours)} (value queries and transfer ${s(queries)}, lining up, statistics, Parquet and storing ${s(ours - queries)}); Parquet ${(file.length / 1024 / 1024).toFixed(1)} MB`,
    );

    // The reference: plain PostgreSQL SQL.
    const r0 = performance.now();
    const nums = columns.map((c, i) => [c, i] as const).filter(([c]) => c.type === 'number');
    const txts = columns.map((c, i) => [c, i] as const).filter(([c]) => c.type !== 'number');
    await run(`insert into bench_ref_rows
      select 1, b.rn, b.id, 'S' || lpad(b.rn::text, 6, '0'),
        array[${nums.map(([, i]) => `x${i}.v`).join(', ')}]::float8[],
        array[${txts.map(([, i]) => `x${i}.v`).join(', ')}]::text[]
      from (select id, row_number() over (order by filing_date, id) as rn from bench_patients) b
      ${columns.map((_, i) => `left join (${valueSql(i)}) x${i} on x${i}.patient_id = b.id`).join('\n')}`);
    const numStats = rowsOf<Record<string, number | string | null>>(
      await run(`select u.i, count(u.v) as present, count(distinct u.v) as distinct, min(u.v) as min, max(u.v) as max,
        avg(u.v) as mean, percentile_cont(0.5) within group (order by u.v) as median, stddev_samp(u.v) as sd
        from bench_ref_rows r, unnest(r.nums) with ordinality u(v, i) where r.snapshot_id = 1 group by u.i`),
    );
    await run(`with s as (select u.i, min(u.v) lo, max(u.v) hi
        from bench_ref_rows r, unnest(r.nums) with ordinality u(v, i) where r.snapshot_id = 1 group by u.i)
      select u.i, least(floor((u.v - s.lo) / nullif((s.hi - s.lo) / 10, 0)), 9) as b, count(*) as n
      from bench_ref_rows r, unnest(r.nums) with ordinality u(v, i) join s on s.i = u.i
      where r.snapshot_id = 1 and u.v is not null group by 1, 2`);
    await run(`select i, v, n from (select u.i, u.v, count(*) as n,
        row_number() over (partition by u.i order by count(*) desc, u.v) as k
        from bench_ref_rows r, unnest(r.txts) with ordinality u(v, i)
        where r.snapshot_id = 1 and u.v is not null group by u.i, u.v) x where k <= 20`);
    await run(`select u.i, count(u.v), count(distinct u.v), min(u.v), max(u.v),
        percentile_disc(0.5) within group (order by u.v)
        from bench_ref_rows r, unnest(r.txts) with ordinality u(v, i) where r.snapshot_id = 1 group by u.i`);
    const reference = performance.now() - r0;
    console.log(`PostgreSQL SQL build: ${s(reference)}`);

    // The two agree on what they summarise.
    const first = numStats.find((x) => Number(x.i) === 1)!;
    const mine = stats[0] as SciColumnStats;
    if (Number(first.present) !== mine.present || Number(first.max) !== mine.max)
      throw new Error(`statistics differ: ${JSON.stringify(first)} vs ${JSON.stringify(mine)}`);
    console.log(`ratio=${(ours / reference).toFixed(3)}`);
  } finally {
    await t.drop();
  }
}

await main();
