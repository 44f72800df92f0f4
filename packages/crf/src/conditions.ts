import { isEmpty, toDate, toList, toNumber, toText } from './values.js';

/**
 * Conditions in two layers, as SurveyJS does with expressions: `parseCondition` turns the
 * rule's text once into an operator and a pre-read operand (numbers, dates and lists parsed
 * ahead), and `runCondition` only compares. Rules are parsed when a form is compiled, so
 * `setAnswer` never re-reads the rule text.
 */

export const OPERATORS = [
  'equals',
  'notEquals',
  'lessThan',
  'greaterThan',
  'lessOrEqual',
  'greaterOrEqual',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'isEmpty',
  'inList',
  'notInList',
  'exists',
  'fieldType',
] as const;
export type Operator = (typeof OPERATORS)[number];

// The older product stored conditions as words, symbols or Chinese labels; all are accepted.
const ALIASES: Record<Operator, string[]> = {
  equals: ['equals', 'equal', 'eq', '=', '==', '===', '等于'],
  notEquals: ['not equals', 'not equal', 'ne', '!=', '<>', '!==', '不等于'],
  lessThan: ['less than', 'lt', '<', '小于'],
  greaterThan: ['greater than', 'gt', '>', '大于'],
  lessOrEqual: ['less or equal', 'less than or equal', 'le', 'lte', '<=', '小于等于'],
  greaterOrEqual: ['greater or equal', 'greater than or equal', 'ge', 'gte', '>=', '大于等于'],
  contains: ['contains', 'contain', 'include', 'includes', '包含'],
  notContains: ['not contains', 'not contain', 'does not contain', 'not include', '不包含'],
  startsWith: ['starts with', 'start with', 'begins with', '开头是', '以...开头'],
  endsWith: ['ends with', 'end with', '结尾是', '以...结尾'],
  isEmpty: ['null or empty', 'is empty', 'empty', 'is null', 'null', '为空'],
  inList: ['in list', 'in', 'any of', 'anyof', '在列表中', '属于'],
  notInList: ['not in list', 'not in', 'none of', 'notanyof', '不在列表中', '不属于'],
  exists: ['exists', 'exist', 'has value', '存在'],
  fieldType: ['field type', 'type', 'is type', '字段类型'],
};

const LOOKUP = new Map<string, Operator>();
for (const op of OPERATORS) {
  LOOKUP.set(squash(op), op);
  for (const alias of ALIASES[op]) LOOKUP.set(squash(alias), op);
}

