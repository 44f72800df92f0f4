import {
  type CollectionChange,
  type CollectionMonitoring,
  type CollectionReport,
  type CollectionRun,
  type CollectionRunStatus,
  type CollectionTarget,
  type CollectionTask,
  type CollectionTaskTest,
  type CollectionTemplateSpec,
  type CollectionUnitTest,
  type collectionChangeQuery,
  type collectionReportQuery,
  type collectionRunQuery,
  type collectionTaskCreate,
  type collectionTaskPatch,
  collectionTemplateSpec,
  type collectionUnitTestBody,
  columnsOf,
  type Locale,
} from '@crdp/core';
import { and, asc, count, desc, eq, inArray, max, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import { appRowOf, appRows, ownedIds } from '../db/app-rows.js';
import type { Db, Tx } from '../db/client.js';
import { pageOf, pageOfTable } from '../db/paging.js';
import {
  collectionChanges,
  collectionRejects,
  collectionRuns,
  collectionSources,
  collectionTasks,
  collectionTemplates,
  hl7Messages,
  jobs,
  patients,
} from '../db/schema/index.js';
import { clashAs } from '../db/unique.js';
import type { SignedIn } from '../http/context.js';
import { AppError, type Bilingual, bilingual, invalidField } from '../http/errors.js';
import { queueJobFor } from '../jobs/request.js';
import { maskDiff, maskSourceRow, maskValues } from './identity.js';
import { COLLECTION_JOB_KIND, cdrSourceOf, dryRun } from './run.js';
import { readerFor, type SourceAccess, templateOf, templatesFor } from './sources.js';
import { jsonSafe } from './writer.js';

type TaskRow = typeof collectionTasks.$inferSelect;
type RunRow = typeof collectionRuns.$inferSelect;

const nameTaken = () =>
  invalidField('body.name', '已有同名的采集任务', 'a collection task of that name already exists');
const text = (b: unknown, locale: Locale) =>
  b && typeof b === 'object' ? ((b as Bilingual)[locale] ?? '') : '';

export function runView(
  r: RunRow,
  taskName: string,
  names: Map<number, { name: string; target: string }>,
  locale: Locale,
  job?: { progress: number },
): CollectionRun {
  const per = (r.templates ?? {}) as Record<
    string,
    { read: number; inserted: number; updated: number; rejected: number; watermark: string | null }
  >;
  return {
    id: r.id,
    taskId: r.taskId,
    taskName,
    jobId: r.jobId,
    status: r.status as CollectionRunStatus,
    trigger: r.trigger as CollectionRun['trigger'],
    progress: r.status === 'succeeded' ? 100 : (job?.progress ?? 0),
    rowsRead: r.rowsRead,
    rowsInserted: r.rowsInserted,
    rowsUpdated: r.rowsUpdated,
    rowsUnchanged: r.rowsUnchanged,
    rowsRejected: r.rowsRejected,
    templates: Object.entries(per).map(([id, s]) => ({
      templateId: Number(id),
      name: names.get(Number(id))?.name ?? '',
      target: (names.get(Number(id))?.target ?? 'patients') as CollectionTarget,
      read: s.read,
      inserted: s.inserted,
      updated: s.updated,
      rejected: s.rejected,
      watermark: s.watermark,
    })),
    error: text(r.error, locale),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

async function templateNames(db: Tx, appId: number) {
  const rows = await db
    .select({
      id: collectionTemplates.id,
      name: collectionTemplates.name,
      target: collectionTemplates.target,
    })
    .from(collectionTemplates)
    .where(eq(collectionTemplates.appId, appId));
  return new Map(rows.map((r) => [r.id, { name: r.name, target: r.target }]));
}

async function progressOf(db: Tx, jobIds: number[]) {
  if (!jobIds.length) return new Map<number, { progress: number }>();
  const rows = await db
    .select({ id: jobs.id, progress: jobs.progress })
    .from(jobs)
    .where(inArray(jobs.id, jobIds));
  return new Map(rows.map((r) => [r.id, { progress: r.progress }]));
}

/** Runs as the API shows them, with their task names and live progress. */
async function runViews(db: Tx, appId: number, rows: RunRow[], locale: Locale) {
  const names = await templateNames(db, appId);
  const tasks = await db
    .select({ id: collectionTasks.id, name: collectionTasks.name })
    .from(collectionTasks)
    .where(eq(collectionTasks.appId, appId));
  const taskName = new Map(tasks.map((t) => [t.id, t.name]));
  const prog = await progressOf(
    db,
    rows.flatMap((r) => (r.jobId ? [r.jobId] : [])),
  );
  return rows.map((r) =>
    runView(r, taskName.get(r.taskId) ?? '', names, locale, r.jobId ? prog.get(r.jobId) : undefined),
  );
}

function taskView(
  t: TaskRow,
  names: Map<number, { name: string; target: string }>,
  lastRun: CollectionRun | null,
): CollectionTask {
  const ids = t.templateIds as number[];
  const w = (t.watermarks ?? {}) as Record<string, { watermark: string | null; key: string }>;
  return {
    id: t.id,
    name: t.name,
    templateIds: ids,
    templates: ids.map((id) => ({
      id,
      name: names.get(id)?.name ?? '',
      target: (names.get(id)?.target ?? 'patients') as CollectionTarget,
    })),
    batchSize: t.batchSize,
    enabled: t.enabled,
    watermarks: Object.fromEntries(
      ids.map((id) => [String(id), w[String(id)] ? (w[String(id)]!.watermark ?? w[String(id)]!.key) : null]),
    ),
    lastRun,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export async function listTasks(db: Db, appId: number, locale: Locale) {
  const rows = await appRows(db, collectionTasks, appId, asc(collectionTasks.id));
  const names = await templateNames(db, appId);
  const lastIds = rows.length
    ? await db
        .select({ taskId: collectionRuns.taskId, id: max(collectionRuns.id) })
        .from(collectionRuns)
        .where(eq(collectionRuns.appId, appId))
        .groupBy(collectionRuns.taskId)
    : [];
  const runRows = lastIds.length
    ? await db
        .select()
        .from(collectionRuns)
        .where(
          inArray(
            collectionRuns.id,
            lastIds.map((l) => Number(l.id)),
          ),
        )
    : [];
  const views = new Map((await runViews(db, appId, runRows, locale)).map((v) => [v.taskId, v]));
  return { items: rows.map((t) => taskView(t, names, views.get(t.id) ?? null)) };
}

export const taskOf = appRowOf(collectionTasks, 'collection_task');

export const tasksOf = ownedIds(collectionTasks);
export const runsOf = ownedIds(collectionRuns, { limit: 1000 });
const trail = auditTrail('collection_task', 'collection.task');

async function oneTaskView(db: Tx, appId: number, row: TaskRow) {
  return taskView(row, await templateNames(db, appId), null);
}

export async function addTask(ctx: SignedIn, input: z.output<typeof collectionTaskCreate>) {
  return ctx.db.transaction(async (tx) => {
    const ts = await templatesFor(tx, ctx.appId, input.templateIds);
    const hl7 = ts.find((t) => t.source.kind === 'hl7');
    if (hl7)
      throw invalidField(
        'body.templateIds',
        `模板 ${hl7.t.name} 属于 HL7 数据源`,
        `template ${hl7.t.name} belongs to an HL7 source`,
      );
    const [row] = await tx
      .insert(collectionTasks)
      .values({ appId: ctx.appId, ...input, createdBy: ctx.userId })
      .returning()
      .catch(clashAs(() => nameTaken()));
    const after = await oneTaskView(tx, ctx.appId, row!);
    return trail.added(tx, ctx, after.id, after);
  });
}

export async function editTask(ctx: SignedIn, id: number, input: z.output<typeof collectionTaskPatch>) {
  return ctx.db.transaction(async (tx) => {
    const before = await taskOf(tx, ctx.appId, id);
    if (input.templateIds) await templatesFor(tx, ctx.appId, input.templateIds);
    const [row] = await tx
      .update(collectionTasks)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(collectionTasks.id, id))
      .returning()
      .catch(clashAs(() => nameTaken()));
    const after = await oneTaskView(tx, ctx.appId, row!);
    return trail.edited(tx, ctx, id, await oneTaskView(tx, ctx.appId, before), after);
  });
}

export async function deleteTask(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const before = await taskOf(tx, ctx.appId, id);
    await refuseWhileRunning(tx, id);
    await tx.delete(collectionTasks).where(eq(collectionTasks.id, id));
    await trail.deleted(tx, ctx, id, await oneTaskView(tx, ctx.appId, before));
    return true as const;
  });
}

async function refuseWhileRunning(tx: Tx, taskId: number) {
  const [busy] = await tx
    .select({ id: collectionRuns.id })
    .from(collectionRuns)
    .where(and(eq(collectionRuns.taskId, taskId), inArray(collectionRuns.status, ['queued', 'running'])))
    .limit(1);
  if (busy)
    throw new AppError(409, 'request.conflict', {
      detail: bilingual(
        '该采集任务正在运行，请等它完成或先取消',
        'this collection task is running; wait for it or cancel it first',
      ),
    });
}

/** Queues a run; one at a time per task. */
export async function runTask(ctx: SignedIn, id: number) {
  return ctx.db.transaction(async (tx) => {
    const task = await taskOf(tx, ctx.appId, id);
    // Two clicks at once: the task row's lock makes the second wait and then see the first run.
    await tx
      .select({ id: collectionTasks.id })
      .from(collectionTasks)
      .where(eq(collectionTasks.id, id))
      .for('update');
    await refuseWhileRunning(tx, id);
    if (!task.enabled)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual('该采集任务已停用，请先启用', 'this collection task is disabled; enable it first'),
      });
    const [run] = await tx
      .insert(collectionRuns)
      .values({ appId: ctx.appId, taskId: id, trigger: 'manual', createdBy: ctx.userId })
      .returning({ id: collectionRuns.id });
    const job = await queueJobFor(
      tx,
      ctx,
      {
        kind: COLLECTION_JOB_KIND,
        params: { taskId: id, runId: run!.id },
        link: { table: collectionRuns, id: run!.id },
      },
      { action: 'collection.task.run', entity: 'collection_task', entityId: id, after: { runId: run!.id } },
    );
    return { runId: run!.id, jobId: job.id };
  });
}

