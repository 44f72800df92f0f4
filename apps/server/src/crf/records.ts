import type {
  CrfRecordStatus,
  crfChange,
  crfPatientList,
  crfRecord,
  crfRecordDetail,
  crfRecordPage,
  crfRecordSaved,
  Issue,
} from '@crdp/crf';
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { patientIdentityColumns } from '../clinical/identity-columns.js';
import { appRowOf } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { appMembers, crfFormVersions, crfRecordChanges, crfRecords, patients } from '../db/schema/index.js';
import { AppError } from '../http/errors.js';
import { notify } from '../notices/routes.js';
import { assertRecordInScope, type CrfActor, type CrfScope, invalid } from './actor.js';
import { evaluateAnswers, sameJson } from './evaluate.js';
import { loadForm, loadVersion, versionForm } from './forms.js';

export type RecordStatus = CrfRecordStatus;

type RecordRow = typeof crfRecords.$inferSelect;
/** A record as the API answers it (the `crfRecord` contract of @crdp/crf). */
export type RecordView = z.input<typeof crfRecord>;

/** A record row as the contract names it: its status columns hold record statuses, its answers JSON objects. */
export const recordView = (row: RecordRow): RecordView => ({
  ...row,
  answers: row.answers as Record<string, unknown>,
  methods: row.methods as Record<string, string>,
  status: row.status as RecordStatus,
  statusBeforeLock: row.statusBeforeLock as RecordStatus | null,
});

/** Thrown when the engine refuses a save; the route answers 400 with the issues. */
export class SubmissionInvalid extends Error {
  constructor(readonly issues: Issue[]) {
    super('invalid submission');
  }
}

export interface NewRecord {
  version?: number | undefined;
  patientId?: number | undefined;
  subjectCode?: string | undefined;
  answers: Record<string, unknown>;
  methods: Record<string, string>;
  submit: boolean;
  assignedTo?: number | undefined;
}

/** What a record is for once resolved: a patient of the app, or (a free-access link only) a code alone. */
interface Subject {
  patientId: number | null;
  subjectCode: string;
}

/**
 * Resolves the subject of a record. A record is for a patient of the app (picked by id, or named
 * by the patient's medical record number) or for a study subject that already has records in the
 * app (it takes that subject's patient). Any other code is refused: a typo would otherwise start
 * a record that no dataset, library or patient view ever finds. Only a free-access link, whose
 * respondent cannot look patients up, may start a new code; its record stays unlinked.
 */
export async function resolveSubject(
  tx: Tx,
  actor: CrfScope,
  input: { patientId?: number | undefined; subjectCode?: string | undefined },
): Promise<Subject> {
  const code = input.subjectCode?.trim() ?? '';
  if (input.patientId === undefined && !code)
    throw invalid(
      'body.subjectCode',
      '请选择记录所属的患者（按姓名或病案号查找），或填写已有的受试者编号',
      'pick the patient the record is for (search by name or MRN), or enter an existing subject code',
    );
  // A free-access respondent cannot look patients up, so cannot name one either (nor probe ids).
  if (input.patientId !== undefined && actor.free)
    throw invalid(
      'body.patientId',
      '免登录链接填写的记录不能指定患者',
      'a record filled through a free-access link cannot name a patient',
    );
  if (input.patientId !== undefined) {
    const [p] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.id, input.patientId), eq(patients.appId, actor.appId)));
    if (!p) throw invalid('body.patientId', '本应用没有这个 ID 的患者', 'no patient of this app has this id');
    return { patientId: p.id, subjectCode: code };
  }
  if (actor.free) return { patientId: null, subjectCode: code };
  const [byMrn] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.appId, actor.appId), eq(patients.mrn, code)));
  if (byMrn) return { patientId: byMrn.id, subjectCode: code };
  const [known] = await tx
    .select({ patientId: crfRecords.patientId })
    .from(crfRecords)
    .where(and(eq(crfRecords.appId, actor.appId), eq(crfRecords.subjectCode, code)))
    .orderBy(sql`${crfRecords.patientId} is null`, asc(crfRecords.id))
    .limit(1);
  if (known) return { patientId: known.patientId, subjectCode: code };
  throw invalid(
    'body.subjectCode',
    `没有病案号为“${code}”的患者，也没有编号为“${code}”的受试者；请按姓名或病案号选择患者`,
    `no patient has the MRN “${code}” and no study subject has the code “${code}”; pick the patient by name or MRN`,
  );
}

