import type { Locale } from '../messages.js';

/**
 * Chinese resident identity card number check (GB 11643-1999), spec 001 section 5.
 * The three tips are the product's own wording and are shown to users as they are.
 */

export const NATIONAL_ID_TIPS = {
  format: '身份证号格式错误',
  province: '身份证号地址编码错误',
  checkDigit: '身份证号校验位错误',
} as const;

export interface NationalIdResult {
  pass: boolean;
  /** '' when the number passes, else one of {@link NATIONAL_ID_TIPS}. */
  tip: string;
}

/** The province-level codes the spec accepts as the first two digits. */
export const NATIONAL_ID_PROVINCE_CODES: readonly number[] = [
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61,
  62, 63, 64, 65, 71, 81, 82, 91,
];
const PROVINCES = new Set(NATIONAL_ID_PROVINCE_CODES);

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CODES = '10X98765432';

const ID15 = /^\d{6}(\d{2})(\d{2})(\d{2})\d{3}$/;
const ID18 = /^\d{6}(\d{4})(\d{2})(\d{2})\d{3}[\dX]$/;

/** The check character of the first 17 digits of an 18-digit number. */
export function nationalIdCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK_CODES[sum % 11]!;
}

// A real calendar date, so 0230 or 0431 is a format error and not just "month 1-12, day 1-31".
function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

function birthOf(id: string): { year: number; month: number; day: number } | null {
  const m15 = ID15.exec(id);
  // 15-digit numbers were issued before 2000 with a two-digit year of the 1900s.
  if (m15) return { year: 1900 + Number(m15[1]), month: Number(m15[2]), day: Number(m15[3]) };
  const m18 = ID18.exec(id);
  if (m18) return { year: Number(m18[1]), month: Number(m18[2]), day: Number(m18[3]) };
  return null;
}

/**
 * Checks a national ID number in the spec's order: format (15 or 18 digits, real birth date),
 * then province code, then, for 18 digits, the weighted check digit modulo 11.
 * Surrounding blanks are ignored and a lower-case x is read as X, as people type them.
 */
export function checkNationalId(id: unknown): NationalIdResult {
  if (typeof id !== 'string') return { pass: false, tip: NATIONAL_ID_TIPS.format };
  const value = id.trim().toUpperCase();
  const birth = birthOf(value);
  if (!birth || birth.year < 1800 || !isCalendarDate(birth.year, birth.month, birth.day)) {
    return { pass: false, tip: NATIONAL_ID_TIPS.format };
  }
  if (!PROVINCES.has(Number(value.slice(0, 2)))) return { pass: false, tip: NATIONAL_ID_TIPS.province };
  if (value.length === 18 && nationalIdCheckDigit(value) !== value[17]) {
    return { pass: false, tip: NATIONAL_ID_TIPS.checkDigit };
  }
  return { pass: true, tip: '' };
}

/**
 * The three tips in words for a person, in both languages of the product (the Chinese is the
 * spec's own tip). Every screen that checks a national ID field shows these.
 */
export const NATIONAL_ID_TIP_WORDS: Readonly<Record<string, Readonly<Record<Locale, string>>>> = {
  [NATIONAL_ID_TIPS.format]: {
    'zh-CN': NATIONAL_ID_TIPS.format,
    'en-US': 'The national ID number is not 15 or 18 digits with a real birth date',
  },
  [NATIONAL_ID_TIPS.province]: {
    'zh-CN': NATIONAL_ID_TIPS.province,
    'en-US': 'The national ID number starts with an unknown region code',
  },
  [NATIONAL_ID_TIPS.checkDigit]: {
    'zh-CN': NATIONAL_ID_TIPS.checkDigit,
    'en-US': "The national ID number's check digit is wrong",
  },
};

/**
 * What is wrong with a national ID a person typed, in words (null when it passes or is empty:
 * whether the field is required is the form's own rule). The same check as the server's.
 */
export function nationalIdProblem(id: unknown, locale: Locale): string | null {
  if (id === undefined || id === null || (typeof id === 'string' && id.trim() === '')) return null;
  const r = checkNationalId(id);
  if (r.pass) return null;
  return NATIONAL_ID_TIP_WORDS[r.tip]?.[locale] ?? r.tip;
}

/** Birth date (YYYY-MM-DD) and sex code (1 male, 2 female) read from a valid number, else null. */
export function parseNationalId(id: string): { birthDate: string; gender: 1 | 2 } | null {
  if (!checkNationalId(id).pass) return null;
  const value = id.trim().toUpperCase();
  const b = birthOf(value)!;
  const seq = Number(value.length === 18 ? value[16] : value[14]);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { birthDate: `${b.year}-${pad(b.month)}-${pad(b.day)}`, gender: seq % 2 === 1 ? 1 : 2 };
}

export interface RandomNationalIdOptions {
  length?: 15 | 18;
  /** Birth date as YYYY-MM-DD; random between 1930 and 2020 when absent. */
  birthDate?: string;
}

/**
 * A valid random number for tests and demo data. `rng` returns floats in [0, 1) like
 * Math.random, so tests can pass a seeded generator and get the same numbers every run.
 */
export function randomNationalId(
  rng: () => number = Math.random,
  options: RandomNationalIdOptions = {},
): string {
  const int = (n: number) => Math.min(n - 1, Math.floor(rng() * n));
  const digits = (count: number) => Array.from({ length: count }, () => String(int(10))).join('');
  const province = NATIONAL_ID_PROVINCE_CODES[int(NATIONAL_ID_PROVINCE_CODES.length)]!;
  const length = options.length ?? 18;
  let year: number;
  let month: number;
  let day: number;
  if (options.birthDate) {
    [year, month, day] = options.birthDate.split('-').map(Number) as [number, number, number];
  } else {
    year = (length === 15 ? 1930 + int(70) : 1930 + int(91)) as number;
    month = 1 + int(12);
    day = 1 + int(28);
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  const area = `${province}${digits(4)}`;
  if (length === 15) return `${area}${pad(year % 100)}${pad(month)}${pad(day)}${digits(3)}`;
  const first17 = `${area}${year}${pad(month)}${pad(day)}${digits(3)}`;
  return first17 + nationalIdCheckDigit(first17);
}
