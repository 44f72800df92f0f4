import { FORMULA_SOURCES, type FormulaSource } from '@crdp/core';
import { createFunctionRegistry, dateDifference, type FunctionRegistry, findFunction } from './functions.js';
import { isEmpty, toDate, toNumber, toText } from './values.js';

/**
 * Formulas (公式编辑器): a small, safe expression language for computed indicators (BMI, eGFR,
 * MELD, days from diagnosis to operation). The text is read by this parser into a tree and
 * the tree is walked; nothing is ever handed to `eval` or `new Function`, and the only
 * functions an expression can call are the CRF engine's calculation registry (sum, average,
 * min, max, count, bmi, dateDiff, age …) and the few math functions below.
 *
 * Grammar, loosest first:
 *   cond    := or ('?' cond ':' cond)?
 *   or      := and (('or' | '||') and)*
 *   and     := eq (('and' | '&&') eq)*
 *   eq      := cmp (('==' | '=' | '!=' | '<>') cmp)*
 *   cmp     := add (('<' | '<=' | '>' | '>=') add)*
 *   add     := mul (('+' | '-') mul)*
 *   mul     := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '+' | 'not' | '!') unary | power
 *   power   := primary ('^' unary)?          (right-associative: 2^3^2 = 2^9; -2^2 = -4)
 *   primary := number | 'text' | "text" | true | false | null | name | {any name} | name '(' args ')' | '(' cond ')'
 * Full-width （），×÷ typed with a Chinese keyboard read as their ASCII twins.
 */

export const FORMULA_MAX_CHARS = 2000;
const MAX_DEPTH = 60;
const MAX_NAME = 60;

export type FormulaErrorCode =
  | 'empty'
  | 'tooLong'
  | 'tooDeep'
  | 'unexpected'
  | 'unclosed'
  | 'badName'
  | 'unknownFunction'
  | 'arity'
  | 'unknownVariable'
  | 'missingInput'
  | 'notNumber'
  | 'divideByZero'
  | 'notFinite'
  | 'noValue';

export interface FormulaErrorParams {
  /** 1-based character position in the expression, where one applies. */
  at?: number;
  /** The token, name or function concerned. */
  name?: string;
  /** Expected argument count, in words ("1", "2–3"). */
  expected?: string;
  /** What is not closed. */
  what?: 'quote' | 'brace' | 'paren';
}

const WHAT = {
  quote: { zh: '引号', en: 'quote' },
  brace: { zh: '花括号', en: 'brace' },
  paren: { zh: '括号', en: 'parenthesis' },
};

const TEXTS: Record<
  FormulaErrorCode,
  { zh: (p: FormulaErrorParams) => string; en: (p: FormulaErrorParams) => string }
> = {
  empty: { zh: () => '公式为空', en: () => 'the formula is empty' },
  tooLong: {
    zh: () => `公式超过 ${FORMULA_MAX_CHARS} 个字符`,
    en: () => `the formula is longer than ${FORMULA_MAX_CHARS} characters`,
  },
  tooDeep: { zh: () => '公式嵌套过深', en: () => 'the formula is nested too deeply' },
  unexpected: {
    zh: (p) => (p.name ? `第 ${p.at} 个字符处不应出现“${p.name}”` : `第 ${p.at} 个字符处公式不完整`),
    en: (p) =>
      p.name
        ? `unexpected "${p.name}" at character ${p.at}`
        : `the formula ends too early (character ${p.at})`,
  },
  unclosed: {
    zh: (p) => `第 ${p.at} 个字符处的${WHAT[p.what ?? 'paren'].zh}没有闭合`,
    en: (p) => `the ${WHAT[p.what ?? 'paren'].en} at character ${p.at} is not closed`,
  },
  badName: {
    zh: (p) => `第 ${p.at} 个字符处的变量名不合规（1–${MAX_NAME} 个字符）`,
    en: (p) => `the variable name at character ${p.at} is not valid (1–${MAX_NAME} characters)`,
  },
  unknownFunction: {
    zh: (p) => `没有名为“${p.name}”的函数`,
    en: (p) => `there is no function named "${p.name}"`,
  },
  arity: {
    zh: (p) => `函数“${p.name}”需要 ${p.expected} 个参数`,
    en: (p) => `the function "${p.name}" takes ${p.expected} argument(s)`,
  },
  unknownVariable: {
    zh: (p) => `变量“${p.name}”未定义`,
    en: (p) => `the variable "${p.name}" is not defined`,
  },
  missingInput: {
    zh: (p) => `缺少输入“${p.name}”：该患者没有这项数据`,
    en: (p) => `the input "${p.name}" is missing: the patient has no such data`,
  },
  notNumber: {
    zh: (p) => `“${p.name}”不是数值，不能参与计算`,
    en: (p) => `"${p.name}" is not a number and cannot be calculated with`,
  },
  divideByZero: { zh: () => '除数为 0', en: () => 'division by zero' },
  notFinite: {
    zh: (p) => `“${p.name}”的结果不是有限数值（如对 0 或负数取对数）`,
    en: (p) => `"${p.name}" gives no finite number (such as the logarithm of 0 or of a negative number)`,
  },
  noValue: {
    zh: (p) => `函数“${p.name}”对这些输入没有结果`,
    en: (p) => `the function "${p.name}" gives no value for these inputs`,
  },
};

