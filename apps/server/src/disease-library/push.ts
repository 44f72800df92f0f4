import { type CohortCriteria, cohortCriteriaSchema, describeCondition, type libraryJob } from '@crdp/core';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { conditionSql, criteriaSql } from '../cohort/compile.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { diseaseLibraries, diseases, jobs, users } from '../db/schema/index.js';
import { requestJob } from '../jobs/request.js';
import { enqueueJob, type JobContext } from '../jobs/runner.js';
import { type Actor, invalid, type LibraryRow, libraryOf, publishedForm } from './libraries.js';

/**
 * Pushing patients (patients-push): the library's criteria run over the clinical data as a job;
 * patients not yet in the library are added with the inclusion conditions they met and get an
 * empty CRF record. Running it again adds only new patients (the unique key on library and
 * patient makes it idempotent, so a retried job is harmless). It walks the patients in id
 * ranges so a large hospital sees progress.
 */
export const PUSH_KIND = 'diseaseLibrary.push';
const CHUNK = 50_000;
/** The first key of the advisory lock a push of one library holds (the second is the library id). */
const PUSH_LOCK = 7301;

/** The filing date of a newly pushed patient, as SQL over `p`. */
async function filingSql(db: Tx, lib: LibraryRow, criteria: CohortCriteria) {
  if (lib.filingRule === 'firstVisit')
    return sql`coalesce((select min(v.admit_at)::date from visits v where v.patient_id = p.id and v.app_id = p.app_id), current_date)`;
  if (lib.filingRule === 'firstDiagnosis') {
    // The library's disease code, else the diagnosis codes of the inclusion criteria.
    let codes: string[] = [];
    if (lib.diseaseId) {
      const [d] = await db.select().from(diseases).where(eq(diseases.diseaseId, lib.diseaseId));
      if (d?.icd10) codes = [d.icd10];
    }
    if (!codes.length) codes = criteria.inclusion.flatMap((c) => (c.kind === 'diagnosis' ? c.codes : []));
    if (codes.length) {
      const match = sql.join(
        codes.map((c) => sql`d.icd10 ilike ${`${c.replace(/[%_\\]/g, '\\$&')}%`}`),
        sql` or `,
      );
      return sql`coalesce((select min(d.diagnosed_at)::date from diagnoses d where d.patient_id = p.id and d.app_id = p.app_id and (${match})), current_date)`;
    }
  }
  return sql`current_date`;
}

/** The inclusion conditions a patient met, as a JSON array of words. */
function reasonSql(criteria: CohortCriteria) {
  if (!criteria.inclusion.length) return sql`'["all patients"]'::jsonb`;
  const parts = criteria.inclusion.map(
    (c) => sql`case when ${conditionSql(c)} then ${describeCondition(c)} end`,
  );
  return sql`to_jsonb(array_remove(array[${sql.join(parts, sql`, `)}]::text[], null))`;
}

export interface PushResult {
  libraryId: number;
  matched: number;
  added: number;
  alreadyIn: number;
}

