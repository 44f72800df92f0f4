import type {
  CreatedId,
  McCaseInput,
  McOwnCase,
  McPatientOption,
  McTopicVariable,
  TaskStatus,
} from '@crdp/core';
import { and, eq, ilike, or, sql } from 'drizzle-orm';
import { audit } from '../audit/audit.js';
import type { Tx } from '../db/client.js';
import { mcTopicCases, patients } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, invalidField } from '../http/errors.js';
import { statusLabel } from '../research/status.js';
import { assertMultiCenter, topicFor } from './access.js';
import { ENTRY_STATUSES } from './topics.js';

/**
 * Each center's cases: a center enters a case for one of its own patients (the topic's
 * variables) and reads only its own cases; the picker lists its own patients with names masked.
 */
type TopicVariable = McTopicVariable;
const invalid = invalidField;

/** A center enters a case for one of its own patients. */
export async function enterCase(ctx: SignedIn, id: number, input: McCaseInput): Promise<CreatedId> {
  const { db, appId, userId } = ctx;
  await assertMultiCenter(db, appId);
  const { topic } = await topicFor(db, appId, id);
  if (!ENTRY_STATUSES.includes(topic.status as TaskStatus))
    throw new AppError(409, 'multiCenter.frozen', {
      status: statusLabel(topic.status, ctx.locale),
      allowed: ENTRY_STATUSES.map((c) => statusLabel(c, ctx.locale)).join(
        ctx.locale === 'zh-CN' ? '、' : ', ',
      ),
    });
  const [p] = await db
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, input.patientId), eq(patients.appId, appId)));
  if (!p) throw invalid('patientId', '没有这名患者', 'no such patient');
  const vars = topic.variables as TopicVariable[];
  for (const k of Object.keys(input.values))
    if (!vars.some((v) => v.key === k))
      throw invalid(`values.${k}`, '不是本课题的变量', 'not a variable of the topic');
  for (const v of vars) {
    const x = input.values[v.key];
    if (typeof x === 'string' && (v.min !== undefined || v.max !== undefined) && x.trim() !== '')
      throw invalid(`values.${v.key}`, `${v.label}应为数字`, `${v.label} must be a number`);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcTopicCases)
      .values({ topicId: id, appId, patientId: input.patientId, values: input.values, enteredBy: userId })
      .onConflictDoUpdate({
        target: [mcTopicCases.topicId, mcTopicCases.patientId],
        set: { values: input.values, enteredAt: new Date() },
      })
      .returning();
    await audit(tx, ctx, { action: 'upsert', entity: 'mc_topic_case', entityId: row!.id, after: row });
    return { id: row!.id };
  });
}

/** This center's own cases (rows of its own patients only). */
export async function ownCases(db: Tx, appId: number, id: number): Promise<McOwnCase[]> {
  await topicFor(db, appId, id);
  const rows = await db
    .select({
      id: mcTopicCases.id,
      patientId: mcTopicCases.patientId,
      mrn: patients.mrn,
      values: mcTopicCases.values,
      enteredAt: mcTopicCases.enteredAt,
    })
    .from(mcTopicCases)
    .innerJoin(patients, eq(patients.id, mcTopicCases.patientId))
    .where(and(eq(mcTopicCases.topicId, id), eq(mcTopicCases.appId, appId)));
  return rows.map((r) => ({
    ...r,
    values: r.values as McOwnCase['values'],
    enteredAt: r.enteredAt.toISOString(),
  }));
}

const mask = (name: string) =>
  name ? `${[...name][0]}${'*'.repeat(Math.max(1, [...name].length - 1))}` : '';

/** This center's own patients, for the case-entry picker (by MRN; names masked). */
export async function ownPatients(
  db: Tx,
  appId: number,
  id: number,
  keyword: string | undefined,
): Promise<McPatientOption[]> {
  await topicFor(db, appId, id);
  const k = keyword?.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .select({ id: patients.id, mrn: patients.mrn, name: patients.name, gender: patients.gender })
    .from(patients)
    .where(
      and(
        eq(patients.appId, appId),
        k ? or(ilike(patients.mrn, `%${k}%`), ilike(patients.name, `%${k}%`)) : undefined,
      ),
    )
    .orderBy(sql`${patients.id} desc`)
    .limit(50);
  return rows.map((r) => ({ id: r.id, mrn: r.mrn, name: mask(r.name), gender: r.gender }));
}
