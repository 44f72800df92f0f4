import type {
  CodingAgreement,
  CodingKind,
  CodingMarker,
  CodingMarkerReason,
  CodingReview,
  CodingReviewBatch,
  CodingVerdict,
  codingReviewBatchCreate,
  codingVerdict,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { AppError, badRequest, bilingual, notFound } from '../http/errors.js';

/*
 * Coding QC (编码质控): a review batch draws a sample (or all) of the mappings of a kind, of one
 * task or coder; a second person (never the coder) agrees or disagrees with each, giving a reason
 * that goes back to the coder (the mapping is marked disputed until it is decided again).
 * Agreement is counted per coder and task. Maintenance markers list mappings whose code was
 * retired or left out of the list, or whose system's version changed since the mapping.
 */

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export async function createBatch(ctx: SignedIn, input: z.output<typeof codingReviewBatchCreate>) {
  return withAppScope(ctx.db, ctx.appId, async (tx) => {
    const where = [sql`m.app_id = ${ctx.appId} and m.kind = ${input.kind}`];
    if (input.taskId !== null) where.push(sql`m.task_id = ${input.taskId}`);
    if (input.coderId !== null) where.push(sql`m.coded_by = ${input.coderId}`);
    const cond = sql.join(where, sql` and `);
    const [n] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from coding_mappings m where ${cond}`),
    );
    const all = Number(n?.n ?? 0);
    if (!all)
      throw badRequest(
        bilingual(
          '没有符合条件的编码映射可以审核',
          'there are no mappings of that kind, task and coder to review',
        ),
        'kind',
      );
    const size = Math.max(1, Math.ceil((all * input.samplePercent) / 100));
    const [batch] = rowsOf<{ id: number }>(
      await tx.execute(sql`insert into coding_review_batches (app_id, kind, task_id, coder_id, sample_percent, created_by, created_by_name)
        values (${ctx.appId}, ${input.kind}, ${input.taskId}, ${input.coderId}, ${input.samplePercent}, ${ctx.userId}, ${ctx.userName})
        returning id`),
    );
    // A random sample (all when 100%): every mapping equally likely.
    await tx.execute(sql`insert into coding_reviews (app_id, batch_id, mapping_id, coder_id, coder_name, task_id, code)
      select m.app_id, ${batch!.id}, m.id, m.coded_by, m.coded_by_name, m.task_id, m.code
        from coding_mappings m where ${cond} order by random() limit ${size}`);
    await audit(tx, ctx, {
      action: 'coding.review.batch',
      entity: 'coding_review_batch',
      entityId: batch!.id,
      after: { ...input, size, of: all },
    });
    return { id: Number(batch!.id) };
  });
}

export async function listBatches(db: Db, appId: number, q: { page: number; size: number }) {
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from coding_review_batches where app_id = ${appId}`),
  );
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select b.id, b.kind, b.task_id, coalesce(t.name, '') as task_name, coalesce(u.user_name, '') as coder_name,
             b.sample_percent, b.created_by_name, b.created_at,
             (select count(*)::int from coding_reviews r where r.batch_id = b.id) as size,
             (select count(*)::int from coding_reviews r where r.batch_id = b.id and r.verdict <> 'pending') as reviewed,
             (select count(*)::int from coding_reviews r where r.batch_id = b.id and r.verdict = 'agree') as agreed
        from coding_review_batches b
        left join coding_tasks t on t.id = b.task_id
        left join users u on u.user_id = b.coder_id
       where b.app_id = ${appId} order by b.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const items: CodingReviewBatch[] = rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind as CodingKind,
    taskId: r.task_id === null ? null : Number(r.task_id),
    taskName: String(r.task_name),
    coderName: String(r.coder_name),
    samplePercent: Number(r.sample_percent),
    size: Number(r.size),
    reviewed: Number(r.reviewed),
    agreed: Number(r.agreed),
    createdByName: String(r.created_by_name),
    createdAt: iso(r.created_at)!,
  }));
  return { total: Number(total?.n ?? 0), items };
}

