import type { BASIC_DICTIONARY_LABELS } from '@crdp/core';

/*
 * The basic dictionaries every app starts with (基础字典维护). Each maps its local codes to a
 * published standard where one exists; the standard's own codes are quoted from it:
 * - gender: GB/T 2261.1-2003 人的性别代码 (0 未知的性别, 1 男性, 2 女性, 9 未说明的性别), mapped to
 *   FHIR AdministrativeGender.
 * - visit_kind: HL7 v3 ActEncounterCode (AMB ambulatory, EMER emergency, IMP inpatient encounter).
 * - specimen: SNOMED CT specimen concepts.
 * - unit: UCUM, whose code is the standard code itself.
 * - frequency: HL7 v3 GTSAbbreviation (BID, TID, QID, QD, QOD, Q4H …); PRN and ST have none.
 * - route: SNOMED CT route of administration concepts.
 * A hospital edits the entries (names, synonyms, its own codes); the dictionaries stay.
 */

export interface BasicEntry {
  code: string;
  name: string;
  synonyms?: string[];
  standardCode?: string;
}

export interface BasicDictionary {
  /** Its name is the labelling layer's (`basicDictionary` of @crdp/core), stored in Chinese. */
  code: keyof typeof BASIC_DICTIONARY_LABELS;
  description: string;
  standardSystem: string;
  entries: BasicEntry[];
}

export const BASIC_DICTIONARIES: readonly BasicDictionary[] = [
  {
    code: 'gender',
    description: 'GB/T 2261.1-2003 人的性别代码',
    standardSystem: 'GB/T 2261.1 → FHIR AdministrativeGender',
    entries: [
      { code: '0', name: '未知的性别', standardCode: 'unknown' },
      { code: '1', name: '男性', synonyms: ['男', 'M'], standardCode: 'male' },
      { code: '2', name: '女性', synonyms: ['女', 'F'], standardCode: 'female' },
      { code: '9', name: '未说明的性别', standardCode: 'other' },
    ],
  },
  {
    code: 'visit_kind',
    description: '门诊、急诊、住院、体检',
    standardSystem: 'HL7 v3 ActEncounterCode',
    entries: [
      { code: 'O', name: '门诊', synonyms: ['outpatient'], standardCode: 'AMB' },
      { code: 'E', name: '急诊', synonyms: ['emergency'], standardCode: 'EMER' },
      { code: 'I', name: '住院', synonyms: ['inpatient'], standardCode: 'IMP' },
      { code: 'P', name: '体检', synonyms: ['健康体检'], standardCode: '' },
    ],
  },
  {
    code: 'specimen',
    description: '检验标本',
    standardSystem: 'SNOMED CT',
    entries: [
      { code: 'SER', name: '血清', standardCode: '119364003' },
      { code: 'PLAS', name: '血浆', standardCode: '119361006' },
      { code: 'BLD', name: '全血', standardCode: '258580003' },
      { code: 'UR', name: '尿液', synonyms: ['尿'], standardCode: '122575003' },
      { code: 'CSF', name: '脑脊液', standardCode: '258450006' },
      { code: 'STL', name: '粪便', synonyms: ['大便'], standardCode: '119339001' },
    ],
  },
  {
    code: 'unit',
    description: '检验、体征与剂量单位',
    standardSystem: 'UCUM',
    entries: [
      { code: 'mmol/L', name: '毫摩尔每升', standardCode: 'mmol/L' },
      { code: 'umol/L', name: '微摩尔每升', synonyms: ['μmol/L'], standardCode: 'umol/L' },
      { code: 'mg/dL', name: '毫克每分升', standardCode: 'mg/dL' },
      { code: 'g/L', name: '克每升', standardCode: 'g/L' },
      { code: 'U/L', name: '单位每升', synonyms: ['IU/L'], standardCode: 'U/L' },
      { code: '10*9/L', name: '10^9 每升', synonyms: ['×10^9/L'], standardCode: '10*9/L' },
      { code: '%', name: '百分比', standardCode: '%' },
      { code: 'kg', name: '千克', synonyms: ['公斤'], standardCode: 'kg' },
      { code: 'cm', name: '厘米', standardCode: 'cm' },
      { code: 'mm[Hg]', name: '毫米汞柱', synonyms: ['mmHg'], standardCode: 'mm[Hg]' },
      { code: 'Cel', name: '摄氏度', synonyms: ['℃'], standardCode: 'Cel' },
      { code: '/min', name: '次每分', synonyms: ['次/分'], standardCode: '/min' },
      { code: 'mg', name: '毫克', standardCode: 'mg' },
    ],
  },
  {
    code: 'frequency',
    description: '医嘱执行频次',
    standardSystem: 'HL7 v3 GTSAbbreviation',
    entries: [
      { code: 'qd', name: '每日一次', standardCode: 'QD' },
      { code: 'bid', name: '每日两次', standardCode: 'BID' },
      { code: 'tid', name: '每日三次', standardCode: 'TID' },
      { code: 'qid', name: '每日四次', standardCode: 'QID' },
      { code: 'qod', name: '隔日一次', standardCode: 'QOD' },
      { code: 'q4h', name: '每4小时一次', standardCode: 'Q4H' },
      { code: 'q6h', name: '每6小时一次', standardCode: 'Q6H' },
      { code: 'qn', name: '每晚一次', synonyms: ['睡前'], standardCode: '' },
      { code: 'prn', name: '必要时', standardCode: '' },
      { code: 'st', name: '立即', standardCode: '' },
    ],
  },
  {
    code: 'route',
    description: '药物给药途径',
    standardSystem: 'SNOMED CT',
    entries: [
      { code: 'po', name: '口服', standardCode: '26643006' },
      { code: 'iv', name: '静脉注射', synonyms: ['静推', '静滴'], standardCode: '47625008' },
      { code: 'im', name: '肌内注射', synonyms: ['肌注'], standardCode: '78421000' },
      { code: 'sc', name: '皮下注射', synonyms: ['皮下'], standardCode: '34206005' },
      { code: 'top', name: '外用', standardCode: '6064005' },
      { code: 'pr', name: '直肠给药', synonyms: ['塞肛'], standardCode: '37161004' },
    ],
  },
];
