import type { FormulaSource } from '../contracts/formulas.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** Where a formula variable's value comes from (公式编辑器). */
export const FORMULA_SOURCE_LABELS = {
  lab: both('最近一次检验结果', 'Latest lab result'),
  exam: both('最近一次体格检查', 'Latest physical exam'),
  age: both('年龄（岁）', 'Age (years)'),
  gender: both('性别代码（1 男，2 女）', 'Sex code (1 male, 2 female)'),
  birthDate: both('出生日期', 'Date of birth'),
  firstDiagnosis: both('首次诊断日期', 'First diagnosis date'),
  firstOperation: both('首次手术日期', 'First operation date'),
} as const satisfies Record<FormulaSource, LabelText>;
