import type { LibraryFillOutcome, libraryFillLogPage } from '@crdp/core';
import { parseTemplate, ruleText, SOURCES } from '@crdp/core';
import { createFormEngine, type Form } from '@crdp/crf';
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { sameJson } from '../crf/evaluate.js';
import type { Db } from '../db/client.js';
import {
  crfFormVersions,
  crfRecords,
  diseaseLibraries,
  diseaseLibraryFillLog,
  diseaseLibraryPatients,
  patients,
  users,
} from '../db/schema/index.js';
import { requestJob } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { type Actor, libraryOf } from './libraries.js';
import { type ComputedValue, computeRule, libraryBase } from './template-sql.js';

/**
 * The fill job (fill_data): computes every item that has a source rule for every patient of the
 * library, one set-based query per item, then writes the values into the patients' CRF records.
 * A value somebody entered by hand is never overwritten; an item marked not obtainable is left
 * alone. Each patient and item gets a log row saying what happened and which source row the
 * value came from (fill_log).
 */
export const FILL_KIND = 'diseaseLibrary.fill';
const CHUNK = 500;

export type FillOutcome = LibraryFillOutcome;
const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export interface FillResult {
  libraryId: number;
  patients: number;
  items: number;
  counts: Record<FillOutcome, number>;
}

export async function fillLibrary(
  db: Db,
  appId: number,
  libraryId: number,
  by: { userId: number | null; userName: string; jobId: number | null },
  progress: (p: number) => Promise<void> = async () => {},
): Promise<FillResult> {
  const lib = await libraryOf(db, appId, libraryId);
  const rules = Object.entries(lib.sourceRules as Record<string, string>).map(([key, text]) => {
    const rule = parseTemplate(text);
    return { key, rule, text: ruleText(rule) };
  });
  // One query per item over the whole library.
  const computed = new Map<string, Map<number, ComputedValue>>();
  for (const [i, r] of rules.entries()) {
    const values = await computeRule(db, r.rule, appId, libraryBase(lib.id));
    computed.set(r.key, new Map(values.map((v) => [v.patientId, v])));
    await progress(Math.round(((i + 1) / Math.max(1, rules.length)) * 30));
  }
  const counts: Record<FillOutcome, number> = {
    filled: 0,
    unchanged: 0,
    keptManual: 0,
    noData: 0,
    unobtainable: 0,
    invalid: 0,
  };
  const definitions = new Map<number, Form>();
  const total = await db.$count(diseaseLibraryPatients, eq(diseaseLibraryPatients.libraryId, lib.id));
  let done = 0;
  let after = 0;
  for (;;) {
    const members = await db
      .select()
      .from(diseaseLibraryPatients)
      .where(and(eq(diseaseLibraryPatients.libraryId, lib.id), gt(diseaseLibraryPatients.id, after)))
      .orderBy(asc(diseaseLibraryPatients.id))
      .limit(CHUNK);
    if (!members.length) break;
    after = members[members.length - 1]!.id;
    const recordIds = members.map((m) => m.recordId).filter((x): x is number => x !== null);
    await db.transaction(async (tx) => {
      const records = recordIds.length
        ? await tx.select().from(crfRecords).where(inArray(crfRecords.id, recordIds))
        : [];
      const byId = new Map(records.map((r) => [r.id, r]));
      const logs: Array<typeof diseaseLibraryFillLog.$inferInsert> = [];
      let changedRecords = 0;
      for (const m of members) {
        const rec = m.recordId !== null ? byId.get(m.recordId) : undefined;
        // A locked record takes no machine value; a deleted one takes nothing at all.
        if (!rec || rec.status === 'locked' || rec.deletedAt) continue;
        if (!definitions.has(rec.versionId)) {
          const [v] = await tx.select().from(crfFormVersions).where(eq(crfFormVersions.id, rec.versionId));
          definitions.set(rec.versionId, v!.definition as Form);
        }
        const answers = { ...(rec.answers as Record<string, unknown>) };
        const methods = { ...(m.itemMethods as Record<string, string>) };
        const unobtainable = m.unobtainable as Record<string, string>;
        const log = (key: string, outcome: FillOutcome, value: unknown, source: Record<string, unknown>) => {
          counts[outcome]++;
          logs.push({
            appId,
            libraryId: lib.id,
            jobId: by.jobId,
            patientId: m.patientId,
            itemKey: key,
            outcome,
            value: value ?? null,
            source,
          });
        };
        const touched: string[] = [];
        for (const r of rules) {
          const c = computed.get(r.key)!.get(m.patientId);
          const found = c && c.value !== null ? c.value : null;
          const source = {
            rule: r.text,
            table: r.rule.source === 'patient' ? 'patients' : SOURCES[r.rule.source]!.table,
            rowId: c?.rowId ?? null,
            at: c?.at ?? null,
          };
          if (unobtainable[r.key] !== undefined)
            log(r.key, 'unobtainable', found, { ...source, reason: unobtainable[r.key] });
          else if (methods[r.key] === 'manual' || (!empty(answers[r.key]) && methods[r.key] !== 'machine'))
            log(r.key, 'keptManual', answers[r.key], { ...source, machineValue: found });
          else if (found === null) {
            if (!empty(answers[r.key])) {
              // The machine's own earlier value goes when its source is gone.
              delete answers[r.key];
              delete methods[r.key];
              touched.push(r.key);
            }
            log(r.key, 'noData', null, source);
          } else if (sameJson(answers[r.key], found)) log(r.key, 'unchanged', found, source);
          else {
            answers[r.key] = found;
            methods[r.key] = 'machine';
            touched.push(r.key);
            log(r.key, 'filled', found, source);
          }
        }
        if (!touched.length) continue;
        // The CRF engine has the last word: computed items follow, a value it refuses is taken back.
        const engine = createFormEngine(definitions.get(rec.versionId)!, answers, {
          methods: rec.methods as Record<string, string>,
        });
        const issues = engine
          .validate()
          .filter((i) => i.severity === 'error' && touched.includes(i.key) && i.code !== 'required');
        for (const i of issues) {
          const entry = logs.findLast((l) => l.patientId === m.patientId && l.itemKey === i.key);
          if (entry && entry.outcome === 'filled') {
            counts.filled--;
            counts.invalid++;
            entry.outcome = 'invalid';
            entry.source = { ...(entry.source as object), message: i.message };
          }
          const prev = (rec.answers as Record<string, unknown>)[i.key];
          if (prev === undefined) delete answers[i.key];
          else answers[i.key] = prev;
          methods[i.key] = (m.itemMethods as Record<string, string>)[i.key] ?? 'machine';
        }
        const snap = createFormEngine(definitions.get(rec.versionId)!, answers, {
          methods: rec.methods as Record<string, string>,
        }).snapshot();
        if (sameJson(snap.answers, rec.answers)) continue;
        changedRecords++;
        await tx
          .update(crfRecords)
          .set({
            answers: snap.answers,
            methods: snap.methods,
            revision: rec.revision + 1,
            updatedAt: new Date(),
            updatedByName: by.userName,
          })
          .where(eq(crfRecords.id, rec.id));
        await tx
          .update(diseaseLibraryPatients)
          .set({ itemMethods: methods })
          .where(eq(diseaseLibraryPatients.id, m.id));
      }
      for (let i = 0; i < logs.length; i += 1000)
        await tx.insert(diseaseLibraryFillLog).values(logs.slice(i, i + 1000));
      await audit(tx, null, {
        appId,
        userId: by.userId,
        userName: by.userName,
        action: 'disease_library.fill',
        entity: 'disease_library',
        entityId: lib.id,
        after: { jobId: by.jobId, patients: members.length, changedRecords },
      });
    });
    done += members.length;
    await progress(30 + Math.round((done / Math.max(1, total ?? 1)) * 69));
  }
  await db.update(diseaseLibraries).set({ lastFillAt: new Date() }).where(eq(diseaseLibraries.id, lib.id));
  return { libraryId: lib.id, patients: done, items: rules.length, counts };
}

