import { describe, expect, it } from 'vitest';
import { BUILTIN_FORMULAS } from './builtins.js';
import {
  bindPatient,
  checkFormula,
  evaluateFormula,
  evaluateTemplate,
  FormulaError,
  type FormulaValue,
  type PatientFacts,
  parseFormula,
} from './formula.js';

const run = (expr: string, scope: Record<string, FormulaValue> = {}) => {
  const tree = parseFormula(expr);
  checkFormula(tree, Object.keys(scope));
  return evaluateFormula(tree, { scope, now: () => new Date(2024, 5, 1) });
};
const failure = (f: () => unknown): FormulaError => {
  try {
    f();
  } catch (e) {
    if (e instanceof FormulaError) return e;
    throw e;
  }
  throw new Error('no FormulaError');
};
const builtin = (key: string) => BUILTIN_FORMULAS.find((f) => f.key === key)!;
const withBuiltin = (key: string, scope: Record<string, FormulaValue>) => run(builtin(key).expression, scope);

describe('formula language', () => {
  it('follows arithmetic precedence, right-associative powers and unary minus below power', () => {
    expect(run('1 + 2 * 3')).toBe(7);
    expect(run('(1 + 2) * 3')).toBe(9);
    expect(run('2 ^ 3 ^ 2')).toBe(512);
    expect(run('-2 ^ 2')).toBe(-4);
    expect(run('2 ^ -1')).toBe(0.5);
    expect(run('10 % 4 - 7 / 2')).toBe(-1.5);
    expect(run('1.5e2 + .5')).toBe(150.5);
  });

  it('compares, combines conditions and chooses with ?: and if()', () => {
    expect(run('3 > 2 and 2 >= 2 && !(1 == 2)')).toBe(true);
    expect(run('1 = 1 or 1 / 0')).toBe(true); // short-circuit: the division is never done
    expect(run('x > 5 ? "high" : "low"', { x: 7 })).toBe('high');
    expect(run('if(x <> 7, 1, 2)', { x: 7 })).toBe(2);
    expect(run('"2024-01-02" < "2024-01-10"')).toBe(true);
    expect(run('"A" != "B"')).toBe(true);
  });

  it('reads Chinese names, braced names and full-width punctuation', () => {
    expect(run('体重 / (身高 / 100) ^ 2', { 体重: 70, 身高: 175 })).toBeCloseTo(22.857, 3);
    expect(run('{体重 kg} × 2', { '体重 kg': 3 })).toBe(6);
    expect(run('round（7 ÷ 3，2）')).toBe(2.33);
  });

  it('calls the CRF registry (bmi, dateDiff, age, sum, min, max) and its own math', () => {
    expect(run('bmi(70, 175)')).toBeCloseTo(22.857, 3);
    expect(run('dateDiff("2024-01-01", "2024-03-01", "days")')).toBe(60);
    expect(run('age("1980-06-02")')).toBe(43);
    expect(run('sum(1, 2, 3) + average(2, 4) + min(5, 3) + max(1, 9)')).toBe(21);
    expect(run('ln(exp(2)) + log10(1000) + log(8, 2) + sqrt(16) + abs(-1)')).toBeCloseTo(13, 10);
    expect(run('round(2.5) + round(-2.5) + floor(1.9) + ceil(1.1) + clamp(9, 1, 4)')).toBe(7);
    expect(run('days("2024-01-31", "2024-03-01")')).toBe(30);
    expect(run('coalesce(x, 0) + 1', { x: null })).toBe(1);
    expect(run('isMissing(x)', { x: null })).toBe(true);
  });

  it('names the problem of a formula it cannot read, with its position', () => {
    expect(failure(() => parseFormula('')).code).toBe('empty');
    expect(failure(() => parseFormula('1 +')).zh).toBe('第 4 个字符处公式不完整');
    const unexpected = failure(() => parseFormula('1 + * 2'));
    expect(unexpected.en).toBe('unexpected "*" at character 5');
    expect(failure(() => parseFormula('(1 + 2')).en).toBe('the parenthesis at character 1 is not closed');
    expect(failure(() => parseFormula('"abc')).zh).toBe('第 1 个字符处的引号没有闭合');
    expect(failure(() => parseFormula('1 # 2')).en).toBe('unexpected "#" at character 3');
    expect(failure(() => parseFormula('a\u0000b')).code).toBe('unexpected');
    expect(failure(() => parseFormula('x'.repeat(2001))).code).toBe('tooLong');
    expect(failure(() => parseFormula(`${'('.repeat(200)}1${')'.repeat(200)}`)).code).toBe('tooDeep');
    expect(failure(() => run('eval("1")')).en).toBe('there is no function named "eval"');
    expect(failure(() => run('constructor')).en).toBe('the variable "constructor" is not defined');
    expect(failure(() => run('constructor(1)')).code).toBe('unknownFunction');
    expect(failure(() => run('__proto__ + toString(1)')).code).toBe('unknownVariable');
    expect(failure(() => evaluateTemplate('toString', {})).code).toBe('unknownVariable');
    expect(failure(() => run('bmi(1)')).zh).toBe('函数“bmi”需要 2 个参数');
    expect(failure(() => run('round(1, 2, 3)')).en).toBe('the function "round" takes 1–2 argument(s)');
  });

  it('names the missing input, a non-number, a division by zero and a non-finite result', () => {
    const missing = failure(() => run('crea / 88.4', { crea: null }));
    expect(missing.code).toBe('missingInput');
    expect(missing.zh).toBe('缺少输入“crea”：该患者没有这项数据');
    expect(failure(() => run('bmi(w, 170)', { w: null })).en).toContain('"w" is missing');
    expect(failure(() => run('x * 2', { x: 'abc' })).code).toBe('notNumber');
    expect(failure(() => run('1 / (2 - 2)')).code).toBe('divideByZero');
    expect(failure(() => run('ln(0)')).en).toContain('"ln" gives no finite number');
    expect(failure(() => run('x', { x: null })).code).toBe('missingInput');
    expect(failure(() => run('bmi(0, 170)')).code).toBe('noValue');
  });
});

