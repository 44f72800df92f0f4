import {
  type CleanedValue,
  type CleaningRuleSource,
  type CleaningTask,
  cleanDocument,
  type cleaningTaskInput,
  compileRules,
  type Locale,
} from '@crdp/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf, ownedKeys } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { cleanedValues, cleaningTasks, jobs } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { queueJobFor } from '../jobs/request.js';
import { enqueueJob, type JobContext } from '../jobs/runner.js';
import { resolveRules } from './rules.js';

/**
 * Cleaning tasks: a rule set over a scope of the CDR's documents, run as a background job. The
 * job reads the documents in id order, a batch at a time; each batch replaces, in one transaction,
 * the values the task's rules had read from those documents, so a retried or rerun job (or a later
 * task with the same rules) never duplicates a value. A cancelled task stops after the batch in
 * hand (values written so far stay).
 */
export const CLEANING_TASK_KIND = 'cleaning.run';
const BATCH = 200;

type TaskInput = z.output<typeof cleaningTaskInput>;
type Scope = TaskInput['scope'];
type StoredRule = CleaningRuleSource;

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export async function taskRows(
  db: Tx,
  appId: number,
  opts: { id?: number; page?: number; size?: number; locale?: Locale },
) {
  const cond = sql.join(
    [sql`t.app_id = ${appId}`, ...(opts.id !== undefined ? [sql`t.id = ${opts.id}`] : [])],
    sql` and `,
  );
  const size = opts.size ?? 20;
  const offset = ((opts.page ?? 1) - 1) * size;
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from cleaning_tasks t where ${cond}`),
  );
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select t.id, t.name, t.rules, t.scope, t.job_id, t.cancelled_at, t.created_by_name, t.created_at,
        j.status, coalesce(j.progress, 0) as progress, j.error, j.result, j.finished_at,
        (select count(*) from cleaned_values v where v.task_id = t.id)::int as values,
        (select count(*) from cleaned_values v where v.task_id = t.id and v.fault <> '')::int as faults
      from cleaning_tasks t left join jobs j on j.id = t.job_id
      where ${cond} order by t.id desc limit ${size} offset ${offset}`),
  );
  const items: CleaningTask[] = rows.map((r) => {
    const jobStatus = (r.status as string | null) ?? 'failed';
    const status = (r.cancelled_at ? 'cancelled' : jobStatus) as CleaningTask['status'];
    const result = (r.result ?? {}) as { documents?: number };
    return {
      id: Number(r.id),
      name: String(r.name),
      rules: (r.rules as StoredRule[]).map((x) => ({ ref: x.ref, name: x.name })),
      scope: r.scope as Scope,
      jobId: r.job_id === null ? null : Number(r.job_id),
      status,
      progress: Number(r.progress),
      error:
        jobFailureText(
          { status: jobStatus, error: (r.error as string | null) ?? null, result: r.result },
          opts.locale ?? 'zh-CN',
        ) ?? null,
      documents: Number(result.documents ?? 0),
      values: Number(r.values),
      faults: Number(r.faults),
      createdByName: String(r.created_by_name),
      createdAt: iso(r.created_at)!,
      finishedAt: iso(r.finished_at),
    };
  });
  return { total: Number(total?.n ?? 0), items };
}

export async function taskOf(db: Tx, appId: number, id: number, locale?: Locale) {
  const { items } = await taskRows(db, appId, { id, ...(locale ? { locale } : {}) });
  if (!items[0]) throw notFound('cleaning_task');
  return items[0];
}

export const ownedTaskIds = ownedKeys(cleaningTasks, { taskId: cleaningTasks.id });
const cleaningTaskRow = appRowOf(cleaningTasks, 'cleaning_task');

const ended = (s: CleaningTask['status']) => s !== 'queued' && s !== 'running';

/** Queues a task: its rules are resolved (and checked) now and kept with it. */
export async function createTask(ctx: SignedIn, input: TaskInput) {
  if (input.scope.from && input.scope.to && input.scope.from > input.scope.to)
    throw new AppError(
      400,
      'request.invalid',
      {
        detail: bilingual(
          'body.scope.to: 结束日期早于开始日期',
          'body.scope.to: the end date is before the start date',
        ),
      },
      'body.scope.to',
    );
  return ctx.db.transaction(async (tx) => {
    const { sources } = await resolveRules(tx, ctx.appId, ctx.locale, input.rules, 'body.rules');
    const [task] = await tx
      .insert(cleaningTasks)
      .values({
        appId: ctx.appId,
        name: input.name,
        rules: sources,
        scope: input.scope,
        createdBy: ctx.userId,
        createdByName: ctx.userName,
      })
      .returning();
    const link = { table: cleaningTasks, id: task!.id };
    await queueJobFor(
      tx,
      ctx,
      { kind: CLEANING_TASK_KIND, params: { taskId: task!.id }, link },
      {
        action: 'create',
        entity: 'cleaning_task',
        after: { name: input.name, rules: input.rules, scope: input.scope },
      },
    );
    return taskOf(tx, ctx.appId, task!.id, ctx.locale);
  });
}

