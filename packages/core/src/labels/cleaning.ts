import type { CleaningSection } from '../cleaning/sections.js';
import type { CleaningFault, CleaningRuleKind, SpanRole, SyntacticValueKind } from '../contracts/cleaning.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** Sections of a clinical document (paragraph cleaning). */
export const CLEANING_SECTION_LABELS = {
  header: both('文首', 'Heading'),
  chief_complaint: both('主诉', 'Chief complaint'),
  present_illness: both('现病史', 'Present illness'),
  past_history: both('既往史', 'Past history'),
  personal_history: both('个人史', 'Personal history'),
  marital_history: both('婚育史', 'Marital and obstetric history'),
  menstrual_history: both('月经史', 'Menstrual history'),
  family_history: both('家族史', 'Family history'),
  physical_exam: both('体格检查', 'Physical examination'),
  specialist_exam: both('专科检查', 'Specialist examination'),
  auxiliary_exam: both('辅助检查', 'Investigations'),
  course: both('诊疗经过', 'Course'),
  admission_diagnosis: both('入院诊断', 'Admission diagnosis'),
  discharge_diagnosis: both('出院诊断', 'Discharge diagnosis'),
  diagnosis: both('诊断', 'Diagnosis'),
  discharge_status: both('出院情况', 'Condition at discharge'),
  discharge_orders: both('出院医嘱', 'Discharge advice'),
} as const satisfies Record<CleaningSection, LabelText>;

export const CLEANING_FAULT_LABELS = {
  out_of_range: both('超出合理范围', 'Out of plausible range'),
  unknown_unit: both('单位无法换算', 'Unit cannot be converted'),
  bad_number: both('数值无法识别', 'Number not readable'),
} as const satisfies Record<CleaningFault, LabelText>;

export const CLEANING_RULE_KIND_LABELS = {
  regex: both('正则规则', 'Regex rule'),
  syntactic: both('句法规则', 'Syntactic rule'),
} as const satisfies Record<CleaningRuleKind, LabelText>;

export const CLEANING_VALUE_KIND_LABELS = {
  number: both('单个数值', 'One number'),
  pair: both('成对数值（如 120/80）', 'A pair (120/80)'),
  presence: both('有无（阴性为 0）', 'Present or not (0 when negated)'),
} as const satisfies Record<SyntacticValueKind, LabelText>;

/** Why a span of a tested sentence is highlighted. */
export const CLEANING_SPAN_ROLE_LABELS = {
  match: both('匹配', 'Match'),
  trigger: both('触发词', 'Trigger'),
  value: both('数值', 'Value'),
  unit: both('单位', 'Unit'),
  group: both('命名分组', 'Named group'),
  negation: both('否定', 'Negation'),
  uncertainty: both('不确定', 'Uncertainty'),
  time: both('时间', 'Time'),
  laterality: both('侧别', 'Side'),
} as const satisfies Record<SpanRole, LabelText>;

export const LATERALITY_LABELS = {
  left: both('左侧', 'Left'),
  right: both('右侧', 'Right'),
  both: both('双侧', 'Both sides'),
} as const satisfies Record<'left' | 'right' | 'both', LabelText>;