/** Runs one push of a library: the work of the job, callable directly by tests and the bench. */
export async function pushPatients(
  db: Db,
  appId: number,
  libraryId: number,
  by: { userId: number | null; userName: string; jobId: number | null },
  progress: (p: number) => Promise<void> = async () => {},
): Promise<PushResult> {
  const lib = await libraryOf(db, appId, libraryId);
  const criteria = cohortCriteriaSchema.parse(lib.criteria);
  const { version } = await publishedForm(db, appId, lib.crfFormId);
  const filing = await filingSql(db, lib, criteria);
  const reason = reasonSql(criteria);
  const where = criteriaSql(criteria);
  const [range] = rowsOf<{ lo: string | null; hi: string | null }>(
    await db.execute(
      sql`select min(id)::text as lo, max(id)::text as hi from patients where app_id = ${appId}`,
    ),
  );
  let matched = 0;
  let added = 0;
  if (range?.lo !== null && range?.lo !== undefined) {
    const lo = Number(range.lo);
    const hi = Number(range.hi);
    for (let start = lo; start <= hi; start += CHUNK) {
      const end = Math.min(hi, start + CHUNK - 1);
      await db.transaction(async (tx) => {
        // One push of a library at a time: the CRF records are made before the library rows
        // that name them, so two pushes must not race for the same patient.
        await tx.execute(sql`select pg_advisory_xact_lock(${PUSH_LOCK}, ${lib.id})`);
        // One statement: the criteria once over the range, the CRF record of each new patient,
        // then its library row with filing date, reasons and record (no per-patient round trip,
        // no second pass to link the records).
        const [r] = rowsOf<{ matched: number; added: string[] }>(
          await tx.execute(sql`with hit as materialized (
              select p.id from patients p
              where p.app_id = ${appId} and p.id between ${start} and ${end} and ${where}
            ),
            made as (
              insert into crf_records (app_id, form_id, version_id, patient_id, subject_code, answers, methods, status,
                created_by, created_by_name, updated_by_name)
              select ${appId}, ${lib.crfFormId}, ${version.id}, h.id, ${`ZB${lib.id}-`} || h.id,
                '{}'::jsonb, '{}'::jsonb, 'draft', ${by.userId}, ${by.userName}, ${by.userName}
              from hit h
              where not exists (select 1 from disease_library_patients x where x.library_id = ${lib.id} and x.patient_id = h.id)
              returning id, patient_id
            ),
            ins as (
              insert into disease_library_patients (app_id, library_id, patient_id, filing_date, reason, push_job_id, record_id)
              select p.app_id, ${lib.id}, p.id, ${filing}, ${reason}, ${by.jobId}, made.id
              from made join patients p on p.id = made.patient_id
              returning patient_id
            )
            select (select count(*) from hit)::int as matched,
              coalesce((select array_agg(patient_id::text) from ins), '{}') as added`),
        );
        matched += Number(r?.matched ?? 0);
        const ids = (r?.added ?? []).map(Number);
        if (!ids.length) return;
        added += ids.length;
        await audit(tx, null, {
          appId,
          userId: by.userId,
          userName: by.userName,
          action: 'disease_library.push',
          entity: 'disease_library',
          entityId: lib.id,
          after: { jobId: by.jobId, added: ids.length, patientIds: ids.slice(0, 1000) },
        });
      });
      await progress(Math.min(99, Math.round(((end - lo + 1) / (hi - lo + 1)) * 100)));
    }
  }
  await db.update(diseaseLibraries).set({ lastPushAt: new Date() }).where(eq(diseaseLibraries.id, lib.id));
  return { libraryId: lib.id, matched, added, alreadyIn: matched - added };
}

export async function pushJob({ db, job, progress }: JobContext) {
  const libraryId = Number((job.params as { libraryId: number }).libraryId);
  let userName = 'schedule';
  if (job.createdBy) {
    const [u] = await db.select({ n: users.userName }).from(users).where(eq(users.userId, job.createdBy));
    userName = u?.n ?? userName;
  }
  return pushPatients(db, job.appId, libraryId, { userId: job.createdBy, userName, jobId: job.id }, progress);
}

/** Queues a push of the library; the caller nudges the runner. */
export async function requestPush(actor: Actor, libraryId: number) {
  const { db } = actor;
  const lib = await libraryOf(db, actor.appId, libraryId);
  if (lib.status !== 'enabled')
    throw invalid('params.id', '该专病库已停用，请先启用', 'the library is disabled; enable it first');
  return requestJob(
    db,
    actor,
    { kind: PUSH_KIND, params: { libraryId } },
    { action: 'disease_library.push.request', entity: 'disease_library', entityId: libraryId },
  );
}

/**
 * Scheduled pushes: claims the libraries whose next push is due and queues a push for each, in
 * one statement per library set, so two server processes never queue the same push twice.
 */
export async function enqueueDuePushes(db: Db) {
  return db.transaction(async (tx) => {
    const due = rowsOf<{ id: number; app_id: number; created_by: number | null }>(
      await tx.execute(sql`update disease_libraries
        set next_push_at = now() + make_interval(hours => push_every_hours)
        where push_every_hours > 0 and status = 'enabled' and deleted_at is null and next_push_at is not null and next_push_at <= now()
        returning id, app_id, created_by`),
    );
    for (const d of due) {
      await enqueueJob(tx, {
        appId: d.app_id,
        kind: PUSH_KIND,
        params: { libraryId: d.id, scheduled: true },
        createdBy: d.created_by,
      });
      await audit(tx, null, {
        appId: d.app_id,
        userId: null,
        userName: 'schedule',
        action: 'disease_library.push.schedule',
        entity: 'disease_library',
        entityId: d.id,
      });
    }
    return due.length;
  });
}

/** Jobs of one kind for one library, newest first. */
export async function libraryJobs(
  db: Tx,
  appId: number,
  libraryId: number,
  kind: string,
): Promise<Array<z.input<typeof libraryJob>>> {
  const rows = await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.appId, appId),
        eq(jobs.kind, kind),
        sql`(${jobs.params}->>'libraryId')::int = ${libraryId}`,
      ),
    )
    .orderBy(desc(jobs.id))
    .limit(50);
  return rows.map((j) => ({
    id: j.id,
    status: j.status as z.input<typeof libraryJob>['status'],
    progress: j.progress,
    result: j.result,
    error: j.error,
    scheduled: Boolean((j.params as { scheduled?: boolean }).scheduled),
    createdAt: j.createdAt,
    finishedAt: j.finishedAt,
  }));
}
