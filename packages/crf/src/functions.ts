import { normalise } from './conditions.js';
import type { FormItem } from './types.js';
import { isEmpty, toDate, toList, toNumber, toText } from './values.js';

/**
 * Calculation functions, registered by name in a registry that is passed to the engine
 * (as SurveyJS's FunctionFactory, but explicit: nothing registers itself on import, so two
 * studies with different functions can run in one server process).
 */

export interface CalcInput {
  /** Effective answers of the calculation's `fields`, in order (hidden items read as undefined). */
  values: unknown[];
  /** The items behind `values`, for option scores. */
  items: (FormItem | undefined)[];
  /** First and second operand (`xyValue`), for BMI, date difference and age. */
  x: unknown;
  y: unknown;
  compare: unknown;
  now: () => Date;
}

export type CalcFunction = (input: CalcInput) => number | undefined;
export type FunctionRegistry = ReadonlyMap<string, CalcFunction>;

function numbers(values: unknown[]): number[] {
  const out: number[] = [];
  for (const v of values) {
    for (const x of Array.isArray(v) ? v : [v]) {
      const n = toNumber(x);
      if (n !== undefined) out.push(n);
    }
  }
  return out;
}

function optionScore(item: FormItem | undefined, chosen: unknown): number | undefined {
  const option = item?.options?.find((o) => normalise(o.code) === normalise(chosen));
  if (option) return toNumber(option.score) ?? 0;
  // A score item without options holds the score itself.
  return toNumber(chosen);
}

const DAY_MS = 86_400_000;

/** Whole calendar months from a to b (a <= b), read on the UTC wall clock. */
function wholeMonths(a: number, b: number): number {
  const da = new Date(a);
  const db = new Date(b);
  let months = (db.getUTCFullYear() - da.getUTCFullYear()) * 12 + db.getUTCMonth() - da.getUTCMonth();
  // A month is complete only on the same day-of-month (or the last day of a shorter month).
  const lastOfB = new Date(Date.UTC(db.getUTCFullYear(), db.getUTCMonth() + 1, 0)).getUTCDate();
  const dayA = Math.min(da.getUTCDate(), lastOfB);
  const timeA = a % DAY_MS;
  const timeB = b % DAY_MS;
  if (db.getUTCDate() < dayA || (db.getUTCDate() === dayA && timeB < timeA)) months--;
  return months;
}

/** Difference from start to end in days, months or years (negative when end is earlier). */
export function dateDifference(start: number, end: number, unit: unknown): number {
  if (end < start) return -dateDifference(end, start, unit);
  const u = toText(unit).toLowerCase();
  if (u.startsWith('month') || u === 'm' || u === '月') return wholeMonths(start, end);
  if (u.startsWith('year') || u === 'y' || u === '年' || u === '岁')
    return Math.floor(wholeMonths(start, end) / 12);
  return Math.floor((end - start) / DAY_MS);
}

function todayUtc(now: () => Date): number {
  const d = now();
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
}

export const defaultFunctions: Readonly<Record<string, CalcFunction>> = Object.freeze({
  sum: ({ values }) => {
    const ns = numbers(values);
    return ns.length ? ns.reduce((a, b) => a + b, 0) : undefined;
  },
  average: ({ values }) => {
    const ns = numbers(values);
    return ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : undefined;
  },
  min: ({ values }) => {
    const ns = numbers(values);
    return ns.length ? Math.min(...ns) : undefined;
  },
  max: ({ values }) => {
    const ns = numbers(values);
    return ns.length ? Math.max(...ns) : undefined;
  },
  /** Answered fields, or with `compare`, fields whose answer is (or includes) that value. */
  count: ({ values, compare }) => {
    if (isEmpty(compare)) return values.filter((v) => !isEmpty(v)).length;
    const wanted = normalise(compare);
    return values.filter((v) => toList(v).some((x) => normalise(x) === wanted)).length;
  },
  /** Total of the scores of the chosen options; undefined until one field is answered. */
  score: ({ values, items }) => {
    let total = 0;
    let answered = false;
    values.forEach((v, i) => {
      for (const chosen of Array.isArray(v) ? v : [v]) {
        if (isEmpty(chosen)) continue;
        const s = optionScore(items[i], chosen);
        if (s !== undefined) {
          total += s;
          answered = true;
        }
      }
    });
    return answered ? total : undefined;
  },
  /** Weight in kg over height squared; height in cm (or in m when it is 3 or less). */
  bmi: ({ x, y }) => {
    const kg = toNumber(x);
    const h = toNumber(y);
    if (kg === undefined || h === undefined || kg <= 0 || h <= 0) return undefined;
    const m = h > 3 ? h / 100 : h;
    return kg / (m * m);
  },
  dateDiff: ({ x, y, compare }) => {
    const a = toDate(x);
    const b = toDate(y);
    return a === undefined || b === undefined ? undefined : dateDifference(a, b, compare ?? 'days');
  },
  /** Age at a date (`y`, or today): whole years unless `compare` names months or days. */
  age: ({ x, y, compare, now }) => {
    const birth = toDate(x);
    const at = isEmpty(y) ? todayUtc(now) : toDate(y);
    if (birth === undefined || at === undefined || at < birth) return undefined;
    return dateDifference(birth, at, isEmpty(compare) ? 'years' : compare);
  },
});

// Names the older product and REDCap use for the same functions.
const ALIASES: Record<string, string> = {
  avg: 'average',
  mean: 'average',
  total: 'sum',
  scoreSum: 'score',
  datediff: 'dateDiff',
  dateDifference: 'dateDiff',
  ageAt: 'age',
  求和: 'sum',
  平均值: 'average',
  最小值: 'min',
  最大值: 'max',
  计数: 'count',
  评分: 'score',
  日期差: 'dateDiff',
  年龄: 'age',
};

/** A registry holding the default functions plus a study's own (which win on a name clash). */
export function createFunctionRegistry(extra: Record<string, CalcFunction> = {}): FunctionRegistry {
  const map = new Map<string, CalcFunction>(Object.entries(defaultFunctions));
  for (const [alias, target] of Object.entries(ALIASES)) map.set(alias, defaultFunctions[target]!);
  for (const [name, fn] of Object.entries(extra)) map.set(name, fn);
  return map;
}

/** Looks a function up by exact name, then case-insensitively. */
export function findFunction(registry: FunctionRegistry, name: string | undefined): CalcFunction | undefined {
  if (!name) return undefined;
  const exact = registry.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const [k, fn] of registry) if (k.toLowerCase() === lower) return fn;
  return undefined;
}