/** Cancels a run: a queued one never starts; a running one stops after the batch in hand (kept). */
export async function cancelRun(ctx: SignedIn, id: number, locale: Locale) {
  return ctx.db.transaction(async (tx) => {
    const run = await runRowOf(tx, ctx.appId, id);
    if (run.status !== 'queued' && run.status !== 'running')
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          '该运行已结束，无需取消',
          'this run has already finished; there is nothing to cancel',
        ),
      });
    const [row] = await tx
      .update(collectionRuns)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(eq(collectionRuns.id, id))
      .returning();
    if (run.jobId && run.status === 'queued')
      await tx
        .update(jobs)
        .set({ status: 'cancelled', finishedAt: new Date() })
        .where(and(eq(jobs.id, run.jobId), eq(jobs.status, 'queued')));
    await audit(tx, ctx, {
      action: 'collection.task.run',
      entity: 'collection_run',
      entityId: id,
      before: { status: run.status },
      after: { status: 'cancelled' },
    });
    return (await runViews(tx, ctx.appId, [row!], locale))[0]!;
  });
}

const runRowOf = appRowOf(collectionRuns, 'collection_run');

export async function runOf(db: Db, appId: number, id: number, locale: Locale) {
  return (await runViews(db, appId, [await runRowOf(db, appId, id)], locale))[0]!;
}