/** Runs an ended task again with its rules as they are now; values are replaced, never doubled. */
export async function rerunTask(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await taskOf(tx, ctx.appId, id, ctx.locale);
    if (!ended(before.status))
      throw new AppError(409, 'request.conflict', {
        detail: bilingual('任务尚未结束，不能重新运行', 'the task has not ended; it cannot run again yet'),
      });
    const { sources } = await resolveRules(
      tx,
      ctx.appId,
      ctx.locale,
      before.rules.map((r) => r.ref),
      'rules',
    );
    const job = await enqueueJob(tx, {
      appId: ctx.appId,
      kind: CLEANING_TASK_KIND,
      params: { taskId: id },
      createdBy: ctx.userId,
    });
    await tx
      .update(cleaningTasks)
      .set({ jobId: job.id, cancelledAt: null, rules: sources })
      .where(eq(cleaningTasks.id, id));
    await audit(tx, ctx, {
      action: 'status',
      entity: 'cleaning_task',
      entityId: id,
      before: { status: before.status, jobId: before.jobId },
      after: { status: 'queued', jobId: job.id },
    });
    return taskOf(tx, ctx.appId, id, ctx.locale);
  });
}

export async function cancelTask(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await taskOf(tx, ctx.appId, id, ctx.locale);
    if (ended(before.status))
      throw new AppError(409, 'request.conflict', {
        detail: bilingual('任务已结束，无需取消', 'the task has already ended; there is nothing to cancel'),
      });
    await tx.update(cleaningTasks).set({ cancelledAt: new Date() }).where(eq(cleaningTasks.id, id));
    if (before.jobId)
      await tx
        .update(jobs)
        .set({ status: 'cancelled', finishedAt: new Date() })
        .where(and(eq(jobs.id, before.jobId), eq(jobs.status, 'queued')));
    await audit(tx, ctx, {
      action: 'status',
      entity: 'cleaning_task',
      entityId: id,
      before: { status: before.status },
      after: { status: 'cancelled' },
    });
    return taskOf(tx, ctx.appId, id, ctx.locale);
  });
}

/** Deletes an ended task and the values it wrote. */
export async function deleteTask(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await taskOf(tx, ctx.appId, id, ctx.locale);
    if (!ended(before.status))
      throw new AppError(409, 'request.conflict', {
        detail: bilingual('任务尚未结束，不能删除', 'the task has not ended and cannot be deleted'),
      });
    await tx.delete(cleaningTasks).where(eq(cleaningTasks.id, id));
    await audit(tx, ctx, { action: 'delete', entity: 'cleaning_task', entityId: id, before });
    return { id };
  });
}

function scopeSql(appId: number, scope: Scope, afterId: number) {
  const parts = [sql`app_id = ${appId}`, sql`id > ${afterId}`];
  if (scope.kinds.length)
    parts.push(
      sql`kind in (${sql.join(
        scope.kinds.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
  if (scope.from) parts.push(sql`written_at >= ${scope.from}::date`);
  if (scope.to) parts.push(sql`written_at < ${scope.to}::date + 1`);
  return sql.join(parts, sql` and `);
}

/** The work of one task; tests call it directly. `stillMine` is false once a newer claim took over. */
export async function runTask(
  db: Db,
  appId: number,
  taskId: number,
  progress: (p: number) => Promise<void> = async () => {},
  stillMine: (tx: Tx) => Promise<boolean> = async () => true,
) {
  const task = await cleaningTaskRow(db, appId, taskId);
  const sources = task.rules as StoredRule[];
  const refs = sources.map((s) => s.ref);
  const compiled = compileRules(sources);
  const scope = task.scope as Scope;
  const [count] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from documents where ${scopeSql(appId, scope, 0)}`),
  );
  const total = Number(count?.n ?? 0);
  let done = 0;
  let values = 0;
  let faults = 0;
  let lastId = 0;
  let cancelled = false;
  for (;;) {
    const docs = rowsOf<{
      id: number | string;
      patient_id: number | string;
      visit_id: number | string | null;
      body: string;
      written_at: string | Date;
    }>(
      await db.execute(sql`select id, patient_id, visit_id, body, written_at from documents
        where ${scopeSql(appId, scope, lastId)} order by id limit ${BATCH}`),
    );
    if (!docs.length) break;
    lastId = Number(docs[docs.length - 1]!.id);
    const rows: (typeof cleanedValues.$inferInsert)[] = [];
    for (const d of docs) {
      const text = d.body;
      for (const e of cleanDocument(compiled, text).extractions) {
        rows.push({
          appId,
          taskId,
          ruleRef: e.ruleRef,
          patientId: Number(d.patient_id),
          documentId: Number(d.id),
          visitId: d.visit_id === null ? null : Number(d.visit_id),
          code: e.code,
          name: e.name,
          valueNum: e.value,
          valueHigh: e.valueHigh,
          valueText: e.raw.slice(0, 200),
          unit: e.unit,
          section: e.section,
          sentence: text.slice(e.sentenceStart, e.sentenceEnd),
          sentenceStart: e.sentenceStart,
          spanStart: e.start,
          spanEnd: e.end,
          qualifiers: {
            negated: e.negated,
            uncertain: e.uncertain,
            time: e.time,
            timeDays: e.timeDays,
            laterality: e.laterality,
            comparator: e.comparator,
          },
          fault: e.fault ?? '',
          faultDetail: e.faultDetail,
          observedAt: new Date(d.written_at),
        });
        if (e.fault) faults++;
      }
    }
    const stop = await db.transaction(async (tx) => {
      if (!(await stillMine(tx)))
        throw new Error(`cleaning task ${taskId} was taken over by a newer attempt`);
      const [t] = await tx
        .select({ cancelledAt: cleaningTasks.cancelledAt })
        .from(cleaningTasks)
        .where(eq(cleaningTasks.id, taskId))
        .for('update');
      if (!t || t.cancelledAt) return true;
      await tx.delete(cleanedValues).where(
        and(
          eq(cleanedValues.appId, appId),
          inArray(
            cleanedValues.documentId,
            docs.map((d) => Number(d.id)),
          ),
          inArray(cleanedValues.ruleRef, refs),
        ),
      );
      for (let i = 0; i < rows.length; i += 1000)
        await tx.insert(cleanedValues).values(rows.slice(i, i + 1000));
      return false;
    });
    if (stop) {
      cancelled = true;
      break;
    }
    values += rows.length;
    done += docs.length;
    await progress(total ? Math.min(99, Math.floor((done / total) * 100)) : 99);
  }
  const result = { taskId, documents: done, values, faults, cancelled };
  await audit(db, null, {
    appId,
    userId: task.createdBy,
    userName: task.createdByName,
    action: 'status',
    entity: 'cleaning_task',
    entityId: taskId,
    after: { status: cancelled ? 'cancelled' : 'succeeded', ...result },
  });
  return result;
}

