import type { DataElementType, ObservationDomain } from '@crdp/core';
import { xmlEscape as x } from '@crdp/crf';

/*
 * The text of a CDISC ODM 1.3.2 file of observations, in pieces: `odmHead` (the Study with its
 * MetaDataVersion: one study event, a form per domain with a repeating item group of the
 * observation's fields, and a form of the data elements), `odmSubject` (one SubjectData), and
 * `odmTail`. The generation job writes them to disk one batch at a time (generate.ts); nothing
 * here holds more than one subject. Escaping is the CRF export's (`xmlEscape` of @crdp/crf).
 */

const oid = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');
export const DOMAIN_OID: Record<ObservationDomain, string> = {
  visit: 'VISIT',
  diagnosis: 'DIAGNOSIS',
  lab: 'LAB',
  operation: 'OPERATION',
  drug: 'DRUG',
  vital: 'VITAL',
};

/** The fields of an observation in a domain's item group, with their ODM data type and names. */
const FIELDS = [
  { key: 'CONCEPT', type: 'text', zh: '概念（本地术语）', en: 'Concept (local term)' },
  { key: 'CODE', type: 'text', zh: '本地编码', en: 'Local code' },
  { key: 'START', type: 'datetime', zh: '开始时间', en: 'Start' },
  { key: 'END', type: 'datetime', zh: '结束时间', en: 'End' },
  { key: 'VALUE_NUM', type: 'float', zh: '数值', en: 'Numeric value' },
  { key: 'VALUE_TEXT', type: 'text', zh: '文本值', en: 'Text value' },
  { key: 'UNIT', type: 'text', zh: '单位', en: 'Unit' },
  { key: 'DEPARTMENT', type: 'text', zh: '科室', en: 'Department' },
] as const;

const ELEMENT_TYPE: Record<DataElementType, string> = {
  number: 'float',
  text: 'text',
  date: 'date',
  code: 'text',
  boolean: 'boolean',
};

export interface OdmElement {
  code: string;
  name: string;
  type: DataElementType;
  unit: string;
  valueSet: Array<{ code: string; label: string }>;
}

export interface OdmStudy {
  studyOid: string;
  mdvOid: string;
  fileOid: string;
  name: string;
  description: string;
  domains: ObservationDomain[];
  domainNames: Record<ObservationDomain, { zh: string; en: string }>;
  elements: OdmElement[];
}

const question = (zh: string, en: string) =>
  `<Question><TranslatedText xml:lang="zh">${x(zh)}</TranslatedText><TranslatedText xml:lang="en">${x(en)}</TranslatedText></Question>`;

const elementOid = (e: OdmElement) => `I.DE.${oid(e.code)}`;

export function odmHead(s: OdmStudy, createdAt: Date): string {
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    `<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" FileType="Snapshot" FileOID="${x(s.fileOid)}" CreationDateTime="${createdAt.toISOString()}" ODMVersion="1.3.2" SourceSystem="CRDP">`,
  );
  out.push(
    `<Study OID="${x(s.studyOid)}"><GlobalVariables><StudyName>${x(s.name)}</StudyName><StudyDescription>${x(s.description || s.name)}</StudyDescription><ProtocolName>${x(s.name)}</ProtocolName></GlobalVariables>`,
  );
  out.push(`<MetaDataVersion OID="${x(s.mdvOid)}" Name="${x(s.name)}">`);
  out.push('<Protocol><StudyEventRef StudyEventOID="SE.CDR" OrderNumber="1" Mandatory="Yes"/></Protocol>');
  const forms = [...(s.elements.length ? ['DE'] : []), ...s.domains.map((d) => DOMAIN_OID[d])];
  out.push(
    `<StudyEventDef OID="SE.CDR" Name="Clinical data" Repeating="No" Type="Common">${forms
      .map((f, i) => `<FormRef FormOID="F.${f}" OrderNumber="${i + 1}" Mandatory="No"/>`)
      .join('')}</StudyEventDef>`,
  );
  if (s.elements.length)
    out.push(
      '<FormDef OID="F.DE" Name="Data elements" Repeating="No"><ItemGroupRef ItemGroupOID="IG.DE" Mandatory="Yes"/></FormDef>',
    );
  for (const d of s.domains)
    out.push(
      `<FormDef OID="F.${DOMAIN_OID[d]}" Name="${x(s.domainNames[d].en)}" Repeating="No"><ItemGroupRef ItemGroupOID="IG.${DOMAIN_OID[d]}" Mandatory="No"/></FormDef>`,
    );
  if (s.elements.length)
    out.push(
      `<ItemGroupDef OID="IG.DE" Name="Data elements" Repeating="No">${s.elements
        .map((e, i) => `<ItemRef ItemOID="${elementOid(e)}" OrderNumber="${i + 1}" Mandatory="No"/>`)
        .join('')}</ItemGroupDef>`,
    );
  for (const d of s.domains)
    out.push(
      `<ItemGroupDef OID="IG.${DOMAIN_OID[d]}" Name="${x(s.domainNames[d].en)}" Repeating="Yes">${FIELDS.map(
        (f, i) =>
          `<ItemRef ItemOID="I.${DOMAIN_OID[d]}.${f.key}" OrderNumber="${i + 1}" Mandatory="${f.key === 'CONCEPT' || f.key === 'START' ? 'Yes' : 'No'}"/>`,
      ).join('')}</ItemGroupDef>`,
    );
  for (const e of s.elements) {
    out.push(
      `<ItemDef OID="${elementOid(e)}" Name="${x(e.code)}" DataType="${ELEMENT_TYPE[e.type]}">${question(e.name, e.name)}${
        e.valueSet.length ? `<CodeListRef CodeListOID="CL.${oid(e.code)}"/>` : ''
      }</ItemDef>`,
    );
  }
  for (const d of s.domains)
    for (const f of FIELDS)
      out.push(
        `<ItemDef OID="I.${DOMAIN_OID[d]}.${f.key}" Name="${DOMAIN_OID[d]}_${f.key}" DataType="${f.type}">${question(
          `${s.domainNames[d].zh} ${f.zh}`,
          `${s.domainNames[d].en} ${f.en}`,
        )}</ItemDef>`,
      );
  for (const e of s.elements.filter((e) => e.valueSet.length))
    out.push(
      `<CodeList OID="CL.${oid(e.code)}" Name="${x(e.name)}" DataType="text">${e.valueSet
        .map(
          (v) =>
            `<CodeListItem CodedValue="${x(v.code)}"><Decode><TranslatedText xml:lang="zh">${x(v.label)}</TranslatedText></Decode></CodeListItem>`,
        )
        .join('')}</CodeList>`,
    );
  out.push('</MetaDataVersion></Study>');
  out.push(`<ClinicalData StudyOID="${x(s.studyOid)}" MetaDataVersionOID="${x(s.mdvOid)}">`);
  return `${out.join('\n')}\n`;
}