export async function listRuns(
  db: Db,
  appId: number,
  q: z.output<typeof collectionRunQuery>,
  locale: Locale,
) {
  const where = and(
    eq(collectionRuns.appId, appId),
    q.taskId ? eq(collectionRuns.taskId, q.taskId) : undefined,
    q.status ? eq(collectionRuns.status, q.status) : undefined,
  );
  const { total, rows } = await pageOfTable(db, collectionRuns, where, [desc(collectionRuns.id)], q);
  return { total, items: await runViews(db, appId, rows, locale) };
}

export async function runRejects(
  db: Db,
  appId: number,
  runId: number,
  q: { page: number; size: number },
  locale: Locale,
  full: boolean,
) {
  await runRowOf(db, appId, runId);
  const where = and(eq(collectionRejects.runId, runId), eq(collectionRejects.appId, appId));
  const names = await templateNames(db, appId);
  const specs = new Map(
    (
      await db
        .select({ id: collectionTemplates.id, spec: collectionTemplates.spec })
        .from(collectionTemplates)
        .where(eq(collectionTemplates.appId, appId))
    ).map((t) => [t.id, collectionTemplateSpec.parse(t.spec)]),
  );
  const { total, rows } = await pageOfTable(db, collectionRejects, where, [asc(collectionRejects.id)], q);
  return {
    total,
    items: rows.map((r) => ({
      key: r.sourceKey,
      field: r.field,
      message: text(r.reason, locale),
      row: maskSourceRow(r.row as Record<string, unknown>, specs.get(r.templateId), full),
      templateId: r.templateId,
      templateName: names.get(r.templateId)?.name ?? '',
      at: r.createdAt.toISOString(),
    })),
  };
}

