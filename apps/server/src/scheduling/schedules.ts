import type {
  CronPreview,
  JobQueued,
  JobStatus,
  Locale,
  ScheduleDetail,
  ScheduleInput,
  ScheduleList,
  SchedulePatch,
  ScheduleSaved,
  ScheduleSwitched,
  ScheduleTrigger,
  ScheduleView,
  scheduleListQuery,
} from '@crdp/core';
import { and, desc, eq, ilike, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { appRowOf, deleteAppRow, ownedIds, updateAppRow } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { pageOfTable } from '../db/paging.js';
import { jobs, scheduleRuns, schedules, users } from '../db/schema/index.js';
import type { SignedIn } from '../http/context.js';
import { type Bilingual, invalidField, notFound } from '../http/errors.js';
import { nextRun, nextRuns, normalizeCron } from './cron.js';
import type { SchedulableRegistry } from './registry.js';
import { type Clock, queueRun, type ScheduleRow } from './scheduler.js';

/** What the schedule services work with: the database, the schedulable kinds, the clock and the time zone. */
export interface SchedulingEnv {
  db: Db;
  registry: SchedulableRegistry;
  clock: Clock;
  timezone: string;
}

/** A schedule of the app, or 404: another app's ids answer exactly like missing ones. */
export const scheduleOf = appRowOf(schedules, 'schedule');

export const ownedScheduleIds = ownedIds(schedules, { limit: 3 });

/** The kind must be registered and its params valid and this app's; a 400 names the field otherwise. */
export async function checkKindParams(
  db: Tx,
  registry: SchedulableRegistry,
  appId: number,
  k: string,
  p: unknown,
) {
  const kindDef = registry.get(k);
  if (!kindDef)
    throw invalidField(
      'body.kind',
      `不是可调度的作业类型（可选：${registry
        .list()
        .map((x) => x.kind)
        .join('、')}）`,
      `not a schedulable job kind (one of: ${registry
        .list()
        .map((x) => x.kind)
        .join(', ')})`,
    );
  const parsed = kindDef.params.safeParse(p);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = ['body', 'params', ...issue.path.map(String)].join('.');
    throw invalidField(field, `参数无效（${issue.message}）`, `invalid parameter (${issue.message})`);
  }
  await kindDef.check(db, appId, parsed.data);
  return parsed.data;
}

