import type { Issue, IssueCode } from './types.js';

/**
 * Submit messages of spec 001 section 5. People read the Chinese message, which names the
 * page and question numbers they see; the English one sits beside it for the en-US locale;
 * API clients read `pathMessage`, in the newer validator's '{path} is required' style.
 */

export interface Where {
  page: number;
  question: number;
  blank?: number;
  row?: number;
  column?: number;
}

function zhPlace(w: Where): string {
  let s = `第${w.page}页第${w.question}题`;
  if (w.blank !== undefined) s += `第${w.blank}空`;
  if (w.row !== undefined) s += `第${w.row}行`;
  if (w.column !== undefined) s += `第${w.column}列`;
  return s;
}

function enPlace(w: Where): string {
  let s = `Page ${w.page}, question ${w.question}`;
  if (w.blank !== undefined) s += `, blank ${w.blank}`;
  if (w.row !== undefined) s += `, row ${w.row}`;
  if (w.column !== undefined) s += `, column ${w.column}`;
  return s;
}

type Text = (place: string, n: number | undefined) => string;

const CATALOGUE: Record<IssueCode, { zh: Text; en: Text; path: Text }> = {
  required: {
    zh: (p) => `${p}为必填项`,
    en: (p) => `${p} is required`,
    path: (p) => `${p} is required`,
  },
  rowRequired: {
    zh: (p) => `${p}为必填项`,
    en: (p) => `${p} is required`,
    path: (p) => `${p} is required`,
  },
  minOptions: {
    zh: (p, n) => `${p}至少选择${n}项`,
    en: (p, n) => `${p}: choose at least ${n} options`,
    path: (p, n) => `${p}: at least ${n} items`,
  },
  maxOptions: {
    zh: (p, n) => `${p}最多选择${n}项`,
    en: (p, n) => `${p}: choose at most ${n} options`,
    path: (p, n) => `${p}: at most ${n} items`,
  },
  maxValue: {
    zh: (p, n) => `${p}最大输入值为${n}`,
    en: (p, n) => `${p}: maximum input value ${n}`,
    path: (p, n) => `${p} must be at most ${n}`,
  },
  minValue: {
    zh: (p, n) => `${p}最小输入值为${n}`,
    en: (p, n) => `${p}: minimum input value ${n}`,
    path: (p, n) => `${p} must be at least ${n}`,
  },
  maxLength: {
    zh: (p, n) => `${p}最多输入${n}个字符`,
    en: (p, n) => `${p}: at most ${n} characters`,
    path: (p, n) => `${p}: at most ${n} characters`,
  },
  minLength: {
    zh: (p, n) => `${p}至少输入${n}个字符`,
    en: (p, n) => `${p}: at least ${n} characters`,
    path: (p, n) => `${p}: at least ${n} characters`,
  },
  notNumber: {
    zh: (p) => `${p}请输入数字`,
    en: (p) => `${p} must be a number`,
    path: (p) => `${p} must be a number`,
  },
  notDate: {
    zh: (p) => `${p}请输入有效日期`,
    en: (p) => `${p} must be a valid date`,
    path: (p) => `${p} must be a valid date`,
  },
  // The national ID check of spec 001 (checkNationalId of @crdp/core), its three tips.
  nationalIdFormat: {
    zh: (p) => `${p}身份证号格式错误`,
    en: (p) => `${p}: the national ID number is not 15 or 18 digits with a real birth date`,
    path: (p) => `${p}: national ID format is wrong`,
  },
  nationalIdProvince: {
    zh: (p) => `${p}身份证号地址编码错误`,
    en: (p) => `${p}: the national ID number has an unknown region code`,
    path: (p) => `${p}: national ID region code is wrong`,
  },
  nationalIdCheckDigit: {
    zh: (p) => `${p}身份证号校验位错误`,
    en: (p) => `${p}: the national ID number's check digit is wrong`,
    path: (p) => `${p}: national ID check digit is wrong`,
  },
  unknownOption: {
    zh: (p) => `${p}的选项不在可选范围内`,
    en: (p) => `${p}: the answer is not one of the options`,
    path: (p) => `${p}: not one of the options`,
  },
};

/** Builds an issue with its three wordings. */
export function makeIssue(code: IssueCode, key: string, path: string, where: Where, limit?: number): Issue {
  const text = CATALOGUE[code];
  const issue: Issue = {
    key,
    page: where.page,
    question: where.question,
    message: text.zh(zhPlace(where), limit),
    messageEn: text.en(enPlace(where), limit),
    code,
    path,
    pathMessage: text.path(path, limit),
    severity: 'error',
  };
  if (where.blank !== undefined) issue.blank = where.blank;
  if (where.row !== undefined) issue.row = where.row;
  if (where.column !== undefined) issue.column = where.column;
  if (limit !== undefined) issue.limit = limit;
  return issue;
}
