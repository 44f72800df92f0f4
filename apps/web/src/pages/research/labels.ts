import type { LabelFamily } from '@crdp/core';
import type { DatasetColumn } from './api';

type Translate = (key: string, values?: Record<string, unknown>) => string;
type Word = (family: LabelFamily, code: string | number | null | undefined) => string;

/** A dataset column as the screen names it: a survival column's part in the user's language, else its label. */
export const columnLabel = (t: Translate, c: Pick<DatasetColumn, 'label' | 'survival'>) =>
  c.survival ? t(`columns.${c.survival.part}`, { of: c.survival.of }) : c.label;

/**
 * A code of a coded column in words: sex and a survival event through the labelling layer, a single choice by its
 * option's name; any other value as it is. Result levels come as text ('1'), cells as numbers.
 */
export function codeText(
  c: Pick<DatasetColumn, 'codeFamily' | 'options' | 'survival'> | undefined,
  value: unknown,
  word: Word,
): string {
  if (value === null || value === undefined || value === '') return '';
  if (c?.codeFamily) return word(c.codeFamily, String(value));
  // A survival variable's event column is coded 1 event / 0 censored.
  if (c?.survival?.part === 'event') return word('survivalEvent', String(value));
  const option = c?.options?.find((o) => String(o.value) === String(value));
  return option ? option.label : String(value);
}

/** Decimals a number column shows: none for whole numbers, else two for every cell of the column alike. */
export const columnDecimals = (rows: Array<Record<string, unknown>>, key: string) =>
  rows.some((r) => typeof r[key] === 'number' && !Number.isInteger(r[key])) ? 2 : 0;

/** A dataset cell as the preview shows it: codes in words, numbers rounded to the column's decimals. */
export function cellText(
  c: Pick<DatasetColumn, 'codeFamily' | 'options' | 'survival'> | undefined,
  value: unknown,
  decimals: number,
  word: Word,
): string {
  if (c?.codeFamily || c?.options?.length || c?.survival?.part === 'event') return codeText(c, value, word);
  if (typeof value === 'number') return value.toFixed(decimals);
  return value === null || value === undefined ? '' : String(value);
}
