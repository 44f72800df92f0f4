import {
  CODING_SCREENS,
  type CodingCandidate,
  type CodingItem,
  type CodingItemStatus,
  type CodingKind,
  type CodingReviewState,
  type CodingTask,
  type codingDecision,
  type codingTaskCreate,
  type JobStatus,
  type Locale,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit, auditTrail } from '../audit/audit.js';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import { codingItems, codingTasks } from '../db/schema/index.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { invalidField, notFound } from '../http/errors.js';
import { jobFailureText } from '../jobs/failure.js';
import { enqueueJob, type JobContext } from '../jobs/runner.js';
import { ensureTerminologies } from '../terminology/seed.js';
import { CODING_SOURCES } from './kinds.js';
import { removeMapping, type StoredCode, storeMapping } from './mappings.js';
import { loadVocabulary, suggestBatch } from './suggest.js';

/**
 * Coding tasks (疾病/手术/检验/药品编码任务): one generic implementation parameterised by kind.
 * A task is a row and a background job (`coding.suggest`) that collects the distinct local terms
 * of its kind from the CDR with their row counts and stores the proposed candidates of each.
 * Coders then decide term by term (or in bulk above a score); each decision writes the app's
 * mapping for that term, which the CDR reads at once (migration 0033's cdr_coded_* views).
 */
export const CODING_JOB_KIND = 'coding.suggest';

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
/** Terms suggested per statement batch (one pg_trgm statement each). */
const BATCH = 50;
const taskTrail = auditTrail('coding_task', 'coding.task');

export async function createTask(
  ctx: SignedIn,
  kind: CodingKind,
  input: z.output<typeof codingTaskCreate>,
): Promise<CodingTask> {
  await ensureTerminologies(ctx.db);
  const id = await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [task] = await tx
      .insert(codingTasks)
      .values({
        appId: ctx.appId,
        kind,
        systemKey: CODING_SCREENS[kind].systemKey,
        name: input.name,
        onlyUnmapped: input.onlyUnmapped,
        createdBy: ctx.userId,
        createdByName: ctx.userName,
      })
      .returning({ id: codingTasks.id });
    await taskTrail.added(tx, ctx, task!.id, { kind, name: input.name, onlyUnmapped: input.onlyUnmapped });
    return task!.id;
  });
  // The job is sent outside the scoped transaction (db/README.md: the scoped role has no rights on pg-boss).
  await ctx.db.transaction(async (tx) => {
    const job = await enqueueJob(tx, {
      appId: ctx.appId,
      kind: CODING_JOB_KIND,
      params: { taskId: id },
      createdBy: ctx.userId,
    });
    await tx.execute(
      sql`update coding_tasks set job_id = ${job.id} where id = ${id} and app_id = ${ctx.appId}`,
    );
  });
  return getTask(ctx.db, ctx.appId, kind, id, ctx.locale);
}

