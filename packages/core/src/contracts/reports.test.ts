import { describe, expect, it } from 'vitest';
import {
  checkReportDefinition,
  checkReportValues,
  reportDefinition,
  reportFieldKind,
  reportFieldsOf,
  valueTypeOf,
} from './reports.js';

const def = (d: object) =>
  reportDefinition.parse({ source: 'diagnoses', columns: ['diagnoses.icd10'], ...d });

describe('report definitions', () => {
  it('knows which fields a source may use: its own and the patient’s, never identifying ones', () => {
    expect(reportFieldKind('diagnoses', 'diagnoses.diagnosedAt')).toBe('date');
    expect(reportFieldKind('diagnoses', 'patients.gender')).toBe('gender');
    expect(reportFieldKind('diagnoses', 'visits.kind')).toBeNull();
    expect(reportFieldKind('patients', 'patients.name')).toBeNull();
    expect(reportFieldKind('patients', 'patients.mrn.x')).toBeNull();
    expect(reportFieldKind('labResults', 'labResults.valueNum')).toBe('number');
    expect(reportFieldsOf('patients').every((f) => f.table === 'patients')).toBe(true);
    expect(reportFieldsOf('visits')[0]).toEqual({
      ref: 'visits.kind',
      table: 'visits',
      field: 'kind',
      kind: 'text',
    });
  });

  it('says what a value of an operator must be', () => {
    expect(valueTypeOf('date', 'between')).toBe('dateRange');
    expect(valueTypeOf('date', 'gte')).toBe('date');
    expect(valueTypeOf('gender', 'eq')).toBe('number');
    expect(valueTypeOf('text', 'prefix')).toBe('text');
  });

  it('accepts a sound definition and names the first problem of an unsound one', () => {
    expect(
      checkReportDefinition(
        def({
          filters: [
            { field: 'diagnoses.icd10', op: 'prefix', param: 'icd' },
            { field: 'diagnoses.diagnosedAt', op: 'gte', value: '2024-01-01' },
          ],
          params: [{ key: 'icd', label: '前缀', type: 'text' }],
          sort: { column: 'diagnoses.icd10' },
        }),
      ),
    ).toEqual([]);
    const paths = (d: object) => checkReportDefinition(def(d)).map((i) => i.path);
    expect(paths({ filters: [{ field: 'diagnoses.diagnosedAt', op: 'gte', value: '2024-02-30' }] })).toEqual([
      'definition.filters.0.value',
    ]);
    expect(paths({ filters: [{ field: 'diagnoses.icd10', op: 'eq', value: 'x', param: 'p' }] })).toEqual([
      'definition.filters.0.value',
    ]);
    expect(
      paths({
        filters: [{ field: 'diagnoses.diagnosedAt', op: 'between', param: 'p' }],
        params: [{ key: 'p', label: '日期', type: 'date' }],
      }),
    ).toEqual(['definition.filters.0.param']);
    expect(
      paths({
        filters: [{ field: 'diagnoses.icd10', op: 'eq', param: 'p' }],
        params: [
          { key: 'p', label: 'a', type: 'text' },
          { key: 'p', label: 'b', type: 'text' },
        ],
      }),
    ).toContain('definition.params.1.key');
    const [issue] = checkReportDefinition(def({ columns: ['patients.nationalId'] }));
    expect(issue).toMatchObject({
      path: 'definition.columns.0',
      en: 'the report cannot show the field "patients.nationalId"',
    });
    expect(issue!.zh).toContain('报表不能显示字段');
  });

  it('checks the values of a run: types, required ones, unknown keys; empty counts as not given', () => {
    const params = reportDefinition.parse({
      source: 'diagnoses',
      columns: ['diagnoses.icd10'],
      params: [
        { key: 'icd', label: '前缀', type: 'text', required: true },
        { key: 'on', label: '日期', type: 'date' },
        { key: 'period', label: '期间', type: 'dateRange' },
      ],
    }).params;
    expect(
      checkReportValues(params, { icd: 'B18', on: '2024-01-31', period: { from: '2024-01-01' } }),
    ).toEqual([]);
    expect(checkReportValues(params, { icd: '' }).map((i) => i.path)).toEqual(['params.icd']);
    expect(checkReportValues(params, { icd: 'B', on: 'soon' }).map((i) => i.path)).toEqual(['params.on']);
    expect(checkReportValues(params, { icd: 'B', period: 'x' }).map((i) => i.path)).toEqual([
      'params.period',
    ]);
    expect(checkReportValues(params, { icd: 'B', ghost: 1 }).map((i) => i.path)).toEqual(['params.ghost']);
  });
});
