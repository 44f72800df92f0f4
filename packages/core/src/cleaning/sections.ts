/**
 * Paragraph cleaning (段落清洗): a clinical document (admission note, discharge summary, progress
 * note) split into its sections by their headings before the rules run, and each section into
 * sentences. Offsets are positions in the document's text, so every extraction points back at
 * its span.
 */

/** Section keys, in the order an admission note usually writes them. */
export const CLEANING_SECTIONS = [
  'header',
  'chief_complaint',
  'present_illness',
  'past_history',
  'personal_history',
  'marital_history',
  'menstrual_history',
  'family_history',
  'physical_exam',
  'specialist_exam',
  'auxiliary_exam',
  'course',
  'admission_diagnosis',
  'discharge_diagnosis',
  'diagnosis',
  'discharge_status',
  'discharge_orders',
] as const;
export type CleaningSection = (typeof CLEANING_SECTIONS)[number];

/** Headings as documents write them -> section. Longest first when matched. */
const HEADINGS: Record<string, CleaningSection> = {
  主诉: 'chief_complaint',
  现病史: 'present_illness',
  既往史: 'past_history',
  既往病史: 'past_history',
  个人史: 'personal_history',
  婚育史: 'marital_history',
  婚姻史: 'marital_history',
  月经史: 'menstrual_history',
  家族史: 'family_history',
  体格检查: 'physical_exam',
  查体: 'physical_exam',
  入院查体: 'physical_exam',
  专科检查: 'specialist_exam',
  专科情况: 'specialist_exam',
  辅助检查: 'auxiliary_exam',
  实验室检查: 'auxiliary_exam',
  入院前辅助检查: 'auxiliary_exam',
  诊疗经过: 'course',
  住院经过: 'course',
  治疗经过: 'course',
  入院诊断: 'admission_diagnosis',
  初步诊断: 'admission_diagnosis',
  出院诊断: 'discharge_diagnosis',
  诊断: 'diagnosis',
  目前诊断: 'diagnosis',
  出院情况: 'discharge_status',
  出院时情况: 'discharge_status',
  出院医嘱: 'discharge_orders',
};

const HEADING_RE = new RegExp(
  // A heading starts a line (or the text), may be numbered ("一、" "1." "【】"), and ends in a colon.
  `(^|\\n)[ \\t\\u3000]*(?:[一二三四五六七八九十]+[、.．]|\\d{1,2}[、.．)）]|【)?[ \\t\\u3000]*(${Object.keys(
    HEADINGS,
  )
    .sort((a, b) => b.length - a.length)
    .join('|')})[ \\t\\u3000]*(?:】)?[ \\t\\u3000]*[:：]`,
  'g',
);

export interface SectionSpan {
  key: CleaningSection;
  /** The heading as written ('' for the text before the first heading). */
  title: string;
  /** The body: after the heading's colon to the next heading. */
  start: number;
  end: number;
}

/** Splits a document into sections; text before the first heading is `header` (left out when blank). */
export function splitSections(text: string): SectionSpan[] {
  const heads: { title: string; headStart: number; bodyStart: number }[] = [];
  for (const m of text.matchAll(HEADING_RE)) {
    const headStart = m.index + m[1]!.length;
    heads.push({ title: m[2]!, headStart, bodyStart: m.index + m[0].length });
  }
  const out: SectionSpan[] = [];
  const firstHead = heads[0]?.headStart ?? text.length;
  if (text.slice(0, firstHead).trim()) out.push({ key: 'header', title: '', start: 0, end: firstHead });
  heads.forEach((h, i) => {
    const end = heads[i + 1]?.headStart ?? text.length;
    out.push({ key: HEADINGS[h.title]!, title: h.title, start: h.bodyStart, end });
  });
  return out;
}

/** A sentence longer than this is cut: it bounds the work of any one rule on any one sentence. */
export const SENTENCE_MAX = 300;

export interface SentenceSpan {
  start: number;
  end: number;
}

/**
 * Sentences of text[from, to): split after 。；;！!？? and at line ends; commas stay inside (a
 * clause is the scope of a negation, not a sentence). Blank pieces are left out; spans exclude
 * surrounding white space.
 */
export function splitSentences(text: string, from = 0, to = text.length): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let s = from;
  const push = (a: number, b: number) => {
    while (a < b && /\s/.test(text[a]!)) a++;
    while (b > a && /\s/.test(text[b - 1]!)) b--;
    for (let x = a; x < b; x += SENTENCE_MAX) out.push({ start: x, end: Math.min(b, x + SENTENCE_MAX) });
  };
  for (let i = from; i < to; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') {
      push(s, i);
      s = i + 1;
    } else if ('。；;！!？?'.includes(c)) {
      push(s, i + 1);
      s = i + 1;
    }
  }
  push(s, to);
  return out;
}
