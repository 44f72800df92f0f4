import { CONCEPT_MATCH_KINDS, type ConceptHit } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';

/*
 * Concept search in Chinese by word, pinyin initials and code prefix. Each way of matching is one
 * branch that an index answers (btree text_pattern_ops for the exact and prefix matches of code,
 * name, synonym and pinyin; the pg_trgm GIN indexes for a word inside a name or synonym), capped
 * at `limit` rows; the branches are joined and each concept keeps its best match. Ranking:
 * exact code > code prefix > exact name > name prefix > name contains > pinyin initials, then
 * the shorter code (code matches) or the shorter name (name matches), then the code.
 */

export interface ConceptSearch {
  q: string;
  system?: string | undefined;
  limit: number;
}

const RANK = Object.fromEntries(CONCEPT_MATCH_KINDS.map((k, i) => [k, i])) as Record<
  (typeof CONCEPT_MATCH_KINDS)[number],
  number
>;

interface Row {
  concept_id: number;
  system_key: string;
  code: string;
  display_zh: string;
  display_en: string;
  parent_code: string | null;
  level: number;
  retired: boolean;
  pinyin: string;
  local: boolean;
  rank: number;
  synonym: string | null;
}

/** Standard codes and this app's local codes, not retired, in `system` when one is named. */
function visible(alias: string, appId: number, system: string | undefined): SQL {
  const a = sql.raw(alias);
  return sql`(${a}.app_id is null or ${a}.app_id = ${appId}) and not ${a}.retired${
    system ? sql` and ${a}.system_key = ${system}` : sql``
  }`;
}

export async function searchConcepts(db: Db, appId: number, s: ConceptSearch): Promise<ConceptHit[]> {
  const q = s.q.trim().normalize('NFKC');
  if (!q) return [];
  const limit = s.limit;
  const upper = q.toUpperCase();
  const prefix = `${escapeLike(q)}%`;
  const upperPrefix = `${escapeLike(upper)}%`;
  const contains = `%${escapeLike(q)}%`;
  const c = visible('c', appId, s.system);
  const branches: SQL[] = [];
  const concepts = (rank: number, where: SQL, order: SQL) =>
    sql`(select c.concept_id, ${rank}::int as rank, null::text as synonym from terminology_concepts c
      where ${c} and ${where} order by ${order} limit ${limit})`;
  // Synonyms take their concept's visibility: the join checks the concept.
  const synonyms = (rank: number, where: SQL) =>
    sql`(select c.concept_id, ${rank}::int as rank, t.term as synonym
      from terminology_synonyms t join terminology_concepts c on c.concept_id = t.concept_id
      where ${c} and ${where} order by length(t.term), c.code limit ${limit})`;
  const codeLike = /^[A-Za-z0-9][A-Za-z0-9.\-_+/*]*$/.test(q);
  if (codeLike) {
    branches.push(concepts(RANK.codeExact, sql`c.code in (${q}, ${upper})`, sql`c.code`));
    branches.push(
      concepts(
        RANK.codePrefix,
        sql`(c.code like ${prefix} or c.code like ${upperPrefix})`,
        sql`length(c.code), c.code`,
      ),
    );
  }
  branches.push(concepts(RANK.nameExact, sql`c.display_zh = ${q}`, sql`c.code`));
  branches.push(synonyms(RANK.nameExact, sql`t.term = ${q}`));
  branches.push(
    concepts(RANK.namePrefix, sql`c.display_zh like ${prefix}`, sql`length(c.display_zh), c.code`),
  );
  branches.push(synonyms(RANK.namePrefix, sql`t.term like ${prefix}`));
  branches.push(
    concepts(RANK.nameContains, sql`c.display_zh like ${contains}`, sql`length(c.display_zh), c.code`),
  );
  branches.push(synonyms(RANK.nameContains, sql`t.term like ${contains}`));
  if (/^[A-Za-z]+$/.test(q)) {
    const initials = `${escapeLike(q.toLowerCase())}%`;
    branches.push(concepts(RANK.pinyin, sql`c.pinyin like ${initials}`, sql`length(c.pinyin), c.code`));
    branches.push(synonyms(RANK.pinyin, sql`t.pinyin like ${initials}`));
  }
  const res = await db.execute(sql`
    with hits as (${sql.join(branches, sql` union all `)}),
    best as (
      select distinct on (concept_id) concept_id, rank, synonym from hits
      order by concept_id, rank, synonym nulls first)
    select c.concept_id, c.system_key, c.code, c.display_zh, c.display_en, c.parent_code, c.level,
      c.retired, c.pinyin, c.local, b.rank, b.synonym
    from best b join terminology_concepts c on c.concept_id = b.concept_id
    order by b.rank,
      case when b.rank <= ${RANK.codePrefix} then length(c.code) else length(coalesce(b.synonym, c.display_zh)) end,
      c.code, c.system_key
    limit ${limit}`);
  return rowsOf<Row>(res).map((r) => ({
    conceptId: Number(r.concept_id),
    systemKey: r.system_key,
    code: r.code,
    displayZh: r.display_zh,
    displayEn: r.display_en,
    parentCode: r.parent_code,
    level: Number(r.level),
    retired: r.retired,
    pinyin: r.pinyin,
    local: r.local,
    match: CONCEPT_MATCH_KINDS[Number(r.rank)]!,
    matchedSynonym: r.synonym,
  }));
}

/**
 * The reference a benchmark measures the search against: a plain indexed `code LIKE 'prefix%'`
 * over the same table, the cheapest lookup the store can do.
 */
export async function codePrefixLookup(db: Db, prefix: string, limit = 20) {
  const res = await db.execute(
    sql`select concept_id, code, display_zh from terminology_concepts where code like ${`${escapeLike(prefix)}%`} limit ${limit}`,
  );
  return rowsOf<{ concept_id: number; code: string; display_zh: string }>(res);
}