export interface OdmObservation {
  domain: ObservationDomain;
  concept: string;
  localCode: string;
  startAt: Date;
  endAt: Date | null;
  valueNum: number | null;
  valueText: string;
  unit: string;
  department: string;
}

const item = (itemOid: string, value: string) => `<ItemData ItemOID="${itemOid}" Value="${x(value)}"/>`;

/** One subject: the data elements' values, then each domain's observations as repeats of its item group. */
export function odmSubject(
  subjectKey: string,
  elements: Array<{ element: OdmElement; value: string | null }>,
  observations: OdmObservation[],
  domains: ObservationDomain[],
): { xml: string; items: number } {
  let items = 0;
  const forms: string[] = [];
  const values = elements.filter((e) => e.value !== null && e.value !== '');
  if (values.length) {
    items += values.length;
    forms.push(
      `<FormData FormOID="F.DE"><ItemGroupData ItemGroupOID="IG.DE">${values
        .map((e) => item(elementOid(e.element), e.value!))
        .join('')}</ItemGroupData></FormData>`,
    );
  }
  for (const d of domains) {
    const rows = observations.filter((o) => o.domain === d);
    if (!rows.length) continue;
    const D = DOMAIN_OID[d];
    const groups = rows.map((o, i) => {
      const data = [
        item(`I.${D}.CONCEPT`, o.concept),
        ...(o.localCode ? [item(`I.${D}.CODE`, o.localCode)] : []),
        item(`I.${D}.START`, o.startAt.toISOString()),
        ...(o.endAt ? [item(`I.${D}.END`, o.endAt.toISOString())] : []),
        ...(o.valueNum !== null && Number.isFinite(o.valueNum)
          ? [item(`I.${D}.VALUE_NUM`, String(o.valueNum))]
          : []),
        ...(o.valueText ? [item(`I.${D}.VALUE_TEXT`, o.valueText)] : []),
        ...(o.unit ? [item(`I.${D}.UNIT`, o.unit)] : []),
        ...(o.department ? [item(`I.${D}.DEPARTMENT`, o.department)] : []),
      ];
      items += data.length;
      return `<ItemGroupData ItemGroupOID="IG.${D}" ItemGroupRepeatKey="${i + 1}">${data.join('')}</ItemGroupData>`;
    });
    forms.push(`<FormData FormOID="F.${D}">${groups.join('')}</FormData>`);
  }
  return {
    xml: `<SubjectData SubjectKey="${x(subjectKey)}"><StudyEventData StudyEventOID="SE.CDR">${forms.join('')}</StudyEventData></SubjectData>\n`,
    items,
  };
}

export const odmTail = () => '</ClinicalData>\n</ODM>\n';