/** The job: terms and counts from the CDR, candidates for each. A retry starts over (items deleted first). */
export async function suggestJob({ db, job, progress, signal }: JobContext) {
  const taskId = Number((job.params as { taskId?: number }).taskId);
  const [task] = rowsOf<{ id: number; kind: CodingKind; system_key: string; only_unmapped: boolean }>(
    await db.execute(
      sql`select id, kind, system_key, only_unmapped from coding_tasks where id = ${taskId} and app_id = ${job.appId}`,
    ),
  );
  if (!task) return { terms: 0, skipped: 'task deleted' };
  await ensureTerminologies(db);
  const src = CODING_SOURCES[task.kind];
  const appId = job.appId;
  const terms = await withAppScope(db, appId, async (tx) => {
    await tx.execute(sql`delete from coding_items where task_id = ${taskId}`);
    return rowsOf<{ term: string; n: number }>(
      await tx.execute(sql`
        select btrim(x.${src.column}) as term, count(*)::int as n from ${src.table} x
         where x.app_id = ${appId} and ${src.filter} and btrim(x.${src.column}) <> ''
           ${
             task.only_unmapped
               ? sql`and not exists (select 1 from coding_mappings m
                       where m.app_id = ${appId} and m.kind = ${task.kind} and m.term = btrim(x.${src.column}))`
               : sql``
           }
         group by 1 order by 2 desc, 1`),
    );
  });
  const vocabulary = await withAppScope(db, appId, (tx) => loadVocabulary(tx, appId, task.system_key));
  // Terms mapped before in this app come first with their code ("mapped").
  const mapped = new Map(
    rowsOf<{ term: string; code: string; display_zh: string }>(
      await db.execute(sql`select term, code, display_zh from coding_mappings
        where app_id = ${appId} and kind = ${task.kind} and code is not null`),
    ).map((r) => [r.term, r]),
  );
  for (let i = 0; i < terms.length; i += BATCH) {
    if (signal.aborted) return null;
    const batch = terms.slice(i, i + BATCH);
    await withAppScope(db, appId, async (tx) => {
      const found = await suggestBatch(
        tx,
        appId,
        task.system_key,
        vocabulary,
        batch.map((t) => t.term),
      );
      await tx.insert(codingItems).values(
        batch.map((t) => {
          let candidates: CodingCandidate[] = found.get(t.term) ?? [];
          const before = mapped.get(t.term);
          if (before)
            candidates = [
              {
                code: before.code,
                displayZh: before.display_zh,
                score: 1,
                reason: 'mapped' as const,
                matched: t.term,
              },
              ...candidates.filter((c) => c.code !== before.code),
            ].slice(0, candidates.length || 1);
          return { appId, taskId, term: t.term, rows: t.n, candidates };
        }),
      );
    });
    await progress(Math.min(99, Math.round(((i + batch.length) / Math.max(terms.length, 1)) * 100)));
  }
  const rows = terms.reduce((n, t) => n + t.n, 0);
  await db.execute(
    sql`update coding_tasks set terms = ${terms.length}, rows = ${rows} where id = ${taskId} and app_id = ${appId}`,
  );
  return { terms: terms.length, rows };
}

interface TaskRow {
  id: number;
  kind: CodingKind;
  system_key: string;
  name: string;
  only_unmapped: boolean;
  job_id: number | null;
  status: JobStatus | null;
  progress: number | null;
  error: string | null;
  result: unknown;
  terms: number;
  rows: number;
  pending: number;
  coded: number;
  no_code: number;
  created_by_name: string;
  created_at: string;
}

/**
 * A task's status is its job's. The job list keeps finished jobs 30 days (jobs/README.md,
 * retention); a task whose job is gone stored its terms when the job succeeded, so it reads as
 * succeeded when it holds terms, failed otherwise.
 */
const statusOf = (r: TaskRow) =>
  r.status ??
  (Number(r.terms) + Number(r.pending) + Number(r.coded) + Number(r.no_code) > 0 ? 'succeeded' : 'failed');

const taskView = (r: TaskRow, locale: Locale): CodingTask => ({
  id: Number(r.id),
  kind: r.kind,
  systemKey: r.system_key,
  name: r.name,
  onlyUnmapped: r.only_unmapped,
  jobId: r.job_id === null ? null : Number(r.job_id),
  status: statusOf(r),
  progress: r.status === null ? 100 : Number(r.progress ?? 0),
  error: jobFailureText({ status: statusOf(r), error: r.error, result: r.result }, locale) ?? null,
  terms: Number(r.terms),
  rows: Number(r.rows),
  pending: Number(r.pending),
  coded: Number(r.coded),
  noCode: Number(r.no_code),
  createdByName: r.created_by_name,
  createdAt: iso(r.created_at)!,
});

