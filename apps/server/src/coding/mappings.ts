import type { CodingHow, CodingKind, CodingMapping, CodingReviewState } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import type { SignedIn } from '../http/context.js';
import { CODING_SOURCES } from './kinds.js';

/*
 * The app's mappings: one row per (app, kind, local term). The CDR is never rewritten: its rows
 * meet their mapping at read time (the cdr_coded_* views, `codedRows`), so a mapping applies to
 * every row with that text, now and in every later collection.
 */

export interface StoredCode {
  code: string;
  displayZh: string;
  /** The system's version when the code was chosen. */
  version: string;
}

/** Writes (or rewrites) the mapping of a term; a changed decision goes back to "not reviewed". */
export async function storeMapping(
  tx: Tx,
  ctx: SignedIn,
  m: {
    kind: CodingKind;
    term: string;
    systemKey: string;
    chosen: StoredCode | null;
    how: CodingHow;
    score: number | null;
    reason: string;
    taskId: number | null;
  },
) {
  const version = m.chosen?.version ?? '';
  await tx.execute(sql`
    insert into coding_mappings (app_id, kind, term, system_key, code, display_zh, system_version, how, score, reason,
      task_id, coded_by, coded_by_name, coded_at, review, review_reason)
    values (${ctx.appId}, ${m.kind}, ${m.term}, ${m.systemKey}, ${m.chosen?.code ?? null}, ${m.chosen?.displayZh ?? ''},
      ${version}, ${m.how}, ${m.score}, ${m.reason}, ${m.taskId}, ${ctx.userId}, ${ctx.userName}, now(), 'unreviewed', '')
    on conflict (app_id, kind, term) do update set system_key = excluded.system_key, code = excluded.code,
      display_zh = excluded.display_zh, system_version = excluded.system_version, how = excluded.how,
      score = excluded.score, reason = excluded.reason, task_id = excluded.task_id, coded_by = excluded.coded_by,
      coded_by_name = excluded.coded_by_name, coded_at = now(),
      -- A new decision is reviewed afresh; the reviewer's reason stays visible until then.
      review = 'unreviewed'`);
}

export async function removeMapping(tx: Tx, appId: number, kind: CodingKind, term: string) {
  await tx.execute(
    sql`delete from coding_mappings where app_id = ${appId} and kind = ${kind} and term = ${term}`,
  );
}

interface MappingRow {
  id: number;
  kind: CodingKind;
  term: string;
  system_key: string;
  code: string | null;
  display_zh: string;
  system_version: string;
  how: CodingHow;
  score: number | null;
  reason: string;
  task_id: number | null;
  coded_by_name: string;
  coded_at: string;
  review: CodingReviewState;
  review_reason: string;
  rows: number;
}

/** The app's mappings of one kind, with how many CDR rows each codes now. */
export async function listMappings(
  db: Db,
  appId: number,
  kind: CodingKind,
  q: { page: number; size: number; q?: string | undefined; review?: CodingReviewState | undefined },
): Promise<{ total: number; items: CodingMapping[] }> {
  const src = CODING_SOURCES[kind];
  const where = [sql`m.app_id = ${appId} and m.kind = ${kind}`];
  if (q.q) where.push(sql`(m.term like ${`%${escapeLike(q.q)}%`} or m.code like ${`${escapeLike(q.q)}%`})`);
  if (q.review) where.push(sql`m.review = ${q.review}`);
  const cond = sql.join(where, sql` and `);
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from coding_mappings m where ${cond}`),
  );
  const rows = rowsOf<MappingRow>(
    await db.execute(sql`
      select m.*, (select count(*)::int from ${src.table} x
                    where x.app_id = m.app_id and ${src.filter} and btrim(x.${src.column}) = m.term) as rows
        from coding_mappings m where ${cond}
       order by m.coded_at desc, m.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  return {
    total: Number(total?.n ?? 0),
    items: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      term: r.term,
      systemKey: r.system_key,
      code: r.code,
      displayZh: r.display_zh,
      systemVersion: r.system_version,
      how: r.how,
      score: r.score === null ? null : Number(r.score),
      reason: r.reason,
      taskId: r.task_id === null ? null : Number(r.task_id),
      codedByName: r.coded_by_name,
      codedAt: new Date(r.coded_at).toISOString(),
      review: r.review,
      reviewReason: r.review_reason,
      rows: Number(r.rows),
    })),
  };
}

/** CDR rows of a kind as coded at read time: the original text and source code beside the mapped code. */
export async function codedRows(db: Db, appId: number, kind: CodingKind, q: { page: number; size: number }) {
  const view = CODING_SOURCES[kind].view;
  const [total] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${view} where app_id = ${appId}`),
  );
  const rows = rowsOf<{
    id: number;
    patient_id: number;
    original_text: string;
    source_code: string;
    system_key: string | null;
    code: string | null;
    display_zh: string | null;
  }>(
    await db.execute(sql`select id, patient_id, original_text, source_code, system_key, code, display_zh
      from ${view} where app_id = ${appId} order by id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  return {
    total: Number(total?.n ?? 0),
    items: rows.map((r) => ({
      id: Number(r.id),
      patientId: Number(r.patient_id),
      originalText: r.original_text,
      sourceCode: r.source_code ?? '',
      systemKey: r.system_key,
      code: r.code,
      displayZh: r.display_zh,
    })),
  };
}
