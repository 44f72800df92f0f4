import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createFormEngine } from '../engine.js';
import { sampleForm } from '../testdata/sample-form.js';
import type { Form, FormContainer, FormItem } from '../types.js';
import { formItems } from '../walk.js';
import { fromOdm } from './odm.js';
import { readCondition, readMethod } from './odm-expr.js';
import { CRDP_ODM_NAMESPACE, odmAdminData, odmMetadata, odmSubjectData, xmlEscape } from './odm-write.js';

const XSD = fileURLToPath(new URL('../../../../fixtures/odm/ODM1-3-2.xsd', import.meta.url));
const hasXmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(path.join(os.tmpdir(), 'odm-write-'));
let n = 0;
/** Writes the file and validates it against the ODM 1.3.2 schema (throws, failing the test, when not valid). */
function validate(xml: string): string {
  const file = path.join(dir, `f${n++}.xml`);
  writeFileSync(file, xml);
  if (hasXmllint) execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
  return file;
}
const xpath = (file: string, expr: string) =>
  execFileSync('xmllint', ['--xpath', expr, file], { stdio: 'pipe' }).toString().replace(/\n$/, '');

const STUDY = 'CRDP.APP1';
const MDV = 'MDV.1.V1';
function odmFile(form: Form, clinical = '', admin = '', audit = false) {
  const meta = odmMetadata(form, { formName: 'F', formOid: 'F.1', mdv: MDV, audit });
  return {
    meta,
    xml: [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" xmlns:crdp="${CRDP_ODM_NAMESPACE}" FileType="${audit ? 'Transactional' : 'Snapshot'}" FileOID="T" CreationDateTime="2026-01-01T00:00:00Z" ODMVersion="1.3.2">`,
      `<Study OID="${STUDY}"><GlobalVariables><StudyName>F</StudyName><StudyDescription>F</StudyDescription><ProtocolName>F</ProtocolName></GlobalVariables>`,
      meta.xml,
      '</Study>',
      admin,
      clinical
        ? `<ClinicalData StudyOID="${STUDY}" MetaDataVersionOID="${MDV}">${clinical}</ClinicalData>`
        : '',
      '</ODM>',
    ].join('\n'),
  };
}

