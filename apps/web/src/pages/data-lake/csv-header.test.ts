import { describe, expect, it } from 'vitest';
import { csvHeader } from './csv-header';

describe('csvHeader', () => {
  it('keeps a quoted column name that holds a comma as one column', () => {
    expect(csvHeader('mrn,"name, full",gender\n001,"Zhang, San",1\n')).toEqual([
      'mrn',
      'name, full',
      'gender',
    ]);
  });

  it('reads doubled quotes and a line break inside a quoted name, and drops the byte order mark', () => {
    expect(csvHeader('\ufeff"a ""b""","line\nbreak", c \r\n1,2,3\r\n')).toEqual([
      'a "b"',
      'line\nbreak',
      'c',
    ]);
  });

  it('reads only the header: a broken row further down does not matter', () => {
    expect(csvHeader('mrn,name\n001,"unclosed\n')).toEqual(['mrn', 'name']);
  });

  it('gives no columns for an empty file', () => {
    expect(csvHeader('')).toEqual([]);
  });
});
