import { CODING_CANDIDATES, type CodingCandidate, type CodingReason } from '@crdp/core';
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';
import { NOISE, PHRASES } from './lexicon.js';

/*
 * The suggestion engine of a coding task, pure: given the names of a code system (standard and
 * local codes with their synonyms) it proposes the best codes for a local term, each with a score
 * (0..1) and why. Ways of matching, strongest first:
 *   exact       the term is a code's name;
 *   synonym     the term is one of its synonyms, or becomes its name once the lexicon's
 *               abbreviations are spelled out (慢乙肝 → 慢性乙型病毒性肝炎);
 *   normalized  equal once width, case, punctuation and certainty/side words are set aside;
 *   tokens      jieba words shared (weighted by length), or a standard name contained in the term;
 *   trigram     character similarity (pg_trgm's similarity(), given by the caller, and bigram Dice).
 * Word segmentation: @node-rs/jieba (prebuilt binary from npm, no download at install or run time).
 */

let jieba: Jieba | null = null;
/** The one jieba segmenter of the server (also the terminology area's semantic service). */
export const segmenter = () => {
  jieba ??= Jieba.withDict(dict);
  return jieba;
};

/** Width, case and spaces folded: the text two spellings of one name share. */
export function fold(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, '').toUpperCase();
}

const noise = [...NOISE].sort((a, b) => b.length - a.length);
/** The folded text without certainty, side and filler words (for the normalised comparison). */
export function strip(text: string): string {
  let s = fold(text);
  for (const n of noise) s = s.split(fold(n)).join('');
  return s.replace(/[，,。.、;；:：\-—_/\\[\]【】·'"“”‘’]/g, '');
}

const phrases = PHRASES.map(([from, to]) => [fold(from), fold(to)] as const).sort(
  (a, b) => b[0].length - a[0].length,
);

/**
 * The term with the lexicon's phrases spelled out: at each position the longest phrase that
 * starts there is replaced (unless the text there already reads as the replacement).
 */
export function expand(text: string, table: ReadonlyArray<readonly [string, string]> = phrases): string {
  const s = fold(text);
  let out = '';
  let i = 0;
  while (i < s.length) {
    let hit: readonly [string, string] | undefined;
    for (const p of table) {
      // 急 → 急性: not where the text already says 急性.
      if (s.startsWith(p[0], i) && !(p[1].length > p[0].length && s.startsWith(p[1], i))) {
        hit = p;
        break;
      }
    }
    if (hit) {
      out += hit[1];
      i += hit[0].length;
    } else {
      out += s[i];
      i++;
    }
  }
  return out;
}

/** Words of a text (search mode: long words and their parts), single characters left out unless nothing else. */
export function words(text: string): string[] {
  const all = segmenter()
    .cutForSearch(fold(text), true)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  const long = all.filter((w) => w.length > 1);
  return [...new Set(long.length ? long : all)];
}

function bigrams(s: string): string[] {
  if (s.length < 2) return s ? [s] : [];
  const out: string[] = [];
  for (let i = 0; i < s.length - 1; i++) out.push(s.slice(i, i + 2));
  return out;
}

/** Dice coefficient of the character bigrams. */
export function dice(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  if (!x.length || !y.length) return 0;
  const counts = new Map<string, number>();
  for (const g of x) counts.set(g, (counts.get(g) ?? 0) + 1);
  let common = 0;
  for (const g of y) {
    const n = counts.get(g) ?? 0;
    if (n > 0) {
      common++;
      counts.set(g, n - 1);
    }
  }
  return (2 * common) / (x.length + y.length);
}

/**
 * The other ways a standard name reads: ICD names carry alternatives in brackets
 * (甲状腺毒症[甲状腺功能亢进症]) and qualifiers a local term never says (未特指的, 其他,
 * 不可归类在他处者, 病原体未特指).
 */
export function nameVariants(name: string): string[] {
  const out = new Set<string>();
  const n = name.normalize('NFKC');
  for (const m of n.matchAll(/\[([^\]]+)\]/g)) out.add(m[1]!);
  const bare = n.replace(/\[[^\]]*\]/g, '').replace(/\(([^)]*)\)/g, '$1');
  const plain = bare
    .replace(/[,，](不可归类在他处者|病原体未特指|未特指.*|身体部位未特指)$/u, '')
    .replace(/^(未特指的|其他和未特指的|其他和未特指|其他的|其他)/u, '')
    .replace(/[,，]?不可归类在他处者/u, '');
  for (const v of [bare, plain]) if (v && v !== n) out.add(v);
  return [...out];
}

/** One name a code answers to: its display or a synonym. */
export interface VocabularyName {
  code: string;
  displayZh: string;
  name: string;
  synonym: boolean;
}

interface Entry extends VocabularyName {
  folded: string;
  stripped: string;
  words: string[];
  chars: string[];
  /** A reading of the display (nameVariants), not a name given as such. */
  variant: boolean;
}

/** The names of a code system, indexed for matching. Built once per task. */
export class Vocabulary {
  private readonly entries: Entry[];
  private readonly byFolded = new Map<string, Entry[]>();
  private readonly byStripped = new Map<string, Entry[]>();
  /** Character bigram → entries holding it (the candidate pool of a term). */
  private readonly byGram = new Map<string, Entry[]>();

  /** The display entry of each code (pg_trgm's hits are named by code). */
  private readonly byCode = new Map<string, Entry>();
  /** Inverse document frequency of words and characters over the names. */
  private readonly idf = new Map<string, number>();

