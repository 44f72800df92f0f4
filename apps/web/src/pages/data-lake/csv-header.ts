import { parse } from 'csv-parse/browser/esm/sync';

/**
 * The column names of a CSV file (its first record), read by a CSV parser as the server reads
 * the file: a quoted name may hold a comma, a doubled quote or a line break. A leading byte
 * order mark is dropped and names are trimmed; an empty file has no columns.
 */
export function csvHeader(text: string): string[] {
  const [first] = parse(text, { bom: true, to: 1, relax_column_count: true, skip_empty_lines: true }) as
    | string[][]
    | [];
  return (first ?? []).map((h) => h.trim());
}