async function taskRows(
  db: Tx,
  appId: number,
  kind: CodingKind,
  where: ReturnType<typeof sql>,
  page = 1,
  size = 20,
) {
  const cond = sql`t.app_id = ${appId} and t.kind = ${kind} and ${where}`;
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from coding_tasks t where ${cond}`),
  );
  const rows = rowsOf<TaskRow>(
    await db.execute(sql`
      select t.id, t.kind, t.system_key, t.name, t.only_unmapped, t.job_id, t.terms, t.rows, t.created_by_name, t.created_at,
             j.status, j.progress, j.error, j.result,
             coalesce(s.pending, 0)::int as pending, coalesce(s.coded, 0)::int as coded, coalesce(s.no_code, 0)::int as no_code
        from coding_tasks t
        left join jobs j on j.id = t.job_id
        left join lateral (select count(*) filter (where i.status = 'pending') as pending,
            count(*) filter (where i.status = 'coded') as coded, count(*) filter (where i.status = 'noCode') as no_code
          from coding_items i where i.task_id = t.id) s on true
       where ${cond} order by t.id desc limit ${size} offset ${(page - 1) * size}`),
  );
  return { total: Number(total?.n ?? 0), rows };
}

export async function listTasks(
  db: Db,
  appId: number,
  kind: CodingKind,
  q: { page: number; size: number },
  locale: Locale,
) {
  const { total, rows } = await taskRows(db, appId, kind, sql`true`, q.page, q.size);
  return { total, items: rows.map((r) => taskView(r, locale)) };
}

export async function getTask(
  db: Db,
  appId: number,
  kind: CodingKind,
  id: number,
  locale: Locale,
): Promise<CodingTask> {
  const { rows } = await taskRows(db, appId, kind, sql`t.id = ${id}`);
  if (!rows[0]) throw notFound('coding_task');
  return taskView(rows[0], locale);
}

export async function deleteTask(ctx: SignedIn, kind: CodingKind, id: number) {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [row] = rowsOf<{ id: number; name: string }>(
      await tx.execute(
        sql`delete from coding_tasks where id = ${id} and app_id = ${ctx.appId} and kind = ${kind} returning id, name`,
      ),
    );
    if (!row) throw notFound('coding_task');
    // Mappings stay (they are the app's, not the task's); they lose the link.
    await taskTrail.deleted(tx, ctx, id, { kind, name: row.name });
  });
}

interface ItemRow {
  id: number;
  task_id: number;
  term: string;
  rows: number;
  candidates: CodingCandidate[];
  status: CodingItemStatus;
  code: string | null;
  display_zh: string;
  decided_by_name: string;
  decided_at: string | null;
  review: CodingReviewState | null;
  review_reason: string | null;
}

const itemView = (r: ItemRow): CodingItem => ({
  id: Number(r.id),
  taskId: Number(r.task_id),
  term: r.term,
  rows: Number(r.rows),
  candidates: r.candidates,
  status: r.status,
  code: r.code,
  displayZh: r.display_zh,
  decidedByName: r.decided_by_name,
  decidedAt: iso(r.decided_at),
  review: r.review,
  reviewReason: r.review_reason ?? '',
});

const itemSelect = sql`select i.id, i.task_id, i.term, i.rows, i.candidates, i.status, i.code, i.display_zh,
    i.decided_by_name, i.decided_at, m.review, m.review_reason
  from coding_items i join coding_tasks t on t.id = i.task_id
  left join coding_mappings m on m.app_id = i.app_id and m.kind = t.kind and m.term = i.term`;

/** A task's terms, most frequent first. */
export async function listItems(
  db: Db,
  appId: number,
  kind: CodingKind,
  taskId: number,
  q: { page: number; size: number; status?: CodingItemStatus | undefined; q?: string | undefined },
) {
  await getTaskRow(db, appId, kind, taskId);
  const cond = sql`i.app_id = ${appId} and i.task_id = ${taskId}${q.status ? sql` and i.status = ${q.status}` : sql``}${
    q.q ? sql` and i.term like ${`%${escapeLike(q.q)}%`}` : sql``
  }`;
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from coding_items i where ${cond}`),
  );
  const rows = rowsOf<ItemRow>(
    await db.execute(
      sql`${itemSelect} where ${cond} order by i.rows desc, i.term limit ${q.size} offset ${(q.page - 1) * q.size}`,
    ),
  );
  return { total: Number(total?.n ?? 0), items: rows.map(itemView) };
}

async function getTaskRow(db: Tx, appId: number, kind: CodingKind, taskId: number) {
  const [t] = rowsOf<{ id: number; system_key: string }>(
    await db.execute(
      sql`select id, system_key from coding_tasks where id = ${taskId} and app_id = ${appId} and kind = ${kind}`,
    ),
  );
  if (!t) throw notFound('coding_task');
  return t;
}

async function itemOf(tx: Tx, appId: number, kind: CodingKind, itemId: number) {
  const [row] = rowsOf<ItemRow & { system_key: string }>(
    await tx.execute(
      sql`${itemSelect} where i.id = ${itemId} and i.app_id = ${appId} and t.kind = ${kind} for update of i`,
    ),
  );
  if (!row) throw notFound('coding_item');
  return row;
}

