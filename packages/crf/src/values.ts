/**
 * How answers are read. Answers arrive as JSON from browsers, older forms and XML records,
 * so a number may be a string and a date may use several separators; every rule reads them
 * through these functions so that "numbers compare as numbers, dates as dates".
 */

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_RE =
  /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A finite number, or undefined when the value is not one (booleans and blanks are not). */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!NUMBER_RE.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Milliseconds since the epoch (UTC wall clock, so a date has no time-zone drift), or
 * undefined when the text is not a real calendar date (2023-02-30 is refused).
 */
export function toDate(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value !== 'string') return undefined;
  const m = DATE_RE.exec(value.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) =>
    x === undefined ? 0 : Number(x),
  );
  const t = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  const check = new Date(t);
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d! || h! > 23 || mi! > 59 || s! > 59) {
    return undefined;
  }
  return t;
}

/** Text with surrounding space removed; numbers and booleans become their text. */
export function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Empty means unanswered: nothing, blank text after trimming, an empty list or object. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.every(isEmpty);
  if (typeof value === 'object') return Object.values(value as object).every(isEmpty);
  return false;
}

/**
 * A list from an array or a separated string ('1,2;3'). Chinese commas count: forms typed in
 * Chinese input mode use them.
 */
export function toList(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    return value
      .split(/[,，;；|]/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  return [value];
}

/** Keys of a list of item keys given as an array or a separated string. */
export function toKeys(value: unknown): string[] {
  return toList(value).map((v) => String(v));
}

/** A flag from the older product's booleans, 0/1 and '0'/'1'. */
export function isOn(flag: unknown): boolean {
  return flag === true || flag === 1 || flag === '1' || flag === 'true';
}

export function isOff(flag: unknown): boolean {
  return flag === false || flag === 0 || flag === '0' || flag === 'false';
}

/** Rounds to the item's `fixed` decimals; half away from zero, as people round by hand. */
export function roundTo(value: number, fixed: unknown): number {
  const digits = toNumber(fixed);
  if (digits === undefined || digits < 0) return value;
  const f = 10 ** Math.min(Math.trunc(digits), 10);
  const r = Math.round(Math.abs(value) * f * (1 + Number.EPSILON)) / f;
  return value < 0 ? -r : r;
}

/** Structural equality of JSON values; used to stop propagation when nothing changed. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** Number of characters a person counts: code points, so an emoji or rare hanzi counts once. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