/** A formula that cannot be read or worked out, with its reason in both languages. */
export class FormulaError extends Error {
  readonly zh: string;
  readonly en: string;
  constructor(
    readonly code: FormulaErrorCode,
    readonly params: FormulaErrorParams = {},
  ) {
    const t = TEXTS[code];
    super(t.en(params));
    this.name = 'FormulaError';
    this.zh = t.zh(params);
    this.en = t.en(params);
  }
}

// ---------------------------------------------------------------------------------------------
// Tokens

type TokKind = 'num' | 'str' | 'name' | 'op' | 'end';
interface Token {
  kind: TokKind;
  text: string;
  value?: number | string;
  /** 1-based position. */
  at: number;
  /** A name written in braces ({体重}): always a variable, never a keyword. */
  braced?: boolean;
}

const FULL_WIDTH: Record<string, string> = { '（': '(', '）': ')', '，': ',', '×': '*', '÷': '/', '＾': '^' };
const OPERATORS = [
  '<=',
  '>=',
  '==',
  '!=',
  '<>',
  '&&',
  '||',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '(',
  ')',
  ',',
  '?',
  ':',
  '<',
  '>',
  '=',
  '!',
];
const NUMBER_RE = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/;
const NAME_RE = /^[\p{L}_][\p{L}\p{N}_]*/u;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = FULL_WIDTH[src[i]!] ?? src[i]!;
    const at = i + 1;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const rest = src.slice(i);
    const num = NUMBER_RE.exec(rest);
    if (num) {
      out.push({ kind: 'num', text: num[0], value: Number(num[0]), at });
      i += num[0].length;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = '';
      while (j < src.length && src[j] !== ch) {
        if (src[j] === '\\' && j + 1 < src.length) j++;
        text += src[j];
        j++;
      }
      if (j >= src.length) throw new FormulaError('unclosed', { at, what: 'quote' });
      out.push({ kind: 'str', text: src.slice(i, j + 1), value: text, at });
      i = j + 1;
      continue;
    }
    if (ch === '{') {
      const close = src.indexOf('}', i + 1);
      if (close < 0) throw new FormulaError('unclosed', { at, what: 'brace' });
      const name = src.slice(i + 1, close).trim();
      if (!name || Array.from(name).length > MAX_NAME || /[{}]/.test(name))
        throw new FormulaError('badName', { at });
      out.push({ kind: 'name', text: name, at, braced: true });
      i = close + 1;
      continue;
    }
    const name = NAME_RE.exec(rest);
    if (name) {
      out.push({ kind: 'name', text: name[0], at });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => (o.length === 1 ? ch === o : rest.startsWith(o)));
    if (op) {
      out.push({ kind: 'op', text: op, at });
      i += op.length;
      continue;
    }
    throw new FormulaError('unexpected', { at, name: String.fromCodePoint(src.codePointAt(i)!) });
  }
  out.push({ kind: 'end', text: '', at: src.length + 1 });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tree

