import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseForm } from '../schema.js';
import type { FormItem } from '../types.js';
import { formItems } from '../walk.js';
import { FormImportError } from './errors.js';
import { fromJson } from './json.js';
import { fromOdm, MAX_ODM_CHARS } from './odm.js';
import { fromRedcap } from './redcap.js';
import { REDCAP_HEADER } from './redcap-odm.js';

const example = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/odm/examples/${name}`, import.meta.url), 'utf8');
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof FormImportError) return { field: e.field, zh: e.zh, en: e.en };
    throw e;
  }
  throw new Error('not refused');
};
const byKey = (items: Array<{ item: FormItem }>) =>
  Object.fromEntries(items.map((x) => [x.item.key, x.item]));

const HEADER = REDCAP_HEADER.slice(0, 13);
const field = (...cells: string[]) => [...cells, ...new Array(HEADER.length - cells.length).fill('')];

describe('REDCap data dictionary', () => {
  it('translates field types, validation, choices, sections, checkbox logic and sums', () => {
    const { form, unsupported } = fromRedcap([
      HEADER,
      field('mrn', 'enrolment', 'Identity', 'text', '<b>MRN</b>', '', '', '', '', '', 'y', '', 'y'),
      field('visit', 'enrolment', '', 'text', 'Visit date', '', '', 'date_ymd'),
      field('sex', 'enrolment', '', 'dropdown', 'Sex', '1, Male | 2, Female'),
      field('sym', 'symptoms', '', 'checkbox', 'Symptoms', '1, Cough|2, Fever'),
      field(
        'fever_days',
        'symptoms',
        '',
        'text',
        'Days of fever',
        '',
        '',
        'integer',
        '0',
        '30',
        '',
        "[sym(2)] = '1'",
      ),
      field('pain', 'symptoms', '', 'slider', 'Pain'),
      field('note', 'symptoms', '', 'notes', 'Note'),
      field('info', 'symptoms', '', 'descriptive', 'Read this', '', '', '', '', '', '', '', 'y'),
      field('sig', 'symptoms', '', 'signature', 'Signature'),
      field('empty', 'symptoms', '', 'radio', 'No choices'),
      field('score', 'symptoms', '', 'calc', 'Score', '[pain] + [fever_days]'),
    ]);
    expect(unsupported).toEqual([
      'mrn: marked an identifier in REDCap; CRDP keeps no identifier flag on an item',
      'sig: field type "signature"',
      'empty: no choices',
    ]);
    expect(form.pages.map((p) => p.title)).toEqual(['enrolment', 'symptoms']);
    const items = byKey(formItems(form));
    expect(items.mrn__section).toMatchObject({ type: 'paragraph', title: 'Identity' });
    expect(items.mrn).toMatchObject({ title: 'MRN', textType: 'text', isRequired: 1 });
    expect(items.visit).toMatchObject({ textType: 'date' });
    expect(items.sex).toMatchObject({
      type: 'radio',
      typeQ: 'select',
      options: [
        { code: '1', name: 'Male' },
        { code: '2', name: 'Female' },
      ],
    });
    expect(items.fever_days).toMatchObject({ textType: 'number', minVal: 0, maxVal: 30, isHide: 1 });
    expect(items.pain).toMatchObject({ textType: 'number', minVal: 0, maxVal: 100 });
    expect(items.note).toMatchObject({ textType: 'textarea' });
    expect(items.info).toMatchObject({ type: 'paragraph' });
    expect(items.info?.isRequired).toBeUndefined();
    expect(items.score).toMatchObject({ fxTopicData: { func: 'sum', fields: ['pain', 'fever_days'] } });
    expect(form.showRules).toEqual([
      { indicatorName: 'sym', condition: 'contains', indicatorVal: '2', selectItems: ['fever_days'] },
    ]);
    expect(() => parseForm(form)).not.toThrow();
  });

  it('refuses a file without fields or with another first column', () => {
    expect(refusal(() => fromRedcap([HEADER]))).toMatchObject({ field: 'content' });
    expect(
      refusal(() =>
        fromRedcap([
          ['a', 'b'],
          ['1', '2'],
        ]),
      ),
    ).toMatchObject({
      field: 'content',
      en: 'the first column of a REDCap data dictionary is "Variable / Field Name"',
    });
  });
});

describe('CDISC ODM 1.3.2 metadata', () => {
  it('reads a real multi-language file: protocol order, units, code lists, exceptions', () => {
    const { form, unsupported } = fromOdm(example('MetaData_Dave_1_3_2_new_2006_01_26_extra_languages.xml'));
    expect(unsupported[0]).toMatch(/^other forms in the file were not imported: F_CM \(/);
    expect(unsupported).toContain('I_VISITTIME: data type "time" imported as free text');
    const items = byKey(formItems(form));
    expect(items.I_SYSBP).toMatchObject({
      title: 'Systolic blood pressure',
      unit: 'mm Hg',
      fixed: 0,
      maxVal: 179,
    });
    expect(items.I_NR_CIGARETTES?.isHide).toBe(1);
    expect(() => parseForm(form)).not.toThrow();
  });

  it('chooses a form by OID and translates an OpenEDC negated condition', () => {
    const { form } = fromOdm(example('openedc_metadata.xml'), 'F.1');
    expect(form.showRules).toContainEqual({
      indicatorName: 'Gender',
      condition: 'equals',
      indicatorVal: 'Female',
      selectItems: ['Pregnant'],
    });
  });

  it('refuses what it cannot read, naming the input and the reason', () => {
    const odm = (body: string) => `<?xml version="1.0"?><ODM ODMVersion="1.3.2">${body}</ODM>`;
    expect(refusal(() => fromOdm('<ODM><Study>'))).toMatchObject({
      field: 'content',
      en: expect.stringMatching(/^not well-formed XML \(line 1: /),
    });
    expect(refusal(() => fromOdm('<!DOCTYPE x [<!ENTITY a "b">]><ODM/>')).en).toBe(
      'an ODM file must not contain a DOCTYPE or entity declarations',
    );
    expect(refusal(() => fromOdm(`<ODM>${' '.repeat(MAX_ODM_CHARS)}</ODM>`)).en).toBe(
      'the ODM file is larger than 5 MB',
    );
    expect(refusal(() => fromOdm('<html/>')).zh).toBe('根元素不是 <ODM>（CDISC ODM 1.3.2）');
    expect(refusal(() => fromOdm(odm('<Study OID="S"/>'))).en).toBe(
      'the ODM file has no Study with a MetaDataVersion',
    );
    expect(
      refusal(() =>
        fromOdm(
          odm(
            '<Study OID="S"><MetaDataVersion OID="M" Name="M"><FormDef OID="F.A" Name="A"/></MetaDataVersion></Study>',
          ),
          'F.B',
        ),
      ),
    ).toEqual({
      field: 'formOid',
      zh: '文件中没有 FormDef "F.B"（文件中有：F.A）',
      en: 'no FormDef "F.B" in the file (it has F.A)',
    });
  });
});

describe('CRF JSON', () => {
  it('unwraps an export and refuses what is not JSON', () => {
    expect(fromJson('{"definition":{"pages":[]}}')).toEqual({ pages: [] });
    expect(fromJson('{"pages":[]}')).toEqual({ pages: [] });
    expect(refusal(() => fromJson('{'))).toEqual({ field: 'content', zh: '不是有效的 JSON', en: 'not JSON' });
  });
});
