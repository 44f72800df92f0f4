/**
 * What surrounds a finding in its clause: negation (无, 否认, 未见 …), uncertainty (考虑, 疑似 …),
 * relative time (3天前) and laterality (左, 右, 双侧). A NegEx-style reading: cues are looked for
 * in the same clause (commas end a clause), before the finding within a few characters, and a
 * few after it (阴性, (-), ？).
 */

export interface Qualifiers {
  negated: boolean;
  uncertain: boolean;
  time: string | null;
  timeDays: number | null;
  laterality: 'left' | 'right' | 'both' | null;
  spans: { start: number; end: number; role: 'negation' | 'uncertainty' | 'time' | 'laterality' }[];
}

const CLAUSE_END = /[，,；;。！!\n]/;
/** How far before a finding a cue may stand (characters within the clause). */
const PRE_CUE_WINDOW = 10;

const NEGATION_PRE = [
  '否认',
  '未见',
  '未闻及',
  '未触及',
  '未及',
  '未扪及',
  '未诉',
  '无',
  '未',
  '没有',
  '不伴',
  '排除',
];
const NEGATION_POST = ['阴性', '（-）', '(-)', '未触及', '未及', '未见', '消失', '不明显'];
/** Words that start like a negation but negate nothing here ("无明显诱因出现发热"). */
const PSEUDO_NEGATION = [
  '无明显诱因',
  '无诱因',
  '无明显原因',
  '未规律',
  '未正规',
  '未予重视',
  '未治疗',
  '未诊治',
];
const UNCERTAIN_PRE = ['考虑', '疑似', '可疑', '疑为', '疑', '可能', '待排', '不除外', '不排除', '倾向'];
const UNCERTAIN_POST = ['？', '?', '可能', '待排', '待查'];

const TIME_RE =
  /(\d+(?:\.\d+)?|[一二两三四五六七八九十百半]+)\s*(?:个)?\s*(分钟|小时|天|日|周|星期|月|年)(?:余|多|许)?\s*(前|后|以来)/g;
const DAYS: Record<string, number> = {
  分钟: 1 / 1440,
  小时: 1 / 24,
  天: 1,
  日: 1,
  周: 7,
  星期: 7,
  月: 30,
  年: 365,
};
const LATERALITY: [string, 'left' | 'right' | 'both'][] = [
  ['双侧', 'both'],
  ['左侧', 'left'],
  ['右侧', 'right'],
  ['双', 'both'],
  ['左', 'left'],
  ['右', 'right'],
];

/** Small Chinese numerals (一 … 九十九, 半). */
export function chineseNumber(s: string): number {
  if (/^\d/.test(s)) return Number(s);
  if (s === '半') return 0.5;
  const d: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
  if (s.includes('百')) return Number.NaN;
  const [tens, ones] = s.split('十');
  if (s.includes('十'))
    return (tens ? (d[tens] ?? Number.NaN) : 1) * 10 + (ones ? (d[ones] ?? Number.NaN) : 0);
  return d[s] ?? Number.NaN;
}

/** The clause around [start, end) of text, bounded by [from, to) (the sentence). */
export function clauseOf(text: string, start: number, end: number, from: number, to: number) {
  let a = start;
  while (a > from && !CLAUSE_END.test(text[a - 1]!)) a--;
  let b = end;
  while (b < to && !CLAUSE_END.test(text[b]!)) b++;
  return { start: a, end: b };
}

/** The last cue of `cues` in text[a, b), or null. Longest cue first at each position. */
function lastCue(text: string, a: number, b: number, cues: string[]) {
  const seg = text.slice(a, b);
  let best: { start: number; end: number } | null = null;
  for (const c of cues) {
    const i = seg.lastIndexOf(c);
    if (i >= 0 && (!best || a + i > best.start || (a + i === best.start && c.length > best.end - best.start)))
      best = { start: a + i, end: a + i + c.length };
  }
  return best;
}

function firstCue(text: string, a: number, b: number, cues: string[]) {
  const seg = text.slice(a, b);
  let best: { start: number; end: number } | null = null;
  for (const c of cues) {
    const i = seg.indexOf(c);
    if (i >= 0 && (!best || a + i < best.start)) best = { start: a + i, end: a + i + c.length };
  }
  return best;
}

/** Masks pseudo-negations so that their 无/未 is not read as a cue (same length: offsets hold). */
function maskPseudo(seg: string) {
  if (!seg.includes('无') && !seg.includes('未')) return seg;
  let s = seg;
  for (const p of PSEUDO_NEGATION) s = s.split(p).join('＿'.repeat(p.length));
  return s;
}

/**
 * Qualifiers of a finding at [start, end) in the sentence [from, to) of text. `postEnd` is where
 * the finding's own words end (after its value and unit), so a cue after it is looked for there.
 */
export function qualify(text: string, start: number, end: number, from: number, to: number): Qualifiers {
  const clause = clauseOf(text, start, end, from, to);
  const preFrom = Math.max(clause.start, start - PRE_CUE_WINDOW);
  const masked = maskPseudo(text.slice(preFrom, start));
  const spans: Qualifiers['spans'] = [];
  const postTo = Math.min(clause.end, end + 6);
  const pre = lastCue(masked, 0, masked.length, NEGATION_PRE);
  const neg = pre
    ? { start: preFrom + pre.start, end: preFrom + pre.end }
    : firstCue(text, end, postTo, NEGATION_POST);
  if (neg) spans.push({ ...neg, role: 'negation' });
  const unc = lastCue(text, preFrom, start, UNCERTAIN_PRE) ?? firstCue(text, end, postTo, UNCERTAIN_POST);
  if (unc) spans.push({ ...unc, role: 'uncertainty' });
  let time: string | null = null;
  let timeDays: number | null = null;
  // The time of a finding is in its clause, else earlier in its sentence ("3天前出现发热，伴腹痛").
  for (const [a, b] of [
    [clause.start, clause.end],
    [from, start],
  ] as const) {
    TIME_RE.lastIndex = 0;
    const seg = text.slice(a, b);
    let m: RegExpExecArray | null = null;
    for (let x = TIME_RE.exec(seg); x; x = TIME_RE.exec(seg)) m = x;
    if (m) {
      const n = chineseNumber(m[1]!);
      time = m[0];
      const days = n * DAYS[m[2]!]!;
      timeDays = Number.isNaN(days) ? null : Number((m[3] === '后' ? days : -days).toFixed(3));
      spans.push({ start: a + m.index, end: a + m.index + m[0].length, role: 'time' });
      break;
    }
  }
  let laterality: Qualifiers['laterality'] = null;
  const latFrom = Math.max(clause.start, start - 6);
  for (const [word, side] of LATERALITY) {
    const i = text.slice(latFrom, start).lastIndexOf(word);
    if (i >= 0) {
      laterality = side;
      spans.push({ start: latFrom + i, end: latFrom + i + word.length, role: 'laterality' });
      break;
    }
  }
  return { negated: !!neg, uncertain: !!unc, time, timeDays, laterality, spans };
}