  constructor(names: readonly VocabularyName[]) {
    const entry = (n: VocabularyName, name: string, variant: boolean): Entry => {
      const folded = fold(name);
      return {
        ...n,
        name,
        folded,
        stripped: strip(name),
        words: words(name),
        chars: [...new Set(strip(name))],
        variant,
      };
    };
    this.entries = names.flatMap((n) => [
      entry(n, n.name, false),
      ...nameVariants(n.name).map((v) => entry(n, v, true)),
    ]);
    const df = new Map<string, number>();
    for (const e of this.entries)
      for (const k of new Set([...e.words, ...e.chars])) df.set(k, (df.get(k) ?? 0) + 1);
    const total = this.entries.length;
    for (const [k, n] of df) this.idf.set(k, Math.log(1 + total / n));
    const add = (m: Map<string, Entry[]>, k: string, e: Entry) => {
      const l = m.get(k);
      if (l) l.push(e);
      else m.set(k, [e]);
    };
    for (const e of this.entries) {
      if (!e.synonym && !e.variant && !this.byCode.has(e.code)) this.byCode.set(e.code, e);
      add(this.byFolded, e.folded, e);
      if (e.stripped) add(this.byStripped, e.stripped, e);
      for (const g of new Set(bigrams(e.stripped))) add(this.byGram, g, e);
      for (const c of e.chars) add(this.byGram, c, e);
    }
  }

  /** IDF-weighted Dice of two sets of words or characters: a shared rare word (肺, 胰) counts more than 恶性肿瘤. */
  private overlap(a: readonly string[], b: readonly string[]): { score: number; shared: string[] } {
    const weight = (ws: readonly string[]) => ws.reduce((n, w) => n + w.length * (this.idf.get(w) ?? 8), 0);
    const bs = new Set(b);
    const shared = a.filter((w) => bs.has(w));
    const total = weight(a) + weight(b);
    return { score: total ? (2 * weight(shared)) / total : 0, shared };
  }

  get size() {
    return this.entries.length;
  }

  /**
   * The best codes for a term, at most `limit`, best first. `trigram`: pg_trgm's similarity of
   * the term to some names (code → similarity), when the caller asked the database.
   */
  suggest(
    term: string,
    opts: { limit?: number; trigram?: ReadonlyMap<string, number>; lexicon?: boolean } = {},
  ): CodingCandidate[] {
    const limit = opts.limit ?? CODING_CANDIDATES;
    const best = new Map<string, CodingCandidate>();
    const offer = (e: Entry, score: number, reason: CodingReason, matched: string) => {
      const s = Math.round(Math.min(1, score) * 1000) / 1000;
      const had = best.get(e.code);
      if (!had || had.score < s)
        best.set(e.code, { code: e.code, displayZh: e.displayZh, score: s, reason, matched });
    };
    const folded = fold(term);
    if (!folded) return [];
    for (const e of this.byFolded.get(folded) ?? [])
      if (e.variant) offer(e, 0.95, 'normalized', e.name);
      else offer(e, e.synonym ? 0.98 : 1, e.synonym ? 'synonym' : 'exact', e.name);
    const variants = new Set([folded]);
    if (opts.lexicon !== false) {
      const expanded = expand(term);
      variants.add(expanded);
      for (const e of this.byFolded.get(expanded) ?? []) offer(e, 0.95, 'synonym', expanded);
    }
    for (const v of variants) {
      const s = strip(v);
      for (const e of this.byStripped.get(s) ?? []) offer(e, 0.92, 'normalized', e.name);
    }
    // The pool: names sharing a character bigram, or a character that is not common, with a variant.
    const pool = new Set<Entry>();
    const common = this.entries.length / 10;
    for (const v of variants) {
      const vs = strip(v);
      for (const g of new Set([...bigrams(vs), ...vs])) {
        const l = this.byGram.get(g) ?? [];
        if (g.length > 1 || l.length <= common) for (const e of l) pool.add(e);
      }
    }
    for (const v of variants) {
      const vs = strip(v);
      const w = words(v);
      const c = [...new Set(vs)];
      for (const e of pool) {
        const wo = this.overlap(w, e.words);
        const co = this.overlap(c, e.chars);
        // A standard name inside the term (糖尿病 in 2型糖尿病伴肾病): the more of the term it covers, the closer.
        const inside =
          e.stripped.length >= 2 && vs.includes(e.stripped)
            ? 0.55 + 0.35 * (e.stripped.length / vs.length)
            : 0;
        const tokens = Math.max(0.9 * (0.5 * wo.score + 0.5 * co.score), inside);
        const chars = 0.85 * dice(vs, e.stripped);
        if (tokens >= chars && tokens > 0)
          offer(
            e,
            tokens,
            'tokens',
            inside >= tokens ? e.name : (wo.shared.length ? wo.shared : co.shared).join(' '),
          );
        else if (chars > 0) offer(e, chars, 'trigram', e.name);
      }
    }
    if (opts.trigram)
      for (const [code, sim] of opts.trigram) {
        const e = this.byCode.get(code);
        if (e) offer(e, 0.85 * sim, 'trigram', e.name);
      }
    return [...best.values()]
      .sort((a, b) => b.score - a.score || a.code.length - b.code.length || (a.code < b.code ? -1 : 1))
      .slice(0, limit);
  }
}
