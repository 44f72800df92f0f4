import { Hl7Message } from '@medplum/core';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { hl7Messages, patients, visits } from '../../db/schema/index.js';
import { type Bilingual, bilingual } from '../../http/errors.js';
import type { JobContext } from '../../jobs/runner.js';
import { cdrSourceOf } from '../run.js';
import { type MappedSourceRow, writeBatch } from '../writer.js';
import { type Hl7Plan, type PatientPart, planOf, type VisitPart } from './map.js';
import { Hl7MappingError } from './message.js';

/**
 * Processing of stored HL7 messages into the CDR: the job `hl7.process` of one source. It takes
 * the source's stored messages in the order they arrived, each in its own transaction (locked
 * with SKIP LOCKED, so two processes never take the same one): the built-in mapping (map.ts),
 * then the lead's `writeBatch` (the CDR entry forms' checks, upserts by source id: a message
 * processed twice changes nothing). A message the CDR refuses writes nothing and becomes
 * `rejected` with its reason in both languages; one that failed for another reason (the
 * database) stays `stored` and is tried again by the next job, up to MAX_ATTEMPTS times.
 */

export const HL7_JOB_KIND = 'hl7.process';
const BATCH = 200;
const MAX_ATTEMPTS = 5;

class Refused extends Error {
  constructor(
    readonly field: string,
    readonly reason: Bilingual,
  ) {
    super(reason['en-US']);
  }
}

export interface ProcessResult {
  processed: number;
  rejected: number;
  failed: number;
}

/** Processes the stored messages of a source; returns the counts. */
export async function processSource(
  db: Db,
  sourceId: number,
  onProgress?: (done: number) => Promise<void>,
): Promise<ProcessResult> {
  const out: ProcessResult = { processed: 0, rejected: 0, failed: 0 };
  let after = 0;
  for (;;) {
    const ids = await db
      .select({ id: hl7Messages.id })
      .from(hl7Messages)
      .where(
        and(eq(hl7Messages.sourceId, sourceId), eq(hl7Messages.status, 'stored'), gt(hl7Messages.id, after)),
      )
      .orderBy(asc(hl7Messages.id))
      .limit(BATCH);
    if (!ids.length) return out;
    for (const { id } of ids) {
      after = id;
      const r = await processOne(db, id);
      if (r) out[r]++;
    }
    await onProgress?.(out.processed + out.rejected + out.failed);
  }
}

/** One message, in its own transaction. Null when another process holds it or it is done. */
export async function processOne(db: Db, id: number): Promise<keyof ProcessResult | null> {
  try {
    return await db.transaction(async (tx) => {
      const [m] = await tx
        .select()
        .from(hl7Messages)
        .where(and(eq(hl7Messages.id, id), eq(hl7Messages.status, 'stored')))
        .for('update', { skipLocked: true });
      if (!m) return null;
      try {
        // The CDR writes in a savepoint: a refusal undoes them and keeps the status change.
        await tx.transaction(async (sp) =>
          apply(sp, m.appId, m.sourceId, m.id, planOf(Hl7Message.parse(m.raw))),
        );
      } catch (e) {
        const refusal =
          e instanceof Refused
            ? e.reason
            : e instanceof Hl7MappingError
              ? e.reason
              : e instanceof Error && e.message === 'Invalid HL7 message'
                ? bilingual('消息无法解析', 'the message cannot be parsed')
                : null;
        if (!refusal) throw e;
        await tx
          .update(hl7Messages)
          .set({
            status: 'rejected',
            error: refusal,
            attempts: sql`${hl7Messages.attempts} + 1`,
            processedAt: new Date(),
          })
          .where(eq(hl7Messages.id, id));
        return 'rejected' as const;
      }
      await tx
        .update(hl7Messages)
        .set({
          status: 'processed',
          error: null,
          attempts: sql`${hl7Messages.attempts} + 1`,
          processedAt: new Date(),
        })
        .where(eq(hl7Messages.id, id));
      return 'processed' as const;
    });
  } catch (e) {
    // Not the message's fault (the database): counted, kept for the next job, given up after MAX_ATTEMPTS.
    const reason = bilingual(
      `处理失败：${(e as Error).message.slice(0, 200)}`,
      `processing failed: ${(e as Error).message.slice(0, 200)}`,
    );
    await db
      .update(hl7Messages)
      .set({
        attempts: sql`${hl7Messages.attempts} + 1`,
        error: reason,
        status: sql`case when ${hl7Messages.attempts} + 1 >= ${MAX_ATTEMPTS} then 'rejected' else 'stored' end`,
      })
      .where(and(eq(hl7Messages.id, id), eq(hl7Messages.status, 'stored')))
      .catch(() => undefined);
    return 'failed';
  }
}

