import type { ImportFault } from '@crdp/core';
import { sql } from 'drizzle-orm';
import { invalidField } from '../http/errors.js';

/*
 * What the all-or-nothing CSV imports share (dictionary entries, OMOP maps, terminology lists):
 * the header checks, the answer of a file with bad rows, and the chunked upsert that counts the
 * new rows and the changed ones.
 */

/** How many bad rows an import answers at the most. */
export const MAX_REPORTED_FAULTS = 1000;

/**
 * The header of an import's rows (names trimmed, lower case) and a reader of a data row's cell by
 * column name (empty when the column is not there). 400 naming `text` when the file is empty, a
 * `required` column is missing (the message lists `columns`, or the required ones when it is not
 * given), there are no data rows, or more than `maxRows` of them.
 */
export function importHeader(
  rows: string[][],
  required: readonly string[],
  maxRows: number,
  columns?: readonly string[],
) {
  if (!rows.length) throw invalidField('text', '文件是空的', 'the file is empty');
  const header = rows[0]!.map((h) => h.trim().toLowerCase());
  for (const c of required)
    if (!header.includes(c))
      throw invalidField(
        'text',
        columns
          ? `缺少列 ${c}（可用的列：${columns.join(', ')}）`
          : `缺少列 ${c}（需要的列：${required.join(', ')}）`,
        columns
          ? `column ${c} is missing (columns: ${columns.join(', ')})`
          : `column ${c} is missing (columns needed: ${required.join(', ')})`,
      );
  const total = rows.length - 1;
  if (total < 1) throw invalidField('text', '文件中没有数据行', 'the file has no data rows');
  if (total > maxRows)
    throw invalidField('text', `一次最多导入 ${maxRows} 行`, `at most ${maxRows} rows at a time`);
  // Column positions found once, not per cell of every row.
  const at = new Map(header.map((h, i) => [h, i] as const).reverse());
  return {
    total,
    cellOf: (cells: string[]) => (c: string) => {
      const i = at.get(c);
      return i === undefined ? '' : (cells[i] ?? '').trim();
    },
  };
}

/** The answer of a file with bad rows: nothing stored, the first of its faults. */
export const faultReport = (total: number, faults: ImportFault[]) => ({
  stored: false as const,
  total,
  inserted: 0,
  updated: 0,
  faultCount: faults.length,
  faults: faults.slice(0, MAX_REPORTED_FAULTS),
});

/** For an upsert's `returning`: whether the row is new (PostgreSQL's xmax is 0 on an insert). */
export const insertedNow = sql<boolean>`(xmax = 0)`;

/**
 * Upserts rows in chunks of `size` (`write` upserts one chunk, returning `insertedNow` as
 * `inserted` per row) and counts the rows that were new and those that were changed.
 */
export async function upsertChunks<T>(
  rows: T[],
  write: (chunk: T[]) => Promise<Array<{ inserted: boolean }>>,
  size = 500,
): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  let updated = 0;
  for (let i = 0; i < rows.length; i += size)
    for (const r of await write(rows.slice(i, i + size)))
      if (r.inserted) inserted++;
      else updated++;
  return { inserted, updated };
}
