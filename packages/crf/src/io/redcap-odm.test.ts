import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeForm } from '../analyze.js';
import { formItems } from '../walk.js';
import { kids, xmlParser } from '../xml.js';
import { fromOdm, fromOdmStudy } from './odm.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../fixtures/redcap/${name}`, import.meta.url), 'utf8');
const byKey = (form: ReturnType<typeof fromOdm>['form']) =>
  Object.fromEntries(formItems(form).map((x) => [x.item.key, x.item]));
const targetsOf = (form: ReturnType<typeof fromOdm>['form']) =>
  new Set((form.showRules ?? []).flatMap((r) => [r.selectItems ?? []].flat()));

describe('REDCap project XML (ODM 1.3.1 with redcap: attributes)', () => {
  it('reads a real project: checkboxes reassembled, branching logic and calculations translated or listed', () => {
    const xml = fixture('redcapr_longitudinal_project.xml');
    const { form, unsupported } = fromOdm(xml);
    const items = byKey(form);
    expect(form.title).toBe('Demographics');
    // gym___0 … gym___4 (Checked/Unchecked each) are one checkbox with the five days.
    expect(Object.keys(items).filter((k) => k.includes('___'))).toEqual([]);
    expect(items.gym).toMatchObject({
      type: 'checkbox',
      title: 'Gym (Weight Training)',
      options: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'].map((name, i) => ({
        code: String(i),
        name,
      })),
    });
    expect(items.meds!.options!.map((o) => o.name)).toEqual([
      'Lexapro',
      'Celexa',
      'Prozac',
      'Paxil',
      'Zoloft',
    ]);
    // redcap:BranchingLogic="[sex] = &quot;0&quot;" is a show rule; the `and` one is listed.
    expect(form.showRules).toEqual([
      { indicatorName: 'sex', condition: 'equals', indicatorVal: '0', selectItems: ['given_birth'] },
    ]);
    expect(items.given_birth!.isHide).toBe(1);
    expect(unsupported).toContain('num_children: branching logic "[sex] = "0" and [given_birth] = "1""');
    expect(unsupported).toContain('bmi: calculation "round(([weight]*10000)/(([height])^(2)),1)"');
    expect(unsupported).toContain(
      'demographics_complete: REDCap form status (Incomplete/Unverified/Complete) not imported',
    );
    expect(unsupported[0]).toMatch(/^other forms in the file were not imported: Form\.contact_info/);
    expect(items.dob).toMatchObject({ textType: 'date' });
    expect(items.weight).toMatchObject({ textType: 'number' });
    expect(analyzeForm(form)).toEqual([]);
  });

  it('keeps or lists every branching rule of a real 14-instrument project, form by form', () => {
    const xml = fixture('redcapr_russian_project.xml');
    const doc = xmlParser({ parseAttributeValue: false }).parse(xml);
    const mdv = kids(kids(kids(doc, 'ODM')[0], 'Study')[0], 'MetaDataVersion')[0]!;
    const withLogic = new Set(
      kids(mdv, 'ItemDef')
        .filter((d) => d['@_BranchingLogic'])
        .map((d) => String(d['@_Variable'])),
    );
    let translated = 0;
    let listed = 0;
    for (const def of kids(mdv, 'FormDef')) {
      const { form, unsupported } = fromOdm(xml, String(def['@_OID']));
      const keys = new Set(formItems(form).map((x) => x.item.key));
      const ruled = targetsOf(form);
      const reported = new Set(
        unsupported.filter((u) => u.includes('branching logic')).map((u) => u.slice(0, u.indexOf(':'))),
      );
      for (const key of keys)
        if (withLogic.has(key)) {
          // Each field with branching logic is either shown by a rule or named in the report.
          expect(ruled.has(key) || reported.has(key), key).toBe(true);
          if (ruled.has(key)) translated++;
          else listed++;
        }
      expect(analyzeForm(form)).toEqual([]);
    }
    expect(translated + listed).toBe(withLogic.size);
    expect(translated).toBeGreaterThan(100);
  });

  it('lists action tags and rules on other instruments; translates sums and checkbox tests', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" xmlns:redcap="https://projectredcap.org" ODMVersion="1.3.1" FileType="Snapshot" FileOID="x" CreationDateTime="2024-01-01T00:00:00">
<Study OID="Project.T"><GlobalVariables><StudyName>T</StudyName><StudyDescription>T</StudyDescription><ProtocolName>T</ProtocolName></GlobalVariables>
<MetaDataVersion OID="M" Name="T" redcap:RecordIdField="record_id">
<FormDef OID="Form.a" Name="A" Repeating="No" redcap:FormName="a"><ItemGroupRef ItemGroupOID="a.g" Mandatory="No"/></FormDef>
<FormDef OID="Form.b" Name="B" Repeating="No" redcap:FormName="b"><ItemGroupRef ItemGroupOID="b.g" Mandatory="No"/></FormDef>
<ItemGroupDef OID="a.g" Name="A" Repeating="No">
<ItemRef ItemOID="record_id" Mandatory="No" redcap:Variable="record_id"/>
<ItemRef ItemOID="race___1" Mandatory="No" redcap:Variable="race"/><ItemRef ItemOID="race___2" Mandatory="No" redcap:Variable="race"/>
<ItemRef ItemOID="x" Mandatory="No" redcap:Variable="x"/><ItemRef ItemOID="y" Mandatory="No" redcap:Variable="y"/>
<ItemRef ItemOID="total" Mandatory="No" redcap:Variable="total"/><ItemRef ItemOID="other" Mandatory="No" redcap:Variable="other"/>
</ItemGroupDef>
<ItemGroupDef OID="b.g" Name="B" Repeating="No"><ItemRef ItemOID="late" Mandatory="No" redcap:Variable="late"/></ItemGroupDef>
<ItemDef OID="record_id" Name="record_id" DataType="text" Length="999" redcap:Variable="record_id" redcap:FieldType="text"><Question><TranslatedText>ID</TranslatedText></Question></ItemDef>
<ItemDef OID="race___1" Name="race___1" DataType="boolean" Length="1" redcap:Variable="race" redcap:FieldType="checkbox" redcap:RequiredField="y"><Question><TranslatedText>Race</TranslatedText></Question><CodeListRef CodeListOID="race___1.choices"/></ItemDef>
<ItemDef OID="race___2" Name="race___2" DataType="boolean" Length="1" redcap:Variable="race" redcap:FieldType="checkbox" redcap:RequiredField="y"><Question><TranslatedText>Race</TranslatedText></Question><CodeListRef CodeListOID="race___2.choices"/></ItemDef>
<ItemDef OID="x" Name="x" DataType="integer" Length="999" redcap:Variable="x" redcap:FieldType="text" redcap:TextValidationType="int" redcap:FieldAnnotation="@HIDDEN @DEFAULT='1'"><Question><TranslatedText>X</TranslatedText></Question><RangeCheck Comparator="GE" SoftHard="Soft"><CheckValue>0</CheckValue></RangeCheck><RangeCheck Comparator="LE" SoftHard="Soft"><CheckValue>9</CheckValue></RangeCheck></ItemDef>
<ItemDef OID="y" Name="y" DataType="float" Length="999" redcap:Variable="y" redcap:FieldType="text" redcap:TextValidationType="float" redcap:FieldAnnotation="@READONLY"><Question><TranslatedText>Y</TranslatedText></Question></ItemDef>
<ItemDef OID="total" Name="total" DataType="float" Length="999" redcap:Variable="total" redcap:FieldType="calc" redcap:Calculation="[x] + [y]"><Question><TranslatedText>Total</TranslatedText></Question></ItemDef>
<ItemDef OID="other" Name="other" DataType="text" Length="999" redcap:Variable="other" redcap:FieldType="text" redcap:BranchingLogic="[race(2)] = '1' or [late] = '1'"><Question><TranslatedText>Other</TranslatedText></Question></ItemDef>
<ItemDef OID="late" Name="late" DataType="text" Length="999" redcap:Variable="late" redcap:FieldType="yesno"><Question><TranslatedText>Late</TranslatedText></Question></ItemDef>
<CodeList OID="race___1.choices" Name="race___1" DataType="boolean" redcap:Variable="race" redcap:CheckboxChoices="1, White | 2, Other"><CodeListItem CodedValue="1"><Decode><TranslatedText>Checked</TranslatedText></Decode></CodeListItem><CodeListItem CodedValue="0"><Decode><TranslatedText>Unchecked</TranslatedText></Decode></CodeListItem></CodeList>
<CodeList OID="race___2.choices" Name="race___2" DataType="boolean" redcap:Variable="race" redcap:CheckboxChoices="1, White | 2, Other"><CodeListItem CodedValue="1"><Decode><TranslatedText>Checked</TranslatedText></Decode></CodeListItem><CodeListItem CodedValue="0"><Decode><TranslatedText>Unchecked</TranslatedText></Decode></CodeListItem></CodeList>
</MetaDataVersion></Study></ODM>`;
    const { form, unsupported } = fromOdm(xml, 'Form.a');
    const items = byKey(form);
    expect(items.race).toMatchObject({
      type: 'checkbox',
      isRequired: 1,
      options: [
        { code: '1', name: 'White' },
        { code: '2', name: 'Other' },
      ],
    });
    expect(items.x).toMatchObject({ textType: 'number', minVal: 0, maxVal: 9 });
    expect(items.total!.fxTopicData).toEqual({ func: 'sum', fields: ['x', 'y'] });
    // One test of the `or` is on another instrument: the field keeps no rule and stays visible.
    expect(form.showRules).toEqual([]);
    expect(items.other!.isHide).toBeUndefined();
    // @HIDDEN hides x (its @DEFAULT is listed), @READONLY makes y read-only.
    expect(items.x!.isHide).toBe(1);
    expect(items.y!.readOnly).toBe(1);
    expect(unsupported).toEqual([
      'other forms in the file were not imported: Form.b (B)',
      `x: field annotation "@HIDDEN @DEFAULT='1'"`,
      'other: branching logic on late, a field of another instrument, not translated',
    ]);
  });

  it('reports the action tag of a real file', () => {
    const { unsupported } = fromOdm(fixture('redcapr_file_repo_project.xml'));
    expect(unsupported).toContain('date: field annotation "@TODAY"');
    expect(unsupported).toContain('form_1_timestamp: REDCap system field, not a field of the instrument');
  });

  it('reads every instrument of a project at once, a form each', () => {
    const { study, forms, skipped } = fromOdmStudy(fixture('redcapr_longitudinal_project.xml'));
    expect(study).toBe('REDCapR: longitudinal');
    expect(forms.map((f) => f.formOid)).toEqual([
      'Form.demographics',
      'Form.contact_info',
      'Form.baseline_data',
      'Form.patient_morale_questionnaire',
      'Form.visit_lab_data',
      'Form.visit_blood_workup',
      'Form.visit_observed_behavior',
      'Form.completion_data',
      'Form.completion_project_questionnaire',
    ]);
    expect(skipped).toEqual([]);
    expect(forms[2]!.unsupported).toContain(
      'bmi2: calculation "round(([weight2]*10000)/(([height2])^(2)),1)"',
    );
    for (const f of forms) expect(f.unsupported.some((u) => u.startsWith('other forms'))).toBe(false);
  });
});
