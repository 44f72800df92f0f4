import {
  CODING_SCREENS,
  OBSERVATION_CODING_KIND,
  type ObservationTermPage,
  type observationTermMap,
  type observationTermQuery,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { audit } from '../audit/audit.js';
import { removeMapping, storeMapping } from '../coding/mappings.js';
import { codeOf } from '../coding/tasks.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';
import { withAppScope } from '../db/scoped.js';
import type { SignedIn } from '../http/context.js';
import { ensureTerminologies } from '../terminology/seed.js';

/*
 * Term mapping of the observation store (ObservationTermMapping): the distinct local concepts of a
 * coded domain with the standard code the coding area mapped them to. The mapping is the coding
 * area's own row (coding_mappings, per app, kind and trimmed term): read here at read time and
 * written through its `storeMapping`, so a term mapped here shows on the coding screens and the
 * cdr_coded_* views, and one mapped there shows here. Nothing is copied.
 */

export async function listTerms(
  ctx: SignedIn,
  q: z.output<typeof observationTermQuery>,
): Promise<ObservationTermPage> {
  const kind = OBSERVATION_CODING_KIND[q.domain];
  const systemKey = CODING_SCREENS[kind].systemKey;
  const where = [sql`o.app_id = ${ctx.appId} and o.domain = ${q.domain}`];
  if (q.q)
    where.push(sql`(o.concept like ${`%${escapeLike(q.q)}%`} or o.local_code like ${`${escapeLike(q.q)}%`})`);
  const mapped =
    q.mapped === 'mapped' ? sql`m.id is not null` : q.mapped === 'unmapped' ? sql`m.id is null` : sql`true`;
  const base = sql`
    with t as (
      select o.concept as term, min(o.local_code) as local_code, count(*)::int as rows,
        count(distinct o.patient_id)::int as patients
      from observations o where ${sql.join(where, sql` and `)}
      group by o.concept
    )
    select t.*, m.id as mapping_id, m.code, m.display_zh, m.review, m.coded_by_name, m.system_key
    from t left join coding_mappings m on m.app_id = ${ctx.appId} and m.kind = ${kind} and m.term = t.term
    where ${mapped}`;
  const [total] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`select count(*)::int as n from (${base}) x`),
  );
  const rows = rowsOf<{
    term: string;
    local_code: string;
    rows: number;
    patients: number;
    mapping_id: number | null;
    code: string | null;
    display_zh: string | null;
    review: 'unreviewed' | 'agreed' | 'disputed' | null;
    coded_by_name: string | null;
    system_key: string | null;
  }>(
    await ctx.db.execute(
      sql`${base} order by t.rows desc, t.term limit ${q.size} offset ${(q.page - 1) * q.size}`,
    ),
  );
  return {
    total: Number(total?.n ?? 0),
    items: rows.map((r) => ({
      term: r.term,
      localCode: r.local_code ?? '',
      rows: Number(r.rows),
      patients: Number(r.patients),
      systemKey: r.system_key ?? systemKey,
      mapped: r.mapping_id !== null,
      code: r.code,
      displayZh: r.display_zh ?? '',
      review: r.review,
      codedByName: r.coded_by_name ?? '',
    })),
  };
}

/** Maps a term (a code of the domain's system, "no code", or back to unmapped) in the coding area's table. */
export async function mapTerm(ctx: SignedIn, m: z.output<typeof observationTermMap>): Promise<null> {
  const kind = OBSERVATION_CODING_KIND[m.domain];
  const systemKey = CODING_SCREENS[kind].systemKey;
  // The shipped code lists are loaded on first use (terminology/seed.ts), as the coding screens do.
  await ensureTerminologies(ctx.db);
  await withAppScope(ctx.db, ctx.appId, async (tx) => {
    const [before] = rowsOf<{ code: string | null }>(
      await tx.execute(sql`select code from coding_mappings
        where app_id = ${ctx.appId} and kind = ${kind} and term = ${m.term}`),
    );
    if (m.action === 'reset') await removeMapping(tx, ctx.appId, kind, m.term);
    else {
      const chosen = m.action === 'code' ? await codeOf(tx, ctx.appId, systemKey, m.code ?? '') : null;
      await storeMapping(tx, ctx, {
        kind,
        term: m.term,
        systemKey,
        chosen,
        how: m.action === 'noCode' ? 'noCode' : 'search',
        score: null,
        reason: '',
        taskId: null,
      });
    }
    await audit(tx, ctx, {
      action: 'observation.term.map',
      entity: 'observation_term',
      before: before ? { kind, term: m.term, code: before.code } : null,
      after: { kind, term: m.term, action: m.action, code: m.action === 'code' ? (m.code ?? null) : null },
    });
  });
  return null;
}
