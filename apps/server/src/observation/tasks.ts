import type {
  JobStatus,
  ObservationDomain,
  ObservationDomainCounts,
  ObservationRun,
  ObservationRunList,
  ObservationTask,
  ObservationTaskList,
  observationRunInput,
  observationTaskInput,
} from '@crdp/core';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, deleteAppRow, ownedKeys, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { jobs, observationRuns, observationTasks } from '../db/schema/index.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { invalidField } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { queueJobFor } from '../jobs/request.js';
import { TRANSFORM_KIND } from './transform.js';

/*
 * Transform tasks (ObservationTransformTask): a named choice of domains with its watermark; each
 * run is an `observation_runs` row over a job of kind `observation.transform`.
 */

type RunRow = typeof observationRuns.$inferSelect;
type JobRow = typeof jobs.$inferSelect;

const trail = auditTrail('observation_task', 'observation.task');

const runView = (r: RunRow, j: JobRow | null, ctx: SignedIn): ObservationRun => ({
  id: r.id,
  mode: r.mode as ObservationRun['mode'],
  jobId: r.jobId,
  // A run whose job was deleted by retention ended long ago: its counts say how.
  status: (j?.status as JobStatus | undefined) ?? (r.finishedAt ? 'succeeded' : 'failed'),
  progress: j?.progress ?? (r.finishedAt ? 100 : 0),
  error: j ? jobFailureText(j, ctx.locale) : null,
  counts: (r.counts as ObservationDomainCounts | null) ?? null,
  createdAt: r.createdAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? j?.finishedAt?.toISOString() ?? null,
});

async function lastRuns(db: Db | Tx, appId: number, taskIds: number[]) {
  if (!taskIds.length) return [];
  return db
    .selectDistinctOn([observationRuns.taskId], { r: observationRuns, j: jobs })
    .from(observationRuns)
    .leftJoin(jobs, eq(jobs.id, observationRuns.jobId))
    .where(and(eq(observationRuns.appId, appId), inArray(observationRuns.taskId, taskIds)))
    .orderBy(observationRuns.taskId, desc(observationRuns.id));
}

export async function listTasks(ctx: SignedIn): Promise<ObservationTaskList> {
  const tasks = await ctx.db
    .select()
    .from(observationTasks)
    .where(eq(observationTasks.appId, ctx.appId))
    .orderBy(desc(observationTasks.id));
  const runs = await lastRuns(
    ctx.db,
    ctx.appId,
    tasks.map((t) => t.id),
  );
  const byTask = new Map(runs.map((x) => [x.r.taskId, runView(x.r, x.j, ctx)] as const));
  const store = rowsOf<{ domain: string; n: number }>(
    await ctx.db.execute(
      sql`select domain, count(*)::int as n from observations where app_id = ${ctx.appId} group by domain`,
    ),
  );
  return {
    items: tasks.map((t) => taskView(t, byTask.get(t.id) ?? null)),
    store: Object.fromEntries(store.map((s) => [s.domain, Number(s.n)])),
  };
}

const taskView = (
  t: typeof observationTasks.$inferSelect,
  lastRun: ObservationRun | null,
): ObservationTask => ({
  id: t.id,
  name: t.name,
  domains: t.domains as ObservationDomain[],
  hasWatermark: t.watermark !== null,
  createdByName: t.createdByName,
  createdAt: t.createdAt.toISOString(),
  lastRun,
});

const taskRow = appRowOf(observationTasks, 'observation_task');

export async function getTask(ctx: SignedIn, id: number): Promise<ObservationTask> {
  const t = await taskRow(ctx.db, ctx.appId, id);
  const runs = await lastRuns(ctx.db, ctx.appId, [id]);
  const x = runs[0];
  return taskView(t, x ? runView(x.r, x.j, ctx) : null);
}

export async function createTask(
  ctx: SignedIn,
  input: z.output<typeof observationTaskInput>,
): Promise<ObservationTask> {
  const id = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [t] = await tx
      .insert(observationTasks)
      .values({
        appId: ctx.appId,
        name: input.name,
        domains: input.domains,
        createdBy: ctx.userId,
        createdByName: ctx.userName,
      })
      .returning();
    await trail.added(tx, ctx, t!.id, { name: t!.name, domains: t!.domains });
    return t!.id;
  });
  return getTask(ctx, id);
}

