import type { HospitalUnitKind } from '../contracts/reference.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** The levels of a hospital's structure (医院信息维护). */
export const HOSPITAL_UNIT_KIND_LABELS = {
  campus: both('院区', 'Campus'),
  department: both('科室', 'Department'),
  ward: both('病区', 'Ward'),
} as const satisfies Record<HospitalUnitKind, LabelText>;

/** The basic dictionaries every app starts with, by their code (server: reference/basic-dictionaries.ts). */
export const BASIC_DICTIONARY_LABELS = {
  gender: both('性别', 'Gender'),
  visit_kind: both('就诊类型', 'Visit kind'),
  specimen: both('标本类型', 'Specimen'),
  unit: both('计量单位', 'Units'),
  frequency: both('用药频次', 'Frequency'),
  route: both('给药途径', 'Route'),
} as const satisfies Record<string, LabelText>;
