import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Form } from '@crdp/crf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, put, signIn, startTestApp, type TestApp } from '../test/helper.js';
import { validXml, xpath } from '../test/xml.js';
import { exportedText } from './test/support.js';
import { LIVER_FORM, registerPatients } from './testform.js';

const REDCAP = fileURLToPath(new URL('../../../../fixtures/redcap/', import.meta.url));

/** LIVER_FORM plus a checkbox that shows a follow-up, and a free text on a second page shown by a number. */
const FORM: Form = {
  ...LIVER_FORM,
  pages: [
    {
      ...LIVER_FORM.pages[0]!,
      items: [
        ...LIVER_FORM.pages[0]!.items!,
        {
          key: 'symptoms',
          type: 'checkbox',
          title: '症状',
          options: [
            { code: 'fatigue', name: '乏力' },
            { code: 'jaundice', name: '黄疸' },
            { code: 'other', name: '其他' },
          ],
        },
        { key: 'otherSymptom', type: 'textQuestion', title: '其他症状', isHide: 1 },
      ],
    },
    { key: 'followup', title: '随访', items: [{ key: 'plan', type: 'textQuestion', title: '计划' }] },
  ],
  showRules: [
    ...LIVER_FORM.showRules!,
    {
      indicatorName: 'symptoms',
      condition: 'contains',
      indicatorVal: 'other',
      selectItems: ['otherSymptom'],
    },
    { indicatorName: 'weight', condition: 'greaterThan', indicatorVal: 100, selectPanel: ['followup'] },
  ],
};

