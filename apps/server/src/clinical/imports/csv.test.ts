import { describe, expect, it } from 'vitest';
import { mapCsv } from './csv.js';

describe('mapCsv', () => {
  it('reads a quoted header and rows through the one CSV module', () => {
    const out = mapCsv({
      fileName: 'p.csv',
      table: 'patients',
      mapping: { mrn: 'MRN, local', name: 'name', gender: 'sex' },
      text: '\ufeff"MRN, local",name,sex\r\nM-1,"张 ""三""",1\r\n,,\r\n',
    });
    expect(out.errors).toEqual([]);
    expect(out.total).toBe(1);
    expect(out.patients[0]?.input).toMatchObject({ mrn: 'M-1', name: '张 "三"', gender: 1 });
  });

  it('refuses an unreadable file as one error naming the line and column, importing nothing', () => {
    const out = mapCsv({
      fileName: 'p.csv',
      table: 'patients',
      mapping: { mrn: 'mrn' },
      text: 'mrn,name\nM-1,a\nM-2,"b\nM-3,c\n',
    });
    expect(out.patients).toEqual([]);
    expect(out.errors).toEqual([
      expect.objectContaining({
        row: 0,
        field: 'text',
        message: 'line 3, column 2: a quoted cell is not closed',
      }),
    ]);
  });
});
