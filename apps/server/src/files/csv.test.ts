import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { CsvParseError, csvLines, csvStream, csvText, formulaSafe, parseCsv, readCsv } from './csv.js';

const collect = async (g: AsyncGenerator<string>) => {
  let s = '';
  for await (const c of g) s += c;
  return s;
};

describe('parseCsv', () => {
  it('reads quotes, doubled quotes, commas and line breaks in cells, and drops a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n"x,""y""\r\nz",2\r\n')).toEqual([
      ['a', 'b'],
      ['x,"y"\r\nz', '2'],
    ]);
  });

  it('takes CRLF, LF and CR in one file, ragged rows, and leaves out blank rows', () => {
    expect(parseCsv('a,b\r\n1,2\n3\r4,5,6\n,,\n  , \t\n\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3'],
      ['4', '5', '6'],
    ]);
  });

  it('keeps a quote inside an unquoted cell as a character', () => {
    expect(parseCsv('a,5" disk,c')).toEqual([['a', '5" disk', 'c']]);
  });

  it('keeps NUL and other control characters in cells', () => {
    expect(parseCsv('x,\u0000y,\u0007z\u001f')).toEqual([['x', '\u0000y', '\u0007z\u001f']]);
  });

  it('reads a very long line', () => {
    const long = '中'.repeat(2_000_000);
    const rows = parseCsv(`a,b\r\n${long},"${long}"\r\n`);
    expect(rows[1]![0]!.length).toBe(2_000_000);
    expect(rows[1]![1]).toBe(long);
  });

  it('names the line and column of an unclosed quote', () => {
    expect(() => parseCsv('a,b\n1,2\n3,"x\n4,5')).toThrow(CsvParseError);
    try {
      parseCsv('a,b\n1,2\n3,"x\n4,5');
    } catch (e) {
      expect(e).toMatchObject({ line: 3, column: 2 });
      expect((e as Error).message).toBe('CSV line 3, column 2: a quoted cell is not closed');
    }
  });

  it('names the line an unclosed quote opens on after a BOM, multi-line cells and Chinese text', () => {
    expect(() => parseCsv('\ufeff姓名,备注\r\n张三,"多\r\n行"\r\n\r\n李四,"没有闭合\r\n王五,x')).toThrow(
      'CSV line 5, column 2',
    );
    expect(() => parseCsv('"x')).toThrow('CSV line 1, column 1');
  });

  it('readCsv refuses an unreadable file as a 400 naming the field, line and column', () => {
    try {
      readCsv('a\n"b', 'body.text');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({ status: 400, field: 'body.text' });
      expect(JSON.stringify((e as AppError).values)).toContain('CSV 第 2 行第 1 列：引号没有闭合');
    }
  });
});

describe('formula guard', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+cmd', "'+cmd"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    [' =HYPERLINK("x")', '\' =HYPERLINK("x")'],
    ['\u3000=1', "'\u3000=1"],
    ['=cmd|" /C calc"!A0', '\'=cmd|" /C calc"!A0'],
  ])('guards %j', (cell, out) => {
    expect(formulaSafe(cell)).toBe(out);
  });

  it.each(['-3', '+5', '-1.25', '1e-3', '-2E+5', '.5', 'a=b', '中文', '', 'x-1'])(
    'leaves %j as it is',
    (cell) => {
      expect(formulaSafe(cell)).toBe(cell);
    },
  );
});

describe('writing', () => {
  it('writes RFC 4180 lines with CRLF, a BOM and the guard for spreadsheets', () => {
    expect(
      csvText(
        [
          ['id', 'note'],
          [1, 'a,"b"\nc'],
          [2, '=cmd'],
          [-3, null],
          [new Date('2024-01-02T03:04:05Z'), ['x', 'y']],
          [true, { a: 1 }],
        ],
        { formulaGuard: true },
      ),
    ).toBe(
      '\ufeffid,note\r\n1,"a,""b""\nc"\r\n2,\'=cmd\r\n-3,\r\n2024-01-02T03:04:05.000Z,"[""x"",""y""]"\r\ntrue,"{""a"":1}"\r\n',
    );
  });

  it('keeps values exact without the guard and without a BOM when asked', () => {
    expect(csvText([['=1', '\rx', '-']], { formulaGuard: false, bom: false })).toBe('=1,"\rx",-\r\n');
    expect(csvLines([], { formulaGuard: false })).toBe('');
  });

  it('streams batch by batch the same bytes as the whole text', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => [i, `r${i}`, i % 3 ? '@x' : 'y\nz']);
    async function* batches() {
      for (let i = 0; i < rows.length; i += 10) yield rows.slice(i, i + 10);
    }
    expect(await collect(csvStream(batches(), { formulaGuard: true }))).toBe(
      csvText(rows, { formulaGuard: true }),
    );
    expect(await collect(csvStream([[], [['a']]], { formulaGuard: false, bom: false }))).toBe('a\r\n');
  });
});

describe('round trip (fuzz)', () => {
  // Any text, including quotes, commas, CR, LF, NUL and other control characters, BOMs and astral
  // characters; a row with only blank cells is left out by the reader, so every row has text.
  const cell = fc.string({
    unit: fc.oneof(
      fc.constantFrom('"', ',', '\r', '\n', '\u0000', '\ufeff', ' ', '='),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 12,
  });
  const row = fc.array(cell, { minLength: 1, maxLength: 6 }).filter((r) => r.some((c) => c.trim() !== ''));

  it('reads back exactly what it wrote', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
        expect(parseCsv(csvText(rows, { formulaGuard: false }))).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });

  it('with the guard, reads back every cell as it was or with one leading apostrophe', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
        const back = parseCsv(csvText(rows, { formulaGuard: true }));
        back.forEach((r, i) => {
          r.forEach((c, j) => {
            const was = rows[i]![j]!;
            expect(c === was || c === `'${was}`).toBe(true);
            expect(
              /^(\s*[=+\-@]|[\t\r])/.test(c) && !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(c),
            ).toBe(false);
          });
        });
      }),
      { numRuns: 500 },
    );
  });
});
