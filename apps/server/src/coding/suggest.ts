import type { CodingCandidate } from '@crdp/core';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { Vocabulary, type VocabularyName } from './match.js';

/*
 * The database side of the suggestions: a system's names (standard codes, this app's local codes,
 * the synonyms of both; retired codes and ICD block ranges such as A00-A09 left out) for the pure matcher, and
 * pg_trgm's similarity() of each term to the names, through the trigram GIN indexes of migration 0031.
 */

/** The names of `systemKey` this app may code to. */
export async function loadVocabulary(db: Tx, appId: number, systemKey: string): Promise<Vocabulary> {
  const rows = rowsOf<{ code: string; display_zh: string; name: string; synonym: boolean }>(
    await db.execute(sql`
      select c.code, c.display_zh, c.display_zh as name, false as synonym
        from terminology_concepts c
       where c.system_key = ${systemKey} and not c.retired and (c.app_id is null or c.app_id = ${appId})
         and c.code !~ '^[A-Z][0-9]{2}-[A-Z][0-9]{2}$'
      union all
      select c.code, c.display_zh, t.term as name, true as synonym
        from terminology_synonyms t join terminology_concepts c on c.concept_id = t.concept_id
       where c.system_key = ${systemKey} and not c.retired and (c.app_id is null or c.app_id = ${appId})
         and c.code !~ '^[A-Z][0-9]{2}-[A-Z][0-9]{2}$'`),
  );
  const names: VocabularyName[] = rows.map((r) => ({
    code: r.code,
    displayZh: r.display_zh,
    name: r.name,
    synonym: Boolean(r.synonym),
  }));
  return new Vocabulary(names);
}

/**
 * pg_trgm similarity of each term to the closest names of the system (threshold 0.2, at most 5
 * a term), as term → (code → similarity). One statement for a batch of terms.
 */
export async function trigramSimilar(
  db: Tx,
  appId: number,
  systemKey: string,
  terms: readonly string[],
): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  if (!terms.length) return out;
  const visible = sql`c.system_key = ${systemKey} and not c.retired and (c.app_id is null or c.app_id = ${appId})
    and c.code !~ '^[A-Z][0-9]{2}-[A-Z][0-9]{2}$'`;
  // `%` is answered by the trigram GIN indexes; its threshold is this transaction's.
  await db.execute(sql`select set_config('pg_trgm.similarity_threshold', '0.2', true)`);
  const res = await db.execute(sql`
    select q.term, s.code, s.sim from json_array_elements_text(${JSON.stringify(terms)}::json) as q(term)
    cross join lateral (
      select x.code, max(x.sim) as sim from (
        select c.code, similarity(c.display_zh, q.term) as sim
          from terminology_concepts c where c.display_zh % q.term and ${visible}
        union all
        select c.code, similarity(t.term, q.term) as sim
          from terminology_synonyms t join terminology_concepts c on c.concept_id = t.concept_id
         where t.term % q.term and ${visible}) x
      group by x.code order by sim desc limit 5) s`);
  for (const r of rowsOf<{ term: string; code: string; sim: number }>(res)) {
    const m = out.get(r.term) ?? new Map<string, number>();
    out.set(r.term, m);
    m.set(r.code, Number(r.sim));
  }
  return out;
}

/** Candidates for a batch of terms. */
export async function suggestBatch(
  db: Tx,
  appId: number,
  systemKey: string,
  vocabulary: Vocabulary,
  terms: readonly string[],
): Promise<Map<string, CodingCandidate[]>> {
  const trigram = await trigramSimilar(db, appId, systemKey, terms);
  const out = new Map<string, CodingCandidate[]>();
  for (const term of terms) {
    const t = trigram.get(term);
    out.set(term, vocabulary.suggest(term, t ? { trigram: t } : {}));
  }
  return out;
}