// ------------------------------------------------------------------ tests without writing

const rejectView = (
  r: { key: string; field: string; reason: Bilingual; row: Record<string, unknown> },
  locale: Locale,
  spec: CollectionTemplateSpec,
  full: boolean,
) => ({
  key: r.key,
  field: r.field,
  message: r.reason[locale],
  row: maskSourceRow(r.row, spec, full),
});

/** The first rows of a template's source table (选择测试 picks from them). */
export async function sampleRows(
  db: Db,
  access: SourceAccess,
  appId: number,
  id: number,
  limit: number,
  full: boolean,
) {
  const { t, source } = await templateOf(db, appId, id);
  const spec = collectionTemplateSpec.parse(t.spec);
  const reader = await readerFor(access, source);
  try {
    const columns = columnsOf(spec);
    const rows = await reader.read(
      spec.table,
      columns,
      { watermark: '', key: spec.keyColumn },
      undefined,
      limit,
    );
    return {
      columns,
      rows: rows.map((r) => maskSourceRow(jsonSafe(r), spec, full)),
      keys: rows.map((r) => String(r[spec.keyColumn] ?? '')),
    };
  } finally {
    await reader.close();
  }
}

/** 单元测试: a template (or an edited mapping) over some rows, without writing. */
export async function unitTest(
  db: Db,
  access: SourceAccess,
  appId: number,
  id: number,
  body: z.output<typeof collectionUnitTestBody>,
  locale: Locale,
  full: boolean,
): Promise<CollectionUnitTest> {
  const { t, source } = await templateOf(db, appId, id);
  const spec = body.spec ?? collectionTemplateSpec.parse(t.spec);
  const reader = await readerFor(access, source);
  try {
    const columns = columnsOf(spec);
    const raw = body.keys?.length
      ? await reader.byKeys(spec.table, columns, spec.keyColumn, body.keys)
      : await reader.read(spec.table, columns, { watermark: '', key: spec.keyColumn }, undefined, body.limit);
    const r = await dryRun(db, appId, spec, t.target as CollectionTarget, raw);
    return {
      read: raw.length,
      mapped: r.mapped.map((m) => ({ key: m.key, values: maskValues(m.values, full) })),
      rejected: r.rejected.map((x) => rejectView(x, locale, spec, full)),
    };
  } finally {
    await reader.close();
  }
}