export type FormulaNode =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'bool'; v: boolean }
  | { k: 'null' }
  | { k: 'var'; name: string; at: number }
  | { k: 'un'; op: '-' | '+' | 'not'; a: FormulaNode; at: number }
  | { k: 'bin'; op: string; a: FormulaNode; b: FormulaNode; at: number }
  | { k: 'cond'; c: FormulaNode; a: FormulaNode; b: FormulaNode }
  | { k: 'call'; name: string; args: FormulaNode[]; at: number };

const KEYWORDS = new Map<string, string>([
  ['and', '&&'],
  ['or', '||'],
  ['not', '!'],
  ['AND', '&&'],
  ['OR', '||'],
  ['NOT', '!'],
]);

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(): Token {
    return this.toks[this.i]!;
  }
  /** The operator a token stands for: its text, or the symbol of and/or/not. */
  private opOf(t: Token): string | undefined {
    if (t.kind === 'op') return t.text;
    if (t.kind === 'name' && !t.braced) return KEYWORDS.get(t.text);
    return undefined;
  }
  private take(...ops: string[]): Token | undefined {
    const t = this.peek();
    const op = this.opOf(t);
    if (op !== undefined && ops.includes(op)) {
      this.i++;
      return t;
    }
    return undefined;
  }
  private fail(t: Token): never {
    throw new FormulaError('unexpected', t.kind === 'end' ? { at: t.at } : { at: t.at, name: t.text });
  }
  private enter() {
    if (++this.depth > MAX_DEPTH) throw new FormulaError('tooDeep');
  }

  parseAll(): FormulaNode {
    const node = this.cond();
    const t = this.peek();
    if (t.kind !== 'end') this.fail(t);
    return node;
  }

  private cond(): FormulaNode {
    this.enter();
    const c = this.binary(0);
    let out = c;
    if (this.take('?')) {
      const a = this.cond();
      const colon = this.peek();
      if (!this.take(':')) this.fail(colon);
      const b = this.cond();
      out = { k: 'cond', c, a, b };
    }
    this.depth--;
    return out;
  }

  private static readonly LEVELS: string[][] = [
    ['||'],
    ['&&'],
    ['==', '=', '!=', '<>'],
    ['<', '<=', '>', '>='],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number): FormulaNode {
    if (level >= Parser.LEVELS.length) return this.unary();
    let a = this.binary(level + 1);
    for (;;) {
      const t = this.take(...Parser.LEVELS[level]!);
      if (!t) return a;
      const b = this.binary(level + 1);
      const op = this.opOf(t)!;
      a = { k: 'bin', op: op === '=' ? '==' : op === '<>' ? '!=' : op, a, b, at: t.at };
    }
  }

  private unary(): FormulaNode {
    this.enter();
    const t = this.take('-', '+', '!');
    let out: FormulaNode;
    if (t) {
      const op = this.opOf(t) === '!' ? 'not' : (t.text as '-' | '+');
      out = { k: 'un', op, a: this.unary(), at: t.at };
    } else out = this.power();
    this.depth--;
    return out;
  }

  private power(): FormulaNode {
    const base = this.primary();
    const t = this.take('^');
    return t ? { k: 'bin', op: '^', a: base, b: this.unary(), at: t.at } : base;
  }

  private primary(): FormulaNode {
    const t = this.peek();
    if (t.kind === 'num') {
      this.i++;
      return { k: 'num', v: t.value as number };
    }
    if (t.kind === 'str') {
      this.i++;
      return { k: 'str', v: t.value as string };
    }
    if (t.kind === 'op' && t.text === '(') {
      this.i++;
      const inner = this.cond();
      if (!this.take(')')) {
        const next = this.peek();
        if (next.kind === 'end') throw new FormulaError('unclosed', { at: t.at, what: 'paren' });
        this.fail(next);
      }
      return inner;
    }
    if (t.kind === 'name') {
      this.i++;
      if (!t.braced) {
        const lower = t.text.toLowerCase();
        if (lower === 'true' || lower === 'false') return { k: 'bool', v: lower === 'true' };
        if (lower === 'null') return { k: 'null' };
        if (KEYWORDS.has(t.text)) this.fail(t);
        if (this.take('(')) {
          const args: FormulaNode[] = [];
          if (!this.take(')')) {
            for (;;) {
              args.push(this.cond());
              if (this.take(')')) break;
              const next = this.peek();
              if (next.kind === 'end') throw new FormulaError('unclosed', { at: t.at, what: 'paren' });
              if (!this.take(',')) this.fail(next);
            }
          }
          return { k: 'call', name: t.text, args, at: t.at };
        }
      }
      if (Array.from(t.text).length > MAX_NAME) throw new FormulaError('badName', { at: t.at });
      return { k: 'var', name: t.text, at: t.at };
    }
    this.fail(t);
  }
}