describe('CDISC ODM 1.3.2 export with its audit trail, and its round trip', () => {
  let t: TestApp;
  let admin: string;
  let researcher: string;
  let formId: number;
  const ids: Record<string, number> = {};

  const exportOdm = (id: number, query = '') => exportedText(t.app, admin, id, `format=odm${query}`);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signIn(t.app, 'admin');
    researcher = await signIn(t.app, 'researcher');
    formId = (await post(t.app, '/api/v0.1/crf/forms', { name: 'ODM 稽查', definition: FORM }, admin)).body
      .data.id;
    expect((await post(t.app, `/api/v0.1/crf/forms/${formId}/publish`, { note: '' }, admin)).status).toBe(
      200,
    );
    await registerPatients(t.app, ['ODM-1', 'ODM-2', 'ODM-3']);
    const base = { weight: 70, height: 170, hbsag: 'neg', note: '第一行\n第二行\r\n\t缩进' };
    for (const [code, submit] of [
      ['ODM-1', true],
      ['ODM-2', true],
      ['ODM-3', false],
    ] as const) {
      const r = await post(
        t.app,
        `/api/v0.1/crf/forms/${formId}/records`,
        { subjectCode: code, submit, answers: base },
        researcher,
      );
      expect(r.status).toBe(200);
      ids[code] = r.body.data.id;
    }
    // ODM-1: two changes with reasons (by two people), verified, then locked.
    const one = `/api/v0.1/crf/records/${ids['ODM-1']}`;
    expect(
      (
        await put(
          t.app,
          one,
          { answers: { ...base, weight: 72 }, revision: 1, reasons: { weight: '录入错误' } },
          researcher,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await put(
          t.app,
          one,
          {
            answers: { ...base, weight: 73, hbsag: 'pos', hbvDna: 1500 },
            revision: 2,
            reason: '复核病历\n更正',
          },
          admin,
        )
      ).status,
    ).toBe(200);
    expect((await post(t.app, `${one}/verify`, { reason: '' }, admin)).status).toBe(200);
    expect((await post(t.app, `${one}/lock`, { reason: '数据锁定' }, admin)).status).toBe(200);
    // ODM-2: deleted with a reason.
    expect(
      (await post(t.app, `/api/v0.1/crf/records/${ids['ODM-2']}/delete`, { reason: '重复录入' }, admin))
        .status,
    ).toBe(200);
  });
  afterAll(async () => t.close());

  it('writes AuditRecords, users and location, statuses and TransactionTypes; valid ODM 1.3.2', async () => {
    const xml = await exportOdm(formId);
    const file = await validXml(xml);
    expect(xml).toContain('FileType="Transactional"');
    const subject = (code: string) => {
      const m = new RegExp(`<SubjectData SubjectKey="${code}">[\\s\\S]*?</SubjectData>`).exec(xml);
      expect(m, code).not.toBeNull();
      return m![0];
    };
    const one = subject('ODM-1');
    expect(one).toMatch(/<FormData FormOID="F\.\d+" FormRepeatKey="\d+" TransactionType="Update">/);
    expect(one).toContain('<FlagValue CodeListOID="CL.CRDP.RecordStatus">locked</FlagValue>');
    expect(one).toMatch(
      /<ReasonForChange>数据锁定<\/ReasonForChange><SourceID>crf_record_changes\.\d+<\/SourceID>/,
    );
    // Weight: as submitted, then each change with its reason; the last is the current value.
    const weights = one.split('\n').filter((l) => l.startsWith('<ItemData ItemOID="I.weight"'));
    expect(weights.map((l) => /Value="([^"]*)"/.exec(l)?.[1])).toEqual(['70', '72', '73']);
    expect(weights[0]).toContain('TransactionType="Insert"');
    expect(weights[1]).toContain('<ReasonForChange>录入错误</ReasonForChange>');
    expect(weights[2]).toContain('<ReasonForChange>复核病历&#10;更正</ReasonForChange>');
    // hbvDna had no value when submitted: its first transaction is the change.
    expect(one).toMatch(/<ItemData ItemOID="I\.hbvDna" TransactionType="Update" Value="1500"><AuditRecord>/);
    const two = subject('ODM-2');
    expect(two).toContain('TransactionType="Remove"');
    expect(two).toContain('<FlagValue CodeListOID="CL.CRDP.RecordStatus">deleted</FlagValue>');
    expect(two).toContain('<ReasonForChange>重复录入</ReasonForChange>');
    expect(subject('ODM-3')).toContain('<FlagValue CodeListOID="CL.CRDP.RecordStatus">draft</FlagValue>');
    // Every user an audit record names is in AdminData, with the location.
    const users = new Set([...xml.matchAll(/<UserRef UserOID="([^"]+)"\/>/g)].map((m) => m[1]));
    const defined = new Set([...xml.matchAll(/<User OID="([^"]+)">/g)].map((m) => m[1]));
    expect(users.size).toBeGreaterThanOrEqual(2);
    expect([...users].filter((u) => !defined.has(u))).toEqual([]);
    expect(xpath(file, 'count(//*[local-name()="Location"])')).toBe('1');
    // Tabs and line breaks survive a reader that normalises attribute values.
    expect(xpath(file, 'string((//*[local-name()="ItemData"][@ItemOID="I.note"])[1]/@Value)')).toBe(
      '第一行\n第二行\r\n\t缩进',
    );

    const snapshot = await exportOdm(formId, '&audit=false');
    await validXml(snapshot);
    expect(snapshot).toContain('FileType="Snapshot"');
    expect(snapshot).not.toContain('<AuditRecord');
    expect(snapshot).not.toContain('<AdminData');
    expect(snapshot).not.toContain('ODM-2');
    expect(snapshot).toContain('<ItemData ItemOID="I.weight" Value="73"/>');
    expect(snapshot.length).toBeLessThan(xml.length);
    expect((await get(t.app, `/api/v0.1/crf/forms/${formId}/export?format=odm&audit=no`, admin)).status).toBe(
      400,
    );
  });

  it('export → import → export: the same form and the same file, item for item', async () => {
    const first = await exportOdm(formId);
    const imported = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: '往返 1', content: first },
      admin,
    );
    expect(imported.status).toBe(200);
    expect(imported.body.data.unsupported).toEqual([]);
    const b = imported.body.data.form.id;
    const formB = (await get(t.app, `/api/v0.1/crf/forms/${b}`, admin)).body.data;
    expect(formB.problems).toEqual([]);
    expect(formB.draft.showRules).toEqual([
      { indicatorName: 'hbsag', condition: 'equals', indicatorVal: 'pos', selectItems: ['hbvDna'] },
      {
        indicatorName: 'symptoms',
        condition: 'contains',
        indicatorVal: 'other',
        selectItems: ['otherSymptom'],
      },
      { indicatorName: 'weight', condition: 'greaterThan', indicatorVal: 100, selectPanel: ['followup'] },
    ]);
    const items = Object.fromEntries(
      formB.draft.pages
        .flatMap((p: { items: { key: string }[] }) => p.items)
        .map((i: { key: string }) => [i.key, i]),
    );
    expect(items.bmi.fxTopicData).toEqual({ func: 'bmi', fields: ['weight', 'height'] });
    expect(items.symptoms).toMatchObject({ type: 'checkbox', options: FORM.pages[0]!.items![6]!.options });
    expect(formB.draft.pages.map((p: { key: string }) => p.key)).toEqual(['base', 'followup']);
    expect((await post(t.app, `/api/v0.1/crf/forms/${b}/publish`, { note: '' }, admin)).status).toBe(200);
    const second = await exportOdm(b);
    await validXml(second);
    // Metadata item for item: only the form's own OIDs, the file's id and time differ.
    const meta = (xml: string, id: number, name: string) =>
      xml
        .slice(xml.indexOf('<MetaDataVersion'), xml.indexOf('</MetaDataVersion>'))
        .replaceAll(`F.${id}`, 'F.X')
        .replaceAll(`MDV.${id}.`, 'MDV.X.')
        .replace(`<FormDef OID="F.X" Name="${name}"`, '<FormDef OID="F.X" Name="X"')
        .split('\n');
    expect(meta(second, b, '往返 1')).toEqual(meta(first, formId, 'ODM 稽查'));
    const again = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: '往返 2', content: second },
      admin,
    );
    expect(again.body.data.unsupported).toEqual([]);
    const formC = (await get(t.app, `/api/v0.1/crf/forms/${again.body.data.form.id}`, admin)).body.data;
    // The same form JSON (its title is the FormDef's name: the name of the form exported).
    expect(formC.draft.title).toBe('往返 1');
    expect({ ...formC.draft, title: 'X' }).toEqual({ ...formB.draft, title: 'X' });
  });

  it('imports a REDCap project XML: branching logic translated, checkboxes whole, the rest listed', async () => {
    const russian = await readFile(path.join(REDCAP, 'redcapr_russian_project.xml'), 'utf8');
    const res = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      {
        format: 'odm',
        name: 'REDCap 问卷',
        content: russian,
        formOid: 'Form.survey_114_questions_about_counselling_and_testing',
      },
      admin,
    );
    expect(res.status).toBe(200);
    const form = (await get(t.app, `/api/v0.1/crf/forms/${res.body.data.form.id}`, admin)).body.data;
    expect(form.problems).toEqual([]);
    // 29 branching rules of this instrument, none lost: every one is a show rule.
    expect(form.draft.showRules).toHaveLength(29);
    expect(form.draft.showRules).toContainEqual({
      indicatorName: 'knowresult_q9',
      condition: 'equals',
      indicatorVal: '1',
      selectItems: [expect.any(String)],
    });
    expect(res.body.data.unsupported.filter((u: string) => u.includes('branching logic'))).toEqual([]);
    expect(res.body.data.unsupported).toContain(
      'survey_114_questions_about_counselling_and_testing_complete: REDCap form status (Incomplete/Unverified/Complete) not imported',
    );
    const items = form.draft.pages[0].items;
    const share = items.find((i: { key: string }) => i.key === 'shareresult_q14');
    expect(share.type).toBe('checkbox');
    expect(share.options.length).toBeGreaterThan(4);
    expect(items.some((i: { key: string }) => i.key.includes('___'))).toBe(false);

    const longitudinal = await readFile(path.join(REDCAP, 'redcapr_longitudinal_project.xml'), 'utf8');
    const demo = await post(
      t.app,
      '/api/v0.1/crf/forms/import',
      { format: 'odm', name: 'REDCap demographics', content: longitudinal },
      admin,
    );
    expect(demo.status).toBe(200);
    expect(demo.body.data.unsupported).toContain(
      'num_children: branching logic "[sex] = "0" and [given_birth] = "1""',
    );
    expect(demo.body.data.unsupported).toContain(
      'bmi: calculation "round(([weight]*10000)/(([height])^(2)),1)"',
    );
  });

  it('imports every form of one study at once, all or none', async () => {
    const count = async () =>
      (await get(t.app, '/api/v0.1/crf/forms?page=1&size=100', admin)).body.data.total;
    const before = await count();
    const dave = await readFile(
      fileURLToPath(
        new URL(
          '../../../../fixtures/odm/examples/MetaData_Dave_1_3_2_new_2006_01_26_extra_languages.xml',
          import.meta.url,
        ),
      ),
      'utf8',
    );
    const res = await post(t.app, '/api/v0.1/crf/forms/import-study', { content: dave }, admin);
    expect(res.status).toBe(200);
    const forms = res.body.data.forms;
    expect(forms).toHaveLength(7);
    expect(forms[0].formOid).toBe('F_BASELINE');
    expect(new Set(forms.map((f: { form: { category: string } }) => f.form.category)).size).toBe(1);
    expect(forms.find((f: { formOid: string }) => f.formOid === 'F_BASELINE').unsupported).toContain(
      'I_DIABP: derivation method METH.001 (Test Algorithm 1) not translated',
    );
    // None of them names the others as "not imported".
    for (const f of forms) expect(f.unsupported.join('\n')).not.toContain('other forms in the file');
    expect(await count()).toBe(before + 7);

    // REDCap: an instrument per form; rules on other instruments listed in the form that has them.
    const russian = await readFile(path.join(REDCAP, 'redcapr_russian_project.xml'), 'utf8');
    const ru = await post(
      t.app,
      '/api/v0.1/crf/forms/import-study',
      { content: russian, category: 'REDCap 俄语' },
      admin,
    );
    expect(ru.status).toBe(200);
    expect(ru.body.data.forms).toHaveLength(14);
    expect(ru.body.data.forms[0].form.category).toBe('REDCap 俄语');
    expect(await count()).toBe(before + 21);

    const bad = await post(
      t.app,
      '/api/v0.1/crf/forms/import-study',
      { content: '<ODM><Study/></ODM>' },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('body.content');
    expect(
      (await post(t.app, '/api/v0.1/crf/forms/import-study', { content: dave }, researcher)).status,
    ).toBe(403);
    expect(await count()).toBe(before + 21);
  });
});
