import { crc32 } from 'node:zlib';

/**
 * A streaming XLSX writer: one sheet of inline-string and number cells in a stored ZIP whose
 * entries carry data descriptors, so the sheet is written row by row and never held whole
 * (a form with 100,000 records exports in flat memory). Excel, LibreOffice and pandas read it
 * through the central directory. No styles, no shared strings.
 */
type Cell = string | number | null;

const esc = (s: string) =>
  Array.from(s)
    .filter((c) => {
      const n = c.codePointAt(0)!;
      return n >= 0x20 || n === 0x09 || n === 0x0a || n === 0x0d;
    })
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function column(i: number) {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function rowXml(row: Cell[], r: number) {
  const cells = row
    .map((v, c) => {
      const ref = `${column(c)}${r}`;
      if (v === null || v === '') return '';
      if (typeof v === 'number' && Number.isFinite(v)) return `<c r="${ref}"><v>${v}</v></c>`;
      return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(String(v))}</t></is></c>`;
    })
    .join('');
  return `<row r="${r}">${cells}</row>`;
}

const STATIC = (sheetName: string): Array<[string, string]> => [
  [
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  ],
  [
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  ],
  [
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${esc(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1')}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  ],
];

interface Entry {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
}

/** Yields the bytes of an XLSX file whose one sheet holds the given rows, as they come. */
export async function* streamXlsx(sheetName: string, rows: AsyncIterable<Cell[][]>): AsyncGenerator<Buffer> {
  const entries: Entry[] = [];
  let offset = 0;

  function* open(name: string) {
    const n = Buffer.from(name, 'utf8');
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0808, 6); // UTF-8 names, sizes in the data descriptor
    h.writeUInt16LE(n.length, 26);
    const entry: Entry = { name: n, crc: 0, size: 0, offset };
    entries.push(entry);
    offset += h.length + n.length;
    yield Buffer.concat([h, n]);
    return entry;
  }
  const data = (entry: Entry, b: Buffer) => {
    entry.crc = crc32(b, entry.crc);
    entry.size += b.length;
    offset += b.length;
    return b;
  };
  const close = (entry: Entry) => {
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(entry.crc, 4);
    d.writeUInt32LE(entry.size, 8);
    d.writeUInt32LE(entry.size, 12);
    offset += d.length;
    return d;
  };

  for (const [name, text] of STATIC(sheetName)) {
    const e = yield* open(name);
    yield data(e, Buffer.from(text, 'utf8'));
    yield close(e);
  }
  const sheet = yield* open('xl/worksheets/sheet1.xml');
  yield data(
    sheet,
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    ),
  );
  let r = 0;
  for await (const batch of rows) {
    yield data(sheet, Buffer.from(batch.map((row) => rowXml(row, ++r)).join(''), 'utf8'));
  }
  yield data(sheet, Buffer.from('</sheetData></worksheet>'));
  yield close(sheet);

  const central = entries.map((e) => {
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x0808, 8);
    c.writeUInt32LE(e.crc, 16);
    c.writeUInt32LE(e.size, 20);
    c.writeUInt32LE(e.size, 24);
    c.writeUInt16LE(e.name.length, 28);
    c.writeUInt32LE(e.offset, 42);
    return Buffer.concat([c, e.name]);
  });
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([dir, end]);
}
