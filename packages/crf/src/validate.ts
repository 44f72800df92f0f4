import { checkNationalId, NATIONAL_ID_TIPS } from '@crdp/core';
import { normalise } from './conditions.js';
import type { EngineState } from './engine.js';
import { makeIssue, type Where } from './messages.js';
import type { Bounds, FormItem, Issue, IssueCode, Option } from './types.js';
import { charCount, isEmpty, isOn, toDate, toList, toNumber, toText } from './values.js';

/**
 * Submit validation of spec 001 section 5. Only visible items are checked (hidden ones are
 * not submitted), questions are numbered per page as the user sees them (visible items,
 * paragraphs skipped), and nothing here throws whatever JSON the answers hold.
 */

type Emit = (code: IssueCode, where: Where, pathTail?: string, limit?: number) => void;

/** A part of a compound answer (a blank, a row, a cell) by key, else by position. */
function part(value: unknown, key: string | undefined, index: number): unknown {
  if (Array.isArray(value)) return value[index];
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  return record[key ?? String(index)];
}

function limitOf(value: unknown): number | undefined {
  const n = toNumber(value);
  return n === undefined || n < 0 ? undefined : n;
}

/** A text, blank or cell declared as a national ID number (`nationalId`; older forms wrote `idcard`). */
export const isNationalIdKind = (kind: string) => /nationalid|idcard/i.test(kind);
const NATIONAL_ID_ISSUES: Record<string, IssueCode> = {
  [NATIONAL_ID_TIPS.format]: 'nationalIdFormat',
  [NATIONAL_ID_TIPS.province]: 'nationalIdProvince',
  [NATIONAL_ID_TIPS.checkDigit]: 'nationalIdCheckDigit',
};

/** Numeric, date and character-count bounds of one value (a text, a blank or a cell). */
function checkBounds(
  value: unknown,
  bounds: Bounds,
  kind: string,
  where: Where,
  tail: string,
  emit: Emit,
): void {
  const minVal = toNumber(bounds.minVal);
  const maxVal = toNumber(bounds.maxVal);
  const k = kind.toLowerCase();
  if (isNationalIdKind(k)) {
    // Spec 001's national ID check, the same in the browser and on the server.
    const { tip } = checkNationalId(toText(value));
    if (tip) emit(NATIONAL_ID_ISSUES[tip] ?? 'nationalIdFormat', where, tail);
    return;
  }
  if (k.includes('date')) {
    if (toDate(value) === undefined) emit('notDate', where, tail);
  } else if (k.includes('number') || k.includes('digit') || minVal !== undefined || maxVal !== undefined) {
    const n = toNumber(value);
    if (n === undefined) {
      emit('notNumber', where, tail);
      return;
    }
    if (maxVal !== undefined && n > maxVal) emit('maxValue', where, tail, maxVal);
    if (minVal !== undefined && n < minVal) emit('minValue', where, tail, minVal);
  }
  const minNub = limitOf(bounds.minNub);
  const maxNub = limitOf(bounds.maxNub);
  if (minNub === undefined && maxNub === undefined) return;
  const length = charCount(toText(value));
  if (maxNub !== undefined && maxNub > 0 && length > maxNub) emit('maxLength', where, tail, maxNub);
  if (minNub !== undefined && minNub > 0 && length < minNub) emit('minLength', where, tail, minNub);
}

function checkChoices(
  chosen: unknown[],
  options: Option[] | undefined,
  least: unknown,
  most: unknown,
  where: Where,
  tail: string,
  emit: Emit,
): void {
  if (options?.length) {
    const codes = new Set(options.map((o) => normalise(o.code)));
    if (chosen.some((c) => !codes.has(normalise(c)))) emit('unknownOption', where, tail);
  }
  const min = limitOf(least);
  const max = limitOf(most);
  if (min !== undefined && min > 0 && chosen.length < min) emit('minOptions', where, tail, min);
  if (max !== undefined && max > 0 && chosen.length > max) emit('maxOptions', where, tail, max);
}

