import { CODING_SCREENS, type DataModelTable } from '@crdp/core';
import { controlledTerminology } from './standards.js';

/*
 * define.xml in CDISC Define-XML 2.0.0 (ODM 1.3.2 with the def: extension): the datasets of one
 * SDTM export, their variables in order with key sequence, role, data type, length and origin, and
 * the codelists their values come from: CDISC CT codelists (the whole list when it is short, else
 * the terms the data holds, with their NCI codes) and, for values the coding area codes, the
 * external dictionary (ICD-10, LOINC, the drug list). Checked against the Define-XML 2.0 schema
 * with xmllint in data-models.int.test.ts.
 */

export interface DefineDataset {
  table: DataModelTable;
  columns: DataModelTable['variables'];
  file: string;
  seen: Map<string, Set<string>>;
  lengths: Map<string, number>;
}

export interface DefineInput {
  studyId: string;
  studyName: string;
  modelName: string;
  standardVersion: string;
  datasets: DefineDataset[];
  createdAt: Date;
}

/** A codelist shorter than this goes whole into define.xml; a longer one with the terms used. */
const WHOLE_CODELIST = 60;

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const text = (s: string, lang = 'en') => `<TranslatedText xml:lang="${lang}">${esc(s)}</TranslatedText>`;
const oidPart = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/** Identifier variables that key a domain's records, in SDTM's usual key order. */
const KEYS: Record<string, string[]> = {
  DM: ['STUDYID', 'USUBJID'],
  MH: ['STUDYID', 'USUBJID', 'MHDECOD', 'MHSTDTC'],
  LB: ['STUDYID', 'USUBJID', 'LBTESTCD', 'LBDTC'],
  VS: ['STUDYID', 'USUBJID', 'VSTESTCD', 'VSDTC'],
  CM: ['STUDYID', 'USUBJID', 'CMTRT', 'CMSTDTC'],
};
const ASSIGNED = new Set(['STUDYID', 'DOMAIN', 'USUBJID', 'SUBJID', 'SITEID', 'COUNTRY', 'AGEU']);

/** Control characters never reach stored text (the request guard refuses them), so escaping is enough. */
function dataType(v: DataModelTable['variables'][number], numeric: boolean) {
  if (v.type === 'Num') return numeric ? 'float' : 'integer';
  if (/DTC$/.test(v.name)) return 'datetime';
  return 'text';
}