/** The code `code` of the system, as this app sees it (standard or its local code, not retired), or a 400 naming it. */
export async function codeOf(tx: Tx, appId: number, systemKey: string, code: string): Promise<StoredCode> {
  const [c] = rowsOf<{ code: string; display_zh: string; version: string }>(
    await tx.execute(sql`select c.code, c.display_zh, s.version from terminology_concepts c
      join terminology_systems s on s.system_key = c.system_key
      where c.system_key = ${systemKey} and upper(c.code) = upper(${code}) and not c.retired
        and (c.app_id is null or c.app_id = ${appId})
      order by c.app_id nulls first limit 1`),
  );
  if (!c)
    throw invalidField(
      'code',
      `${systemKey} 中没有可用的编码 ${code}`,
      `${systemKey} has no code ${code} in use`,
    );
  return { code: c.code, displayZh: c.display_zh, version: c.version };
}

/** A coder's decision on one term: a code, "no code", or back to pending. Writes the app's mapping. */
export async function decide(
  ctx: SignedIn,
  kind: CodingKind,
  d: z.output<typeof codingDecision>,
): Promise<CodingItem> {
  const itemId = d.itemId;
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const item = await itemOf(tx, ctx.appId, kind, itemId);
    const systemKey = CODING_SCREENS[kind].systemKey;
    const before = { status: item.status, code: item.code };
    if (d.action === 'reset') {
      await tx.execute(sql`update coding_items set status = 'pending', code = null, display_zh = '',
        decided_by = null, decided_by_name = '', decided_at = null where id = ${itemId}`);
      await removeMapping(tx, ctx.appId, kind, item.term);
    } else {
      const chosen = d.action === 'code' ? await codeOf(tx, ctx.appId, systemKey, d.code ?? '') : null;
      const candidate = chosen ? item.candidates.find((c) => c.code === chosen.code) : undefined;
      await tx.execute(sql`update coding_items set status = ${chosen ? 'coded' : 'noCode'}, code = ${chosen?.code ?? null},
        display_zh = ${chosen?.displayZh ?? ''}, decided_by = ${ctx.userId}, decided_by_name = ${ctx.userName},
        decided_at = now() where id = ${itemId}`);
      await storeMapping(tx, ctx, {
        kind,
        term: item.term,
        systemKey,
        chosen,
        how: d.action === 'noCode' ? 'noCode' : candidate && d.how === 'suggestion' ? 'suggestion' : 'search',
        score: candidate?.score ?? null,
        reason: candidate?.reason ?? '',
        taskId: Number(item.task_id),
      });
    }
    await audit(tx, ctx, {
      action: 'coding.decide',
      entity: 'coding_item',
      entityId: itemId,
      before,
      after: { kind, term: item.term, action: d.action, code: d.action === 'code' ? d.code : null },
    });
  });
  const [row] = rowsOf<ItemRow>(
    await ctx.db.execute(sql`${itemSelect} where i.id = ${itemId} and i.app_id = ${ctx.appId}`),
  );
  return itemView(row!);
}

/** Accepts the top candidate of every pending term of the task whose score is at least `minScore`. */
export async function bulkAccept(ctx: SignedIn, kind: CodingKind, taskId: number, minScore: number) {
  return withAppScope(ctx.db, ctx.appId, async (tx) => {
    const task = await getTaskRow(tx, ctx.appId, kind, taskId);
    const items = rowsOf<{ id: number; term: string; candidates: CodingCandidate[] }>(
      await tx.execute(sql`select id, term, candidates from coding_items
        where task_id = ${taskId} and app_id = ${ctx.appId} and status = 'pending'
          and coalesce((candidates->0->>'score')::float, 0) >= ${minScore} for update`),
    );
    const [sys] = rowsOf<{ version: string }>(
      await tx.execute(sql`select version from terminology_systems where system_key = ${task.system_key}`),
    );
    for (const it of items) {
      const top = it.candidates[0]!;
      await tx.execute(sql`update coding_items set status = 'coded', code = ${top.code}, display_zh = ${top.displayZh},
        decided_by = ${ctx.userId}, decided_by_name = ${ctx.userName}, decided_at = now() where id = ${it.id}`);
      await storeMapping(tx, ctx, {
        kind,
        term: it.term,
        systemKey: task.system_key,
        chosen: { code: top.code, displayZh: top.displayZh, version: sys?.version ?? '' },
        how: 'bulk',
        score: top.score,
        reason: top.reason,
        taskId,
      });
    }
    await audit(tx, ctx, {
      action: 'coding.bulkAccept',
      entity: 'coding_task',
      entityId: taskId,
      after: { kind, minScore, accepted: items.length, terms: items.map((i) => i.term).slice(0, 200) },
    });
    return { accepted: items.length };
  });
}