async function apply(tx: Tx, appId: number, sourceId: number, messageId: number, plan: Hl7Plan) {
  const source = cdrSourceOf(sourceId);
  const write = async (
    target: 'patients' | 'visits' | 'labResults',
    rows: MappedSourceRow[],
  ): Promise<void> => {
    // Every row the message inserts or changes gets its change record, naming the message.
    const r = await writeBatch(
      tx,
      { appId, sourceId, messageId, templateId: 0, source, target, patientBy: 'sourceId' },
      rows,
    );
    const first = r.refused[0];
    if (first) throw new Refused(first.field, fieldReason(first.field, first.reason));
  };
  if (plan.kind === 'oru') {
    await write('labResults', plan.labs);
    return;
  }
  await write('patients', [await mergedPatient(tx, appId, source, plan.patient)]);
  if (plan.visit) await write('visits', [await mergedVisit(tx, appId, source, plan.patient.key, plan.visit)]);
}

/** The CDR's reason, naming the CDR field it is about. */
const fieldReason = (field: string, r: Bilingual): Bilingual =>
  field && !r['en-US'].includes(field) ? bilingual(`${field}：${r['zh-CN']}`, `${field}: ${r['en-US']}`) : r;

/** The patient as the message gives it, the CDR's values kept for the fields it does not carry. */
async function mergedPatient(
  tx: Tx,
  appId: number,
  source: string,
  p: PatientPart,
): Promise<MappedSourceRow> {
  const [old] = await tx
    .select()
    .from(patients)
    .where(and(eq(patients.appId, appId), eq(patients.source, source), eq(patients.sourceId, p.key)));
  const kept: Record<string, unknown> = old
    ? {
        mrn: old.mrn,
        name: old.name,
        gender: old.gender,
        birthDate: old.birthDate ? String(old.birthDate).slice(0, 10) : undefined,
        nationalId: old.nationalId || undefined,
        phone: old.phone || undefined,
        address: old.address || undefined,
        contacts: Array.isArray(old.contacts) && old.contacts.length ? old.contacts : undefined,
      }
    : { gender: 0 };
  const values = { ...kept, ...p.values };
  return { key: p.key, values: dropUndefined(values), raw: { pid3: p.key } };
}

async function mergedVisit(
  tx: Tx,
  appId: number,
  source: string,
  patientKey: string,
  v: VisitPart,
): Promise<MappedSourceRow> {
  const [old] = await tx
    .select()
    .from(visits)
    .where(and(eq(visits.appId, appId), eq(visits.source, source), eq(visits.sourceId, v.key)));
  const kept: Record<string, unknown> = old
    ? {
        kind: old.kind,
        department: old.department || undefined,
        doctor: old.doctor || undefined,
        admitAt: old.admitAt.toISOString(),
        dischargeAt: old.dischargeAt?.toISOString(),
      }
    : {};
  return {
    key: v.key,
    patientKey,
    values: dropUndefined({ ...kept, ...v.values }),
    raw: { pv1_19: v.key },
  };
}

const dropUndefined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The job: processes one source's stored messages. */
export function hl7Job(onStart: (sourceId: number) => void) {
  return async ({ db, job, progress }: JobContext) => {
    const sourceId = Number((job.params as { sourceId?: number }).sourceId);
    onStart(sourceId);
    const [{ n } = { n: 0 }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(hl7Messages)
      .where(and(eq(hl7Messages.sourceId, sourceId), eq(hl7Messages.status, 'stored')));
    const r = await processSource(db, sourceId, async (done) =>
      progress(Math.min(99, Math.floor((done / Math.max(1, Number(n))) * 100))),
    );
    return { sourceId, ...r };
  };
}