const reviewSelect = sql`select r.id, r.batch_id, r.mapping_id, m.kind, m.term, r.code, coalesce(c.display_zh, m.display_zh) as display_zh,
    r.coder_name, r.verdict, r.reason, r.suggested_code, r.reviewed_by_name, r.reviewed_at, r.coder_id
  from coding_reviews r join coding_mappings m on m.id = r.mapping_id
  left join lateral (select display_zh from terminology_concepts c
     where c.system_key = m.system_key and c.code = r.code and (c.app_id is null or c.app_id = r.app_id)
     order by c.app_id nulls first limit 1) c on true`;

const reviewView = (r: Record<string, unknown>): CodingReview => ({
  id: Number(r.id),
  batchId: Number(r.batch_id),
  mappingId: Number(r.mapping_id),
  kind: r.kind as CodingKind,
  term: String(r.term),
  code: (r.code as string | null) ?? null,
  displayZh: String(r.display_zh ?? ''),
  coderName: String(r.coder_name),
  verdict: r.verdict as CodingVerdict,
  reason: String(r.reason),
  suggestedCode: (r.suggested_code as string | null) ?? null,
  reviewedByName: String(r.reviewed_by_name),
  reviewedAt: iso(r.reviewed_at),
});

export async function listReviews(
  db: Db,
  appId: number,
  q: { page: number; size: number; batchId?: number | undefined; verdict?: CodingVerdict | undefined },
) {
  const where = [sql`r.app_id = ${appId}`];
  if (q.batchId !== undefined) where.push(sql`r.batch_id = ${q.batchId}`);
  if (q.verdict) where.push(sql`r.verdict = ${q.verdict}`);
  const cond = sql.join(where, sql` and `);
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from coding_reviews r where ${cond}`),
  );
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(
      sql`${reviewSelect} where ${cond} order by r.id limit ${q.size} offset ${(q.page - 1) * q.size}`,
    ),
  );
  return { total: Number(total?.n ?? 0), items: rows.map(reviewView) };
}

/** A reviewer's verdict on one drawn mapping. The coder may not review their own mapping (409). */
export async function giveVerdict(ctx: SignedIn, v: z.output<typeof codingVerdict>) {
  const reviewId = v.reviewId;
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [r] = rowsOf<{
      id: number;
      mapping_id: number;
      coder_id: number | null;
      verdict: string;
      code: string | null;
      m_code: string | null;
    }>(
      await tx.execute(sql`select r.id, r.mapping_id, r.coder_id, r.verdict, r.code, m.code as m_code
        from coding_reviews r join coding_mappings m on m.id = r.mapping_id
        where r.id = ${reviewId} and r.app_id = ${ctx.appId} for update of r`),
    );
    if (!r) throw notFound('coding_review');
    if (r.coder_id !== null && Number(r.coder_id) === ctx.userId)
      throw new AppError(409, 'request.conflict', {
        detail: bilingual(
          '不能审核自己的编码：编码审核须由第二人完成',
          'you may not review your own coding: a second person reviews it',
        ),
      });
    const reason = v.verdict === 'disagree' ? v.reason : '';
    const suggested = v.verdict === 'disagree' ? v.suggestedCode : null;
    await tx.execute(sql`update coding_reviews set verdict = ${v.verdict}, reason = ${reason}, suggested_code = ${suggested},
      reviewed_by = ${ctx.userId}, reviewed_by_name = ${ctx.userName}, reviewed_at = now() where id = ${reviewId}`);
    // The mapping follows the verdict only while it still holds the code reviewed.
    if ((r.code ?? null) === (r.m_code ?? null))
      await tx.execute(sql`update coding_mappings set review = ${v.verdict === 'agree' ? 'agreed' : 'disputed'},
        review_reason = ${reason} where id = ${r.mapping_id} and app_id = ${ctx.appId}`);
    await audit(tx, ctx, {
      action: 'coding.review.verdict',
      entity: 'coding_review',
      entityId: reviewId,
      before: { verdict: r.verdict },
      after: { verdict: v.verdict, reason, suggestedCode: suggested, mappingId: Number(r.mapping_id) },
      reason: reason || null,
    });
  });
  const [row] = rowsOf<Record<string, unknown>>(
    await ctx.db.execute(sql`${reviewSelect} where r.id = ${reviewId} and r.app_id = ${ctx.appId}`),
  );
  return reviewView(row!);
}

/** Agreement of the reviewed mappings per kind, coder and task. */
export async function agreement(db: Db, appId: number): Promise<CodingAgreement[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select m.kind, r.coder_id, max(r.coder_name) as coder_name, r.task_id, coalesce(max(t.name), '') as task_name,
             count(*) filter (where r.verdict <> 'pending')::int as reviewed,
             count(*) filter (where r.verdict = 'agree')::int as agreed
        from coding_reviews r join coding_mappings m on m.id = r.mapping_id
        left join coding_tasks t on t.id = r.task_id
       where r.app_id = ${appId}
       group by m.kind, r.coder_id, r.task_id order by m.kind, coder_name, r.task_id`),
  );
  return rows.map((r) => {
    const reviewed = Number(r.reviewed);
    const agreed = Number(r.agreed);
    return {
      kind: r.kind as CodingKind,
      coderId: r.coder_id === null ? null : Number(r.coder_id),
      coderName: String(r.coder_name),
      taskId: r.task_id === null ? null : Number(r.task_id),
      taskName: String(r.task_name),
      reviewed,
      agreed,
      rate: reviewed ? agreed / reviewed : null,
    };
  });
}

