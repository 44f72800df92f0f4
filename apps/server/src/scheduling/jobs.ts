import {
  JOB_KINDS,
  type JobCancelled,
  type JobDetail,
  type JobKindOption,
  type JobList,
  type JobListItem,
  type JobRetried,
  type JobStatus,
  type jobListQuery,
  type Locale,
  label,
} from '@crdp/core';
import { and, desc, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { pageOfTable } from '../db/paging.js';
import { jobKindSettings, jobRetries, jobs, scheduleRuns, schedules, users } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { AppError, bilingual, notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { enqueueJob, findJob, type JobQueue, type JobRow } from '../jobs/runner.js';

/** A job kind in words (the labelling layer of @crdp/core; never the bare code). */
export const kindLabel = (kind: string, locale: Locale) => label('jobKind', kind, locale);

/** Words for the numbers jobs report (push, fill, export, import, QC, OMOP); other keys show as named. */
const RESULT_TERMS: Record<string, Record<Locale, string>> = {
  matched: { 'zh-CN': '匹配', 'en-US': 'matched' },
  added: { 'zh-CN': '新增', 'en-US': 'added' },
  alreadyIn: { 'zh-CN': '已在库', 'en-US': 'already in' },
  patients: { 'zh-CN': '患者', 'en-US': 'patients' },
  items: { 'zh-CN': '指标', 'en-US': 'items' },
  rows: { 'zh-CN': '行数', 'en-US': 'rows' },
  fileName: { 'zh-CN': '文件', 'en-US': 'file' },
  format: { 'zh-CN': '格式', 'en-US': 'format' },
  status: { 'zh-CN': '状态', 'en-US': 'status' },
  total: { 'zh-CN': '合计', 'en-US': 'total' },
  succeeded: { 'zh-CN': '成功', 'en-US': 'succeeded' },
  failed: { 'zh-CN': '失败', 'en-US': 'failed' },
  rules: { 'zh-CN': '规则', 'en-US': 'rules' },
  skipped: { 'zh-CN': '跳过', 'en-US': 'skipped' },
  checked: { 'zh-CN': '检查行数', 'en-US': 'rows checked' },
  faults: { 'zh-CN': '问题', 'en-US': 'faults' },
  bytes: { 'zh-CN': '字节', 'en-US': 'bytes' },
};

/** A one-line summary of a job's result in the reader's language; ids and nested objects are left out. */
export function resultSummary(result: unknown, locale: Locale = 'zh-CN'): string | null {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return null;
  const parts = Object.entries(result as Record<string, unknown>)
    .filter(
      ([k, v]) => k !== 'failure' && !/Id$/.test(k) && ['number', 'string', 'boolean'].includes(typeof v),
    )
    .slice(0, 5)
    .map(([k, v]) => `${RESULT_TERMS[k]?.[locale] ?? k} ${String(v).slice(0, 60)}`);
  return parts.length ? parts.join(' · ') : null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Jobs as the job list shows them: who started them, which schedule, retry links. */
async function views(db: Tx, appId: number, rows: JobRow[], locale: Locale): Promise<JobListItem[]> {
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.map((r) => r.createdBy).filter((x): x is number => x !== null))];
  const [userRows, runRows, retryRows] = ids.length
    ? await Promise.all([
        userIds.length
          ? db
              .select({ id: users.userId, name: users.userName })
              .from(users)
              .where(inArray(users.userId, userIds))
          : Promise.resolve([]),
        db
          .select({
            jobId: scheduleRuns.jobId,
            trigger: scheduleRuns.trigger,
            id: schedules.id,
            name: schedules.name,
          })
          .from(scheduleRuns)
          .innerJoin(schedules, eq(schedules.id, scheduleRuns.scheduleId))
          .where(and(eq(scheduleRuns.appId, appId), inArray(scheduleRuns.jobId, ids))),
        db
          .select({ jobId: jobRetries.jobId, retryJobId: jobRetries.retryJobId })
          .from(jobRetries)
          .where(and(eq(jobRetries.appId, appId), inArray(jobRetries.jobId, ids)))
          .union(
            db
              .select({ jobId: jobRetries.jobId, retryJobId: jobRetries.retryJobId })
              .from(jobRetries)
              .where(and(eq(jobRetries.appId, appId), inArray(jobRetries.retryJobId, ids))),
          ),
      ])
    : [[], [], []];
  return rows.map((j) => {
    const run = runRows.find((r) => r.jobId === j.id);
    return {
      id: j.id,
      kind: j.kind,
      kindLabel: kindLabel(j.kind, locale),
      status: j.status as JobStatus,
      progress: j.progress,
      attempts: j.attempts,
      createdBy: userRows.find((u) => u.id === j.createdBy)?.name ?? null,
      schedule: run ? { id: run.id, name: run.name, trigger: run.trigger as 'schedule' | 'manual' } : null,
      createdAt: j.createdAt.toISOString(),
      startedAt: iso(j.startedAt),
      finishedAt: iso(j.finishedAt),
      durationMs: j.startedAt && j.finishedAt ? j.finishedAt.getTime() - j.startedAt.getTime() : null,
      error: jobFailureText(j, locale),
      summary: j.status === 'succeeded' ? resultSummary(j.result, locale) : null,
      retryOf: retryRows.find((r) => r.retryJobId === j.id)?.jobId ?? null,
      retriedAs: retryRows.filter((r) => r.jobId === j.id).map((r) => r.retryJobId),
    };
  });
}

export async function listJobs(
  db: Db,
  appId: number,
  q: z.infer<typeof jobListQuery>,
  locale: Locale,
): Promise<JobList> {
  const conds: SQL[] = [eq(jobs.appId, appId)];
  if (q.kind) conds.push(eq(jobs.kind, q.kind));
  if (q.status) conds.push(eq(jobs.status, q.status));
  if (q.from) conds.push(gte(jobs.createdAt, new Date(q.from)));
  if (q.to) conds.push(lte(jobs.createdAt, new Date(q.to)));
  const where = and(...conds);
  const { total, rows } = await pageOfTable(db, jobs, where, [desc(jobs.id)], q);
  return { list: await views(db, appId, rows, locale), total };
}

/** The kinds of job this app has, with their words and the app's concurrency limit if any, for the list's filter. */
export async function jobKinds(db: Db, appId: number, locale: Locale): Promise<JobKindOption[]> {
  const rows = await db.selectDistinct({ kind: jobs.kind }).from(jobs).where(eq(jobs.appId, appId));
  const kinds = new Set([...JOB_KINDS, ...rows.map((r) => r.kind)]);
  const limits = new Map(
    (
      await db
        .select({ kind: jobKindSettings.kind, max: jobKindSettings.maxRunning })
        .from(jobKindSettings)
        .where(eq(jobKindSettings.appId, appId))
    ).map((l) => [l.kind, l.max]),
  );
  return [...kinds].sort().map((kind) => {
    const max = limits.get(kind);
    return { kind, label: kindLabel(kind, locale), ...(max ? { maxRunning: max } : {}) };
  });
}

async function jobOf(db: Tx, appId: number, id: number) {
  const j = await findJob(db, appId, id);
  if (!j) throw notFound('job');
  return j;
}

/** One job with its params, result and the process that ran it. */
export async function jobDetail(db: Db, appId: number, id: number, locale: Locale): Promise<JobDetail> {
  const j = await jobOf(db, appId, id);
  const [view] = await views(db, appId, [j], locale);
  return {
    ...view!,
    params: j.params as Record<string, unknown>,
    result: j.result ?? null,
    workerId: j.workerId,
  };
}

export async function ownedJobIds(db: Db, appId: number) {
  const rows = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.appId, appId)).limit(3);
  return rows.map((r) => ({ id: r.id }));
}