/** The expression as a tree; a FormulaError names what cannot be read and where. */
export function parseFormula(expression: string): FormulaNode {
  if (typeof expression !== 'string' || expression.trim() === '') throw new FormulaError('empty');
  if (expression.length > FORMULA_MAX_CHARS) throw new FormulaError('tooLong');
  return new Parser(tokenize(expression)).parseAll();
}

// ---------------------------------------------------------------------------------------------
// Functions

/** A value inside an evaluation; a missing input travels as `Missing` until something needs it. */
export type FormulaValue = number | string | boolean | null;
class Missing {
  constructor(readonly name: string) {}
}
type Val = FormulaValue | Missing;

interface MathFn {
  min: number;
  max: number;
  /** Reads missing inputs itself (coalesce, isMissing); others fail on one. */
  lenient?: boolean;
  run: (args: Val[], name: string) => Val;
}

const num1 = (f: (x: number) => number): MathFn => ({ min: 1, max: 1, run: ([x], n) => f(asNumber(x!, n)) });

/** The formula's own math functions; everything else comes from the CRF registry. */
const MATH: Record<string, MathFn> = {
  abs: num1(Math.abs),
  sqrt: num1(Math.sqrt),
  exp: num1(Math.exp),
  ln: num1(Math.log),
  log10: num1(Math.log10),
  floor: num1(Math.floor),
  ceil: num1(Math.ceil),
  /** log(x) is the natural logarithm; log(x, base) another base. */
  log: {
    min: 1,
    max: 2,
    run: ([x, b], n) =>
      b === undefined ? Math.log(asNumber(x!, n)) : Math.log(asNumber(x!, n)) / Math.log(asNumber(b, n)),
  },
  pow: { min: 2, max: 2, run: ([x, y], n) => asNumber(x!, n) ** asNumber(y!, n) },
  /** round(x) to a whole number, round(x, 2) to two decimals (half away from zero). */
  round: {
    min: 1,
    max: 2,
    run: ([x, d], n) => {
      const v = asNumber(x!, n);
      const f = 10 ** (d === undefined ? 0 : Math.trunc(asNumber(d, n)));
      return (Math.sign(v) * Math.round(Math.abs(v) * f)) / f;
    },
  },
  clamp: {
    min: 3,
    max: 3,
    run: ([x, lo, hi], n) => Math.min(Math.max(asNumber(x!, n), asNumber(lo!, n)), asNumber(hi!, n)),
  },
  if: { min: 3, max: 3, run: () => null /* evaluated lazily in evaluate() */ },
  /** The first argument that is not missing. */
  coalesce: {
    min: 1,
    max: 20,
    lenient: true,
    run: (args) => {
      for (const a of args) if (!(a instanceof Missing) && a !== null) return a;
      const last = args[args.length - 1]!;
      return last;
    },
  },
  isMissing: { min: 1, max: 1, lenient: true, run: ([a]) => a instanceof Missing || a === null },
  /** Whole days from the first date to the second (negative when the second is earlier). */
  days: {
    min: 2,
    max: 2,
    run: ([a, b], n) => dateDifference(asDate(a!, n), asDate(b!, n), 'days'),
  },
};

/** How many arguments a CRF registry function takes in a formula. */
const REGISTRY_ARITY: Record<string, [number, number]> = {
  sum: [1, 50],
  average: [1, 50],
  min: [1, 50],
  max: [1, 50],
  count: [1, 50],
  score: [1, 50],
  bmi: [2, 2],
  datediff: [2, 3],
  age: [1, 3],
};

