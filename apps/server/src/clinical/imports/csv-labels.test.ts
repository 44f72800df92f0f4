import { cdrFieldLabelKey, hasLabel, label } from '@crdp/core';
import { describe, expect, it } from 'vitest';
import { CDR_TABLES } from '../records.js';
import { CSV_TARGETS, csvFields } from './csv.js';

// The CSV import dialog shows tables and fields in words, never their codes (issue 16).
describe('CSV import tables and fields in the labelling layer', () => {
  it('words every target table and every field it maps, in both languages', () => {
    for (const table of CSV_TARGETS) {
      expect(hasLabel('cdrTable', table), table).toBe(true);
      for (const field of csvFields(table)) {
        const key = cdrFieldLabelKey(table, field);
        expect(hasLabel('cdrField', key), `${table}.${field}`).toBe(true);
        expect(label('cdrField', key, 'zh-CN')).toMatch(/[\u4e00-\u9fff]/);
        expect(label('cdrField', key, 'en-US')).not.toBe(field);
      }
    }
  });

  it('names the repository tables as the server does', () => {
    for (const [table, def] of Object.entries(CDR_TABLES)) {
      expect(label('cdrTable', table, 'zh-CN')).toBe(def.label['zh-CN']);
      expect(label('cdrTable', table, 'en-US')).toBe(def.label['en-US']);
    }
    expect(label('cdrField', cdrFieldLabelKey('patients', 'name'), 'zh-CN')).toBe('姓名');
  });
});
