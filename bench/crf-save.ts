/**
 * Saving a CRF record on the server: the engine's authoritative validation, the insert, the
 * submit event and the audit row in one transaction, against a raw insert of the same row, in
 * the same run on the embedded database. Prints `ratio=<ours/raw>`.
 * Run: `npx tsx bench/crf-save.ts` (or `npm run bench -- crf-save`).
 */
import type { CrfActor } from '../apps/server/src/crf/actor.js';
import { createRecord } from '../apps/server/src/crf/records.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { crfRecords, patients } from '../apps/server/src/db/schema/index.js';
import { publishedBenchForm } from './_crf.js';

const N = Number(process.env.N ?? 400);
const database = await openDatabase({ dataDir: 'memory' });
const { db } = database;
const { appId, form, version, actor: scope } = await publishedBenchForm(db, 'BENCH');
// The request context a route would pass: the bench acts as a session without a user.
const actor = {
  ...scope,
  requestId: 'bench',
  ip: '127.0.0.1',
  locale: 'zh-CN',
  auth: { kind: 'login', appId, userId: null, userName: 'bench' },
  db,
} as unknown as CrfActor;
// A record's subject code must name a patient of the app: one per record, its MRN the code.
await db.insert(patients).values(
  Array.from({ length: N + 20 }, (_, i) => ({
    appId,
    mrn: `S-${i}`,
    name: `受试者${i}`,
    source: 'bench',
    sourceId: `S-${i}`,
  })),
);
const answers = (i: number) => ({
  weight: 50 + (i % 50),
  height: 150 + (i % 40),
  hbsag: i % 2 ? 'pos' : 'neg',
  ...(i % 2 ? { hbvDna: 1000 + i } : {}),
  note: `记录 ${i}`,
});

async function time(label: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await run(i);
  const ms = (performance.now() - t0) / N;
  console.log(`${label}: ${ms.toFixed(3)} ms/record`);
  return ms;
}

const raw = await time('raw insert', (i) =>
  db.insert(crfRecords).values({
    appId,
    formId: form.id,
    versionId: version.id,
    subjectCode: `R-${i}`,
    answers: answers(i),
    status: 'submitted',
  }),
);
const ours = await time('validate + save + history + audit', (i) =>
  createRecord(db, actor, form.id, {
    subjectCode: `S-${i}`,
    answers: answers(i),
    methods: {},
    submit: true,
  }),
);
console.log(
  `records=${N} ours=${ours.toFixed(3)}ms raw=${raw.toFixed(3)}ms ratio=${(ours / raw).toFixed(2)}`,
);
await database.close();