describe('built-in clinical formulas, against hand-worked values', () => {
  it('BMI from the latest height and weight: 70 kg, 175 cm → 22.86', () => {
    expect(withBuiltin('bmi', { 体重: 70, 身高: 175 })).toBeCloseTo(22.857, 3);
  });

  it('eGFR by CKD-EPI 2021 (Inker et al., NEJM 2021), creatinine in μmol/L', () => {
    // Man of 50, Scr 1.0 mg/dL (88.4 μmol/L): 142 × (1/0.9)^-1.2 × 0.9938^50
    //   = 142 × 0.881234 × 0.732759 = 91.69
    expect(withBuiltin('egfr-ckd-epi-2021', { crea: 88.4, age: 50, gender: 1 })).toBeCloseTo(91.69, 2);
    // Woman of 60, Scr 0.6 mg/dL (53.04 μmol/L): 142 × (0.6/0.7)^-0.241 × 0.9938^60 × 1.012
    //   = 142 × 1.037845 × 0.688551 × 1.012 = 102.69
    expect(withBuiltin('egfr-ckd-epi-2021', { crea: 53.04, age: 60, gender: 2 })).toBeCloseTo(102.69, 2);
    // Man of 70, Scr 2.0 mg/dL (176.8 μmol/L): 142 × (2/0.9)^-1.2 × 0.9938^70 = 35.24
    expect(withBuiltin('egfr-ckd-epi-2021', { crea: 176.8, age: 70, gender: 1 })).toBeCloseTo(35.24, 2);
  });

  it('MELD with bilirubin and creatinine in μmol/L, values below 1 set to 1, creatinine at most 4', () => {
    // Bilirubin 2 mg/dL (34.2 μmol/L), INR 1.5, creatinine 1.2 mg/dL (106.08 μmol/L):
    // 3.78·ln 2 + 11.2·ln 1.5 + 9.57·ln 1.2 + 6.43 = 2.620 + 4.541 + 1.745 + 6.43 = 15.34 → 15
    expect(withBuiltin('meld', { tbil: 34.2, inr: 1.5, crea: 106.08 })).toBe(15);
    // Every value under 1: only the constant 6.43 remains → 6
    expect(withBuiltin('meld', { tbil: 8, inr: 0.9, crea: 70 })).toBe(6);
    // Creatinine 6 mg/dL counts as 4: 3.78·ln 5 + 11.2·ln 2 + 9.57·ln 4 + 6.43 = 33.54 → 34
    expect(withBuiltin('meld', { tbil: 85.5, inr: 2, crea: 530.4 })).toBe(34);
  });

  it('days from the first diagnosis to the first operation', () => {
    expect(
      withBuiltin('days-diagnosis-to-operation', {
        dx: '2023-01-10T00:00:00.000Z',
        op: '2023-02-20T00:00:00.000Z',
      }),
    ).toBe(41);
  });
});