/** Renames a task or changes its domains; a new domain is taken in full by the next run (watermark reset). */
export async function updateTask(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof observationTaskInput>,
): Promise<ObservationTask> {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const t = await taskRow(tx, ctx.appId, id);
    const added = input.domains.some((d) => !t.domains.includes(d));
    await updateAppRow(tx, observationTasks, ctx.appId, id, {
      name: input.name,
      domains: input.domains,
      ...(added ? { watermark: null } : {}),
      updatedAt: new Date(),
    });
    await audit(tx, ctx, {
      action: 'observation.task.update',
      entity: 'observation_task',
      entityId: id,
      before: { name: t.name, domains: t.domains },
      after: { name: input.name, domains: input.domains },
    });
  });
  return getTask(ctx, id);
}

/** Refuses (400 on `taskId`, in the words given) while a run of the task is queued or running. */
async function refuseWhileRunning(tx: Tx, id: number, zh: string, en: string) {
  const [busy] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from observation_runs r join jobs j on j.id = r.job_id
      where r.task_id = ${id} and j.status in ('queued', 'running')`),
  );
  if (Number(busy?.n ?? 0) > 0) throw invalidField('taskId', zh, en);
}

/** Deletes a task and its runs; the observations it made stay (other tasks and the dashboard read them). */
export async function deleteTask(ctx: SignedIn, id: number): Promise<null> {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const t = await taskRow(tx, ctx.appId, id);
    await refuseWhileRunning(
      tx,
      id,
      '任务正在运行，结束后才能删除',
      'the task is running; delete it when it ends',
    );
    await deleteAppRow(tx, observationTasks, ctx.appId, id);
    await trail.deleted(tx, ctx, id, { name: t.name, domains: t.domains });
  });
  return null;
}

/** Queues a run: incremental from the watermark, or full (first run, or when asked). One run of a task at a time. */
export async function runTask(
  ctx: SignedIn,
  id: number,
  input: z.output<typeof observationRunInput>,
): Promise<ObservationRun> {
  const runId = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const t = await taskRow(tx, ctx.appId, id);
    await tx.execute(sql`select id from observation_tasks where id = ${id} for update`);
    await refuseWhileRunning(
      tx,
      id,
      '该任务已有一次运行在排队或进行中',
      'a run of this task is already queued or running',
    );
    const mode = input.full || t.watermark === null ? 'full' : 'incremental';
    const [run] = await tx
      .insert(observationRuns)
      .values({ appId: ctx.appId, taskId: id, mode, createdBy: ctx.userId })
      .returning();
    await queueJobFor(
      tx,
      ctx,
      {
        kind: TRANSFORM_KIND,
        params: { runId: run!.id, taskId: id },
        link: { table: observationRuns, id: run!.id },
      },
      {
        action: 'observation.task.run',
        entity: 'observation_task',
        entityId: id,
        after: { runId: run!.id, mode },
      },
    );
    return run!.id;
  });
  const [x] = await ctx.db
    .select({ r: observationRuns, j: jobs })
    .from(observationRuns)
    .leftJoin(jobs, eq(jobs.id, observationRuns.jobId))
    .where(eq(observationRuns.id, runId));
  return runView(x!.r, x!.j, ctx);
}

export async function listRuns(ctx: SignedIn, id: number): Promise<ObservationRunList> {
  await taskRow(ctx.db, ctx.appId, id);
  const rows = await ctx.db
    .select({ r: observationRuns, j: jobs })
    .from(observationRuns)
    .leftJoin(jobs, eq(jobs.id, observationRuns.jobId))
    .where(and(eq(observationRuns.taskId, id), eq(observationRuns.appId, ctx.appId)))
    .orderBy(desc(observationRuns.id))
    .limit(50);
  return { items: rows.map((x) => runView(x.r, x.j, ctx)) };
}

export const ownedTaskIds = ownedKeys(observationTasks, { taskId: observationTasks.id }, { limit: 3 });
