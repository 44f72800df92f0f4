import type { Locale, QcSeverity, QcTaskStatus, qcTask } from '@crdp/core';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf, deleteAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { jobs, qcRules, qcTaskRules, qcTasks } from '../db/schema/index.js';
import { invalidField, notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { queueJobFor } from '../jobs/request.js';
import type { JobContext } from '../jobs/runner.js';
import type { QcKind } from './catalogue.js';
import { evaluateRule, FAULT_CAP, type RunRule } from './evaluate.js';
import { type Actor, type QcPageOf, rowsOf } from './inputs.js';
import { planOf } from './plans.js';
import type { RuleParams } from './rule-check.js';

/**
 * QC tasks (DataQcTask): one run of a plan, as a background job. The job evaluates each rule
 * of the plan as one set-based statement and stores what it found; a retried job starts over
 * (its earlier partial results are deleted first), so a retry is harmless.
 */
export const QC_TASK_KIND = 'dataQc.run';

/** A task as the API answers it (the `qcTask` contract). */
export type TaskView = z.input<typeof qcTask>;

const qcTaskRow = appRowOf(qcTasks, 'qc_task');
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/** Tasks of the app with their job's status and their totals, newest first. */
export async function taskRows(
  db: Tx,
  appId: number,
  opts: { id?: number; page?: number; size?: number; finished?: boolean; locale?: Locale },
) {
  const where = [sql`t.app_id = ${appId}`];
  if (opts.id !== undefined) where.push(sql`t.id = ${opts.id}`);
  if (opts.finished) where.push(sql`j.status = 'succeeded'`);
  const cond = sql.join(where, sql` and `);
  const size = opts.size ?? 20;
  const offset = ((opts.page ?? 1) - 1) * size;
  const [total] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from qc_tasks t left join jobs j on j.id = t.job_id where ${cond}`,
    ),
  );
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select t.id, t.plan_id, t.plan_name, t.job_id, t.created_by_name, t.created_at,
        coalesce(j.status, 'failed') as status, coalesce(j.progress, 0) as progress, j.error, j.result, j.started_at, j.finished_at,
        coalesce(s.rules, 0)::int as rules, coalesce(s.skipped, 0)::int as skipped,
        coalesce(s.checked, 0)::int as checked, coalesce(s.faults, 0)::int as faults
      from qc_tasks t
      left join jobs j on j.id = t.job_id
      left join lateral (select count(*) as rules, count(*) filter (where r.skipped) as skipped,
          sum(r.checked) as checked, sum(r.faults) as faults
        from qc_task_rules r where r.task_id = t.id) s on true
      where ${cond}
      order by t.id desc limit ${size} offset ${offset}`),
  );
  const items: TaskView[] = rows.map((r) => ({
    id: Number(r.id),
    planId: r.plan_id === null ? null : Number(r.plan_id),
    planName: String(r.plan_name),
    jobId: r.job_id === null ? null : Number(r.job_id),
    status: String(r.status) as QcTaskStatus,
    progress: Number(r.progress),
    // A failure that kept its message key reads in the reader's language.
    error:
      jobFailureText(
        { status: String(r.status), error: (r.error as string | null) ?? null, result: r.result },
        opts.locale ?? 'zh-CN',
      ) ?? null,
    createdByName: String(r.created_by_name),
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    rules: Number(r.rules),
    skipped: Number(r.skipped),
    checked: Number(r.checked),
    faults: Number(r.faults),
  }));
  return { total: Number(total?.n ?? 0), items };
}

export async function taskOf(db: Tx, appId: number, id: number, locale?: Locale): Promise<TaskView> {
  const { items } = await taskRows(db, appId, { id, ...(locale ? { locale } : {}) });
  if (!items[0]) throw notFound('qc_task');
  return items[0];
}

export async function listTasks(
  db: Db,
  appId: number,
  q: { page: number; size: number },
  finished = false,
  locale: Locale = 'zh-CN',
): Promise<QcPageOf<TaskView>> {
  const r = await taskRows(db, appId, { ...q, finished, locale });
  return { ...r, page: q.page, size: q.size };
}

/**
 * Queues a run of a plan. The plan must be the app's, enabled, and hold at least one enabled
 * rule; its rules (ids, in order) are fixed now, so a plan edited while the task waits does not
 * change what the task checks.
 */