/** Patients of the app a record may be for, by name (anywhere in it) or MRN (from its start). */
export async function searchPatients(
  db: Db,
  actor: CrfScope,
  q: { keyword?: string | undefined; size: number },
): Promise<z.input<typeof crfPatientList>> {
  const kw = q.keyword?.trim() ?? '';
  const like = escapeLike(kw);
  const where: SQL[] = [eq(patients.appId, actor.appId)];
  if (kw) where.push(sql`(${patients.mrn} ilike ${`${like}%`} or ${patients.name} ilike ${`%${like}%`})`);
  const items = await db
    .select(patientIdentityColumns)
    .from(patients)
    .where(and(...where))
    // An exact MRN first, then by MRN.
    .orderBy(sql`${patients.mrn} = ${kw} desc`, asc(patients.mrn))
    .limit(q.size);
  return { items };
}

async function checkAssignee(tx: Tx, actor: CrfScope, userId: number | undefined) {
  if (userId === undefined) return;
  const [m] = await tx
    .select({ userId: appMembers.userId })
    .from(appMembers)
    .where(and(eq(appMembers.appId, actor.appId), eq(appMembers.userId, userId)));
  if (!m) throw invalid('body.assignedTo', '本应用没有这个 ID 的成员', 'no member of this app has this id');
}

async function notifyAssignee(tx: Tx, actor: CrfActor, recordId: number, userId: number | undefined) {
  if (userId === undefined || userId === actor.userId) return;
  await notify(tx, {
    appId: actor.appId,
    userId,
    kind: 'record.assigned',
    title: `CRF 记录 #${recordId} 已分配给您`,
    link: `/data-clean/hepatopathyPoc?recordId=${recordId}`,
  });
}

/** The columns every new record carries: app, form, version, subject, and who made it. */
export const newRecordColumns = (actor: CrfActor, formId: number, versionId: number, subject: Subject) => ({
  appId: actor.appId,
  formId,
  versionId,
  patientId: subject.patientId,
  subjectCode: subject.subjectCode,
  createdBy: actor.userId,
  createdByName: actor.userName,
  updatedByName: actor.userName,
});

/** What the audit row of a new record says of it: form, version and subject, never the answers. */
export const newRecordAudit = (formId: number, version: number, subject: Subject) => ({
  formId,
  version,
  subjectCode: subject.subjectCode,
  patientId: subject.patientId,
});

export async function createRecord(
  db: Db,
  actor: CrfActor,
  formId: number,
  input: NewRecord,
): Promise<RecordView> {
  return db.transaction(async (tx) => {
    const { form, version } = await loadVersion(tx, actor, formId, input.version);
    if (form.status === 'archived') throw new AppError(409, 'crf.archived');
    const subject = await resolveSubject(tx, actor, input);
    await checkAssignee(tx, actor, input.assignedTo);
    const ev = evaluateAnswers(
      versionForm(version),
      input.answers,
      input.methods,
      input.submit ? 'submit' : 'draft',
    );
    if (ev.issues.length) throw new SubmissionInvalid(ev.issues);
    const now = new Date();
    const [row] = await tx
      .insert(crfRecords)
      .values({
        ...newRecordColumns(actor, formId, version.id, subject),
        answers: ev.answers,
        methods: ev.methods,
        status: input.submit ? 'submitted' : 'draft',
        assignedTo: input.assignedTo ?? null,
        freeKeyId: actor.free?.keyId ?? null,
        submittedAt: input.submit ? now : null,
      })
      .returning();
    if (input.submit) await event(tx, actor, row!.id, '@submit', '');
    await notifyAssignee(tx, actor, row!.id, input.assignedTo);
    await audit(tx, actor, {
      action: input.submit ? 'crf.record.submit' : 'crf.record.create',
      entity: 'crf_record',
      entityId: row!.id,
      after: newRecordAudit(formId, version.version, subject),
    });
    return recordView(row!);
  });
}

async function event(tx: Tx, actor: CrfActor, recordId: number, itemKey: string, reason: string) {
  await tx.insert(crfRecordChanges).values({
    appId: actor.appId,
    recordId,
    itemKey,
    reason,
    userId: actor.userId,
    userName: actor.userName,
  });
}

const recordRow = appRowOf(crfRecords, 'crf_record');