export function defineXml(input: DefineInput): string {
  const ct = controlledTerminology();
  const study = oidPart(input.studyId);
  const out: string[] = [];
  const itemDefs: string[] = [];
  const codeLists = new Map<string, string>();

  for (const d of input.datasets) {
    const t = d.table;
    const keys = KEYS[t.name] ?? ['STUDYID', 'USUBJID'];
    const refs = d.columns.map((v, i) => {
      const oid = `IT.${t.name}.${v.name}`;
      const key = keys.indexOf(v.name);
      const mandatory = v.core === 'Req' ? 'Yes' : 'No';
      const seen = d.seen.get(v.name);
      const numeric = v.type === 'Num' && [...(seen ?? [])].some((x) => x.includes('.'));
      const length = Math.max(1, d.lengths.get(v.name) ?? 1);
      let clRef = '';
      if (v.codelist && ct.codelists[v.codelist] && seen?.size) {
        const clOid = `CL.${t.name}.${v.name}.${v.codelist}`;
        const cl = ct.codelists[v.codelist]!;
        const terms =
          cl.terms.length <= WHOLE_CODELIST ? cl.terms : cl.terms.filter(([, value]) => seen.has(value));
        const known = new Set(terms.map(([, value]) => value));
        const items = [
          ...terms.map(
            ([code, value, synonym], n) =>
              `<CodeListItem CodedValue="${esc(value)}" OrderNumber="${n + 1}"><Decode>${text(synonym || value)}</Decode><Alias Context="nci:ExtCodeID" Name="${esc(code)}"/></CodeListItem>`,
          ),
          // Values the data holds that the (extensible) codelist does not: listed, without an NCI code.
          ...[...seen]
            .filter((x) => !known.has(x))
            .sort()
            .map(
              (value, n) =>
                `<CodeListItem CodedValue="${esc(value)}" OrderNumber="${terms.length + n + 1}" def:ExtendedValue="Yes"><Decode>${text(value)}</Decode></CodeListItem>`,
            ),
        ];
        codeLists.set(
          clOid,
          `<CodeList OID="${clOid}" Name="${esc(cl.name)}" DataType="text">${items.join('')}<Alias Context="nci:ExtCodeID" Name="${esc(v.codelist)}"/></CodeList>`,
        );
        clRef = `<CodeListRef CodeListOID="${clOid}"/>`;
      } else if (v.codingKind && seen === undefined) {
        const system = CODING_SCREENS[v.codingKind].systemKey;
        const clOid = `CL.DICT.${system}`;
        codeLists.set(
          clOid,
          `<CodeList OID="${clOid}" Name="${esc(system)}" DataType="text"><ExternalCodeList Dictionary="${esc(system)}"/></CodeList>`,
        );
        clRef = `<CodeListRef CodeListOID="${clOid}"/>`;
      }
      const origin =
        ASSIGNED.has(v.name) || v.name === `${t.name}SEQ`
          ? 'Assigned'
          : v.name === 'DOMAIN'
            ? 'Assigned'
            : 'eDT';
      itemDefs.push(
        `<ItemDef OID="${oid}" Name="${esc(v.name)}" DataType="${dataType(v, numeric)}"${
          dataType(v, numeric) === 'datetime' ? '' : ` Length="${length}"`
        }${numeric ? ' SignificantDigits="3"' : ''} SASFieldName="${esc(v.name)}"><Description>${text(v.label)}</Description>${clRef}<def:Origin Type="${origin}"/></ItemDef>`,
      );
      return `<ItemRef ItemOID="${oid}" OrderNumber="${i + 1}" Mandatory="${mandatory}"${
        key >= 0 ? ` KeySequence="${key + 1}"` : ''
      }${v.role ? ` Role="${esc(v.role)}"` : ''}/>`;
    });
    out.push(
      `<ItemGroupDef OID="IG.${t.name}" Domain="${t.name}" Name="${t.name}" Repeating="${t.name === 'DM' ? 'No' : 'Yes'}" IsReferenceData="No" SASDatasetName="${t.name}" Purpose="Tabulation" def:Structure="${esc(
        t.structure || 'One record per subject',
      )}" def:Class="${esc(t.tableClass.toUpperCase().replace(/-/g, ' '))}" def:ArchiveLocationID="LF.${t.name}"><Description>${text(
        t.label,
      )}</Description>${refs.join('')}<def:leaf ID="LF.${t.name}" xlink:href="${esc(d.file)}"><def:title>${esc(d.file)}</def:title></def:leaf></ItemGroupDef>`,
    );
  }

  const created = input.createdAt.toISOString().replace(/\.\d{3}Z$/, '');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<ODM xmlns="http://www.cdisc.org/ns/odm/v1.3" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:def="http://www.cdisc.org/ns/def/v2.0" ODMVersion="1.3.2" FileType="Snapshot" FileOID="DEFINE.${study}" CreationDateTime="${created}" Originator="CRDP" SourceSystem="CRDP" SourceSystemVersion="0.1.0">`,
    `<Study OID="STUDY.${study}">`,
    `<GlobalVariables><StudyName>${esc(input.studyId)}</StudyName><StudyDescription>${esc(input.studyName)}</StudyDescription><ProtocolName>${esc(input.studyId)}</ProtocolName></GlobalVariables>`,
    `<MetaDataVersion OID="MDV.${study}" Name="${esc(`${input.studyId} SDTM`)}" Description="${esc(
      `SDTM datasets of ${input.studyId} by ${input.modelName}`,
    )}" def:DefineVersion="2.0.0" def:StandardName="SDTM-IG" def:StandardVersion="${esc(input.standardVersion)}">`,
    ...out,
    ...itemDefs,
    ...codeLists.values(),
    '</MetaDataVersion>',
    '</Study>',
    '</ODM>',
    '',
  ].join('\n');
}
