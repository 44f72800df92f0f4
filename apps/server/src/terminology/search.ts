import { CONCEPT_MATCH_KINDS, type ConceptHit } from '@crdp/core';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { escapeLike } from '../db/like.js';
import { rowsOf } from '../db/rows.js';

/*
 * Concept search in Chinese by word, pinyin initials and code prefix. Each way of matching is one
 * branch that an index answers (btree text_pattern_ops for the exact and prefix matches of code,
 * name, synonym and pinyin; the pg_trgm GIN indexes for a word inside a name or synonym), capped
 * at the shortest `limit` of its first 200 index matches. Levels run in ranking order and stop
 * once `limit` concepts are found, so a common word never pays for the lower levels; each concept
 * keeps its best match. Ranking: exact code > code prefix > exact name > name prefix > name
 * contains > pinyin initials, then the shorter code (code matches) or the shorter name or
 * synonym (the others), then the code.
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

/** A concept as the searches select it (standard or local), with the synonym that matched. */
export interface ConceptMatchRow {
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
  synonym: string | null;
}

interface Row extends ConceptMatchRow {
  rank: number;
  len: number;
}

/** Standard codes and this app's local codes, not retired, in `system` when one is named. */
function visible(alias: string, appId: number, system: string | undefined): SQL {
  const a = sql.raw(alias);
  return sql`(${a}.app_id is null or ${a}.app_id = ${appId}) and not ${a}.retired${
    system ? sql` and ${a}.system_key = ${system}` : sql``
  }`;
}

/** How many index-ordered matches a branch looks at before it picks its shortest: bounds the work of a common word. */
const CANDIDATES = 200;

export async function searchConcepts(db: Db, appId: number, s: ConceptSearch): Promise<ConceptHit[]> {
  const q = s.q.trim().normalize('NFKC');
  if (!q) return [];
  const limit = s.limit;
  const upper = q.toUpperCase();
  const prefix = `${escapeLike(q)}%`;
  const upperPrefix = `${escapeLike(upper)}%`;
  const contains = `%${escapeLike(q)}%`;
  const c = visible('c', appId, s.system);
  const columns = sql`c.concept_id, c.system_key, c.code, c.display_zh, c.display_en, c.parent_code, c.level,
    c.retired, c.pinyin, c.local`;
  // A branch: the first CANDIDATES matches the index gives, the shortest `limit` of them.
  // `capped` false for a word of 3+ characters inside a name: with a LIMIT the planner scans the
  // table hoping for early matches; without one it takes the trigram index when the word is selective.
  const concepts = (rank: number, where: SQL, length: SQL, capped = true) =>
    sql`(select * from (select ${columns}, ${rank}::int as rank, null::text as synonym, ${length} as len
      from terminology_concepts c where ${c} and ${where}${capped ? sql` limit ${CANDIDATES}` : sql``}) x
      order by len, code limit ${limit})`;
  // Synonyms take their concept's visibility: the join checks the concept.
  const synonyms = (rank: number, where: SQL, capped = true) =>
    sql`(select * from (select ${columns}, ${rank}::int as rank, t.term as synonym, length(t.term) as len
      from terminology_synonyms t join terminology_concepts c on c.concept_id = t.concept_id
      where ${c} and ${where}${capped ? sql` limit ${CANDIDATES}` : sql``}) x order by len, code limit ${limit})`;
  const levels: SQL[][] = [];
  if (/^[A-Za-z0-9][A-Za-z0-9.\-_+/*]*$/.test(q)) {
    levels.push([concepts(RANK.codeExact, sql`c.code in (${q}, ${upper})`, sql`length(c.code)`)]);
    levels.push([
      concepts(
        RANK.codePrefix,
        sql`(c.code like ${prefix} or c.code like ${upperPrefix})`,
        sql`length(c.code)`,
      ),
    ]);
  }
  levels.push([
    concepts(RANK.nameExact, sql`c.display_zh = ${q}`, sql`length(c.code)`),
    synonyms(RANK.nameExact, sql`t.term = ${q}`),
  ]);
  levels.push([
    concepts(RANK.namePrefix, sql`c.display_zh like ${prefix}`, sql`length(c.display_zh)`),
    synonyms(RANK.namePrefix, sql`t.term like ${prefix}`),
  ]);
  // One or two letters or digits inside a name: no trigram to look up and rarely meant (code
  // prefix and pinyin initials answer them); a Chinese word of any length is looked for.
  // Three characters or more: the trigram index finds them (uncapped, so the planner takes it).
  // Fewer: no trigram, a scan either way, capped so a common word stops early.
  const capContains = Array.from(q).length < 3;
  if (!/^[A-Za-z0-9]{1,2}$/.test(q))
    levels.push([
      concepts(RANK.nameContains, sql`c.display_zh like ${contains}`, sql`length(c.display_zh)`, capContains),
      synonyms(RANK.nameContains, sql`t.term like ${contains}`, capContains),
    ]);
  if (/^[A-Za-z]+$/.test(q)) {
    const initials = `${escapeLike(q.toLowerCase())}%`;
    levels.push([
      concepts(RANK.pinyin, sql`c.pinyin like ${initials}`, sql`length(c.pinyin)`),
      synonyms(RANK.pinyin, sql`t.pinyin like ${initials}`),
    ]);
  }
  // Levels in ranking order; once `limit` concepts are found, a lower level cannot enter the answer.
  const best = new Map<number, Row>();
  for (const level of levels) {
    const res = await db.execute(sql.join(level, sql` union all `));
    const rows = rowsOf<Row>(res).sort(
      (a, b) => Number(a.len) - Number(b.len) || (a.synonym === null ? 0 : 1) - (b.synonym === null ? 0 : 1),
    );
    for (const r of rows) if (!best.has(Number(r.concept_id))) best.set(Number(r.concept_id), r);
    if (best.size >= limit) break;
  }
  return [...best.values()]
    .sort(
      (a, b) =>
        Number(a.rank) - Number(b.rank) ||
        Number(a.len) - Number(b.len) ||
        (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
        (a.system_key < b.system_key ? -1 : 1),
    )
    .slice(0, limit)
    .map((r) => ({
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