/** The job: an older claim stops at its next batch instead of writing beside the newer one. */
export async function taskJob({ db, job, progress }: JobContext) {
  const p = job.params as { taskId: number };
  const stillMine = async (tx: Tx) => {
    const [j] = await tx.select({ attempts: jobs.attempts }).from(jobs).where(eq(jobs.id, job.id));
    return j?.attempts === job.attempts;
  };
  return runTask(db, job.appId, Number(p.taskId), progress, stillMine);
}

type ValueRow = Record<string, unknown>;
const valueView = (r: ValueRow): CleanedValue => {
  const q = (r.qualifiers ?? {}) as Record<string, unknown>;
  return {
    id: Number(r.id),
    taskId: r.task_id === null ? null : Number(r.task_id),
    ruleRef: String(r.rule_ref),
    patientId: Number(r.patient_id),
    documentId: Number(r.document_id),
    documentTitle: String(r.title ?? ''),
    code: String(r.code),
    name: String(r.name),
    value: r.value_num === null ? null : Number(r.value_num),
    valueHigh: r.value_high === null ? null : Number(r.value_high),
    unit: String(r.unit),
    section: String(r.section),
    sentence: String(r.sentence),
    sentenceStart: Number(r.sentence_start),
    spanStart: Number(r.span_start),
    spanEnd: Number(r.span_end),
    negated: q.negated === true,
    uncertain: q.uncertain === true,
    time: (q.time as string | null) ?? null,
    laterality: (q.laterality as string | null) ?? null,
    fault: String(r.fault),
    faultDetail: String(r.fault_detail),
    observedAt: iso(r.observed_at)!,
  };
};

async function valuePage(db: Db, where: ReturnType<typeof sql>, q: { page: number; size: number }) {
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from cleaned_values v where ${where}`),
  );
  const rows = rowsOf<ValueRow>(
    await db.execute(sql`select v.*, d.title from cleaned_values v join documents d on d.id = v.document_id
      where ${where} order by v.observed_at desc, v.id limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  return { total: Number(total?.n ?? 0), items: rows.map(valueView) };
}

export async function taskValues(
  db: Db,
  appId: number,
  taskId: number,
  q: { page: number; size: number; faultsOnly: boolean },
) {
  await taskOf(db, appId, taskId);
  const where = sql`v.app_id = ${appId} and v.task_id = ${taskId} ${q.faultsOnly ? sql`and v.fault <> ''` : sql``}`;
  return valuePage(db, where, q);
}

/** A patient's cleaned values with their source sentence (the personal view's 文本结构化 tab). */
export async function patientValues(
  db: Db,
  appId: number,
  patientId: number,
  q: { page: number; size: number; faultsOnly: boolean },
) {
  const [p] = rowsOf<{ id: number }>(
    await db.execute(sql`select id from patients where id = ${patientId} and app_id = ${appId}`),
  );
  if (!p) throw notFound('patient');
  const where = sql`v.app_id = ${appId} and v.patient_id = ${patientId} ${q.faultsOnly ? sql`and v.fault <> ''` : sql``}`;
  return valuePage(db, where, q);
}