/**
 * Queues a failed or cancelled job again: a new job of the same kind and params, started by the
 * caller, linked to the old one; audited.
 */
export async function retryJob(db: Db, actor: SignedIn, id: number): Promise<JobRetried> {
  const appId = actor.appId;
  return db.transaction(async (tx) => {
    const old = await jobOf(tx, appId, id);
    if (old.status !== 'failed' && old.status !== 'cancelled')
      throw new AppError(409, 'request.conflict', {
        detail: bilingual('只能重试失败或已取消的作业', 'only a failed or cancelled job can be retried'),
      });
    const job = await enqueueJob(tx, {
      appId,
      kind: old.kind,
      params: old.params as Record<string, unknown>,
      createdBy: actor.userId,
    });
    await tx.insert(jobRetries).values({ appId, jobId: old.id, retryJobId: job.id, createdBy: actor.userId });
    await audit(tx, actor, {
      action: 'job.retry',
      entity: 'job',
      entityId: old.id,
      before: { status: old.status, error: old.error },
      after: { retryJobId: job.id, kind: job.kind, params: job.params },
    });
    return { jobId: job.id, retryOf: old.id };
  });
}

/** Cancels a job still queued (no process has taken it); a running job cannot be stopped. */
export async function cancelJob(
  db: Db,
  actor: SignedIn,
  queue: Pick<JobQueue, 'cancelledHook'>,
  id: number,
): Promise<JobCancelled> {
  const appId = actor.appId;
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(jobs)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(and(eq(jobs.id, id), eq(jobs.appId, appId), eq(jobs.status, 'queued')))
      .returning();
    if (!done) {
      const j = await jobOf(tx, appId, id);
      throw new AppError(409, 'request.conflict', {
        detail:
          j.status === 'running'
            ? bilingual(
                '作业正在运行，不能取消；请等待它结束',
                'the job is running and cannot be cancelled; wait for it to finish',
              )
            : bilingual('作业已结束，无需取消', 'the job has already finished; there is nothing to cancel'),
      });
    }
    // The kind's own follow-up (an import marks its record cancelled), in this transaction.
    await queue.cancelledHook(tx, done);
    await audit(tx, actor, {
      action: 'job.cancel',
      entity: 'job',
      entityId: id,
      before: { status: 'queued' },
      after: { status: 'cancelled' },
    });
    return { id, status: 'cancelled' as const };
  });
}
