import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { invalidField } from '../http/errors.js';

/**
 * The one CSV module of the server: every CSV file read (clinical CSV import, OMOP mapping import,
 * REDCap data dictionary) and written (CRF, search, disease-library, data-QC, OMOP and database
 * exports) goes through it. Parsing is csv-parse's, quoting csv-stringify's (RFC 4180); this file
 * holds only our rules: which cells are text, the spreadsheet formula guard, BOM and CRLF.
 */

/** Why a CSV file cannot be read, with the line and column where reading stopped. */
export class CsvParseError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly zh: string,
    readonly en: string,
  ) {
    super(`CSV line ${line}, column ${column}: ${en}`);
    this.name = 'CsvParseError';
  }
}

const REASONS: Record<string, [zh: string, en: string]> = {
  CSV_QUOTE_NOT_CLOSED: ['引号没有闭合', 'a quoted cell is not closed'],
  CSV_INVALID_CLOSING_QUOTE: ['引号后面还有字符', 'characters follow a closing quote'],
};

const READ = {
  bom: true,
  relax_quotes: true,
  relax_column_count: true,
  record_delimiter: ['\r\n', '\n', '\r'],
};

/**
 * The line an unclosed quote's row starts on (csv-parse finds it at the end of the file): the
 * line after the last row that was read whole, found by reading those rows again with their byte
 * counts.
 */
function lineAfterRecords(text: string, records: number): number {
  if (!records) return 1;
  const read = parse(text, { ...READ, to: records, info: true }) as unknown as Array<{
    info: { bytes: number };
  }>;
  const before = Buffer.from(text, 'utf8')
    .subarray(0, read[read.length - 1]?.info.bytes ?? 0)
    .toString('utf8');
  return (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}

/**
 * Rows of a CSV text: a leading BOM is dropped, quoted cells may hold commas, doubled quotes and
 * line breaks, rows end with CRLF, LF or CR (mixed in one file too), a quote inside an unquoted
 * cell is kept as a character, rows may differ in length, and rows whose cells are all blank are
 * left out. An unclosed quote throws `CsvParseError` naming the line and column.
 */
export function parseCsv(text: string): string[][] {
  let rows: string[][];
  try {
    rows = parse(text, READ) as string[][];
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const [zh, en] = REASONS[e.code] ?? ['无法读取', e.message];
    const at = e as CsvError & { lines?: number; column?: number; records?: number };
    throw new CsvParseError(
      e.code === 'CSV_QUOTE_NOT_CLOSED' ? lineAfterRecords(text, at.records ?? 0) : Number(at.lines ?? 0),
      Number(at.column ?? 0) + 1,
      zh,
      en,
    );
  }
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

/** `parseCsv`, with an unreadable file refused as a 400 naming `field`, the line and the column. */
export function readCsv(text: string, field: string): string[][] {
  try {
    return parseCsv(text);
  } catch (e) {
    if (!(e instanceof CsvParseError)) throw e;
    throw invalidField(
      field,
      `CSV 第 ${e.line} 行第 ${e.column} 列：${e.zh}`,
      `CSV line ${e.line}, column ${e.column}: ${e.en}`,
    );
  }
}

// A plain number stays a number: "-3" and "+1.5e3" are values, not formulas.
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
// What a spreadsheet may run: = + - @ first (also after leading white space, which some programs
// drop), or a tab or carriage return first (OWASP "CSV injection").
const FORMULA_START = /^(\s*[=+\-@]|[\t\r])/;

/**
 * The spreadsheet formula guard: a cell a spreadsheet program would read as a formula gets a
 * leading apostrophe, so it is shown as the text it is. Plain numbers are left as they are.
 */
export function formulaSafe(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A value as cell text: null is an empty cell, timestamps ISO 8601 (UTC), arrays and objects JSON. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export interface CsvOptions {
  /**
   * `true` for files people open in a spreadsheet program; `false` for files loaded into a
   * database (backups, OMOP CDM), whose values must stay exact.
   */
  formulaGuard: boolean;
  /** A UTF-8 byte order mark first, so Excel reads the file as UTF-8 (default true). */
  bom?: boolean;
}

/** Rows as CSV lines, each ending in CRLF; cells quoted only where they must be (RFC 4180). */
export function csvLines(
  rows: readonly (readonly unknown[])[],
  options: Pick<CsvOptions, 'formulaGuard'>,
): string {
  if (!rows.length) return '';
  const guard = options.formulaGuard ? formulaSafe : (s: string) => s;
  return stringify(
    rows.map((r) => r.map((v) => guard(cellText(v)))),
    { record_delimiter: '\r\n', quoted_match: /[\r\n]/ },
  );
}

/** A whole CSV file as text. */
export function csvText(rows: readonly (readonly unknown[])[], options: CsvOptions): string {
  return `${options.bom === false ? '' : '\ufeff'}${csvLines(rows, options)}`;
}

/**
 * A CSV file written as a stream: the BOM, then each batch of rows as soon as it comes, so an
 * export of any size holds one batch in memory.
 */
export async function* csvStream(
  batches: AsyncIterable<readonly (readonly unknown[])[]> | Iterable<readonly (readonly unknown[])[]>,
  options: CsvOptions,
): AsyncGenerator<string> {
  if (options.bom !== false) yield '\ufeff';
  for await (const rows of batches) {
    const text = csvLines(rows, options);
    if (text) yield text;
  }
}