export async function fillJob({ db, job, progress }: JobContext) {
  const libraryId = Number((job.params as { libraryId: number }).libraryId);
  let userName = 'fill';
  if (job.createdBy) {
    const [u] = await db.select({ n: users.userName }).from(users).where(eq(users.userId, job.createdBy));
    userName = u?.n ?? userName;
  }
  return fillLibrary(db, job.appId, libraryId, { userId: job.createdBy, userName, jobId: job.id }, progress);
}

export async function requestFill(actor: Actor, libraryId: number) {
  const { db } = actor;
  await libraryOf(db, actor.appId, libraryId);
  return requestJob(
    db,
    actor,
    { kind: FILL_KIND, params: { libraryId } },
    { action: 'disease_library.fill.request', entity: 'disease_library', entityId: libraryId },
  );
}

/** The fill log of a library, newest first, with the patient's name. */
export async function fillLog(
  db: Db,
  appId: number,
  libraryId: number,
  q: {
    page: number;
    size: number;
    patientId?: number | undefined;
    itemKey?: string | undefined;
    outcome?: string | undefined;
  },
): Promise<z.input<typeof libraryFillLogPage>> {
  await libraryOf(db, appId, libraryId);
  const where = and(
    eq(diseaseLibraryFillLog.libraryId, libraryId),
    eq(diseaseLibraryFillLog.appId, appId),
    q.patientId !== undefined ? eq(diseaseLibraryFillLog.patientId, q.patientId) : undefined,
    q.itemKey ? eq(diseaseLibraryFillLog.itemKey, q.itemKey) : undefined,
    q.outcome ? eq(diseaseLibraryFillLog.outcome, q.outcome) : undefined,
  );
  const total = await db.$count(diseaseLibraryFillLog, where);
  const items = await db
    .select({
      id: diseaseLibraryFillLog.id,
      jobId: diseaseLibraryFillLog.jobId,
      patientId: diseaseLibraryFillLog.patientId,
      patientName: patients.name,
      itemKey: diseaseLibraryFillLog.itemKey,
      outcome: diseaseLibraryFillLog.outcome,
      value: diseaseLibraryFillLog.value,
      source: diseaseLibraryFillLog.source,
      createdAt: diseaseLibraryFillLog.createdAt,
    })
    .from(diseaseLibraryFillLog)
    .leftJoin(patients, eq(patients.id, diseaseLibraryFillLog.patientId))
    .where(where)
    .orderBy(desc(diseaseLibraryFillLog.id))
    .limit(q.size)
    .offset((q.page - 1) * q.size);
  return {
    total,
    items: items.map((r) => ({
      ...r,
      outcome: r.outcome as FillOutcome,
      source: r.source as Record<string, unknown>,
    })),
  };
}