async function nameTaken(db: Tx, appId: number, n: string, except?: number) {
  const rows = await db
    .select({ id: schedules.id })
    .from(schedules)
    .where(and(eq(schedules.appId, appId), eq(schedules.name, n)));
  if (rows.some((r) => r.id !== except))
    throw invalidField('body.name', '已有同名的调度任务', 'a schedule with this name already exists');
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Schedules as the API shows them, with their kind in words, target, last job and creator. */
async function views(
  db: Tx,
  registry: SchedulableRegistry,
  rows: ScheduleRow[],
  locale: Locale,
): Promise<ScheduleView[]> {
  const jobIds = rows.map((r) => r.lastJobId).filter((x): x is number => x !== null);
  const jobRows = jobIds.length
    ? await db.select({ id: jobs.id, status: jobs.status }).from(jobs).where(inArray(jobs.id, jobIds))
    : [];
  const userIds = rows.map((r) => r.createdBy).filter((x): x is number => x !== null);
  const userRows = userIds.length
    ? await db
        .select({ id: users.userId, name: users.userName })
        .from(users)
        .where(inArray(users.userId, userIds))
    : [];
  const out: ScheduleView[] = [];
  for (const s of rows) {
    const kindDef = registry.get(s.kind);
    const p = s.params as Record<string, unknown>;
    const job = jobRows.find((j) => j.id === s.lastJobId);
    out.push({
      id: s.id,
      name: s.name,
      kind: s.kind,
      kindLabel: kindDef?.label[locale] ?? s.kind,
      params: p,
      target: (await kindDef?.describe?.(db, s.appId, p)) ?? null,
      cron: s.cron,
      timezone: s.timezone,
      enabled: s.enabled,
      nextRunAt: iso(s.nextRunAt),
      lastRunAt: iso(s.lastRunAt),
      lastJob: job ? { id: job.id, status: job.status as JobStatus } : null,
      lastError: s.lastError ? ((s.lastError as Bilingual)[locale] ?? null) : null,
      createdBy: userRows.find((u) => u.id === s.createdBy)?.name ?? null,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    });
  }
  return out;
}

export async function listSchedules(
  env: SchedulingEnv,
  appId: number,
  q: z.infer<typeof scheduleListQuery>,
  locale: Locale,
): Promise<ScheduleList> {
  const cond = and(
    eq(schedules.appId, appId),
    q.name ? ilike(schedules.name, `%${q.name.replace(/[%_\\]/g, '\\$&')}%`) : undefined,
    q.kind ? eq(schedules.kind, q.kind) : undefined,
    q.enabled ? eq(schedules.enabled, q.enabled === 'true') : undefined,
  );
  const { total, rows } = await pageOfTable(env.db, schedules, cond, [desc(schedules.id)], q);
  return { list: await views(env.db, env.registry, rows, locale), total };
}

/** One schedule with its last 20 runs (the job each queued and how it went). */
export async function scheduleDetail(
  env: SchedulingEnv,
  appId: number,
  id: number,
  locale: Locale,
): Promise<ScheduleDetail> {
  const s = await scheduleOf(env.db, appId, id);
  const [view] = await views(env.db, env.registry, [s], locale);
  const runs = await env.db
    .select({
      id: scheduleRuns.id,
      jobId: scheduleRuns.jobId,
      trigger: scheduleRuns.trigger,
      dueAt: scheduleRuns.dueAt,
      createdAt: scheduleRuns.createdAt,
      status: jobs.status,
    })
    .from(scheduleRuns)
    .leftJoin(jobs, eq(jobs.id, scheduleRuns.jobId))
    .where(and(eq(scheduleRuns.scheduleId, s.id), eq(scheduleRuns.appId, appId)))
    .orderBy(desc(scheduleRuns.id))
    .limit(20);
  return {
    ...view!,
    runs: runs.map((r) => ({
      id: r.id,
      jobId: r.jobId,
      trigger: r.trigger as ScheduleTrigger,
      dueAt: iso(r.dueAt),
      createdAt: r.createdAt.toISOString(),
      status: (r.status as JobStatus | null) ?? null,
    })),
  };
}

export async function createSchedule(
  env: SchedulingEnv,
  actor: SignedIn,
  input: ScheduleInput,
): Promise<ScheduleSaved> {
  const appId = actor.appId;
  const c = normalizeCron(input.cron, env.timezone);
  return env.db.transaction(async (tx) => {
    await nameTaken(tx, appId, input.name);
    const p = await checkKindParams(tx, env.registry, appId, input.kind, input.params);
    const [row] = await tx
      .insert(schedules)
      .values({
        appId,
        name: input.name,
        kind: input.kind,
        params: p,
        cron: c,
        timezone: env.timezone,
        enabled: input.enabled,
        nextRunAt: input.enabled ? nextRun(c, env.timezone, env.clock()) : null,
        createdBy: actor.userId,
      })
      .returning();
    await audit(tx, actor, { action: 'create', entity: 'schedule', entityId: row!.id, after: row });
    return { id: row!.id, nextRunAt: iso(row!.nextRunAt) };
  });
}

export async function updateSchedule(
  env: SchedulingEnv,
  actor: SignedIn,
  id: number,
  patch: SchedulePatch,
): Promise<ScheduleSaved> {
  const appId = actor.appId;
  return env.db.transaction(async (tx) => {
    const before = await scheduleOf(tx, appId, id);
    const c = patch.cron !== undefined ? normalizeCron(patch.cron, before.timezone) : before.cron;
    if (patch.name !== undefined) await nameTaken(tx, appId, patch.name, id);
    const k = patch.kind ?? before.kind;
    const p =
      patch.kind !== undefined || patch.params !== undefined
        ? await checkKindParams(tx, env.registry, appId, k, patch.params ?? before.params)
        : before.params;
    const after = await updateAppRow(tx, schedules, appId, id, {
      name: patch.name ?? before.name,
      kind: k,
      params: p,
      cron: c,
      // A new expression starts counting from now; an unchanged one keeps its due time.
      nextRunAt:
        before.enabled && c !== before.cron ? nextRun(c, before.timezone, env.clock()) : before.nextRunAt,
      updatedAt: new Date(),
    });
    await audit(tx, actor, { action: 'update', entity: 'schedule', entityId: id, before, after });
    return { id, nextRunAt: iso(after!.nextRunAt) };
  });
}

export async function deleteSchedule(env: SchedulingEnv, actor: SignedIn, id: number) {
  const appId = actor.appId;
  await env.db.transaction(async (tx) => {
    const before = await scheduleOf(tx, appId, id);
    await deleteAppRow(tx, schedules, appId, id);
    await audit(tx, actor, { action: 'delete', entity: 'schedule', entityId: id, before });
  });
}

/** Enables (next run counted from now) or disables (no next run) a schedule. */
export async function setEnabled(
  env: SchedulingEnv,
  actor: SignedIn,
  id: number,
  enabled: boolean,
): Promise<ScheduleSwitched> {
  const appId = actor.appId;
  return env.db.transaction(async (tx) => {
    const before = await scheduleOf(tx, appId, id);
    if (enabled) {
      // Its target may have gone while it was off: enabling checks it again.
      await checkKindParams(tx, env.registry, appId, before.kind, before.params);
    }
    const next = enabled ? nextRun(before.cron, before.timezone, env.clock()) : null;
    if (enabled && !next)
      throw invalidField(
        'body.cron',
        '该 Cron 表达式以后不会再触发',
        'this cron expression never fires again',
      );
    const after = await updateAppRow(tx, schedules, appId, id, {
      enabled,
      nextRunAt: next,
      lastError: enabled ? null : before.lastError,
      updatedAt: new Date(),
    });
    await audit(tx, actor, {
      action: enabled ? 'enable' : 'disable',
      entity: 'schedule',
      entityId: id,
      before: { enabled: before.enabled, nextRunAt: before.nextRunAt },
      after: { enabled: after!.enabled, nextRunAt: after!.nextRunAt },
    });
    return { id, enabled, nextRunAt: iso(next) };
  });
}

/** Queues one run now, whatever the next due time (which does not move); audited. */
export async function runNow(env: SchedulingEnv, actor: SignedIn, id: number): Promise<JobQueued> {
  const appId = actor.appId;
  return env.db.transaction(async (tx) => {
    const [s] = await tx
      .select()
      .from(schedules)
      .where(and(eq(schedules.id, id), eq(schedules.appId, appId)))
      .for('update');
    if (!s) throw notFound('schedule');
    const job = await queueRun(tx, env.registry, s, {
      trigger: 'manual',
      dueAt: null,
      createdBy: actor.userId,
    });
    await tx
      .update(schedules)
      .set({ lastRunAt: env.clock(), lastJobId: job.id, lastError: null })
      .where(eq(schedules.id, s.id));
    await audit(tx, actor, {
      action: 'schedule.run',
      entity: 'schedule',
      entityId: s.id,
      after: { trigger: 'manual', jobId: job.id },
    });
    return { jobId: job.id };
  });
}

/** The next `count` run times of an expression in the server's time zone (the form's preview). */
export function previewCron(env: SchedulingEnv, expr: string, n: number): CronPreview {
  const c = normalizeCron(expr, env.timezone, 'query.cron');
  const from = env.clock();
  return {
    cron: c,
    timezone: env.timezone,
    next: nextRuns(c, env.timezone, n, from, 'query.cron').map((d) => d.toISOString()),
  };
}