/** Loads a record of the actor's app (and scope), locking its row when `forUpdate`. */
export async function loadRecord(tx: Tx, actor: CrfScope, recordId: number, forUpdate = false) {
  if (forUpdate)
    await tx.execute(
      sql`select id from crf_records where id = ${recordId} and app_id = ${actor.appId} for update`,
    );
  const rec = await recordRow(tx, actor.appId, recordId);
  assertRecordInScope(actor, rec);
  return rec;
}

/** Loads a record for a change: a deleted record is kept for the history but takes no change. */
async function loadForChange(tx: Tx, actor: CrfScope, recordId: number) {
  const rec = await loadRecord(tx, actor, recordId, true);
  if (rec.deletedAt) throw new AppError(409, 'crf.deleted');
  return rec;
}

export async function recordWithDefinition(
  db: Db,
  actor: CrfScope,
  recordId: number,
): Promise<z.input<typeof crfRecordDetail>> {
  const rec = await loadRecord(db, actor, recordId);
  const [v] = await db.select().from(crfFormVersions).where(eq(crfFormVersions.id, rec.versionId));
  const form = await loadForm(db, actor, rec.formId);
  const [patient] = rec.patientId
    ? await db
        .select({ id: patients.id, name: patients.name, mrn: patients.mrn })
        .from(patients)
        .where(and(eq(patients.id, rec.patientId), eq(patients.appId, actor.appId)))
    : [];
  return {
    record: recordView(rec),
    patient: patient ?? null,
    form: { id: form.id, name: form.name, category: form.category, latestVersion: form.latestVersion },
    version: { id: v!.id, version: v!.version, definition: v!.definition },
  };
}

export interface RecordSave {
  answers: Record<string, unknown>;
  methods: Record<string, string>;
  submit: boolean;
  revision: number;
  /** Reason for every changed item of a submitted record, by item key. */
  reasons: Record<string, string>;
  /** One reason for all changed items that have none of their own. */
  reason?: string | undefined;
  patientId?: number | undefined;
  subjectCode?: string | undefined;
}

/**
 * Saves a record. A draft takes any correct answers and may be submitted; a submitted record
 * takes only complete, valid answers, and every item that changes needs a reason, stored with
 * old value, new value, who and when. A locked record refuses every change.
 */
export async function saveRecord(
  db: Db,
  actor: CrfActor,
  recordId: number,
  input: RecordSave,
): Promise<z.input<typeof crfRecordSaved>> {
  return db.transaction(async (tx) => {
    const rec = await loadForChange(tx, actor, recordId);
    if (rec.status === 'locked') throw new AppError(409, 'crf.locked');
    if (rec.revision !== input.revision)
      throw new AppError(409, 'crf.stale', { revision: rec.revision }, 'body.revision');
    const [v] = await tx.select().from(crfFormVersions).where(eq(crfFormVersions.id, rec.versionId));
    const definition = versionForm(v!);
    const wasDraft = rec.status === 'draft';
    const submitting = wasDraft && input.submit;
    const ev = evaluateAnswers(
      definition,
      input.answers,
      input.methods,
      wasDraft && !input.submit ? 'draft' : 'submit',
    );
    if (ev.issues.length) throw new SubmissionInvalid(ev.issues);
    // A draft may change its subject; a record of any status that is not linked yet may be
    // linked to a patient (an answer of a free-access link, a record from before links).
    const subjectChange =
      (wasDraft && (input.patientId !== undefined || input.subjectCode !== undefined)) ||
      (rec.patientId === null && input.patientId !== undefined);
    const subject = subjectChange
      ? await resolveSubject(tx, actor, {
          patientId: input.patientId ?? rec.patientId ?? undefined,
          subjectCode: input.subjectCode ?? rec.subjectCode,
        })
      : null;

    const old = rec.answers as Record<string, unknown>;
    const changed = [...new Set([...Object.keys(old), ...Object.keys(ev.answers)])].filter(
      (k) => !sameJson(old[k], ev.answers[k]),
    );
    if (!wasDraft) {
      if (!changed.length && !subject) return { record: recordView(rec), changed: [] as string[] };
      // Computed items follow their sources: they take the reason of the change that moved them.
      const general = input.reason?.trim() ?? '';
      const firstGiven = changed.map((k) => input.reasons[k]?.trim()).find(Boolean) ?? general;
      const unexplained = changed.filter((k) => !(input.reasons[k]?.trim() || general));
      const manual = unexplained.filter((k) => ev.methods[k] !== 'machine');
      const missing = manual.length ? manual : firstGiven ? [] : unexplained;
      if (missing.length)
        throw new AppError(
          400,
          'crf.reasonRequired',
          { items: missing.join(', ') },
          `body.reasons.${missing[0]}`,
        );
      if (changed.length)
        await tx.insert(crfRecordChanges).values(
          changed.map((k) => ({
            appId: actor.appId,
            recordId,
            itemKey: k,
            oldValue: old[k] ?? null,
            newValue: ev.answers[k] ?? null,
            reason: input.reasons[k]?.trim() || general || `${firstGiven}（自动计算）`,
            userId: actor.userId,
            userName: actor.userName,
          })),
        );
    }
    const now = new Date();
    const status: RecordStatus = submitting
      ? 'submitted'
      : rec.status === 'verified' && changed.length
        ? 'submitted'
        : (rec.status as RecordStatus);
    const [row] = await tx
      .update(crfRecords)
      .set({
        answers: ev.answers,
        methods: ev.methods,
        status,
        revision: rec.revision + 1,
        updatedAt: now,
        updatedByName: actor.userName,
        ...(submitting ? { submittedAt: now } : {}),
        ...(subject ? subject : {}),
      })
      .where(eq(crfRecords.id, recordId))
      .returning();
    if (submitting) await event(tx, actor, recordId, '@submit', '');
    if (rec.status === 'verified' && changed.length)
      await event(tx, actor, recordId, '@unverify', input.reason ?? '');
    if (subject && !wasDraft) await event(tx, actor, recordId, '@link', input.reason ?? '');
    await audit(tx, actor, {
      action: submitting ? 'crf.record.submit' : wasDraft ? 'crf.record.draft' : 'crf.record.change',
      entity: 'crf_record',
      entityId: recordId,
      before: {
        ...(wasDraft ? {} : Object.fromEntries(changed.map((k) => [k, old[k] ?? null]))),
        ...(subject ? { patientId: rec.patientId, subjectCode: rec.subjectCode } : {}),
      },
      after: {
        ...(wasDraft
          ? { revision: row!.revision }
          : Object.fromEntries(changed.map((k) => [k, ev.answers[k] ?? null]))),
        ...(subject ?? {}),
      },
      reason: input.reason ?? null,
    });
    return { record: recordView(row!), changed };
  });
}

