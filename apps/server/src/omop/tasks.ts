import { rm, stat } from 'node:fs/promises';
import type {
  JobStatus,
  Locale,
  OmopTask,
  OmopTaskInput,
  OmopTaskPage,
  OmopTaskPatch,
  omopTaskQuery,
} from '@crdp/core';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { deleteAppRow, ownedKeys, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { pageOf } from '../db/paging.js';
import { jobs, omopTasks, users } from '../db/schema/index.js';
import { invalidField, notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { enqueueJob } from '../jobs/runner.js';
import type { CdmTable } from './cdm.js';
import { EXPORT_KIND, type ExportResult, zipPath } from './export.js';
import type { Actor } from './mappings.js';
import { effectiveRules } from './rules.js';

/**
 * Export tasks (OmopActiveMappingTask): a named task over a job of kind `omop.export`. Starting
 * one takes a snapshot of the enabled rules; the job writes the ZIP; the task shows the job's
 * status (queued, running, succeeded, failed), its counts and its unmapped codes.
 */
type TaskRow = typeof omopTasks.$inferSelect;
type JobRow = typeof jobs.$inferSelect;
const trail = auditTrail('omop_task', 'omop.task');

const view = (t: TaskRow, j: JobRow, locale: Locale): OmopTask => ({
  id: t.id,
  name: t.name,
  note: t.note,
  createdByName: t.createdByName,
  createdAt: t.createdAt.toISOString(),
  jobId: j.id,
  status: j.status as JobStatus,
  progress: j.progress,
  startedAt: j.startedAt?.toISOString() ?? null,
  finishedAt: j.finishedAt?.toISOString() ?? null,
  error: jobFailureText(j, locale),
  tables: ((j.params as { tables?: CdmTable[] }).tables ?? []) as CdmTable[],
  result: j.status === 'succeeded' ? (j.result as ExportResult) : null,
});

async function taskOf(db: Tx, appId: number, id: number) {
  const [row] = await db
    .select({ t: omopTasks, j: jobs })
    .from(omopTasks)
    .innerJoin(jobs, eq(jobs.id, omopTasks.jobId))
    .where(and(eq(omopTasks.id, id), eq(omopTasks.appId, appId)));
  if (!row) throw notFound('omop task');
  return row;
}

export async function loadTask(db: Tx, actor: Actor, id: number): Promise<OmopTask> {
  const { t, j } = await taskOf(db, actor.appId, id);
  return view(t, j, actor.locale);
}

export async function listTasks(
  db: Db,
  actor: Actor,
  q: z.infer<typeof omopTaskQuery>,
): Promise<OmopTaskPage> {
  const where = eq(omopTasks.appId, actor.appId);
  const { total, rows } = await pageOf(db, omopTasks, where, q, ({ limit, offset }) =>
    db
      .select({ t: omopTasks, j: jobs })
      .from(omopTasks)
      .innerJoin(jobs, eq(jobs.id, omopTasks.jobId))
      .where(where)
      .orderBy(desc(omopTasks.id))
      .limit(limit)
      .offset(offset),
  );
  return {
    total,
    page: q.page,
    size: q.size,
    items: rows.map((r) => view(r.t, r.j, actor.locale)),
  };
}

export async function startTask(db: Db, actor: Actor, input: OmopTaskInput): Promise<OmopTask> {
  const zh = actor.locale === 'zh-CN';
  const rules = await effectiveRules(db, actor.appId, zh);
  const tables = [...new Set(rules.filter((r) => r.enabled).map((r) => r.targetTable))];
  if (!tables.length)
    throw invalidField(
      'rules',
      '没有启用的映射规则，请先启用至少一条',
      'no mapping rule is enabled; enable one first',
    );
  let userName = actor.userName;
  if (!userName && actor.userId) {
    const [u] = await db.select({ n: users.userName }).from(users).where(eq(users.userId, actor.userId));
    userName = u?.n ?? '';
  }
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const created = await db.transaction(async (tx) => {
    const job = await enqueueJob(tx, {
      appId: actor.appId,
      kind: EXPORT_KIND,
      params: { tables },
      createdBy: actor.userId,
    });
    const [task] = await tx
      .insert(omopTasks)
      .values({
        appId: actor.appId,
        name: input.name || (zh ? `OMOP 导出 ${stamp}` : `OMOP export ${stamp}`),
        note: input.note ?? '',
        jobId: job.id,
        createdBy: actor.userId,
        createdByName: userName,
      })
      .returning();
    await tx
      .update(jobs)
      .set({ params: { tables, taskId: task!.id } })
      .where(eq(jobs.id, job.id));
    await audit(tx, actor, {
      action: 'omop.task.start',
      entity: 'omop_task',
      entityId: task!.id,
      after: { name: task!.name, jobId: job.id, tables },
    });
    return task!;
  });
  return loadTask(db, actor, created.id);
}

export async function updateTask(db: Db, actor: Actor, id: number, p: OmopTaskPatch): Promise<OmopTask> {
  await db.transaction(async (tx) => {
    const { t } = await taskOf(tx, actor.appId, id);
    await updateAppRow(tx, omopTasks, actor.appId, id, { name: p.name, note: p.note ?? '' });
    await audit(tx, actor, {
      action: 'omop.task.update',
      entity: 'omop_task',
      entityId: id,
      before: { name: t.name, note: t.note },
      after: { name: p.name, note: p.note ?? '' },
    });
  });
  return loadTask(db, actor, id);
}

/** Deletes a finished task with its job and its file; a task still queued or running is refused. */
export async function deleteTask(db: Db, actor: Actor, id: number, dataDir: string): Promise<null> {
  const jobId = await db.transaction(async (tx) => {
    const { t, j } = await taskOf(tx, actor.appId, id);
    if (j.status === 'queued' || j.status === 'running')
      throw invalidField(
        'taskId',
        '任务还在运行，结束后才能删除',
        'the task is still running; delete it when it ends',
      );
    await deleteAppRow(tx, omopTasks, actor.appId, id);
    await deleteAppRow(tx, jobs, actor.appId, j.id);
    await trail.deleted(tx, actor, id, { name: t.name, jobId: j.id, status: j.status });
    return j.id;
  });
  await rm(zipPath(dataDir, actor.appId, jobId), { force: true });
  return null;
}

/** The ZIP of a succeeded task of the app. */
export async function taskFile(db: Tx, actor: Actor, id: number, dataDir: string) {
  const { j } = await taskOf(db, actor.appId, id);
  if (j.status !== 'succeeded')
    throw invalidField(
      'taskId',
      `任务状态为 ${j.status}，成功后才能下载`,
      `the task is ${j.status}; it can be downloaded once it succeeded`,
    );
  const r = j.result as ExportResult;
  const file = zipPath(dataDir, actor.appId, j.id);
  if (!(await stat(file).catch(() => null))) throw notFound('omop file');
  return { file, fileName: r.fileName };
}

export const ownedTaskIds = ownedKeys(
  omopTasks,
  { taskId: omopTasks.id },
  { limit: 3, orderBy: desc(omopTasks.id) },
);
