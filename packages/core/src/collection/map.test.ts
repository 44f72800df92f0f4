import { describe, expect, it } from 'vitest';
import { collectionTemplateSpec } from '../contracts/collection.js';
import { columnsOf, dictionariesOf, keyText, MappingError, mapField, mapRow, readDate } from './map.js';

const spec = collectionTemplateSpec.parse({
  table: 'his.lab_result',
  keyColumn: 'result_id',
  watermarkColumn: 'updated_at',
  patientColumn: 'patient_no',
  fields: [
    { field: 'itemCode', column: 'item', transforms: [{ kind: 'trim' }] },
    {
      field: 'itemName',
      column: 'item',
      transforms: [{ kind: 'lookup', dictionary: 'lab_item', to: 'name' }],
    },
    { field: 'valueNum', column: 'val', transforms: [{ kind: 'unit', factor: 88.4 }] },
    { field: 'unit', transforms: [{ kind: 'constant', value: 'umol/L' }] },
    { field: 'collectedAt', column: 'taken', transforms: [{ kind: 'date', format: 'yyyyMMddHHmmss' }] },
  ],
});
const lookups = new Map([['lab_item', new Map([['CREA', { standardCode: '2160-0', name: '肌酐' }]])]]);

describe('collection mapping', () => {
  it('maps a row field by field, transforms in order', () => {
    const row = { result_id: 7, item: 'CREA', val: '1.2', taken: '20260301083000', patient_no: 'P1' };
    expect(mapRow({ ...row, item: ' CREA ' }, { fields: spec.fields.slice(0, 1) }, lookups)).toEqual({
      itemCode: 'CREA',
    });
    expect(mapRow(row, spec, lookups)).toEqual({
      itemCode: 'CREA',
      itemName: '肌酐',
      valueNum: 106.08,
      unit: 'umol/L',
      collectedAt: '2026-03-01T08:30:00+08:00',
    });
  });

  it('names the field and the value it could not read', () => {
    const row = { item: 'XX', val: 'abc', taken: '2026-02-30' };
    expect(() => mapField(row, spec.fields[1]!, lookups)).toThrow(/XX is not in dictionary lab_item/);
    expect(() => mapField(row, spec.fields[2]!, lookups)).toThrow(MappingError);
    try {
      mapField(row, spec.fields[4]!, lookups);
    } catch (e) {
      expect(e).toBeInstanceOf(MappingError);
      expect((e as MappingError).field).toBe('collectedAt');
      expect((e as MappingError).zh).toContain('2026-02-30');
    }
    expect.assertions(5);
  });

  it('reads the date layouts a hospital system writes, refusing impossible dates', () => {
    expect(readDate('20260229', 'yyyyMMdd')).toBeUndefined();
    expect(readDate('20280229', 'yyyyMMdd')).toBe('2028-02-29');
    expect(readDate('2026/3/5 7:05:00', 'yyyy/MM/dd HH:mm:ss')).toBe('2026-03-05T07:05:00+08:00');
    expect(readDate('2026-03-05 25:00:00', 'yyyy-MM-dd HH:mm:ss')).toBeUndefined();
    expect(readDate('2026-03-05T10:00:00Z', 'iso')).toBe('2026-03-05T10:00:00.000Z');
    expect(readDate('2026-03-05T10:00:00', 'iso')).toBe('2026-03-05T10:00:00+08:00');
    expect(readDate(new Date('2026-03-05T02:00:00Z'), 'yyyyMMdd')).toBe('2026-03-05T02:00:00.000Z');
    expect(readDate('not a date', 'iso')).toBeUndefined();
  });

  it('maps codes, reads numbers for numeric fields, drops empty values', () => {
    const gender = {
      field: 'gender',
      column: 'sex',
      transforms: [
        {
          kind: 'map' as const,
          pairs: [
            { from: 'M', to: '1' },
            { from: 'F', to: '2' },
          ],
        },
      ],
    };
    expect(mapField({ sex: 'F' }, gender)).toBe(2);
    expect(mapField({ sex: '' }, gender)).toBeUndefined();
    expect(() => mapField({ sex: 'X' }, gender)).toThrow(/X is not a number/);
    expect(mapField({ n: 42 }, { field: 'mrn', column: 'n', transforms: [] })).toBe('42');
  });

  it('lists the columns and dictionaries a template reads', () => {
    expect(columnsOf(spec)).toEqual(['result_id', 'updated_at', 'patient_no', 'item', 'val', 'taken']);
    expect(dictionariesOf(spec)).toEqual(['lab_item']);
    expect(keyText(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(keyText(12)).toBe('12');
  });
});