type Transition = 'verify' | 'lock' | 'unlock';
const FROM: Record<Transition, RecordStatus[]> = {
  verify: ['submitted'],
  lock: ['submitted', 'verified'],
  unlock: ['locked'],
};

/** Verify, lock and unlock; each is an event of the record's history. */
export async function transitionRecord(
  db: Db,
  actor: CrfActor,
  recordId: number,
  what: Transition,
  reason: string,
): Promise<RecordView> {
  return db.transaction(async (tx) => {
    const rec = await loadForChange(tx, actor, recordId);
    if (!FROM[what].includes(rec.status as RecordStatus))
      throw new AppError(409, 'crf.badStatus', { status: rec.status });
    const now = new Date();
    const next: RecordStatus =
      what === 'verify'
        ? 'verified'
        : what === 'lock'
          ? 'locked'
          : ((rec.statusBeforeLock ?? 'submitted') as RecordStatus);
    const [row] = await tx
      .update(crfRecords)
      .set({
        status: next,
        statusBeforeLock: what === 'lock' ? rec.status : null,
        lockedAt: what === 'lock' ? now : null,
        revision: rec.revision + 1,
        updatedAt: now,
        updatedByName: actor.userName,
      })
      .where(eq(crfRecords.id, recordId))
      .returning();
    await event(tx, actor, recordId, `@${what}`, reason);
    await audit(tx, actor, {
      action: `crf.record.${what}`,
      entity: 'crf_record',
      entityId: recordId,
      before: { status: rec.status },
      after: { status: next },
      reason: reason || null,
    });
    return recordView(row!);
  });
}

/**
 * Soft delete with a reason: the row, its answers and its field history stay (nothing
 * acknowledged is lost); lists, counts and exports leave it out. A locked record is refused.
 */
