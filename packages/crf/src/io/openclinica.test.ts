import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseForm } from '../schema.js';
import type { FormItem } from '../types.js';
import { formItems } from '../walk.js';
import { fromOdm, fromOdmStudy } from './odm.js';

// A real OpenClinica 3.x "ODM 1.3 with OpenClinica extensions" extract (fixtures/SOURCES.md, MIT).
const EXTRACT = readFileSync(
  new URL('../../../../fixtures/openclinica/openclinica_demo_extract.xml', import.meta.url),
  'utf8',
);
const byKey = (form: Parameters<typeof formItems>[0]) =>
  Object.fromEntries(formItems(form).map((x) => [x.item.key, x.item as FormItem]));

describe('OpenClinica 3.x metadata', () => {
  const study = fromOdmStudy(EXTRACT);
  const form = (oid: string) => study.forms.find((f) => f.formOid === oid)!;

  it('imports every CRF version of the study as a form, a page per CRF section', () => {
    expect(study.study).toBe('Docetaxel in Patients With Completely Resected NSCLC');
    expect(study.skipped).toEqual([]);
    expect(study.forms.map((f) => f.formOid)).toEqual([
      'F_VERIFICATION_V20',
      'F_ELIGIBILITY_V10',
      'F_PHYSICALEXAM_ESPAOL',
      'F_PHYSICALEXAM_ENGLISH',
      'F_CONCOMITANTM_V10',
      'F_AGENTADMINIS_V10',
      'F_ADVERSEEVENT_V12',
      'F_ADVERSEEVENT_V10',
    ]);
    for (const f of study.forms) expect(() => parseForm(f.form)).not.toThrow();
    expect(form('F_PHYSICALEXAM_ENGLISH').form.pages.map((p) => p.title)).toEqual([
      'Basic Information',
      'Body System/Site',
      'Specify Other Body System/Site',
    ]);
    expect(form('F_PHYSICALEXAM_ESPAOL').form.pages.map((p) => p.title)).toEqual([
      'Información básica',
      'Cuerpo del sistema / sitio',
      'Especifique sistema de otro organismo / sitio',
    ]);
    expect(form('F_ELIGIBILITY_V10').form.pages.map((p) => p.items?.length)).toEqual([10, 6]);
  });

  it("takes each version's item text, headers, response type and layout", () => {
    const es = byKey(form('F_PHYSICALEXAM_ESPAOL').form);
    const en = byKey(form('F_PHYSICALEXAM_ENGLISH').form);
    expect(es.I_PHYSI_APPEARANCE).toMatchObject({ title: 'Aspecto', type: 'radio', typeQ: 'select' });
    expect(en.I_PHYSI_APPEARANCE?.title).toBe('Appearance');
    expect(en.I_PHYSI_APPEARANCE__header).toMatchObject({ type: 'paragraph', title: 'Body System / Site' });
    expect(en.I_PHYSI_APPEARANCE__subheader?.title).toBe("If 'Abnormal' is selected, comments are required.");
    expect(en.I_PHYSI_PEDAT__header?.title).toBe('Visit Information:');
    // Items follow OrderInForm: the header paragraphs sit right before their item.
    const page = form('F_PHYSICALEXAM_ENGLISH').form.pages[1]!.items!.map((i) => i.key);
    expect(page.indexOf('I_PHYSI_APPEARANCE__header') + 2).toBe(page.indexOf('I_PHYSI_APPEARANCE'));
    const conmed = byKey(form('F_CONCOMITANTM_V10').form);
    expect(conmed.I_CONCO_CON_MED_CONT).toMatchObject({ type: 'radio', typeStyle: 'horizontal' });
    expect(form('F_PHYSICALEXAM_ENGLISH').unsupported).toContain(
      'I_PHYSI_BMI: OpenClinica calculation (its formula is not in the ODM metadata) imported as an entry item',
    );
  });

  it('turns simple conditional display and show-action rules into show rules, and reports what it cannot', () => {
    const es = form('F_PHYSICALEXAM_ESPAOL');
    const items = byKey(es.form);
    expect(items.I_PHYSI_APPEARANCE_COMMENTS?.isHide).toBe(1);
    expect(es.form.showRules).toContainEqual({
      indicatorName: 'I_PHYSI_APPEARANCE',
      condition: 'equals',
      indicatorVal: '4',
      selectItems: ['I_PHYSI_APPEARANCE_COMMENTS'],
    });
    expect(es.form.showRules).toHaveLength(17);
    // The English version's condition names option 2, which the item's one exported code list lacks.
    const en = form('F_PHYSICALEXAM_ENGLISH');
    expect(byKey(en.form).I_PHYSI_APPEARANCE_COMMENTS?.isHide).toBeUndefined();
    expect(en.unsupported).toContain(
      'I_PHYSI_APPEARANCE_COMMENTS: simple conditional display on "APPEARANCE" = "2" not translated ("2" is not a choice of I_PHYSI_APPEARANCE in this file\'s code list); imported visible',
    );
    // OpenClinicaRules: AE_EVENT_2 (I_ADVER_1_AEYN eq 1) shows the item group IG_ADVER_AE2.
    const ae = form('F_ADVERSEEVENT_V12');
    const rule = ae.form.showRules?.find((r) => r.indicatorName === 'I_ADVER_1_AEYN');
    expect(rule).toMatchObject({ condition: 'equals', indicatorVal: '1' });
    expect(rule?.selectItems).toEqual(expect.arrayContaining(['I_ADVER_2_AETERM', 'I_ADVER_2_AESEV']));
    expect(byKey(ae.form).I_ADVER_2_AETERM?.isHide).toBe(1);
  });

  it('one FormDef alone, the others named', () => {
    const one = fromOdm(EXTRACT, 'F_CONCOMITANTM_V10');
    expect(one.form.title).toBe('Concomitant Medications - v1.0');
    expect(one.unsupported[0]).toMatch(/^other forms in the file were not imported: F_VERIFICATION_V20/);
  });
});