function asNumber(v: Val, name: string): number {
  if (v instanceof Missing) throw new FormulaError('missingInput', { name: v.name });
  const n = typeof v === 'boolean' ? undefined : toNumber(v);
  if (n === undefined)
    throw new FormulaError('notNumber', { name: v === null ? 'null' : `${name}: ${toText(v)}` });
  return n;
}

function asDate(v: Val, name: string): number {
  if (v instanceof Missing) throw new FormulaError('missingInput', { name: v.name });
  const d = typeof v === 'string' ? toDate(v) : undefined;
  if (d === undefined) throw new FormulaError('notNumber', { name: `${name}: ${toText(v)}` });
  return d;
}

function truthy(v: Val): boolean {
  if (v instanceof Missing) throw new FormulaError('missingInput', { name: v.name });
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  return !isEmpty(v);
}

export interface FormulaEnv {
  /** The value of each variable; null when the patient has no such data. */
  scope: Readonly<Record<string, FormulaValue | undefined>>;
  /** The CRF calculation functions (default: the engine's own registry). */
  functions?: FunctionRegistry;
  /** Today, for age(). */
  now?: () => Date;
}

const defaultRegistry = createFunctionRegistry();

function registryKey(registry: FunctionRegistry, name: string): string | undefined {
  if (registry.has(name)) return name;
  const lower = name.toLowerCase();
  for (const k of registry.keys()) if (k.toLowerCase() === lower) return k;
  return undefined;
}

/** A math function by name, case-insensitively; own names only (never `constructor` and the like). */
function mathOf(name: string): MathFn | undefined {
  const lower = name.toLowerCase();
  return Object.entries(MATH).find(([k]) => k.toLowerCase() === lower)?.[1];
}

/** The arity of a registry function, by its canonical (or aliased) name. */
function registryArity(registry: FunctionRegistry, name: string): [number, number] {
  const fn = findFunction(registry, name);
  for (const [k, a] of Object.entries(REGISTRY_ARITY)) if (findFunction(registry, k) === fn) return a;
  return [0, 50];
}

function checkArity(name: string, count: number, [min, max]: [number, number]) {
  if (count < min || count > max)
    throw new FormulaError('arity', { name, expected: min === max ? String(min) : `${min}–${max}` });
}

/**
 * Checks a tree without working it out: every function exists and gets a number of arguments
 * it takes, every variable is one of `variables`. Returns the variables used, in order.
 */
export function checkFormula(
  node: FormulaNode,
  variables: readonly string[],
  functions: FunctionRegistry = defaultRegistry,
): string[] {
  const known = new Set(variables);
  const used: string[] = [];
  const walk = (n: FormulaNode) => {
    switch (n.k) {
      case 'var':
        if (!known.has(n.name)) throw new FormulaError('unknownVariable', { name: n.name, at: n.at });
        if (!used.includes(n.name)) used.push(n.name);
        return;
      case 'un':
        return walk(n.a);
      case 'bin':
        walk(n.a);
        return walk(n.b);
      case 'cond':
        walk(n.c);
        walk(n.a);
        return walk(n.b);
      case 'call': {
        const math = mathOf(n.name);
        if (math) checkArity(n.name, n.args.length, [math.min, math.max]);
        else if (registryKey(functions, n.name))
          checkArity(n.name, n.args.length, registryArity(functions, n.name));
        else throw new FormulaError('unknownFunction', { name: n.name, at: n.at });
        n.args.forEach(walk);
        return;
      }
      default:
        return;
    }
  };
  walk(node);
  return used;
}

function finite(v: number, name: string): number {
  if (!Number.isFinite(v)) throw new FormulaError('notFinite', { name });
  return v;
}