function textKind(item: FormItem): string {
  return `${item.textType ?? ''} ${item.inputType ?? ''}`;
}

function checkGapFilling(item: FormItem, value: unknown, required: boolean, where: Where, emit: Emit): void {
  (item.gapFilling ?? []).forEach((blank, j) => {
    const at = { ...where, blank: j + 1 };
    const tail = `.${blank.key ?? j}`;
    const v = part(value, blank.key, j);
    if (isEmpty(v)) {
      if (required || isOn(blank.isRequired)) emit('required', at, tail);
      return;
    }
    checkBounds(v, blank, blank.gapFillingProperty ?? 'text', at, tail, emit);
  });
}

function checkMatrix(item: FormItem, value: unknown, required: boolean, where: Where, emit: Emit): void {
  const form = (item.forM ?? 'radio').toLowerCase();
  const columns = item.columns ?? item.options ?? [];
  (item.rows ?? []).forEach((row, r) => {
    const at = { ...where, row: r + 1 };
    const rowTail = `.${row.key ?? r}`;
    const v = part(value, row.key, r);
    if (isEmpty(v)) {
      // Every row of a required matrix must be answered.
      if (required) emit('rowRequired', at, rowTail);
      return;
    }
    const kind = (row.matrixProperty ?? form).toLowerCase();
    if (kind === 'radio') {
      checkChoices(toList(v).slice(0, 1), columns, undefined, undefined, at, rowTail, emit);
      if (toList(v).length > 1) emit('maxOptions', at, rowTail, 1);
    } else if (kind === 'checkbox') {
      checkChoices(toList(v), columns, row.selectLeastValue, row.selectMostValue, at, rowTail, emit);
    } else if (columns.length && typeof v === 'object') {
      columns.forEach((col, k) => {
        const cell = part(v, String(col.code), k);
        if (!isEmpty(cell))
          checkBounds(cell, row, kind, { ...at, column: k + 1 }, `${rowTail}.${col.code}`, emit);
      });
    } else {
      checkBounds(v, row, kind, at, rowTail, emit);
    }
  });
}

function checkItem(item: FormItem, value: unknown, required: boolean, where: Where, emit: Emit): void {
  if (item.type === 'gapFilling') {
    checkGapFilling(item, value, required, where, emit);
    return;
  }
  if (item.type === 'matrix') {
    checkMatrix(item, value, required, where, emit);
    return;
  }
  if (isEmpty(value)) {
    if (required) emit('required', where);
    return;
  }
  switch (item.type) {
    case 'radio':
    case 'score':
      if (item.options?.length) {
        const chosen = toList(value);
        checkChoices(
          item.typeQ === 'multi' ? chosen : chosen.slice(0, 1),
          item.options,
          undefined,
          undefined,
          where,
          '',
          emit,
        );
      } else if (toNumber(value) === undefined) emit('notNumber', where);
      break;
    case 'checkbox':
      checkChoices(toList(value), item.options, item.selectLeastValue, item.selectMostValue, where, '', emit);
      break;
    case 'textQuestion':
      checkBounds(value, item, textKind(item), where, '', emit);
      break;
    default:
      break;
  }
}

export function validateState(state: EngineState): Issue[] {
  const { c, values, visible } = state;
  const issues: Issue[] = [];
  const numbers = new Map<number, number>();
  for (const node of c.nodes) {
    const item = node.item;
    if (!item || !visible[node.index] || item.type === 'paragraph') continue;
    const question = (numbers.get(node.page) ?? 0) + 1;
    numbers.set(node.page, question);
    const emit: Emit = (code, where, tail = '', limit) => {
      issues.push(makeIssue(code, node.key, `${node.key}${tail}`, where, limit));
    };
    try {
      checkItem(item, values[node.index], state.requiredAt(node.index), { page: node.page, question }, emit);
    } catch {
      // Defensive: a malformed older form must not stop the other checks.
    }
  }
  return issues;
}