export async function deleteRecord(db: Db, actor: CrfActor, recordId: number, reason: string) {
  return db.transaction(async (tx) => {
    const rec = await loadForChange(tx, actor, recordId);
    if (rec.status === 'locked') throw new AppError(409, 'crf.lockedDelete');
    const now = new Date();
    const [row] = await tx
      .update(crfRecords)
      .set({
        deletedAt: now,
        deletedBy: actor.userId,
        deletedByName: actor.userName,
        deleteReason: reason,
        revision: rec.revision + 1,
        updatedAt: now,
        updatedByName: actor.userName,
      })
      .where(eq(crfRecords.id, recordId))
      .returning();
    await event(tx, actor, recordId, '@delete', reason);
    await audit(tx, actor, {
      action: 'crf.record.delete',
      entity: 'crf_record',
      entityId: recordId,
      before: {
        status: rec.status,
        formId: rec.formId,
        patientId: rec.patientId,
        subjectCode: rec.subjectCode,
      },
      after: { deletedAt: now.toISOString() },
      reason,
    });
    return row!;
  });
}

export async function assignRecord(db: Db, actor: CrfActor, recordId: number, userId: number) {
  return db.transaction(async (tx) => {
    const rec = await loadForChange(tx, actor, recordId);
    await checkAssignee(tx, actor, userId);
    await tx
      .update(crfRecords)
      .set({ assignedTo: userId, updatedAt: new Date() })
      .where(eq(crfRecords.id, recordId));
    await notifyAssignee(tx, actor, recordId, userId);
    await audit(tx, actor, {
      action: 'crf.record.assign',
      entity: 'crf_record',
      entityId: recordId,
      before: { assignedTo: rec.assignedTo },
      after: { assignedTo: userId },
    });
  });
}

export async function recordHistory(
  db: Db,
  actor: CrfScope,
  recordId: number,
  item?: string,
): Promise<z.input<typeof crfChange>[]> {
  await loadRecord(db, actor, recordId);
  const where: SQL[] = [eq(crfRecordChanges.recordId, recordId), eq(crfRecordChanges.appId, actor.appId)];
  if (item) where.push(eq(crfRecordChanges.itemKey, item));
  return db
    .select({
      id: crfRecordChanges.id,
      itemKey: crfRecordChanges.itemKey,
      oldValue: crfRecordChanges.oldValue,
      newValue: crfRecordChanges.newValue,
      reason: crfRecordChanges.reason,
      userName: crfRecordChanges.userName,
      changedAt: crfRecordChanges.changedAt,
    })
    .from(crfRecordChanges)
    .where(and(...where))
    .orderBy(desc(crfRecordChanges.id))
    .limit(2000);
}

export async function listRecords(
  db: Db,
  actor: CrfScope,
  formId: number,
  q: {
    page: number;
    size: number;
    status?: string | undefined;
    subject?: string | undefined;
    patientId?: number | undefined;
  },
): Promise<z.input<typeof crfRecordPage>> {
  await loadForm(db, actor, formId);
  const where: SQL[] = [
    eq(crfRecords.appId, actor.appId),
    eq(crfRecords.formId, formId),
    isNull(crfRecords.deletedAt),
  ];
  if (actor.free) where.push(eq(crfRecords.freeKeyId, actor.free.keyId ?? -1));
  if (q.status) where.push(eq(crfRecords.status, q.status));
  if (q.subject) where.push(eq(crfRecords.subjectCode, q.subject));
  if (q.patientId) where.push(eq(crfRecords.patientId, q.patientId));
  const cond = and(...where);
  const [items, [count]] = await Promise.all([
    db
      .select({
        id: crfRecords.id,
        formId: crfRecords.formId,
        version: crfFormVersions.version,
        patientId: crfRecords.patientId,
        patientName: patients.name,
        patientMrn: patients.mrn,
        subjectCode: crfRecords.subjectCode,
        status: crfRecords.status,
        revision: crfRecords.revision,
        createdByName: crfRecords.createdByName,
        updatedByName: crfRecords.updatedByName,
        createdAt: crfRecords.createdAt,
        updatedAt: crfRecords.updatedAt,
      })
      .from(crfRecords)
      .innerJoin(crfFormVersions, eq(crfFormVersions.id, crfRecords.versionId))
      .leftJoin(patients, eq(patients.id, crfRecords.patientId))
      .where(cond)
      .orderBy(asc(crfRecords.id))
      .limit(q.size)
      .offset((q.page - 1) * q.size),
    db.select({ n: sql<number>`count(*)::int` }).from(crfRecords).where(cond),
  ]);
  return { items: items.map((r) => ({ ...r, status: r.status as RecordStatus })), total: count?.n ?? 0 };
}

export async function ownedRecordIds(db: Db, appId: number) {
  const rows = await db.select({ id: crfRecords.id }).from(crfRecords).where(eq(crfRecords.appId, appId));
  return rows.map((r) => ({ recordId: r.id }));
}
