import {
  type T0Event,
  type T0EventList,
  type T0PatientPage,
  type T0Rule,
  type T0State,
  type t0EventCreate,
  type t0EventPatch,
  t0Rule,
} from '@crdp/core';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { auditTrail } from '../audit/audit.js';
import { appRowOf } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { pageOf } from '../db/paging.js';
import {
  diagnoses,
  jobs,
  labResults,
  operations,
  patients,
  t0Events,
  t0Patients,
  visits,
} from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual } from '../http/errors.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import { refuseT0EventInUse } from './refs.js';

export const T0_JOB_KIND = 't0.materialize';

type Row = typeof t0Events.$inferSelect;
type JobState = { status: string } | undefined;

const trail = auditTrail('t0_event', 't0');

const ruleKey = (rule: unknown) => JSON.stringify(rule);

function stateOf(e: Row, job: JobState): T0State {
  if (job?.status === 'queued' || job?.status === 'running') return job.status;
  if (job?.status === 'failed') return 'failed';
  if (!e.ruleRun) return 'new';
  return e.ruleRun === ruleKey(e.rule) ? 'ready' : 'stale';
}

const view = (e: Row, job: JobState): T0Event => ({
  id: e.id,
  name: e.name,
  description: e.description,
  rule: t0Rule.parse(e.rule),
  state: stateOf(e, job),
  patients: e.patients,
  materializedAt: e.materializedAt ? e.materializedAt.toISOString() : null,
  jobId: e.jobId,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

async function jobsOf(db: Tx, ids: number[]) {
  if (!ids.length) return new Map<number, { status: string }>();
  const rows = await db.select({ id: jobs.id, status: jobs.status }).from(jobs).where(inArray(jobs.id, ids));
  return new Map(rows.map((r) => [r.id, { status: r.status }]));
}

export async function listT0Events(db: Db, appId: number): Promise<T0EventList> {
  const rows = await db.select().from(t0Events).where(eq(t0Events.appId, appId)).orderBy(asc(t0Events.id));
  const js = await jobsOf(
    db,
    rows.flatMap((r) => (r.jobId ? [r.jobId] : [])),
  );
  return { items: rows.map((r) => view(r, r.jobId ? js.get(r.jobId) : undefined)) };
}

export const t0EventOf = appRowOf(t0Events, 't0_event');

async function viewOf(db: Tx, row: Row) {
  const js = await jobsOf(db, row.jobId ? [row.jobId] : []);
  return view(row, row.jobId ? js.get(row.jobId) : undefined);
}

export async function addT0Event(ctx: SignedIn, input: z.output<typeof t0EventCreate>): Promise<T0Event> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(t0Events)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning();
    const after = await viewOf(tx, row!);
    return trail.added(tx, ctx, after.id, after);
  });
}

export async function editT0Event(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof t0EventPatch>,
): Promise<T0Event> {
  return ctx.db.transaction(async (tx) => {
    const before = await t0EventOf(tx, ctx.appId, id);
    const [row] = await tx
      .update(t0Events)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(t0Events.id, id))
      .returning();
    const after = await viewOf(tx, row!);
    return trail.edited(tx, ctx, id, await viewOf(tx, before), after);
  });
}

export async function deleteT0Event(ctx: SignedIn, id: number): Promise<true> {
  return ctx.db.transaction(async (tx) => {
    const before = await t0EventOf(tx, ctx.appId, id);
    await refuseT0EventInUse(tx, ctx.appId, id);
    await tx.delete(t0Events).where(eq(t0Events.id, id));
    await trail.deleted(tx, ctx, id, await viewOf(tx, before));
    return true as const;
  });
}

/** Queues the event's calculation; one at a time per event. */
export async function runT0Event(ctx: SignedIn, id: number): Promise<{ jobId: number }> {
  return ctx.db.transaction(async (tx) => {
    const e = await t0EventOf(tx, ctx.appId, id);
    const state = (await viewOf(tx, e)).state;
    if (state === 'queued' || state === 'running')
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          '该 T0 事件正在计算，请等它完成',
          'this T0 event is being calculated; wait until it is done',
        ),
      });
    const job = await queueJobFor(
      tx,
      ctx,
      { kind: T0_JOB_KIND, params: { eventId: id }, link: { table: t0Events, id } },
      { action: 't0.run', entity: 't0_event' },
    );
    return { jobId: job.id };
  });
}

/**
 * The first row per patient that the rule picks, as `(patient_id, t0, source_table, source_id)`,
 * earliest first (ties by row id), from the app's rows only.
 */