/** 任务测试: every template of a task over the rows after its watermark (at most `limit` each), without writing. */
export async function taskTest(
  db: Db,
  access: SourceAccess,
  appId: number,
  id: number,
  limit: number,
  locale: Locale,
  full: boolean,
): Promise<CollectionTaskTest> {
  const task = await taskOf(db, appId, id);
  const ts = await templatesFor(db, appId, task.templateIds as number[], 'templateIds');
  const w = (task.watermarks ?? {}) as Record<string, { watermark: string | null; key: string }>;
  const out: CollectionTaskTest['templates'] = [];
  for (const { t, source } of ts) {
    const spec = collectionTemplateSpec.parse(t.spec);
    const reader = await readerFor(access, source);
    try {
      const ks = { watermark: spec.watermarkColumn, key: spec.keyColumn };
      const after = spec.watermarkColumn ? w[String(t.id)] : undefined;
      const raw = await reader.read(spec.table, columnsOf(spec), ks, after, limit);
      const r = await dryRun(db, appId, spec, t.target as CollectionTarget, raw);
      out.push({
        templateId: t.id,
        name: t.name,
        target: t.target as CollectionTarget,
        read: raw.length,
        mapped: r.mapped.length,
        rejected: r.rejected.slice(0, 100).map((x) => rejectView(x, locale, spec, full)),
        pending: await reader.count(spec.table, ks, after),
      });
    } finally {
      await reader.close();
    }
  }
  return { templates: out };
}

// ------------------------------------------------------------------ changes, monitoring, report

export async function listChanges(
  db: Db,
  appId: number,
  q: z.output<typeof collectionChangeQuery>,
  full: boolean,
) {
  const where = and(
    eq(collectionChanges.appId, appId),
    q.table ? eq(collectionChanges.table, q.table) : undefined,
    q.patientId ? eq(collectionChanges.patientId, q.patientId) : undefined,
    q.runId ? eq(collectionChanges.runId, q.runId) : undefined,
    q.sourceId ? eq(collectionChanges.sourceId, q.sourceId) : undefined,
    q.op ? eq(collectionChanges.op, q.op) : undefined,
  );
  const { total, rows } = await pageOf(db, collectionChanges, where, q, ({ limit, offset }) =>
    db
      .select({ c: collectionChanges, patientName: patients.name, sourceName: collectionSources.name })
      .from(collectionChanges)
      .leftJoin(patients, eq(patients.id, collectionChanges.patientId))
      .leftJoin(collectionSources, eq(collectionSources.id, collectionChanges.sourceId))
      .where(where)
      .orderBy(desc(collectionChanges.id))
      .limit(limit)
      .offset(offset),
  );
  return {
    total,
    items: rows.map(
      (r): CollectionChange => ({
        id: r.c.id,
        runId: r.c.runId,
        messageId: r.c.messageId,
        sourceId: r.c.sourceId,
        sourceName: r.sourceName ?? '',
        table: r.c.table as CollectionTarget,
        recordId: r.c.recordId,
        patientId: r.c.patientId,
        patientName: r.patientName ?? '',
        op: r.c.op as CollectionChange['op'],
        diff: Object.entries((r.c.diff ?? {}) as Record<string, [unknown, unknown]>).map(
          ([field, [before, after]]) => ({
            field,
            before: maskDiff(field, before, full),
            after: maskDiff(field, after, full),
          }),
        ),
        at: r.c.createdAt.toISOString(),
      }),
    ),
  };
}

