import {
  type qualify as Qualify,
  qualify,
  type SemanticAnswer,
  type SemanticConcept,
  splitSentences,
} from '@crdp/core';
import { sql } from 'drizzle-orm';
import { expand, segmenter } from '../coding/match.js';
import type { Db } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { ConceptMatchRow } from './search.js';
import { ensureTerminologies } from './seed.js';

/*
 * `POST /api/terminology/semantic`: a clinical phrase into concepts with spans. Words by the
 * coding area's jieba segmenter; runs of up to MAX_WORDS consecutive words inside one clause are
 * looked up (one query) among the names and synonyms of the store, as written and with the
 * coding lexicon's abbreviations spelled out (慢乙肝 → 慢性乙型病毒性肝炎); the longest span wins
 * and spans never overlap; each concept's negation, uncertainty, time and laterality come from
 * the cleaning engine's `qualify` over its sentence.
 */

const MAX_WORDS = 6;
const MAX_SPAN = 40;
/** At most this many concepts of one span (a name several systems share). */
const PER_SPAN = 5;
const CLAUSE_BREAK = /[，,；;。！!？?\n\r、]/;

interface Token {
  text: string;
  start: number;
  end: number;
}

/** jieba's words with their offsets in the text (white space left out). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let at = 0;
  for (const w of segmenter().cut(text, true)) {
    const i = text.indexOf(w, at);
    if (i < 0) continue;
    at = i + w.length;
    if (w.trim()) out.push({ text: w, start: i, end: at });
  }
  return out;
}

interface Row extends ConceptMatchRow {
  key: string;
}

export async function semantic(
  db: Db,
  appId: number,
  body: { text: string; systems?: string[] | undefined },
): Promise<SemanticAnswer> {
  await ensureTerminologies(db);
  const text = body.text;
  const tokens = tokenize(text);
  // Candidate spans: runs of words within a clause, each with its lookup keys.
  const spans: Array<{ start: number; end: number; raw: string; expanded: string }> = [];
  for (let i = 0; i < tokens.length; i++) {
    if (CLAUSE_BREAK.test(tokens[i]!.text)) continue;
    for (let n = 0; n < MAX_WORDS && i + n < tokens.length; n++) {
      const last = tokens[i + n]!;
      if (CLAUSE_BREAK.test(last.text)) break;
      const raw = text.slice(tokens[i]!.start, last.end);
      if (raw.length > MAX_SPAN) break;
      if (raw.length < 2 || !/[\p{L}\p{N}]/u.test(raw)) continue;
      spans.push({ start: tokens[i]!.start, end: last.end, raw, expanded: expand(raw) });
    }
  }
  const keys = [...new Set(spans.flatMap((s) => [s.raw, s.expanded]))];
  const concepts: SemanticConcept[] = [];
  if (!keys.length) return { text, tokens, concepts };
  const list = sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  );
  const systems = body.systems?.length
    ? sql`and c.system_key in (${sql.join(
        body.systems.map((k) => sql`${k}`),
        sql`, `,
      )})`
    : sql``;
  const visible = sql`not c.retired and (c.app_id is null or c.app_id = ${appId}) ${systems}`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select c.*, c.display_zh as key, null as synonym from terminology_concepts c
        where c.display_zh in (${list}) and ${visible}
      union all
      select c.*, t.term as key, t.term as synonym from terminology_synonyms t
        join terminology_concepts c on c.concept_id = t.concept_id
        where t.term in (${list}) and ${visible}
      order by system_key, code`),
  );
  const byKey = new Map<string, Row[]>();
  for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  // Longest first, then leftmost; a span overlapping a taken one is dropped.
  spans.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken: Array<[number, number]> = [];
  const sentences = splitSentences(text);
  for (const s of spans) {
    const asWritten = byKey.get(s.raw) ?? [];
    const hits = asWritten.length ? asWritten : (byKey.get(s.expanded) ?? []);
    if (!hits.length || taken.some(([a, b]) => s.start < b && a < s.end)) continue;
    taken.push([s.start, s.end]);
    const sentence = sentences.find((x) => x.start <= s.start && s.end <= x.end) ?? {
      start: 0,
      end: text.length,
    };
    const q: ReturnType<typeof Qualify> = qualify(text, s.start, s.end, sentence.start, sentence.end);
    const seen = new Set<number>();
    for (const r of hits.sort((a, b) => Number(!!a.synonym) - Number(!!b.synonym))) {
      if (seen.has(r.concept_id) || seen.size >= PER_SPAN) continue;
      seen.add(r.concept_id);
      concepts.push({
        conceptId: r.concept_id,
        systemKey: r.system_key,
        code: r.code,
        displayZh: r.display_zh,
        displayEn: r.display_en,
        parentCode: r.parent_code,
        level: r.level,
        retired: r.retired,
        pinyin: r.pinyin,
        local: r.local,
        start: s.start,
        end: s.end,
        text: s.raw,
        matchedBy: asWritten.length ? (r.synonym ? 'synonym' : 'name') : 'abbreviation',
        matchedSynonym: r.synonym,
        negated: q.negated,
        uncertain: q.uncertain,
        time: q.time,
        timeDays: q.timeDays,
        laterality: q.laterality,
        cues: q.spans,
      });
    }
  }
  concepts.sort((a, b) => a.start - b.start || a.systemKey.localeCompare(b.systemKey));
  return { text, tokens, concepts };
}
