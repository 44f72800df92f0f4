import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { invalidField } from '../http/errors.js';
import { columnOf, KIND_LABELS, KIND_TYPES, type QcKind, type QcTable, tableOf } from './catalogue.js';
import type { RuleInput } from './inputs.js';

/** What a rule stores besides its name: where it looks and the settings of its kind. */
export interface RuleParams {
  min?: number;
  max?: number;
  pattern?: string;
  values?: string[];
  otherColumn?: string;
  filterColumn?: string;
  filterValue?: string;
}
export interface CheckedRule {
  tableKey: string;
  kind: QcKind;
  columnKey: string;
  params: RuleParams;
}

const TYPE_ZH: Record<string, string> = { text: '文本', number: '数值', date: '日期', datetime: '日期时间' };
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A regular expression that could take exponential time is refused: back-references, and a
 * quantified group that itself holds a quantifier (`(a+)+`, `(\d*x?)*`). PostgreSQL's engine is
 * mostly automaton-based, but back-references and nested repeats are where it backtracks.
 */
export function riskyPattern(pattern: string): string | null {
  if (/\\[1-9]|\\k</.test(pattern)) return 'backreference';
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') stack.push(false);
    else if (ch === ')') {
      const quantifiedInside = stack.pop() ?? false;
      const next = pattern[i + 1];
      const quantifiedGroup = next === '*' || next === '+' || next === '{' || next === '?';
      if (quantifiedInside && quantifiedGroup && next !== '?') return 'nested quantifier';
      if (quantifiedInside && stack.length) stack[stack.length - 1] = true;
      if (quantifiedGroup && next !== '?' && stack.length) stack[stack.length - 1] = true;
    } else if ((ch === '*' || ch === '+' || ch === '{') && stack.length) stack[stack.length - 1] = true;
  }
  return null;
}

/** The table, column and settings of a rule after the whitelist checks; throws 400 naming the field. */
export function checkRule(input: RuleInput): CheckedRule {
  const table = tableOf(input.table);
  if (!table)
    throw invalidField(
      'body.table',
      `数据表 ${input.table} 不在可质控的表中`,
      `table ${input.table} is not one of the tables QC can check`,
    );
  const column = columnOf(table, input.column);
  if (!column)
    throw invalidField(
      'body.column',
      `字段 ${input.column} 不是表「${table.label['zh-CN']}」的列`,
      `${input.column} is not a column of ${table.label['en-US']}`,
    );
  const types = KIND_TYPES[input.kind];
  if (!types.includes(column.type))
    throw invalidField(
      'body.column',
      `「${KIND_LABELS[input.kind]['zh-CN']}」规则只能检查${types.map((t) => TYPE_ZH[t]).join('、')}字段，「${column.label['zh-CN']}」是${TYPE_ZH[column.type]}字段`,
      `a ${KIND_LABELS[input.kind]['en-US'].toLowerCase()} rule checks ${types.join(' or ')} columns; ${column.label['en-US']} is ${column.type}`,
    );
  const params: RuleParams = { ...filterOf(table, input) };
  switch (input.kind) {
    case 'range': {
      const min = input.min ?? undefined;
      const max = input.max ?? undefined;
      if (min === undefined && max === undefined)
        throw invalidField('body.min', '数值范围至少要填写下限或上限', 'give a minimum, a maximum or both');
      if (min !== undefined && max !== undefined && min > max)
        throw invalidField(
          'body.max',
          `上限 ${max} 小于下限 ${min}`,
          `maximum ${max} is below minimum ${min}`,
        );
      if (min !== undefined) params.min = min;
      if (max !== undefined) params.max = max;
      break;
    }
    case 'pattern': {
      const pattern = input.pattern ?? '';
      if (!pattern)
        throw invalidField('body.pattern', '请填写正则表达式', 'a regular expression is required');
      try {
        new RegExp(pattern, 'u');
      } catch {
        throw invalidField('body.pattern', '正则表达式写法有误', 'the regular expression does not compile');
      }
      const risk = riskyPattern(pattern);
      if (risk)
        throw invalidField(
          'body.pattern',
          risk === 'backreference'
            ? '正则表达式不能使用反向引用（如 \\1），它可能让检查耗时过长'
            : '正则表达式不能在带重复的分组外再加重复（如 (a+)+），它可能让检查耗时过长',
          risk === 'backreference'
            ? 'back-references (such as \\1) are not allowed: they can make the check run for very long'
            : 'a repeated group that itself repeats (such as (a+)+) is not allowed: it can make the check run for very long',
        );
      params.pattern = pattern;
      break;
    }
    case 'allowed': {
      const values = [...new Set((input.values ?? []).map((v) => v.trim()).filter(Boolean))];
      if (!values.length)
        throw invalidField('body.values', '请至少填写一个允许的值', 'give at least one allowed value');
      if (column.type === 'number') {
        const bad = (input.values ?? []).findIndex((v) => v.trim() && !NUMBER.test(v.trim()));
        if (bad >= 0)
          throw invalidField(
            `body.values.${bad}`,
            `「${column.label['zh-CN']}」是数值字段，允许的值必须是数字`,
            `${column.label['en-US']} is numeric: allowed values must be numbers`,
          );
      }
      params.values = values;
      break;
    }
    case 'date_order': {
      const other = input.otherColumn ? columnOf(table, input.otherColumn) : undefined;
      if (!input.otherColumn)
        throw invalidField(
          'body.otherColumn',
          '请选择应不早于它的日期字段',
          'choose the column that must not be earlier',
        );
      if (!other || (other.type !== 'date' && other.type !== 'datetime'))
        throw invalidField(
          'body.otherColumn',
          `字段 ${input.otherColumn} 不是表「${table.label['zh-CN']}」的日期列`,
          `${input.otherColumn} is not a date column of ${table.label['en-US']}`,
        );
      if (other.key === column.key)
        throw invalidField('body.otherColumn', '两个日期字段不能相同', 'the two date columns must differ');
      params.otherColumn = other.key;
      break;
    }
    default:
      break;
  }
  return { tableKey: table.key, kind: input.kind, columnKey: column.key, params };
}

function filterOf(table: QcTable, input: RuleInput): RuleParams {
  const value = (input.filterValue ?? '').trim();
  if (!input.filterColumn) {
    if (value)
      throw invalidField(
        'body.filterColumn',
        '填写了筛选值，请同时选择筛选字段',
        'a filter value needs a filter column',
      );
    return {};
  }
  const col = columnOf(table, input.filterColumn);
  if (col?.type !== 'text')
    throw invalidField(
      'body.filterColumn',
      `字段 ${input.filterColumn} 不是表「${table.label['zh-CN']}」的文本列`,
      `${input.filterColumn} is not a text column of ${table.label['en-US']}`,
    );
  if (!value) throw invalidField('body.filterValue', '请填写筛选值', 'a filter value is required');
  return { filterColumn: col.key, filterValue: value };
}

/** The database must accept the expression too (its dialect differs from JavaScript's). */
export async function checkPatternInDatabase(db: Db, pattern: string | undefined) {
  if (pattern === undefined) return;
  try {
    await db.execute(sql`select '' ~ ${pattern} as ok`);
  } catch {
    throw invalidField(
      'body.pattern',
      '数据库不支持这个正则表达式的写法（例如命名分组）',
      'the database does not accept this regular expression (named groups, for example)',
    );
  }
}