export async function requestTask(db: Db, actor: Actor, planId: number) {
  return db.transaction(async (tx) => {
    const plan = await planOf(tx, actor.appId, planId).catch(() => {
      throw invalidField(
        'body.planId',
        `本应用没有质控方案 ${planId}`,
        `there is no QC plan ${planId} in this app`,
      );
    });
    if (!plan.enabled)
      throw invalidField(
        'body.planId',
        `方案「${plan.name}」已停用，请先启用`,
        `plan “${plan.name}” is disabled; enable it first`,
      );
    if (!plan.rules.some((r) => r.enabled))
      throw invalidField(
        'body.planId',
        `方案「${plan.name}」中没有启用的规则`,
        `plan “${plan.name}” has no enabled rule`,
      );
    const [task] = await tx
      .insert(qcTasks)
      .values({
        appId: actor.appId,
        planId,
        planName: plan.name,
        createdBy: actor.userId,
        createdByName: actor.userName,
      })
      .returning();
    await queueJobFor(
      tx,
      actor,
      {
        kind: QC_TASK_KIND,
        params: { taskId: task!.id, ruleIds: plan.ruleIds },
        link: { table: qcTasks, id: task!.id },
      },
      { action: 'create', entity: 'qc_task', after: { planId, planName: plan.name, ruleIds: plan.ruleIds } },
    );
    return taskOf(tx, actor.appId, task!.id);
  });
}

/** The work of one task; callable directly by tests (with a smaller cap). */
export async function runTask(
  db: Db,
  appId: number,
  taskId: number,
  ruleIds: number[],
  progress: (p: number) => Promise<void> = async () => {},
  cap = FAULT_CAP,
  /** False once another attempt of the job has taken the task over: this one stops. */
  stillMine: () => Promise<boolean> = async () => true,
) {
  const task = await qcTaskRow(db, appId, taskId);
  // A retried job starts over.
  await db.delete(qcTaskRules).where(eq(qcTaskRules.taskId, taskId));
  const rules = ruleIds.length
    ? await db
        .select()
        .from(qcRules)
        .where(and(eq(qcRules.appId, appId), inArray(qcRules.id, ruleIds)))
        .orderBy(asc(qcRules.id))
    : [];
  const byId = new Map(rules.map((r) => [r.id, r]));
  let checked = 0;
  let faults = 0;
  let skipped = 0;
  let position = 0;
  for (const id of ruleIds) {
    if (!(await stillMine())) throw new Error(`QC task ${taskId} was taken over by a newer attempt`);
    const r = byId.get(id);
    if (!r) continue; // deleted since the task was queued
    const run: RunRule = {
      name: r.name,
      tableKey: r.tableKey,
      kind: r.kind as QcKind,
      columnKey: r.columnKey,
      params: r.params as RuleParams,
      severity: r.severity as QcSeverity,
    };
    await db.transaction(async (tx) => {
      const [tr] = await tx
        .insert(qcTaskRules)
        .values({ appId, taskId, ruleId: r.id, position: position++, rule: run, skipped: !r.enabled })
        .returning();
      if (!r.enabled) {
        skipped++;
        return;
      }
      const found = await evaluateRule(tx, { appId, taskId, taskRuleId: tr!.id }, run, cap);
      await tx.update(qcTaskRules).set(found).where(eq(qcTaskRules.id, tr!.id));
      checked += found.checked;
      faults += found.faults;
    });
    await progress(Math.min(99, Math.round((position / ruleIds.length) * 100)));
  }
  const result = { taskId, rules: position, skipped, checked, faults };
  await audit(db, null, {
    appId,
    userId: task.createdBy,
    userName: task.createdByName,
    action: 'data_qc.task.finish',
    entity: 'qc_task',
    entityId: taskId,
    after: result,
  });
  return result;
}

/**
 * The job: a run whose heartbeat went stale is claimed again (jobs/README.md); the older attempt
 * then stops at its next rule instead of writing beside the newer one.
 */
export async function taskJob({ db, job, progress }: JobContext) {
  const p = job.params as { taskId: number; ruleIds: number[] };
  const stillMine = async () => {
    const [j] = await db.select({ attempts: jobs.attempts }).from(jobs).where(eq(jobs.id, job.id));
    return j?.attempts === job.attempts;
  };
  return runTask(
    db,
    job.appId,
    Number(p.taskId),
    (p.ruleIds ?? []).map(Number),
    progress,
    FAULT_CAP,
    stillMine,
  );
}

/** Deletes a finished task with its findings; a queued or running task cannot be deleted. */
export async function deleteTask(db: Db, actor: Actor, id: number) {
  return db.transaction(async (tx) => {
    const before = await taskOf(tx, actor.appId, id);
    if (before.status === 'queued' || before.status === 'running')
      throw invalidField(
        'params.taskId',
        '任务尚未结束，不能删除',
        'the task has not finished and cannot be deleted',
      );
    await deleteAppRow(tx, qcTasks, actor.appId, id);
    await audit(tx, actor, { action: 'delete', entity: 'qc_task', entityId: id, before });
    return { id };
  });
}

export async function ownedTaskIds(db: Db, appId: number) {
  const rows = await db.select({ id: qcTasks.id }).from(qcTasks).where(eq(qcTasks.appId, appId));
  return rows.map((r) => ({ taskId: r.id }));
}