function compare(a: Val, b: Val, op: string): boolean {
  if (a instanceof Missing) throw new FormulaError('missingInput', { name: a.name });
  if (b instanceof Missing) throw new FormulaError('missingInput', { name: b.name });
  const na = typeof a === 'boolean' ? undefined : toNumber(a);
  const nb = typeof b === 'boolean' ? undefined : toNumber(b);
  let c: number;
  if (na !== undefined && nb !== undefined) c = Math.sign(na - nb);
  else {
    const da = typeof a === 'string' ? toDate(a) : undefined;
    const db = typeof b === 'string' ? toDate(b) : undefined;
    if (da !== undefined && db !== undefined) c = Math.sign(da - db);
    else if (op === '==' || op === '!=') c = a === b || toText(a) === toText(b) ? 0 : 1;
    else {
      const ta = toText(a);
      const tb = toText(b);
      c = ta === tb ? 0 : ta < tb ? -1 : 1;
    }
  }
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** Works a tree out; a FormulaError names the missing input, the bad operand or the function. */
export function evaluateFormula(node: FormulaNode, env: FormulaEnv): FormulaValue {
  const functions = env.functions ?? defaultRegistry;
  const now = env.now ?? (() => new Date());
  const ev = (n: FormulaNode): Val => {
    switch (n.k) {
      case 'num':
      case 'str':
      case 'bool':
        return n.v;
      case 'null':
        return null;
      case 'var': {
        if (!Object.hasOwn(env.scope, n.name))
          throw new FormulaError('unknownVariable', { name: n.name, at: n.at });
        const v = env.scope[n.name];
        return v === null || v === undefined || (typeof v === 'string' && v.trim() === '')
          ? new Missing(n.name)
          : v;
      }
      case 'un': {
        const a = ev(n.a);
        if (n.op === 'not') return !truthy(a);
        const x = asNumber(a, n.op);
        return n.op === '-' ? -x : x;
      }
      case 'cond':
        return truthy(ev(n.c)) ? ev(n.a) : ev(n.b);
      case 'bin': {
        if (n.op === '&&') return truthy(ev(n.a)) && truthy(ev(n.b));
        if (n.op === '||') return truthy(ev(n.a)) || truthy(ev(n.b));
        // Read left to right: a missing input on the left is named before anything on the right.
        const a = ev(n.a);
        if (a instanceof Missing) throw new FormulaError('missingInput', { name: a.name });
        const b = ev(n.b);
        if (['==', '!=', '<', '<=', '>', '>='].includes(n.op)) return compare(a, b, n.op);
        const x = asNumber(a, n.op);
        const y = asNumber(b, n.op);
        switch (n.op) {
          case '+':
            return finite(x + y, '+');
          case '-':
            return finite(x - y, '-');
          case '*':
            return finite(x * y, '*');
          case '/':
            if (y === 0) throw new FormulaError('divideByZero');
            return finite(x / y, '/');
          case '%':
            if (y === 0) throw new FormulaError('divideByZero');
            return finite(x % y, '%');
          default:
            return finite(x ** y, '^');
        }
      }
      case 'call': {
        const math = mathOf(n.name);
        if (math) {
          checkArity(n.name, n.args.length, [math.min, math.max]);
          if (math === MATH.if) return truthy(ev(n.args[0]!)) ? ev(n.args[1]!) : ev(n.args[2]!);
          const args = n.args.map(ev);
          if (!math.lenient)
            for (const a of args)
              if (a instanceof Missing) throw new FormulaError('missingInput', { name: a.name });
          const r = math.run(args, n.name);
          return typeof r === 'number' ? finite(r, n.name) : r;
        }
        const fn = findFunction(functions, n.name);
        if (!fn) throw new FormulaError('unknownFunction', { name: n.name, at: n.at });
        checkArity(n.name, n.args.length, registryArity(functions, n.name));
        const args = n.args.map(ev);
        for (const a of args)
          if (a instanceof Missing) throw new FormulaError('missingInput', { name: a.name });
        const values = args as FormulaValue[];
        const r = fn({ values, items: [], x: values[0], y: values[1], compare: values[2], now });
        if (r === undefined) throw new FormulaError('noValue', { name: n.name });
        return finite(r, n.name);
      }
    }
  };
  const out = ev(node);
  if (out instanceof Missing) throw new FormulaError('missingInput', { name: out.name });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Binding a patient's data

/** Where a variable's value comes from (the contract's list, in @crdp/core). */
export { FORMULA_SOURCES, type FormulaSource };

/** Sources that need a code (lab item code, physical exam item, ICD-10 prefix, operation keyword). */
export const SOURCES_WITH_CODE: readonly FormulaSource[] = ['lab', 'exam', 'firstDiagnosis'];

export interface FormulaVariable {
  name: string;
  source: FormulaSource;
  /** Lab item code (CREA), physical exam item (体重), ICD-10 prefix (C22) or operation keyword ('' = any). */
  code: string;
}

/** A latest value of a lab item or a physical exam item. */
export interface Observed {
  value: number | string | null;
  unit: string;
  /** ISO instant. */
  at: string;
}

/** What the server read for one patient, for exactly the codes the variables name. */
export interface PatientFacts {
  gender: number;
  birthDate: string | null;
  labs: Readonly<Record<string, Observed | undefined>>;
  exams: Readonly<Record<string, Observed | undefined>>;
  /** The first diagnosis per ICD-10 prefix, and the first operation per keyword: ISO instants. */
  firstDiagnosis: Readonly<Record<string, string | undefined>>;
  firstOperation: Readonly<Record<string, string | undefined>>;
}

/** One input a formula used for a patient, for the test panel. */
export interface BoundInput {
  name: string;
  source: FormulaSource;
  code: string;
  value: FormulaValue;
  unit: string;
  /** When the value was measured or happened (ISO), where it has a time. */
  at: string | null;
}

/** The variables' values for a patient: the scope to evaluate with, and each input as shown. */
export function bindPatient(
  variables: readonly FormulaVariable[],
  facts: PatientFacts,
  now: () => Date = () => new Date(),
): { scope: Record<string, FormulaValue>; inputs: BoundInput[] } {
  const scope: Record<string, FormulaValue> = {};
  const inputs: BoundInput[] = [];
  for (const v of variables) {
    let value: FormulaValue = null;
    let unit = '';
    let at: string | null = null;
    switch (v.source) {
      case 'lab':
      case 'exam': {
        const o = (v.source === 'lab' ? facts.labs : facts.exams)[v.code];
        if (o) {
          const n = toNumber(o.value);
          value = n ?? (o.value === null || o.value === '' ? null : o.value);
          unit = o.unit;
          at = o.at;
        }
        break;
      }
      case 'age': {
        if (facts.birthDate) {
          const d = now();
          const today = Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
          const birth = toDate(facts.birthDate);
          value = birth === undefined || birth > today ? null : dateDifference(birth, today, 'years');
        }
        unit = '岁';
        break;
      }
      case 'gender':
        value = facts.gender === 1 || facts.gender === 2 ? facts.gender : null;
        break;
      case 'birthDate':
        value = facts.birthDate;
        break;
      case 'firstDiagnosis':
        value = facts.firstDiagnosis[v.code] ?? null;
        at = value;
        break;
      case 'firstOperation':
        value = facts.firstOperation[v.code] ?? null;
        at = value;
        break;
    }
    scope[v.name] = value;
    inputs.push({
      name: v.name,
      source: v.source,
      code: v.code,
      value,
      unit: v.source === 'age' && value === null ? '' : unit,
      at,
    });
  }
  return { scope, inputs };
}

/**
 * The spec's computed-indicator template call: `template_str` with `template_params` (name to
 * value) worked out. Names in the template are the params' keys, bare or in braces ({体重}).
 */
export function evaluateTemplate(
  templateStr: string,
  params: Readonly<Record<string, FormulaValue>>,
  now?: () => Date,
): FormulaValue {
  const tree = parseFormula(templateStr);
  checkFormula(tree, Object.keys(params));
  return evaluateFormula(tree, { scope: params, ...(now ? { now } : {}) });
}

/** The names a formula's expression may call, for the editor's help. */
export function formulaFunctionNames(functions: FunctionRegistry = defaultRegistry): string[] {
  const fromRegistry = Object.keys(REGISTRY_ARITY).map((k) => (k === 'datediff' ? 'dateDiff' : k));
  return [...Object.keys(MATH), ...fromRegistry.filter((k) => findFunction(functions, k))];
}