function squash(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

/** The operator a rule names, or undefined when no spelling of any operator matches. */
export function parseOperator(text: string): Operator | undefined {
  return LOOKUP.get(squash(String(text)));
}

export interface ParsedOperand {
  raw: unknown;
  text: string;
  num: number | undefined;
  date: number | undefined;
  /** Normalised members of the operand read as a list. */
  set: Set<string>;
  /** False when the operand is an explicit false/0 ('exists: false'). */
  truthy: boolean;
}

export interface ParsedCondition {
  op: Operator;
  operand: ParsedOperand;
}

/** One spelling for equal values: '1', 1 and '1.0' agree; so do 2024-1-5 and 2024/01/05. */
export function normalise(value: unknown): string {
  const n = toNumber(value);
  if (n !== undefined) return `n:${n}`;
  const d = toDate(value);
  if (d !== undefined) return `d:${d}`;
  return `t:${toText(value)}`;
}

export function parseCondition(rule: {
  condition: string;
  indicatorVal?: unknown;
}): ParsedCondition | undefined {
  const op = parseOperator(rule.condition);
  if (!op) return undefined;
  const raw = rule.indicatorVal;
  const scalar = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
  const text = toText(scalar);
  return {
    op,
    operand: {
      raw,
      text,
      num: toNumber(scalar),
      date: toDate(scalar),
      set: new Set(toList(raw).map(normalise)),
      truthy: !(raw === false || raw === 0 || raw === '0' || raw === 'false'),
    },
  };
}

/** -1, 0, 1; NaN when the answer cannot be compared with the operand (text against a number). */
function compare(value: unknown, o: ParsedOperand): number {
  if (o.num !== undefined) {
    const n = toNumber(value);
    return n === undefined ? Number.NaN : Math.sign(n - o.num);
  }
  if (o.date !== undefined) {
    const d = toDate(value);
    return d === undefined ? Number.NaN : Math.sign(d - o.date);
  }
  const t = toText(value);
  return t === o.text ? 0 : t < o.text ? -1 : 1;
}

function matchesType(value: unknown, typeName: string): boolean {
  switch (typeName.toLowerCase()) {
    case 'number':
    case 'numeric':
    case '数字':
    case '数值':
      return toNumber(value) !== undefined;
    case 'integer':
    case '整数':
      return Number.isInteger(toNumber(value));
    case 'date':
    case 'datetime':
    case '日期':
      return toDate(value) !== undefined;
    case 'text':
    case 'string':
    case '文本':
      return typeof value === 'string' && value.trim() !== '';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
    case 'list':
    case 'set':
      return Array.isArray(value);
    case 'empty':
      return isEmpty(value);
    default:
      return false;
  }
}

function runOnSet(op: Operator, members: Set<string>, o: ParsedOperand): boolean {
  switch (op) {
    case 'equals':
      return members.size === o.set.size && [...o.set].every((m) => members.has(m));
    case 'notEquals':
      return !runOnSet('equals', members, o);
    case 'contains':
      return o.set.size > 0 && [...o.set].every((m) => members.has(m));
    case 'notContains':
      return !runOnSet('contains', members, o);
    case 'inList':
      return [...members].some((m) => o.set.has(m));
    case 'notInList':
      return !runOnSet('inList', members, o);
    default:
      // Ordering and text operators have no meaning on a set of chosen options.
      return false;
  }
}

/**
 * Whether the answer meets the condition. `asSet` reads the answer as a set of chosen
 * options (checkbox), so order and duplicates do not matter.
 */
export function runCondition(c: ParsedCondition, value: unknown, asSet = Array.isArray(value)): boolean {
  const o = c.operand;
  switch (c.op) {
    case 'isEmpty':
      return isEmpty(value) === o.truthy;
    case 'exists':
      return (value !== undefined && value !== null) === o.truthy;
    case 'fieldType':
      return matchesType(value, o.text);
    default:
      break;
  }
  if (asSet) return runOnSet(c.op, new Set(toList(value).map(normalise)), o);
  if (isEmpty(value)) {
    // An unanswered item meets only the negative conditions.
    return c.op === 'notEquals' || c.op === 'notContains' || c.op === 'notInList';
  }
  switch (c.op) {
    case 'equals':
      return normalise(value) === normalise(o.raw);
    case 'notEquals':
      return normalise(value) !== normalise(o.raw);
    case 'lessThan':
      return compare(value, o) < 0;
    case 'greaterThan':
      return compare(value, o) > 0;
    case 'lessOrEqual':
      return compare(value, o) <= 0;
    case 'greaterOrEqual':
      return compare(value, o) >= 0;
    case 'contains':
      return toText(value).includes(o.text);
    case 'notContains':
      return !toText(value).includes(o.text);
    case 'startsWith':
      return toText(value).startsWith(o.text);
    case 'endsWith':
      return toText(value).endsWith(o.text);
    case 'inList':
      return o.set.has(normalise(value));
    case 'notInList':
      return !o.set.has(normalise(value));
    default:
      return false;
  }
}

/** What an item's answer is, for deciding which conditions can apply to it. */
export type ValueKind = 'set' | 'choice' | 'number' | 'date' | 'text' | 'none';

const APPLICABLE: Record<ValueKind, ReadonlySet<Operator>> = {
  set: new Set<Operator>([
    'equals',
    'notEquals',
    'contains',
    'notContains',
    'inList',
    'notInList',
    'isEmpty',
    'exists',
    'fieldType',
  ]),
  choice: new Set<Operator>([
    'equals',
    'notEquals',
    'inList',
    'notInList',
    'isEmpty',
    'exists',
    'fieldType',
    'lessThan',
    'greaterThan',
    'lessOrEqual',
    'greaterOrEqual',
  ]),
  number: new Set<Operator>(
    OPERATORS.filter(
      (o) => o !== 'contains' && o !== 'notContains' && o !== 'startsWith' && o !== 'endsWith',
    ),
  ),
  date: new Set<Operator>(
    OPERATORS.filter(
      (o) => o !== 'contains' && o !== 'notContains' && o !== 'startsWith' && o !== 'endsWith',
    ),
  ),
  text: new Set<Operator>(OPERATORS),
  none: new Set<Operator>(),
};

/** Whether the operator can ever be true for answers of this kind. */
export function isApplicable(op: Operator, kind: ValueKind): boolean {
  return APPLICABLE[kind].has(op);
}
