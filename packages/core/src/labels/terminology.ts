import type { ConceptMatchKind, TerminologyDomain } from '../contracts/terminology.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** What a code system codes (术语浏览's system list, the new-code screens). */
export const TERMINOLOGY_DOMAIN_LABELS = {
  disease: both('疾病诊断', 'Diagnoses'),
  surgery: both('手术操作', 'Operations'),
  lab: both('检验项目', 'Lab tests'),
  drug: both('药品', 'Drugs'),
} as const satisfies Record<TerminologyDomain, LabelText>;

/** Why a concept matched a search, in ranking order. */
export const CONCEPT_MATCH_LABELS = {
  codeExact: both('编码完全一致', 'Exact code'),
  codePrefix: both('编码开头', 'Code prefix'),
  nameExact: both('名称完全一致', 'Exact name'),
  namePrefix: both('名称开头', 'Name prefix'),
  nameContains: both('名称包含', 'Name contains'),
  pinyin: both('拼音首字母', 'Pinyin initials'),
} as const satisfies Record<ConceptMatchKind, LabelText>;
