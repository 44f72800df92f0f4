import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formItems } from '@crdp/crf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { exportedText } from './test/support.js';
import { registerPatients } from './testform.js';

const REDCAP = fileURLToPath(new URL('../../../../fixtures/redcap/', import.meta.url));

describe('REDCap data dictionary import: what is kept, what is reported, what is refused', () => {
  let t: TestApp;
  let admin: string;
  let types: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    types = await readFile(path.join(REDCAP, 'redcapr_validation_types_dictionary.csv'), 'utf8');
  });
  afterAll(async () => t.close());
  const count = async () => (await get(t.app, '/api/v0.1/crf/forms?page=1&size=100', admin)).body.data.total;
  const importCsv = (content: string, name = 'REDCap') =>
    post(t.app, '/api/v0.1/crf/forms/import', { format: 'redcap', name, content }, admin);

  it('maps every validation type of REDCap and counts fields, rules, calculations and tags', async () => {
    const res = await importCsv(types, 'REDCap validation types');
    expect(res.status).toBe(200);
    const { unsupported, counts } = res.body.data;
    // 51 rows: f_sql (type sql) is the one field not imported; f_descriptive is a paragraph.
    expect(counts).toEqual({
      fields: { total: 50, imported: 49, notImported: 1 },
      branching: { total: 0, translated: 0, notTranslated: 0 },
      calculations: { total: 1, translated: 0, notTranslated: 1 },
      actionTags: { total: 0, translated: 0, notTranslated: 0 },
    });
    const form = (await get(t.app, `/api/v0.1/crf/forms/${res.body.data.form.id}`, admin)).body.data.draft;
    const items = Object.fromEntries(formItems(form).map((x) => [x.item.key, x.item]));
    expect(items.v_integer).toMatchObject({ textType: 'number', fixed: 0 });
    expect(items.v_number).toMatchObject({ textType: 'number' });
    expect(items.v_number_1dp).toMatchObject({ textType: 'number', fixed: 1 });
    expect(items.v_number_4dp).toMatchObject({ textType: 'number', fixed: 4 });
    expect(items.v_number_2dp_comma_decimal).toMatchObject({ textType: 'number', fixed: 2 });
    for (const k of ['v_date_ymd', 'v_date_dmy', 'v_date_mdy', 'v_datetime_ymd', 'v_datetime_seconds_dmy'])
      expect(items[k]?.textType).toBe('date');
    for (const k of ['v_email', 'v_phone', 'v_zipcode', 'v_time_hh_mm', 'v_ssn'])
      expect(items[k]?.textType).toBe('text');
    // The slider's range is its min and max (-1 to 101), its labels are reported.
    expect(items.f_slider).toMatchObject({ textType: 'number', minVal: -1, maxVal: 101 });
    expect(unsupported).toEqual(
      expect.arrayContaining([
        'f_slider: slider labels "-1 | 50 | 101" not kept (a number from -1 to 101)',
        'f_sql: field type "sql"',
        'f_calculated: calculation "3+4"',
        'v_datetime_ymd: validation "datetime_ymd" imported as a date (the time of day is not kept)',
        'v_date_dmy: validation "date_dmy": the display order is not kept (dates are shown year-month-day)',
        'v_email: validation "email" (a format check) not kept; imported as free text',
        'v_time_hh_mm: validation "time" (a format check) not kept; imported as free text',
        'v_number_comma_decimal: validation "number_comma_decimal": the comma as decimal separator is not kept (numbers use a dot)',
      ]),
    );
    // A record of it exported as CSV: the formula guard quotes text cells only; -7 stays a number.
    const formId = res.body.data.form.id;
    expect((await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, admin)).status).toBe(
      200,
    );
    await registerPatients(t.app, ['RC-GUARD-1']);
    const rec = await post(
      t.app,
      `/api/v0.1/crf/forms/${formId}/records`,
      {
        subjectCode: 'RC-GUARD-1',
        submit: false,
        answers: { v_number: -7, v_integer: -3, f_text: '=1+2', v_email: '-x' },
      },
      admin,
    );
    expect(rec.status, JSON.stringify(rec.body)).toBe(200);
    const csv = await exportedText(t.app, admin, formId, 'format=csv');
    const [head, row] = csv.replace(/^\ufeff/, '').split('\r\n');
    const cell = (name: string) => row!.split(',')[head!.split(',').indexOf(name)];
    expect(cell('v_number')).toBe('-7');
    expect(cell('v_integer')).toBe('-3');
    expect(cell('f_text')).toBe("'=1+2");
    expect(cell('v_email')).toBe("'-x");
    // Each of the 16 format checks (alpha_only, email, MRNs, phones, postal codes, SSN, times, vmrn, zipcode) is named.
    expect(unsupported.filter((u: string) => u.includes('(a format check) not kept'))).toHaveLength(16);
  });

  it('keeps @HIDDEN, reports identifiers, field notes and other tags (the "simple" project)', async () => {
    const simple = await readFile(path.join(REDCAP, 'redcapr_simple_dictionary.csv'), 'utf8');
    const res = await importCsv(simple, 'REDCap simple');
    expect(res.status).toBe(200);
    expect(res.body.data.unsupported).toEqual(
      expect.arrayContaining([
        'name_first: marked an identifier in REDCap; CRDP keeps no identifier flag on an item',
        'telephone: field note "Include Area Code" not kept (items have no help text)',
        'bmi: calculation "round(([weight]*10000)/(([height])^(2)),1)"',
      ]),
    );
    expect(res.body.data.counts.fields).toEqual({ total: 16, imported: 16, notImported: 0 });
    const form = (await get(t.app, `/api/v0.1/crf/forms/${res.body.data.form.id}`, admin)).body.data.draft;
    const items = Object.fromEntries(formItems(form).map((x) => [x.item.key, x.item]));
    expect(items.height).toMatchObject({ textType: 'number', minVal: 130, maxVal: 215 });
    expect(items.weight).toMatchObject({ textType: 'number', fixed: 0, minVal: 35, maxVal: 200 });
    expect(items.name_first__section).toMatchObject({ type: 'paragraph', title: 'Contact Information' });
  });

  it('refuses a file with nothing importable, an unterminated quote or no rows, naming where; stores nothing', async () => {
    const before = await count();
    // The real dictionary's header and its one field of a type CRDP does not have.
    const lines = types.split(/\r?\n/);
    const onlySql = [lines[0], lines.find((l) => l.startsWith('f_sql,'))].join('\n');
    const none = await importCsv(onlySql);
    expect(none.status).toBe(400);
    expect(none.body.field).toBe('body.content');
    expect(none.body.message).toContain('数据字典中没有可导入的字段（row 2 "f_sql" (sql)）');
    const quote = await importCsv(`${lines[0]}\nrecord_id,form_1,,text,"Record ID\n`);
    expect(quote.status).toBe(400);
    expect(quote.body.field).toBe('body.content');
    expect(quote.body.message).toMatch(/第 2 行|line 2/);
    const empty = await importCsv(lines[0]!);
    expect(empty.status).toBe(400);
    expect(empty.body.field).toBe('body.content');
    expect(await count()).toBe(before);
  });

  it('analyzeForm reports a form without items, and publish refuses it', async () => {
    const made = await post(
      t.app,
      '/api/v0.1/crf/forms',
      {
        name: '只有说明',
        definition: {
          pages: [
            { key: 'p1', title: '说明', items: [{ key: 'intro', type: 'paragraph', title: '请阅读' }] },
          ],
        },
      },
      admin,
    );
    expect(made.status).toBe(200);
    const id = made.body.data.id;
    const form = (await get(t.app, `/api/v0.1/crf/forms/${id}`, admin)).body.data;
    expect(form.problems).toEqual([
      expect.objectContaining({ code: 'noItems', at: 'pages', message: 'the form has no item to answer' }),
    ]);
    const publish = await post(t.app, `/api/v0.1/crf/forms/${id}/publish`, { note: '' }, admin);
    expect(publish.status).toBe(400);
    expect(publish.body.field).toBe('draft.pages');
    // With an item it publishes.
    const draft = {
      pages: [{ key: 'p1', title: '说明', items: [{ key: 'q', type: 'textQuestion', title: '问' }] }],
    };
    expect((await put(t.app, `/api/v0.1/crf/forms/${id}/draft`, { definition: draft }, admin)).status).toBe(
      200,
    );
    expect((await post(t.app, `/api/v0.1/crf/forms/${id}/publish`, { note: '' }, admin)).status).toBe(200);
  });
});