const markerSelect = (appId: number) => sql`
  select m.id, m.kind, m.term, m.system_key, m.code, m.display_zh, m.system_version, s.version as current_version,
         m.coded_by_name, m.coded_at, c.code is null as missing, coalesce(c.retired, false) as retired
    from coding_mappings m
    join terminology_systems s on s.system_key = m.system_key
    left join lateral (select c.code, c.retired from terminology_concepts c
       where c.system_key = m.system_key and c.code = m.code and (c.app_id is null or c.app_id = m.app_id)
       order by c.app_id nulls first limit 1) c on true
   where m.app_id = ${appId} and m.code is not null
     and (c.code is null or c.retired or m.system_version <> s.version)`;

const markerView = (r: Record<string, unknown>): CodingMarker => {
  const reasons: CodingMarkerReason[] = [];
  if (r.missing) reasons.push('missing');
  else if (r.retired) reasons.push('retired');
  if (String(r.system_version) !== String(r.current_version)) reasons.push('versionChanged');
  return {
    mappingId: Number(r.id),
    kind: r.kind as CodingKind,
    term: String(r.term),
    systemKey: String(r.system_key),
    code: String(r.code),
    displayZh: String(r.display_zh),
    mappedVersion: String(r.system_version),
    currentVersion: String(r.current_version),
    reasons,
    codedByName: String(r.coded_by_name),
    codedAt: iso(r.coded_at)!,
  };
};

export async function listMarkers(db: Db, appId: number, q: { page: number; size: number }) {
  const base = markerSelect(appId);
  const [total] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${base}) x`));
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`${base} order by m.id limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  return { total: Number(total?.n ?? 0), items: rows.map(markerView) };
}

/**
 * Confirms a marked mapping whose code still stands in the new version: it is stamped with the
 * current version. A retired or missing code is not confirmed (400): the term is coded again.
 */
export async function confirmMarker(ctx: SignedIn, mappingId: number) {
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [r] = rowsOf<Record<string, unknown>>(
      await tx.execute(sql`select * from (${markerSelect(ctx.appId)}) x where x.id = ${mappingId}`),
    );
    if (!r) throw notFound('coding_mapping');
    const marker = markerView(r);
    if (marker.reasons.includes('retired') || marker.reasons.includes('missing'))
      throw badRequest(
        bilingual(
          `mappingId: 编码 ${marker.code} 已停用或已不在术语中，请重新编码“${marker.term}”`,
          `mappingId: the code ${marker.code} is retired or no longer listed; code "${marker.term}" again`,
        ),
        'mappingId',
      );
    await tx.execute(
      sql`update coding_mappings set system_version = ${marker.currentVersion} where id = ${mappingId}`,
    );
    await audit(tx, ctx, {
      action: 'coding.marker.confirm',
      entity: 'coding_mapping',
      entityId: mappingId,
      before: { systemVersion: marker.mappedVersion },
      after: { systemVersion: marker.currentVersion, code: marker.code },
    });
  });
}
