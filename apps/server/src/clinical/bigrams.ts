/**
 * Character bigrams for full-text search over Chinese clinical text. PostgreSQL's parsers do
 * not split Chinese words and pg_trgm needs three characters, so documents store the bigrams
 * of their text in `search_text` (a GIN index over `to_tsvector('simple', search_text)`), and
 * a term becomes the AND of its bigrams, then is confirmed by a substring match.
 *
 * Han characters (and kana, hangul) make bigrams; runs of letters and digits stay whole words.
 */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
const WORD = /[\p{L}\p{N}]/u;

interface Run {
  cjk: boolean;
  text: string;
}

function runs(text: string): Run[] {
  const out: Run[] = [];
  let cur: Run | null = null;
  for (const ch of text.normalize('NFKC').toLowerCase()) {
    const cjk = CJK.test(ch);
    const word = !cjk && WORD.test(ch);
    if (!cjk && !word) {
      cur = null;
      continue;
    }
    if (!cur || cur.cjk !== cjk) {
      cur = { cjk, text: '' };
      out.push(cur);
    }
    cur.text += ch;
  }
  return out;
}

function bigramsOf(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The text stored in `search_text`: distinct bigrams and words, space-separated. */
export function searchTextOf(...parts: string[]): string {
  const seen = new Set<string>();
  for (const part of parts) {
    for (const r of runs(part)) {
      if (r.cjk) for (const b of bigramsOf(r.text)) seen.add(b);
      else seen.add(r.text);
    }
  }
  return [...seen].join(' ');
}

/**
 * A search term as a tsquery for the 'simple' configuration: its bigrams and words joined by
 * `&`. A single Han character matches as a prefix of bigrams. Null when the term has nothing
 * searchable (only punctuation).
 */
export function tsqueryOf(term: string): string | null {
  const parts: string[] = [];
  for (const r of runs(term)) {
    if (r.cjk) {
      const grams = bigramsOf(r.text);
      if (grams.length === 1 && Array.from(r.text).length === 1) parts.push(`'${r.text}':*`);
      else for (const g of grams) parts.push(`'${g}'`);
    } else {
      parts.push(`'${r.text}':*`);
    }
  }
  return parts.length ? [...new Set(parts)].join(' & ') : null;
}

/** Splits a free-text query into terms: by blanks; quotes are not special. */
export function termsOf(query: string): string[] {
  return query
    .split(/[\s,，;；]+/u)
    .map((t) => t.trim())
    .filter((t) => t.length > 0 && tsqueryOf(t) !== null)
    .slice(0, 8);
}

export interface Segment {
  text: string;
  hit: boolean;
}

/**
 * A short extract of `text` around the first hit of any term, cut into plain and matched
 * segments, so the page marks matches without ever rendering HTML from the data.
 */
export function highlight(text: string, terms: string[], width = 80): Segment[] {
  const lower = text.toLowerCase();
  const needles = terms.map((t) => t.toLowerCase()).filter(Boolean);
  let first = -1;
  for (const n of needles) {
    const i = lower.indexOf(n);
    if (i >= 0 && (first < 0 || i < first)) first = i;
  }
  const start = first < 0 ? 0 : Math.max(0, first - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  const piece = text.slice(start, end);
  const pieceLower = lower.slice(start, end);
  const segs: Segment[] = [];
  let i = 0;
  let plain = '';
  while (i < piece.length) {
    const n = needles.find((x) => pieceLower.startsWith(x, i));
    if (n) {
      if (plain) segs.push({ text: plain, hit: false });
      plain = '';
      segs.push({ text: piece.slice(i, i + n.length), hit: true });
      i += n.length;
    } else {
      plain += piece[i];
      i++;
    }
  }
  if (plain) segs.push({ text: plain, hit: false });
  if (start > 0) segs.unshift({ text: '…', hit: false });
  if (end < text.length) segs.push({ text: '…', hit: false });
  return segs;
}