describe('binding a patient’s data', () => {
  const facts: PatientFacts = {
    gender: 2,
    birthDate: '1964-06-15',
    labs: { CREA: { value: 53.04, unit: 'μmol/L', at: '2024-05-01T00:00:00.000Z' } },
    exams: {
      体重: { value: '60', unit: 'kg', at: '2024-04-01T00:00:00.000Z' },
      身高: { value: '160', unit: 'cm', at: '2024-04-01T00:00:00.000Z' },
    },
    firstDiagnosis: {},
    firstOperation: { '': '2024-01-01T00:00:00.000Z' },
  };

  it('takes the latest lab and exam values, the age on the day and the gender code', () => {
    const egfr = builtin('egfr-ckd-epi-2021');
    const { scope, inputs } = bindPatient(egfr.variables, facts, () => new Date(2024, 5, 1));
    // Born 1964-06-15: 59 on 2024-06-01.
    expect(scope).toEqual({ crea: 53.04, age: 59, gender: 2 });
    expect(inputs[0]).toMatchObject({ name: 'crea', unit: 'μmol/L', at: '2024-05-01T00:00:00.000Z' });
    const v = evaluateFormula(parseFormula(egfr.expression), { scope });
    expect(v).toBeCloseTo(142 * (0.6 / 0.7) ** -0.241 * 0.9938 ** 59 * 1.012, 6);
    const bmi = bindPatient(builtin('bmi').variables, facts);
    expect(evaluateFormula(parseFormula(builtin('bmi').expression), { scope: bmi.scope })).toBeCloseTo(
      23.4375,
      6,
    );
  });

  it('binds what the patient lacks as missing, and the evaluation names it', () => {
    const { scope, inputs } = bindPatient(builtin('days-diagnosis-to-operation').variables, facts);
    expect(scope).toEqual({ dx: null, op: '2024-01-01T00:00:00.000Z' });
    expect(inputs[0]!.value).toBeNull();
    const e = failure(() => evaluateFormula(parseFormula('days(dx, op)'), { scope }));
    expect(e.en).toBe('the input "dx" is missing: the patient has no such data');
  });
});

describe('template call (template_str, template_params)', () => {
  it('works out a template with its params, bare or braced', () => {
    expect(evaluateTemplate('{weight} / ({height} / 100) ^ 2', { weight: 70, height: 175 })).toBeCloseTo(
      22.857,
      3,
    );
    expect(evaluateTemplate('a > 1 ? "yes" : "no"', { a: '2' })).toBe('yes');
    expect(evaluateTemplate('1 + 1', {})).toBe(2);
  });

  it('refuses a template naming a param it was not given', () => {
    expect(failure(() => evaluateTemplate('a + b', { a: 1 })).zh).toBe('变量“b”未定义');
  });
});
