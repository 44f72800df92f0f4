/**
 * The clinical rule engine (issue 19): R rules evaluated over N synthetic patients as set-based
 * SQL (`apps/server/src/rules/compile.ts`, one statement per rule over every patient), against
 * the equivalent hand-written SQL of each rule, in the same run and database. Each rule is
 * "the latest <lab> above a limit (optionally within 365 days after the first visit) and (a
 * diagnosis of <code> or age ≥ <n>)" over the ten lab items and six diagnoses of the synthetic
 * data, so the rules differ in item, limit, window, code and age. Both sides must find the same
 * patients for every rule (checked); the bench prints both times and
 * `ratio=<engine/hand-written>` (median of runs).
 *
 * The issue asks for 200 rules over 100,000 patients. Scaled down by default: 40 rules over 2,000
 * patients on the embedded PGlite (it takes synthetic patients by INSERT, ~100 rows each), 200
 * rules over 20,000 patients on PostgreSQL (DATABASE_URL). RULES=n and PATIENTS=n change them.
 * Run: `npx tsx bench/rules.ts`.
 */
import { ruleWhen } from '@crdp/core';
import { seedSynthetic } from '../apps/server/src/clinical/synthetic/seed.js';
import { countFired, planRule, type RulePlan } from '../apps/server/src/rules/compile.js';
import { scopeBase } from '../apps/server/src/rules/runs.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';

const PG = !!process.env.DATABASE_URL;
const PATIENTS = Number(process.env.PATIENTS ?? (PG ? 20_000 : 2_000));
const RULES = Number(process.env.RULES ?? (PG ? 200 : 40));
const RUNS = Number(process.env.RUNS ?? 3);

const LABS: [string, number][] = [
  ['ALT', 50],
  ['AST', 40],
  ['TBIL', 20.5],
  ['ALB', 40],
  ['AFP', 7],
  ['HBVDNA', 20],
  ['HCVRNA', 15],
  ['PLT', 125],
  ['GLU', 6.1],
  ['HBSAG', 0.05],
];
const DX = ['B18', 'K74', 'C22', 'K76', 'I10', 'E11'];

interface BenchRule {
  lab: string;
  limit: number;
  windowed: boolean;
  dx: string;
  age: number;
}
const rules: BenchRule[] = Array.from({ length: RULES }, (_, i) => ({
  lab: LABS[i % LABS.length]![0],
  limit: LABS[i % LABS.length]![1] * (1 + (Math.floor(i / LABS.length) % 5) * 0.25),
  windowed: i % 3 === 0,
  dx: DX[i % DX.length]!,
  age: 40 + (i % 4) * 10,
}));

const whenOf = (r: BenchRule) =>
  ruleWhen.parse({
    conditions: [
      {
        kind: 'attribute',
        attribute: `latest lab.value where code = "${r.lab}"`,
        op: '>',
        value: r.limit,
        window: r.windowed ? { side: 'after', ref: 'first_visit', withinDays: 365 } : null,
      },
    ],
    groups: [
      {
        match: 'any',
        conditions: [
          { kind: 'criterion', criterion: { kind: 'diagnosis', codes: [r.dx] } },
          { kind: 'attribute', attribute: 'value patient.age', op: '>=', value: r.age },
        ],
      },
    ],
  });

/** The same rule by hand: what a person would write for this one rule. */
const handWritten = (appId: number, r: BenchRule) => `
  select count(*)::int as n from patients p
  where p.app_id = ${appId}
    and (select l.value_num from lab_results l
         where l.patient_id = p.id and l.app_id = ${appId} and l.item_code = '${r.lab}' and l.value_num is not null
         ${
           r.windowed
             ? `and l.collected_at >= (select min(v.admit_at) from visits v where v.patient_id = p.id and v.app_id = ${appId})
                and l.collected_at::date <= (select min(v.admit_at) from visits v where v.patient_id = p.id and v.app_id = ${appId})::date + 365`
             : ''
         }
         order by l.collected_at desc, l.id desc limit 1) > ${r.limit}
    and (exists (select 1 from diagnoses d where d.patient_id = p.id and d.app_id = ${appId} and d.icd10 ilike '${r.dx}%')
         or extract(year from age(current_date, p.birth_date)) >= ${r.age})`;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function main() {
  const { database, drop, kind } = await openThrowAwayDatabase('crdp_bench');
  try {
    const db = database.db;
    const [app] = rowsOf<{ app_id: number }>(
      await db.execute(
        `insert into apps (app_short_name, name) values ('BENCH', '基准医院') returning app_id`,
      ),
    );
    const appId = app!.app_id;
    const t0 = performance.now();
    const seeded = await seedSynthetic(db, {
      appId,
      patients: PATIENTS,
      seed: 19,
      batchSize: 1000,
      workers: 1,
    });
    await db.execute('analyze');
    console.log(
      `${kind}: ${seeded.patients} synthetic patients, ${seeded.rows} rows in ${ms(performance.now() - t0)}`,
    );
    const base = scopeBase(appId, { kind: 'all' });
    const plans: RulePlan[] = [];
    for (const r of rules) plans.push(await planRule(db, appId, whenOf(r)));

    const engine = async () => {
      const out: number[] = [];
      for (const plan of plans) {
        out.push(await countFired(db, plan, appId, base));
      }
      return out;
    };
    const hand = async () => {
      const out: number[] = [];
      for (const r of rules) out.push(rowsOf<{ n: number }>(await db.execute(handWritten(appId, r)))[0]!.n);
      return out;
    };
    const ours: number[] = [];
    const theirs: number[] = [];
    let fired: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      fired = await engine();
      ours.push(performance.now() - t);
      t = performance.now();
      const want = await hand();
      theirs.push(performance.now() - t);
      const wrong = want.findIndex((n, j) => n !== fired[j]);
      if (wrong >= 0)
        throw new Error(
          `rule ${wrong}: the engine found ${fired[wrong]} patients, the hand-written SQL ${want[wrong]}`,
        );
    }
    const total = fired.reduce((a, b) => a + b, 0);
    console.log(
      `${RULES} rules over ${PATIENTS} patients (${total} rule firings, the same patients on both sides): ` +
        `engine ${ms(median(ours))} (${(median(ours) / RULES).toFixed(1)} ms a rule), hand-written ${ms(median(theirs))}`,
    );
    console.log(`ratio=${(median(ours) / median(theirs)).toFixed(2)}`);
  } finally {
    await drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