function firstRows(appId: number, rule: T0Rule): SQL {
  switch (rule.kind) {
    case 'firstDiagnosis':
      return sql`select distinct on (${diagnoses.patientId}) ${diagnoses.patientId} as patient_id, ${diagnoses.diagnosedAt} as t0, 'diagnoses' as source_table, ${diagnoses.id} as source_id
        from ${diagnoses} where ${diagnoses.appId} = ${appId} and upper(${diagnoses.icd10}) like ${`${escapeLike(rule.icd10Prefix.toUpperCase())}%`}
        order by ${diagnoses.patientId}, ${diagnoses.diagnosedAt}, ${diagnoses.id}`;
    case 'firstOperation':
      return sql`select distinct on (${operations.patientId}) ${operations.patientId} as patient_id, ${operations.operatedAt} as t0, 'operations' as source_table, ${operations.id} as source_id
        from ${operations} where ${operations.appId} = ${appId}
          and (${operations.name} ilike ${`%${escapeLike(rule.keyword)}%`} or ${operations.code} ilike ${`${escapeLike(rule.keyword)}%`})
        order by ${operations.patientId}, ${operations.operatedAt}, ${operations.id}`;
    case 'firstLab': {
      // The comparator is one of four words the contract allows, never text from the request.
      const cmp = sql.raw({ '>': '>', '>=': '>=', '<': '<', '<=': '<=' }[rule.comparator]);
      return sql`select distinct on (${labResults.patientId}) ${labResults.patientId} as patient_id, ${labResults.collectedAt} as t0, 'lab_results' as source_table, ${labResults.id} as source_id
        from ${labResults} where ${labResults.appId} = ${appId} and ${labResults.itemCode} = ${rule.itemCode}
          and ${labResults.valueNum} ${cmp} ${rule.threshold}
        order by ${labResults.patientId}, ${labResults.collectedAt}, ${labResults.id}`;
    }
    case 'firstAdmission':
      return sql`select distinct on (${visits.patientId}) ${visits.patientId} as patient_id, ${visits.admitAt} as t0, 'visits' as source_table, ${visits.id} as source_id
        from ${visits} where ${visits.appId} = ${appId} and ${visits.kind} = 'inpatient'
          ${rule.department ? sql`and ${visits.department} = ${rule.department}` : sql``}
        order by ${visits.patientId}, ${visits.admitAt}, ${visits.id}`;
  }
}

/**
 * The job: every patient's T0 of the event worked out again in one transaction (the old results
 * stay readable until it commits). Its writes are fenced: a run whose claim was taken over
 * commits nothing.
 */
export async function t0Job({ db, job, progress }: JobContext) {
  const eventId = Number((job.params as { eventId: number }).eventId);
  const [event] = await db.select().from(t0Events).where(eq(t0Events.id, eventId));
  if (!event) return { patients: 0, deleted: true };
  const rule = t0Rule.parse(event.rule);
  await progress(10);
  const patientsFound = await db.transaction(async (tx) => {
    await tx.delete(t0Patients).where(eq(t0Patients.eventId, eventId));
    await tx.execute(sql`insert into ${t0Patients} (event_id, app_id, patient_id, t0, source_table, source_id)
      select ${eventId}, ${event.appId}, f.patient_id, f.t0, f.source_table, f.source_id from (${firstRows(event.appId, rule)}) f`);
    const [n] = await tx.select({ n: count() }).from(t0Patients).where(eq(t0Patients.eventId, eventId));
    const [still] = await tx.select({ attempts: jobs.attempts }).from(jobs).where(eq(jobs.id, job.id));
    if (still?.attempts !== job.attempts)
      throw new Error('t0: the job was claimed again; this run commits nothing');
    await tx
      .update(t0Events)
      .set({ patients: n?.n ?? 0, materializedAt: new Date(), ruleRun: ruleKey(event.rule) })
      .where(eq(t0Events.id, eventId));
    return n?.n ?? 0;
  });
  await progress(100);
  return { patients: patientsFound };
}

/** One page of the event's patients with their T0 (newest first) and the count per year. */
export async function t0PatientsOf(
  db: Db,
  appId: number,
  id: number,
  q: { page: number; size: number },
): Promise<T0PatientPage> {
  await t0EventOf(db, appId, id);
  const where = and(eq(t0Patients.eventId, id), eq(t0Patients.appId, appId));
  const { total, rows } = await pageOf(db, t0Patients, where, q, ({ limit, offset }) =>
    db
      .select({
        patientId: t0Patients.patientId,
        mrn: patients.mrn,
        t0: t0Patients.t0,
        sourceTable: t0Patients.sourceTable,
        sourceId: t0Patients.sourceId,
      })
      .from(t0Patients)
      .innerJoin(patients, eq(patients.id, t0Patients.patientId))
      .where(where)
      .orderBy(desc(t0Patients.t0), asc(t0Patients.patientId))
      .limit(limit)
      .offset(offset),
  );
  const year = sql<string>`to_char(${t0Patients.t0} at time zone 'Asia/Shanghai', 'YYYY')`;
  const byYear = await db
    .select({ year, n: count() })
    .from(t0Patients)
    .where(where)
    .groupBy(year)
    .orderBy(year);
  return {
    total,
    page: q.page,
    size: q.size,
    items: rows.map((r) => ({ ...r, t0: r.t0.toISOString() })),
    byYear,
  };
}

export const t0EventsOf = async (db: Db, appId: number) =>
  (await db.select({ id: t0Events.id }).from(t0Events).where(eq(t0Events.appId, appId))).map((r) => ({
    id: r.id,
  }));
