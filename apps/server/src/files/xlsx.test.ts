import { describe, expect, it } from 'vitest';
import { readZip } from '../test/unzip.js';
import { type Cell, columnName, streamXlsx, xlsxBuffer } from './xlsx.js';

async function* batches(n: number, size: number): AsyncGenerator<Cell[][]> {
  for (let from = 0; from < n; from += size)
    yield Array.from({ length: Math.min(size, n - from) }, (_, i) => [from + i + 1, `行 ${from + i + 1}`]);
}

describe('streamed XLSX', () => {
  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
  });

  it('writes sheets of numbers and escaped text that read back whole, deflated', async () => {
    const bytes = await xlsxBuffer([
      { name: 'data/2024', rows: batches(5000, 500) },
      {
        name: 'dictionary',
        rows: [
          [
            ['key', 'a < b & "c"\u0001'],
            [null, '', 3.5],
          ],
        ],
      },
    ]);
    const files = await readZip(bytes);
    expect([...files.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    expect(files.get('xl/workbook.xml')).toContain('<sheet name="data 2024" sheetId="1" r:id="rId1"/>');
    const sheet1 = files.get('xl/worksheets/sheet1.xml')!;
    expect(sheet1.match(/<row /g)).toHaveLength(5000);
    expect(sheet1).toContain('<row r="5000"><c r="A5000"><v>5000</v></c>');
    const sheet2 = files.get('xl/worksheets/sheet2.xml')!;
    expect(sheet2).toContain('<t xml:space="preserve">a &lt; b &amp; &quot;c&quot;</t>');
    expect(sheet2).toContain('<row r="2"><c r="C2"><v>3.5</v></c></row>');
    // Deflated: far smaller than the sheet's text.
    expect(bytes.length).toBeLessThan(sheet1.length / 4);
  });

  it('passes a failing row source on to the reader', async () => {
    async function* failing(): AsyncGenerator<Cell[][]> {
      yield [[1]];
      throw new Error('database went away');
    }
    await expect(xlsxBuffer([{ name: 's', rows: failing() }])).rejects.toThrow('database went away');
  });

  it('stops the writer when the reader stops early', async () => {
    let produced = 0;
    async function* endless(): AsyncGenerator<Cell[][]> {
      for (;;) {
        produced++;
        yield Array.from({ length: 1000 }, (_, i) => [i, `x${Math.random()}`]);
      }
    }
    let read = 0;
    for await (const chunk of streamXlsx([{ name: 's', rows: endless() }])) {
      read += chunk.length;
      if (read > 200_000) break;
    }
    const after = produced;
    await new Promise((r) => setTimeout(r, 50));
    expect(produced).toBe(after);
  });
});