const BEIJING_DAY = (col: SQL | unknown) =>
  sql<string>`to_char(${col} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;

export async function monitoring(db: Db, appId: number, locale: Locale): Promise<CollectionMonitoring> {
  const sources = await appRows(db, collectionSources, appId, asc(collectionSources.id));
  const templates = await db
    .select({ id: collectionTemplates.id, sourceId: collectionTemplates.sourceId })
    .from(collectionTemplates)
    .where(eq(collectionTemplates.appId, appId));
  const runs = await db
    .select()
    .from(collectionRuns)
    .where(eq(collectionRuns.appId, appId))
    .orderBy(desc(collectionRuns.id))
    .limit(2000);
  const tasks = await appRows(db, collectionTasks, appId, asc(collectionTasks.id));
  const views = await runViews(db, appId, runs, locale);
  const sourceOfTemplate = new Map(templates.map((t) => [t.id, t.sourceId]));
  // The newest CDR row collected per source: how far the CDR lags behind it.
  const newest = await db.execute(sql`
    select source, max(updated_at) as at from patients where app_id = ${appId} and source like 'collect:%' group by source`);
  const newestAt = new Map(
    ((newest as unknown as { rows: Array<{ source: string; at: string | Date }> }).rows ?? []).map((r) => [
      r.source,
      new Date(r.at),
    ]),
  );
  const lastRunBySource = new Map<number, CollectionRun>();
  const per = new Map<
    number,
    { read: number; written: number; rejected: number; failed: number; lastWrite?: Date }
  >();
  for (const v of views) {
    for (const t of v.templates) {
      const sid = sourceOfTemplate.get(t.templateId);
      if (sid === undefined) continue;
      const p = per.get(sid) ?? { read: 0, written: 0, rejected: 0, failed: 0 };
      p.read += t.read;
      p.written += t.inserted + t.updated;
      p.rejected += t.rejected;
      if (
        v.finishedAt &&
        t.inserted + t.updated > 0 &&
        (!p.lastWrite || p.lastWrite < new Date(v.finishedAt))
      )
        p.lastWrite = new Date(v.finishedAt);
      per.set(sid, p);
      if (!lastRunBySource.has(sid)) lastRunBySource.set(sid, v);
    }
    if (v.status === 'failed')
      for (const tid of (tasks.find((t) => t.id === v.taskId)?.templateIds as number[] | undefined) ?? []) {
        const sid = sourceOfTemplate.get(tid);
        if (sid === undefined) continue;
        const p = per.get(sid) ?? { read: 0, written: 0, rejected: 0, failed: 0 };
        p.failed += 1;
        per.set(sid, p);
        if (!lastRunBySource.has(sid)) lastRunBySource.set(sid, v);
      }
  }
  const msgs = await db
    .select({ sourceId: hl7Messages.sourceId, status: hl7Messages.status, n: count() })
    .from(hl7Messages)
    .where(eq(hl7Messages.appId, appId))
    .groupBy(hl7Messages.sourceId, hl7Messages.status);
  const trendRows = await db.execute(sql`
    select ${BEIJING_DAY(sql`coalesce(finished_at, created_at)`)} as day,
           sum(rows_inserted + rows_updated)::int as written, sum(rows_rejected)::int as rejected, count(*)::int as runs
      from ${collectionRuns}
     where app_id = ${appId} and created_at > now() - interval '30 days'
     group by 1 order by 1`);
  const now = Date.now();
  return {
    sources: sources.map((s) => {
      const p = per.get(s.id) ?? { read: 0, written: 0, rejected: 0, failed: 0 };
      const last = lastRunBySource.get(s.id);
      const m = (st: string) => Number(msgs.find((x) => x.sourceId === s.id && x.status === st)?.n ?? 0);
      const newestRow = newestAt.get(cdrSourceOf(s.id)) ?? p.lastWrite;
      return {
        id: s.id,
        name: s.name,
        kind: s.kind as CollectionMonitoring['sources'][number]['kind'],
        enabled: s.enabled,
        lastRunAt: last ? (last.finishedAt ?? last.startedAt ?? last.createdAt) : null,
        lastStatus: last?.status ?? null,
        rowsRead: p.read,
        rowsWritten: p.written,
        rowsRejected: p.rejected,
        failedRuns: p.failed,
        lagHours: newestRow ? Math.round(((now - newestRow.getTime()) / 3_600_000) * 10) / 10 : null,
        messages: { stored: m('stored'), processed: m('processed'), rejected: m('rejected') },
      };
    }),
    tasks: tasks.map((t) => {
      const mine = views.filter((v) => v.taskId === t.id);
      return {
        id: t.id,
        name: t.name,
        lastRun: mine[0] ?? null,
        runs: mine.length,
        failedRuns: mine.filter((v) => v.status === 'failed').length,
      };
    }),
    trend: (
      (
        trendRows as unknown as {
          rows: Array<{ day: string; written: number; rejected: number; runs: number }>;
        }
      ).rows ?? []
    ).map((r) => ({
      day: String(r.day),
      written: Number(r.written),
      rejected: Number(r.rejected),
      runs: Number(r.runs),
    })),
  };
}

/** Volumes per period, source and CDR table (from the change records, and rejected rows). */
export async function report(
  db: Db,
  appId: number,
  q: z.output<typeof collectionReportQuery>,
): Promise<CollectionReport> {
  const fmt = { day: 'YYYY-MM-DD', week: 'IYYY-"W"IW', month: 'YYYY-MM' }[q.period];
  const period = (col: SQL) => sql.raw(`to_char(`).append(sql`${col} at time zone 'Asia/Shanghai', ${fmt})`);
  const range = (col: SQL) =>
    sql`${q.from ? sql`and ${col} >= (${q.from}::date at time zone 'Asia/Shanghai')` : sql``} ${q.to ? sql`and ${col} < ((${q.to}::date + 1) at time zone 'Asia/Shanghai')` : sql``}`;
  const res = await db.execute(sql`
    with c as (
      select ${period(sql`c.created_at`)} as period, c.source_id, c.table_name as tbl,
             count(*) filter (where c.op = 'insert')::int as inserted, count(*) filter (where c.op = 'update')::int as updated, 0 as rejected
        from ${collectionChanges} c
       where c.app_id = ${appId} and c.source_id is not null ${range(sql`c.created_at`)}
       group by 1, 2, 3
      union all
      select ${period(sql`j.created_at`)}, tt.source_id, tt.target, 0, 0, count(*)::int
        from ${collectionRejects} j join ${collectionTemplates} tt on tt.id = j.template_id
       where j.app_id = ${appId} ${range(sql`j.created_at`)}
       group by 1, 2, 3
      union all
      -- HL7 messages refused: results (ORU) into lab results, admissions (ADT) into patients.
      select ${period(sql`m.created_at`)}, m.source_id,
             case when m.type like 'ORU%' then 'labResults' else 'patients' end, 0, 0, count(*)::int
        from ${hl7Messages} m
       where m.app_id = ${appId} and m.status = 'rejected' ${range(sql`m.created_at`)}
       group by 1, 2, 3
    )
    select c.period, c.source_id, s.name as source_name, c.tbl, sum(inserted)::int as inserted, sum(updated)::int as updated, sum(rejected)::int as rejected
      from c join ${collectionSources} s on s.id = c.source_id
     group by 1, 2, 3, 4 order by 1 desc, 3, 4`);
  const rows = (res as unknown as { rows: Array<Record<string, unknown>> }).rows ?? [];
  return {
    rows: rows.map((r) => ({
      period: String(r.period),
      sourceId: Number(r.source_id),
      sourceName: String(r.source_name),
      table: r.tbl as CollectionTarget,
      inserted: Number(r.inserted),
      updated: Number(r.updated),
      rejected: Number(r.rejected),
    })),
  };
}
