import { streamZip } from './zip.js';

/**
 * XLSX (Office Open XML spreadsheet) written as a stream: sheets of number and inline-string
 * cells, no styles, no shared strings. The sheet XML is written here row batch by row batch;
 * the ZIP container (deflate, ZIP64 when a sheet passes 4 GB) is yazl's. Memory stays flat at
 * any number of rows: a form with 100,000 records exports without being held whole. Excel,
 * LibreOffice and pandas open the files.
 */
export type Cell = string | number | null;

export interface SheetSource {
  name: string;
  /** Rows in batches, in order; a batch is written as soon as it comes. */
  rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Escapes text for XML 1.0 and drops the control characters it cannot hold (all but tab, LF, CR). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters xmlText changes or removes
const NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff&<>"]/;

export function xmlText(s: string): string {
  // Most cells have nothing to escape: one test instead of five replacements.
  if (!NEEDS_ESCAPE.test(s)) return s;
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** Spreadsheet column name of a 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Column names of the first columns, computed once (every cell of every row needs one). */
const COLUMNS = Array.from({ length: 256 }, (_, i) => columnName(i));

function rowXml(row: Cell[], r: number): string {
  let cells = '';
  row.forEach((v, c) => {
    if (v === null || v === '') return;
    const ref = `${COLUMNS[c] ?? columnName(c)}${r}`;
    cells +=
      typeof v === 'number' && Number.isFinite(v)
        ? `<c r="${ref}"><v>${v}</v></c>`
        : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(String(v))}</t></is></c>`;
  });
  return `<row r="${r}">${cells}</row>`;
}

/** Sheet names as Excel accepts them: no \ / ? * [ ] :, at most 31 characters, unique, not empty. */
function sheetNames(sheets: SheetSource[]): string[] {
  const used = new Set<string>();
  return sheets.map((s, i) => {
    let name =
      s.name
        .replace(/[\\/?*[\]:]/g, ' ')
        .trim()
        .slice(0, 31) || `Sheet${i + 1}`;
    if (used.has(name.toLowerCase())) name = `${name.slice(0, 28)} ${i + 1}`;
    used.add(name.toLowerCase());
    return name;
  });
}

function packageParts(names: string[]): Array<[string, string]> {
  const sheets = names.map((_, i) => i + 1);
  return [
    [
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets
        .map(
          (n) =>
            `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('')}</Types>`,
    ],
    [
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names
        .map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('')}</sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${sheets
        .map(
          (n) => `<Relationship Id="rId${n}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${n}.xml"/>`,
        )
        .join('')}</Relationships>`,
    ],
  ];
}

async function* sheetXml(sheet: SheetSource): AsyncGenerator<string> {
  yield `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>`;
  let r = 0;
  for await (const batch of sheet.rows) yield batch.map((row) => rowXml(row, ++r)).join('');
  yield '</sheetData></worksheet>';
}

/** Yields the bytes of the XLSX file as they are made. */
export function streamXlsx(sheets: SheetSource[]): AsyncGenerator<Buffer> {
  return streamZip([
    ...packageParts(sheetNames(sheets)).map(([name, content]) => ({ name, content })),
    ...sheets.map((sheet, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, content: sheetXml(sheet) })),
  ]);
}

/** The whole file in memory, for small workbooks written to disk in one go. */
export async function xlsxBuffer(sheets: SheetSource[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of streamXlsx(sheets)) parts.push(chunk);
  return Buffer.concat(parts);
}
