/**
 * Numbers as clinical text writes them: 120, 36.5, 1.2×10^5, 1.2x10⁵, 1.2*10^5, 1.2E+05, <20,
 * ranges (36.5~37.2, 120-130) and pairs (120/80). The patterns have no nested repetition, so they
 * run in time linear in the text.
 */

const SUPERSCRIPT: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁺': '+',
  '⁻': '-',
};

/** One number with an optional power of ten: mantissa, then ×10^exp / x10^exp / *10^exp / E±exp. */
export const NUMBER_SOURCE =
  '\\d+(?:\\.\\d+)?(?:\\s*[×xX*]\\s*10\\s*(?:\\^\\s*[-+]?\\d{1,3}|[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})|[eE][-+]?\\d{1,3})?';
const COMPARATOR_SOURCE = '[<>≤≥＜＞]=?';
const RANGE_SEPARATOR = '\\s*(?:-|~|～|—|至|到)\\s*';
const PAIR_SEPARATOR = '\\s*[/／]\\s*';

/** A value: optional comparator, a number, then optionally a range's upper end. */
export const VALUE_SOURCE = `(?:${COMPARATOR_SOURCE})?\\s*${NUMBER_SOURCE}(?:${RANGE_SEPARATOR}${NUMBER_SOURCE})?`;
/** Two numbers with a slash: blood pressure's 120/80. */
export const PAIR_SOURCE = `${NUMBER_SOURCE}${PAIR_SEPARATOR}${NUMBER_SOURCE}`;

/** Parses one number of NUMBER_SOURCE; NaN when it is not one. */
export function parseNumber(raw: string): number {
  const s = raw.replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]/g, (c) => SUPERSCRIPT[c]!).replace(/\s+/g, '');
  const m = /^(\d+(?:\.\d+)?)(?:[×xX*]10\^?([-+]?\d{1,3})|[eE]([-+]?\d{1,3}))?$/.exec(s);
  if (!m) return Number.NaN;
  const exp = m[2] ?? m[3];
  const v = exp === undefined ? Number(m[1]) : Number(m[1]) * 10 ** Number(exp);
  return Number(v.toPrecision(12));
}

export type Comparator = '<' | '>' | '<=' | '>=';
export interface ParsedValue {
  value: number;
  /** The upper end of a range (36.5~37.2), else null. */
  high: number | null;
  comparator: Comparator | null;
}

const NUMBER_RE = new RegExp(NUMBER_SOURCE, 'g');
const COMPARATOR_RE = new RegExp(`^\\s*(${COMPARATOR_SOURCE})`);

/** Parses a value of VALUE_SOURCE (comparator, number, optional range end); null when it holds no number. */
export function parseValue(raw: string): ParsedValue | null {
  const nums = [...raw.matchAll(NUMBER_RE)].map((m) => parseNumber(m[0]));
  if (!nums.length || nums.some(Number.isNaN)) return null;
  const c = COMPARATOR_RE.exec(raw)?.[1];
  const comparator: Comparator | null = c
    ? ((c.replace('＜', '<').replace('＞', '>').replace('≤', '<=').replace('≥', '>=') as Comparator) ?? null)
    : null;
  return { value: nums[0]!, high: nums.length > 1 ? nums[1]! : null, comparator };
}

/** Parses a pair of PAIR_SOURCE (120/80); null when it is not two numbers. */
export function parsePair(raw: string): [number, number] | null {
  const nums = [...raw.matchAll(NUMBER_RE)].map((m) => parseNumber(m[0]));
  if (nums.length !== 2 || nums.some(Number.isNaN)) return null;
  return [nums[0]!, nums[1]!];
}