describe('ODM 1.3.2 writer', () => {
  it('writes tabs, line feeds and carriage returns as character references a reader keeps', () => {
    expect(xmlEscape('a\tb\nc\r\nd "<&>"\u0001\uffff')).toBe(
      'a&#9;b&#10;c&#13;&#10;d &quot;&lt;&amp;&gt;&quot;',
    );
    const form: Form = {
      pages: [
        { key: 'p', title: 'P\tQ', items: [{ key: 'note', type: 'textQuestion', title: '备注\n第二行' }] },
      ],
    };
    const { meta, xml } = odmFile(form);
    const clinical = odmSubjectData(
      {
        id: 1,
        subjectKey: 'S\t1',
        status: 'submitted',
        answers: { note: 'line 1\nline 2\r\n\tindented' },
        createdAt: new Date('2026-01-01T00:00:00Z'),
        createdBy: 1,
        createdByName: 'A',
      },
      [],
      { formOid: 'F.1', pages: meta.pages, audit: false, locationOid: 'LOC.1' },
    );
    const file = validate(odmFile(form, clinical).xml);
    if (hasXmllint) {
      // xmllint, a reader that normalises attribute values, returns them exactly.
      expect(xpath(file, 'string(//*[local-name()="ItemData"]/@Value)')).toBe('line 1\nline 2\r\n\tindented');
      expect(xpath(file, 'string(//*[local-name()="SubjectData"]/@SubjectKey)')).toBe('S\t1');
    }
    // And the importer reads the texts back with them.
    const back = fromOdm(xml).form;
    expect(back.pages[0]!.title).toBe('P\tQ');
    expect(formItems(back)[0]!.item.title).toBe('备注\n第二行');
  });

  it('round-trips its own export: show rules, computed items, checkboxes; export → import → export is stable', () => {
    // Every item kind but gap-filling blanks and matrix rows, which go out as an item each (README).
    const a = sampleForm();
    a.pages[1]!.groups = a.pages[1]!.groups!.filter((g) => g.key !== 'vitals' && g.key !== 'qol');
    const first = odmFile(a).xml;
    validate(first);
    expect(first).toContain(
      '<FormalExpression Context="crdp">!(I.hbsag == &quot;pos&quot;)</FormalExpression>',
    );
    expect(first).toContain('<FormalExpression Context="crdp">sum(I.dose1, I.dose2)</FormalExpression>');
    expect(first).toContain(
      '<FormalExpression Context="crdp">bmi(x=I.weight, y=I.height)</FormalExpression>',
    );
    expect(first).toContain('<Alias Context="crdp:itemType" Name="checkbox"/>');
    const b = fromOdm(first);
    const second = odmFile(b.form).xml;
    validate(second);
    // The same file, item for item.
    expect(second.split('\n')).toEqual(first.split('\n'));
    const c = fromOdm(second);
    expect(c.form).toEqual(b.form);
    expect(b.unsupported).toEqual([]);

    const items = Object.fromEntries(formItems(b.form).map((x) => [x.item.key, x.item]));
    expect(b.form.pages.map((p) => p.key)).toEqual(['p1', 'p2']);
    expect(items.symptoms).toMatchObject({
      type: 'checkbox',
      options: ((a.pages[1]!.groups![0] as FormContainer).items![0] as FormItem).options,
    });
    expect(items.totalDose!.fxTopicData).toEqual({ func: 'sum', fields: ['dose1', 'dose2'] });
    expect(items.bmi!.fxTopicData).toEqual({ func: 'bmi', xyValue: { x: 'weight', y: 'height' } });
    expect(items.age!.fxTopicData).toEqual({ func: 'age', xyValue: { x: 'birth', y: 'visitDate' } });
    expect(items.totalScore!.fxTopicData).toEqual({
      func: 'score',
      fields: ['fatigue', 'appetiteScore', 'symptoms'],
    });
    expect(b.form.showRules).toEqual([
      { indicatorName: 'sex', condition: 'equals', indicatorVal: '2', selectItems: ['pregnant'] },
      { indicatorName: 'hbsag', condition: 'equals', indicatorVal: 'pos', selectItems: ['hbvDna'] },
    ]);
    // Same behaviour: the imported form shows and computes as the original does.
    for (const answers of [
      { sex: '2', dose1: 1, dose2: 2.5 },
      { sex: '1', hbsag: 'pos', weight: 70, height: 170 },
    ]) {
      const x = createFormEngine(a, answers);
      const y = createFormEngine(b.form, answers);
      for (const key of ['pregnant', 'hbvDna', 'totalDose', 'bmi'])
        expect([key, y.isVisible(key), y.getAnswer(key)]).toEqual([key, x.isVisible(key), x.getAnswer(key)]);
    }
  });

  it('reads back conditions of several tests and operators beyond comparisons', () => {
    expect(readCondition('!(I.a == "x" or contains(I.b, "c") or I.n >= 3)')).toEqual({
      negated: true,
      terms: [
        { ref: 'I.a', condition: 'equals', value: 'x' },
        { ref: 'I.b', condition: 'contains', value: 'c' },
        { ref: 'I.n', condition: 'greaterOrEqual', value: 3 },
      ],
    });
    expect(readCondition('!(inList(I.a, ["1","2"]))')?.terms[0]).toEqual({
      ref: 'I.a',
      condition: 'inList',
      value: ['1', '2'],
    });
    expect(readCondition('I.a == "x" and I.b == "y"')).toBeNull();
    // A page hidden by an item of another group (CDISC's example study): a page rule.
    const dave = readFileSync(
      new URL(
        '../../../../fixtures/odm/examples/MetaData_Dave_1_3_2_new_2006_01_26_extra_languages.xml',
        import.meta.url,
      ),
      'utf8',
    );
    expect(fromOdm(dave, 'F_CM').form.showRules).toContainEqual({
      indicatorName: 'I_CM_TAKEN',
      condition: 'notEquals',
      indicatorVal: '0',
      selectPanel: ['page_3'],
    });
    expect(readMethod('dateDiff(x=I.s, y=I.e, compare="days")')).toEqual({
      func: 'dateDiff',
      fields: [],
      x: 'I.s',
      y: 'I.e',
      compare: 'days',
    });
    expect(readMethod('if(I.a > 1, 1, 0)')).toBeNull();
    const form: Form = {
      pages: [
        {
          key: 'p',
          items: [
            {
              key: 'a',
              type: 'checkbox',
              title: 'A',
              options: [
                { code: 'x', name: 'X' },
                { code: 'y', name: 'Y' },
              ],
            },
            { key: 'n', type: 'textQuestion', title: 'N', textType: 'number' },
            { key: 't', type: 'textQuestion', title: 'T', isHide: 1 },
          ],
        },
        { key: 'more', title: 'More', items: [{ key: 'm', type: 'textQuestion', title: 'M' }] },
      ],
      showRules: [
        {
          indicatorName: 'a',
          condition: 'contains',
          indicatorVal: 'y',
          selectItems: ['t'],
          selectPanel: ['more'],
        },
        { indicatorName: 'n', condition: 'greaterThan', indicatorVal: 5, selectItems: ['t'] },
      ],
    };
    const { xml } = odmFile(form);
    validate(xml);
    expect(xml).toContain(
      '<ItemGroupRef ItemGroupOID="IG.P2" Mandatory="Yes" CollectionExceptionConditionOID="C.IG.P2"/>',
    );
    expect(xml).toContain('!(contains(I.a, &quot;y&quot;) or I.n &gt; 5)');
    const back = fromOdm(xml);
    expect(back.unsupported).toEqual([]);
    expect(back.form.showRules).toEqual([
      { indicatorName: 'a', condition: 'contains', indicatorVal: 'y', selectItems: ['t'] },
      { indicatorName: 'n', condition: 'greaterThan', indicatorVal: 5, selectItems: ['t'] },
      { indicatorName: 'a', condition: 'contains', indicatorVal: 'y', selectPanel: ['more'] },
    ]);
  });

  it('writes the audit trail: status, TransactionType, history of each changed value, users and location', () => {
    const form: Form = {
      pages: [
        {
          key: 'p',
          items: [
            { key: 'w', type: 'textQuestion', title: 'W', textType: 'number' },
            { key: 'x', type: 'textQuestion', title: 'X' },
          ],
        },
      ],
    };
    const meta = odmMetadata(form, { formName: 'F', formOid: 'F.1', mdv: MDV, audit: true });
    const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
    const rec = {
      id: 7,
      subjectKey: 'S-7',
      status: 'locked',
      answers: { w: 72, x: 'b' },
      createdAt: at(0),
      createdBy: 1,
      createdByName: '王医生',
    };
    const changes = [
      {
        id: 1,
        itemKey: '@submit',
        oldValue: null,
        newValue: null,
        reason: '',
        userId: 1,
        userName: '王医生',
        changedAt: at(1),
      },
      {
        id: 2,
        itemKey: 'w',
        oldValue: 70,
        newValue: 71,
        reason: '录入错误',
        userId: 2,
        userName: '李护士',
        changedAt: at(2),
      },
      {
        id: 3,
        itemKey: 'w',
        oldValue: 71,
        newValue: 72,
        reason: '复核\n更正',
        userId: 2,
        userName: '李护士',
        changedAt: at(3),
      },
      {
        id: 4,
        itemKey: '@lock',
        oldValue: null,
        newValue: null,
        reason: '数据锁定',
        userId: null,
        userName: '系统',
        changedAt: at(4),
      },
    ];
    const opts = { formOid: 'F.1', pages: meta.pages, audit: true, locationOid: 'LOC.APP1' };
    const deleted = {
      ...rec,
      id: 8,
      status: 'submitted',
      answers: { w: 60 },
      deleted: { at: at(9), userId: 1, userName: '王医生', reason: '重复录入' },
    };
    const admin = odmAdminData(
      STUDY,
      [
        { userId: 1, name: '王医生' },
        { userId: 2, name: '李护士' },
        { userId: null, name: '系统' },
      ],
      { oid: 'LOC.APP1', name: '示范医院', mdv: MDV, effectiveDate: '2026-01-01' },
    );
    const clinical = [
      odmSubjectData(rec, changes, opts),
      odmSubjectData(
        deleted,
        [
          { ...changes[0]!, id: 9 },
          { ...changes[0]!, id: 10, itemKey: '@delete', reason: '重复录入', changedAt: at(9) },
        ],
        opts,
      ),
    ].join('\n');
    const { xml } = odmFile(form, clinical, admin, true);
    const file = validate(xml);
    const subject = clinical.split('\n<SubjectData')[0]!;
    expect(subject).toContain(
      '<FormData FormOID="F.1" FormRepeatKey="7" TransactionType="Update">\n<AuditRecord><UserRef UserOID="U.X',
    );
    expect(subject).toContain(
      '<ReasonForChange>数据锁定</ReasonForChange><SourceID>crf_record_changes.4</SourceID>',
    );
    expect(subject).toContain('<FlagValue CodeListOID="CL.CRDP.RecordStatus">locked</FlagValue>');
    // The value as submitted, then each change with who, when and why.
    const w = subject.split('\n').filter((l) => l.startsWith('<ItemData ItemOID="I.w"'));
    expect(w).toEqual([
      '<ItemData ItemOID="I.w" TransactionType="Insert" Value="70"><AuditRecord><UserRef UserOID="U.1"/><LocationRef LocationOID="LOC.APP1"/><DateTimeStamp>2026-01-01T00:01:00.000Z</DateTimeStamp><SourceID>crf_record_changes.1</SourceID></AuditRecord></ItemData>',
      '<ItemData ItemOID="I.w" TransactionType="Update" Value="71"><AuditRecord><UserRef UserOID="U.2"/><LocationRef LocationOID="LOC.APP1"/><DateTimeStamp>2026-01-01T00:02:00.000Z</DateTimeStamp><ReasonForChange>录入错误</ReasonForChange><SourceID>crf_record_changes.2</SourceID></AuditRecord></ItemData>',
      '<ItemData ItemOID="I.w" TransactionType="Update" Value="72"><AuditRecord><UserRef UserOID="U.2"/><LocationRef LocationOID="LOC.APP1"/><DateTimeStamp>2026-01-01T00:03:00.000Z</DateTimeStamp><ReasonForChange>复核&#10;更正</ReasonForChange><SourceID>crf_record_changes.3</SourceID></AuditRecord></ItemData>',
    ]);
    // An unchanged value carries no audit record of its own.
    expect(subject).toContain('<ItemData ItemOID="I.x" Value="b"/>');
    expect(subject).toContain(
      '<ItemGroupData ItemGroupOID="IG.P1" TransactionType="Update">\n<AuditRecord><UserRef UserOID="U.2"/>',
    );
    expect(clinical).toContain('<FormData FormOID="F.1" FormRepeatKey="8" TransactionType="Remove">');
    expect(clinical).toContain(
      '<ReasonForChange>重复录入</ReasonForChange><SourceID>crf_record_changes.10</SourceID>',
    );
    expect(clinical).toContain('<FlagValue CodeListOID="CL.CRDP.RecordStatus">deleted</FlagValue>');
    if (hasXmllint) {
      expect(xpath(file, 'count(//*[local-name()="AuditRecord"])').trim()).toBe('6');
      expect(xpath(file, 'count(//*[local-name()="User"])').trim()).toBe('3');
      expect(xpath(file, 'string(//*[local-name()="Location"]/@Name)')).toBe('示范医院');
    }
  });
});
