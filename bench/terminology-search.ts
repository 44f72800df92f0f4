// Terminology search (apps/server/src/terminology/search.ts) over 100,000 codes: the ranked search
// by code, code prefix, Chinese word and pinyin initials, against a plain indexed
// `code LIKE 'prefix%' LIMIT 20` on the same table, in the same run and database. The codes are the
// shipped ICD-10 Chinese categories, each expanded into clinical variants (急性…, …伴出血, 左侧…)
// until there are BENCH_TERMS (default 100,000), loaded through the real full-list import step.
// Prints p50/p95 of each and ratio=<search p95 / LIKE p95>; target: search p95 < 50 ms.
// PGlite by default, PostgreSQL when DATABASE_URL is set.
import { readFile } from 'node:fs/promises';
import { analyzeTables } from '../apps/server/src/db/analyze.js';
import { apps, terminologyConcepts, terminologySynonyms } from '../apps/server/src/db/schema/index.js';
import { parseCsv } from '../apps/server/src/files/csv.js';
import {
  type ConceptRow,
  readConceptRows,
  storeStandardConcepts,
} from '../apps/server/src/terminology/load.js';
import { codePrefixLookup, searchConcepts } from '../apps/server/src/terminology/search.js';
import { ensureTerminologies } from '../apps/server/src/terminology/seed.js';
import { openThrowAwayDatabase } from '../apps/server/src/test/database.js';

const N = Number(process.env.BENCH_TERMS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const PREFIXES = [
  '急性',
  '慢性',
  '复发性',
  '继发性',
  '先天性',
  '左侧',
  '右侧',
  '双侧',
  '重度',
  '轻度',
  '中度',
  '妊娠期',
];
const SUFFIXES = [
  '伴出血',
  '伴穿孔',
  '伴感染',
  '伴并发症',
  '不伴并发症',
  '术后',
  '晚期效应',
  '未特指',
  '其他特指的',
  '伴昏迷',
];

const t = await openThrowAwayDatabase('crdp_bench_term');
try {
  const db = t.database.db;
  await ensureTerminologies(db);
  const [app] = await db.insert(apps).values({ appShortName: 'BENCHT', name: 'bench' }).returning();
  const appId = app!.appId;

  const icd = readConceptRows(
    parseCsv(await readFile(new URL('../apps/server/terminologies/icd10-cn.csv', import.meta.url), 'utf8')),
    'en-US',
  ).good;
  const categories = icd.filter((c) => c.level === 3);
  const rows: ConceptRow[] = [...icd];
  let k = 0;
  outer: for (let round = 0; ; round++) {
    for (const c of categories) {
      if (rows.length >= N) break outer;
      const p = PREFIXES[(k + round) % PREFIXES.length]!;
      const s = SUFFIXES[Math.floor(k / PREFIXES.length) % SUFFIXES.length]!;
      const name = round % 2 ? `${c.displayZh}${s}` : `${p}${c.displayZh}`;
      rows.push({
        code: `${c.code}.${String(round).padStart(3, '0')}`,
        displayZh: round < 2 ? name : `${p}${c.displayZh}${s}`,
        displayEn: '',
        parentCode: c.code,
        level: 4,
        retired: false,
        synonyms: round % 7 === 0 ? [`${c.displayZh}（${p}）`] : [],
      });
      k++;
    }
  }
  let t0 = performance.now();
  await db.transaction((tx) => storeStandardConcepts(tx, 'ICD10', 'bench', rows));
  await analyzeTables(db, [terminologyConcepts, terminologySynonyms]);
  const loadS = (performance.now() - t0) / 1000;
  const n = rows.length;
  console.log(`${t.kind}: ${n} codes loaded (with pinyin initials) in ${loadS.toFixed(1)} s`);

  const queries = [
    'E11',
    'E1',
    'K2',
    'A0',
    'I10',
    'J18.0', // code, code prefix
    '糖尿病',
    '肺炎',
    '高血压',
    '骨折',
    '感染',
    '胃溃疡',
    '急性',
    '肾', // Chinese word
    'tnb',
    'fy',
    'gxy',
    'jx', // pinyin initials
  ];
  const codePrefixes = ['E11', 'E1', 'K2', 'A0', 'I10', 'J18', 'C3', 'S7'];
  const p = (xs: number[], q: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

  // Warm both paths once.
  for (const q of queries) await searchConcepts(db, appId, { q, limit: 20 });
  for (const q of codePrefixes) await codePrefixLookup(db, q);

  const ours: number[] = [];
  const reference: number[] = [];
  let hits = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const q of queries) {
      t0 = performance.now();
      hits += (await searchConcepts(db, appId, { q, limit: 20 })).length;
      ours.push(performance.now() - t0);
    }
    for (let i = 0; i < queries.length; i++) {
      const q = codePrefixes[i % codePrefixes.length]!;
      t0 = performance.now();
      await codePrefixLookup(db, q);
      reference.push(performance.now() - t0);
    }
  }
  const slowest = queries
    .map((q, i) => ({ q, ms: Math.max(...ours.filter((_, j) => j % queries.length === i)) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((s) => `${s.q} ${s.ms.toFixed(1)} ms`)
    .join(', ');
  console.log(
    `searches: ${ours.length} (${queries.length} queries × ${ROUNDS}), ${hits} hits; slowest: ${slowest}`,
  );
  console.log(`ranked search:      p50 ${p(ours, 0.5).toFixed(2)} ms  p95 ${p(ours, 0.95).toFixed(2)} ms`);
  console.log(
    `LIKE 'prefix%' ref: p50 ${p(reference, 0.5).toFixed(2)} ms  p95 ${p(reference, 0.95).toFixed(2)} ms`,
  );
  const p95 = p(ours, 0.95);
  console.log(`p95=${p95.toFixed(2)}ms target<50ms ${p95 < 50 ? 'met' : 'NOT met'}`);
  console.log(`ratio=${(p95 / p(reference, 0.95)).toFixed(2)}`);
} finally {
  await t.drop();
}
