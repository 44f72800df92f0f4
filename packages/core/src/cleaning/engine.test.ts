import { describe, expect, it } from 'vitest';
import { type CleaningRuleDefinitionInput, cleaningRuleDefinition } from '../contracts/cleaning.js';
import {
  builtinRuleSources,
  CleaningRuleError,
  checkPattern,
  cleanDocument,
  cleanSentence,
  compileRule,
  compileRules,
  convertUnit,
  parseNumber,
  parseValue,
  splitSections,
  splitSentences,
} from './index.js';

const builtins = compileRules(builtinRuleSources());
const only = (sentence: string, code: string) =>
  cleanSentence(builtins, sentence).filter((e) => e.code === code);
const one = (sentence: string, code: string) => {
  const found = only(sentence, code);
  expect(found, `${code} in ${sentence}`).toHaveLength(1);
  return found[0]!;
};
const rule = (definition: CleaningRuleDefinitionInput) =>
  compileRule({ ref: 'rule:1', name: 'test', definition: cleaningRuleDefinition.parse(definition) });

describe('numbers', () => {
  it('reads powers of ten however they are written', () => {
    expect(parseNumber('1.2×10^5')).toBe(120000);
    expect(parseNumber('1.2 x 10^5')).toBe(120000);
    expect(parseNumber('1.2*10^5')).toBe(120000);
    expect(parseNumber('1.2×10⁵')).toBe(120000);
    expect(parseNumber('1.2E+05')).toBe(120000);
    expect(parseNumber('3.5e3')).toBe(3500);
    expect(parseNumber('2.5×10^-3')).toBe(0.0025);
    expect(parseNumber('36.5')).toBe(36.5);
  });
  it('reads comparators and ranges', () => {
    expect(parseValue('<20')).toEqual({ value: 20, high: null, comparator: '<' });
    expect(parseValue('≥ 1.0×10^8')).toEqual({ value: 1e8, high: null, comparator: '>=' });
    expect(parseValue('36.5~37.2')).toEqual({ value: 36.5, high: 37.2, comparator: null });
  });
});

describe('units', () => {
  it('converts to the unit a rule stores', () => {
    expect(convertUnit(16, 'kPa', 'mmHg')).toEqual({ ok: true, value: 120.00992, unit: 'mmHg' });
    expect(convertUnit(1.2e5, 'IU/ml', 'IU/mL')).toEqual({ ok: true, value: 120000, unit: 'IU/mL' });
    expect(convertUnit(98.6, '°F', '℃').value).toBeCloseTo(37);
    expect(convertUnit(130, '斤', 'kg').value).toBe(65);
    expect(convertUnit(40, 'IU/L', 'U/L')).toEqual({ ok: true, value: 40, unit: 'U/L' });
  });
  it('keeps a unit it cannot convert and says so', () => {
    expect(convertUnit(1000, 'copies/mL', 'IU/mL')).toEqual({ ok: false, value: 1000, unit: 'copies/mL' });
  });
});

describe('blood pressure', () => {
  it('splits 120/80mmHg into systolic and diastolic', () => {
    const found = cleanSentence(builtins, '查体：T 36.5℃，P 80次/分，血压120/80mmHg，神志清。');
    const sbp = found.find((e) => e.code === 'SBP')!;
    const dbp = found.find((e) => e.code === 'DBP')!;
    expect([sbp.value, sbp.unit, dbp.value, dbp.unit]).toEqual([120, 'mmHg', 80, 'mmHg']);
    expect(sbp.name).toBe('收缩压');
    expect(sbp.raw).toBe('血压120/80mmHg');
    expect(sbp.spans.map((s) => s.role)).toEqual(['trigger', 'value', 'unit']);
  });
  it('reads BP with a colon and spaces, and kPa', () => {
    expect(one('BP: 135 / 85 mmHg', 'SBP').value).toBe(135);
    expect(one('血压 16/10.7kPa', 'SBP').value).toBeCloseTo(120.01, 1);
  });
  it('makes an impossible pressure a fault, not a silent drop', () => {
    const sbp = one('血压1200/80mmHg', 'SBP');
    expect(sbp.value).toBe(1200);
    expect(sbp.fault).toBe('out_of_range');
    expect(one('血压1200/80mmHg', 'DBP').fault).toBeNull();
  });
  it('does not read a pressure from another clause', () => {
    expect(only('血压未测，心率88次/分', 'SBP')).toHaveLength(0);
  });
});

describe('HBV-DNA', () => {
  it.each([
    ['HBV-DNA 1.2×10^5 IU/ml', 120000],
    ['HBV-DNA：1.2E+05 IU/mL', 120000],
    ['乙肝病毒DNA定量 1.2x10^5IU/mL', 120000],
    ['复查HBV DNA 3.46×10⁶ IU/ml，较前下降', 3460000],
    ['HBV-DNA定量：5.2e2 IU/mL', 520],
  ])('%s → %d IU/mL', (sentence, value) => {
    const e = one(sentence, 'HBV_DNA');
    expect(e.value).toBe(value);
    expect(e.unit).toBe('IU/mL');
    expect(e.fault).toBeNull();
  });
  it('keeps the comparator of a result below the detection limit', () => {
    const e = one('HBV-DNA<20 IU/mL', 'HBV_DNA');
    expect([e.value, e.comparator]).toEqual([20, '<']);
  });
  it('flags copies/mL as a unit it cannot convert', () => {
    const e = one('HBV-DNA 5.0×10^3 copies/ml', 'HBV_DNA');
    expect([e.value, e.unit, e.fault]).toEqual([5000, 'copies/ml', 'unknown_unit']);
  });
  it('reads nothing from HBV-DNA阴性 (no number)', () => {
    expect(only('HBV-DNA阴性', 'HBV_DNA')).toHaveLength(0);
  });
});

describe('liver enzymes, temperature, pulse', () => {
  it('reads ALT and AST in one sentence', () => {
    const found = cleanSentence(builtins, '肝功能：ALT 256U/L，AST 189 U/L，TBIL 23.5μmol/L。');
    expect(found.filter((e) => e.code === 'ALT').map((e) => e.value)).toEqual([256]);
    expect(found.filter((e) => e.code === 'AST').map((e) => e.value)).toEqual([189]);
  });
  it('reads Chinese enzyme names and IU/L', () => {
    expect(one('谷丙转氨酶 88 IU/L', 'ALT').value).toBe(88);
    expect(one('谷草转氨酶升高（120U/L）', 'AST').value).toBe(120);
  });
  it('needs a unit after a one-letter trigger', () => {
    expect(one('T:37.8℃', 'TEMP').value).toBe(37.8);
    expect(only('T2DM病史5年', 'TEMP')).toHaveLength(0);
    expect(only('P 3', 'PULSE')).toHaveLength(0);
    expect(one('P：92次/分', 'PULSE').value).toBe(92);
    expect(one('心率 76 bpm', 'PULSE').value).toBe(76);
  });
  it('converts Fahrenheit and flags an impossible temperature', () => {
    expect(one('体温 101.3°F', 'TEMP').value).toBeCloseTo(38.5);
    expect(one('体温365℃', 'TEMP').fault).toBe('out_of_range');
  });
  it('reads a temperature range with its upper end', () => {
    const e = one('体温波动于37.5~38.9℃之间', 'TEMP');
    expect([e.value, e.valueHigh]).toEqual([37.5, 38.9]);
  });
});

describe('negation, uncertainty, time, laterality', () => {
  it('reads 否认/无/未见 as negation', () => {
    expect(one('否认发热', 'FEVER')).toMatchObject({ negated: true, value: 0 });
    expect(one('无腹水', 'ASCITES')).toMatchObject({ negated: true, value: 0 });
    expect(one('腹部超声未见明显腹水', 'ASCITES').negated).toBe(true);
    expect(one('移动性浊音阴性，腹水（-）', 'ASCITES').negated).toBe(true);
  });
  it('does not take 无明显诱因 as a negation of what follows', () => {
    const e = one('患者3天前无明显诱因出现发热，最高体温39.2℃', 'FEVER');
    expect(e.negated).toBe(false);
    expect(e.value).toBe(1);
    expect([e.time, e.timeDays]).toEqual(['3天前', -3]);
  });
  it('keeps a negation inside its clause', () => {
    const e = one('无腹痛，发热2天', 'FEVER');
    expect(e.negated).toBe(false);
  });
  it('reads 考虑/疑似 and a trailing ？ as uncertainty', () => {
    expect(one('考虑少量腹水', 'ASCITES').uncertain).toBe(true);
    expect(one('疑似腹腔积液', 'ASCITES').uncertain).toBe(true);
    expect(one('腹水？', 'ASCITES').uncertain).toBe(true);
    expect(one('大量腹水', 'ASCITES').uncertain).toBe(false);
  });
  it('reads relative times in Chinese numerals', () => {
    expect(one('半月前出现发热', 'FEVER').timeDays).toBe(-15);
    expect(one('两周前开始发热', 'FEVER').timeDays).toBe(-14);
    expect(one('发热1年余', 'FEVER').time).toBeNull();
  });
  it('reads the side of a finding', () => {
    expect(one('左下肢水肿', 'EDEMA').laterality).toBe('left');
    expect(one('双下肢轻度水肿', 'EDEMA').laterality).toBe('both');
    expect(one('右侧下肢水肿', 'EDEMA').laterality).toBe('right');
    expect(one('双下肢无水肿', 'EDEMA')).toMatchObject({ negated: true, laterality: 'both' });
  });
  it('shows its cues as spans', () => {
    const e = one('考虑少量腹水', 'ASCITES');
    expect(e.spans.find((s) => s.role === 'uncertainty')).toEqual({
      start: 0,
      end: 2,
      role: 'uncertainty',
      label: '',
    });
  });
});

describe('regex rules', () => {
  it('reads named groups and converts the unit group', () => {
    const e = one('体重：130斤，身高170cm', 'WEIGHT');
    expect([e.value, e.unit]).toEqual([65, 'kg']);
    expect(e.spans.filter((s) => s.role === 'group').map((s) => s.label)).toEqual(['value', 'unit']);
  });
  it('writes several outputs of one match', () => {
    const r = rule({
      kind: 'regex',
      pattern: '肝脏大小约(?<a>\\d+(?:\\.\\d+)?)(?:cm)?[×xX*](?<b>\\d+(?:\\.\\d+)?)\\s?cm',
      outputs: [
        { code: 'LIVER_A', name: '肝长径', unit: 'cm', group: 'a' },
        { code: 'LIVER_B', name: '肝短径', unit: 'cm', group: 'b' },
      ],
    });
    const found = cleanSentence([r], '超声：肝脏大小约15.2×10.1cm，回声增粗。');
    expect(found.map((e) => [e.code, e.value])).toEqual([
      ['LIVER_A', 15.2],
      ['LIVER_B', 10.1],
    ]);
  });
  it('refuses patterns that could backtrack without end', () => {
    for (const p of ['(a+)+b', '(\\d+\\.?)*x', '(a|aa)+', '(?:x|y){2,}', '(a*)*', '([0-9]+)+']) {
      const err = checkPattern(p, { maxLength: 300 });
      expect(err, p).not.toBeNull();
      expect(err!.en).toMatch(/repeated group/);
    }
  });
  it('refuses back-references, lookbehind, empty matches and missing groups', () => {
    expect(checkPattern('(a)\\1', { maxLength: 300 })!.en).toMatch(/back-references/);
    expect(checkPattern('(?<=x)a', { maxLength: 300 })!.en).toMatch(/lookbehind/);
    expect(checkPattern('a*', { maxLength: 300 })!.en).toMatch(/empty/);
    expect(checkPattern('(?<v>\\d+', { maxLength: 300 })!.en).toMatch(/does not compile/);
    expect(checkPattern('\\d+', { maxLength: 300, groups: ['v'] })!.en).toMatch(/no named group/);
    expect(checkPattern('x'.repeat(301), { maxLength: 300 })!.en).toMatch(/too long/);
  });
  it('accepts ordinary clinical patterns', () => {
    for (const p of [
      '(?<v>\\d+(?:\\.\\d+)?)\\s*(?<u>mmol/L|mg/dL)',
      '血糖[:：]?(?<v>\\d+(\\.\\d+)?)',
      '(?:空腹)?血糖(?<v>[0-9.]{1,5})',
      '[A-Z]{2,5}\\s?(?<v>\\d+)',
    ])
      expect(checkPattern(p, { maxLength: 300 }), p).toBeNull();
  });
  it('names the field of a rule that cannot compile', () => {
    expect(() =>
      rule({ kind: 'regex', pattern: '(a+)+', outputs: [{ code: 'X', name: 'x', group: 'v' }] }),
    ).toThrow(CleaningRuleError);
    try {
      rule({ kind: 'regex', pattern: 'x(?<v>\\d)', outputs: [{ code: 'X', name: 'x' }] });
    } catch (e) {
      expect((e as CleaningRuleError).field).toBe('outputs.0.group');
    }
  });
  it('refuses overlapping repetitions in a row, and patterns slow on probe sentences', () => {
    expect(checkPattern('\\d*\\d*x', { maxLength: 300 })!.en).toMatch(/follow each other/);
    expect(checkPattern('\\d+[0-9]+\\d+[0-9]+\\d+x', { maxLength: 300 })!.en).toMatch(/too slow/);
  });
  it('runs an accepted pattern over a long run of digits quickly (sentences are bounded)', () => {
    const r = rule({
      kind: 'regex',
      pattern: '(?<v>\\d+)\\s*mg',
      outputs: [{ code: 'X', name: 'x', group: 'v' }],
    });
    const t = performance.now();
    cleanDocument([r], '1'.repeat(5000));
    expect(performance.now() - t).toBeLessThan(1000);
  });
});

describe('paragraph cleaning', () => {
  const note = [
    '入院记录',
    '主诉：乏力、纳差1月，加重伴发热3天。',
    '现病史：患者1月前无明显诱因出现乏力，3天前出现发热，最高体温38.6℃。外院查HBV-DNA 1.2×10^5 IU/ml，ALT 312U/L。',
    '既往史：否认高血压、糖尿病史。',
    '体格检查：T 37.2℃，P 88次/分，R 20次/分，BP 125/78mmHg。双下肢无水肿。',
    '辅助检查：AST 201 U/L，HBV-DNA 1.2E+05 IU/mL。',
    '入院诊断：1.慢性乙型病毒性肝炎 2.肝功能异常',
  ].join('\n');
  it('splits a note into its sections', () => {
    const s = splitSections(note);
    expect(s.map((x) => x.key)).toEqual([
      'header',
      'chief_complaint',
      'present_illness',
      'past_history',
      'physical_exam',
      'auxiliary_exam',
      'admission_diagnosis',
    ]);
    expect(note.slice(s[1]!.start, s[1]!.end).trim()).toBe('乏力、纳差1月，加重伴发热3天。');
  });
  it('reads numbered and bracketed headings', () => {
    const s = splitSections('一、主诉：咳嗽\n【现病史】：咳嗽3天\n2. 查体：无殊');
    expect(s.map((x) => x.key)).toEqual(['chief_complaint', 'present_illness', 'physical_exam']);
  });
  it('cleans each section and points back at the sentence', () => {
    const { extractions } = cleanDocument(builtins, note);
    const hbv = extractions.filter((e) => e.code === 'HBV_DNA');
    expect(hbv.map((e) => [e.section, e.value])).toEqual([
      ['present_illness', 120000],
      ['auxiliary_exam', 120000],
    ]);
    const sbp = extractions.find((e) => e.code === 'SBP')!;
    expect(sbp.section).toBe('physical_exam');
    expect(note.slice(sbp.sentenceStart, sbp.sentenceEnd)).toBe(
      'T 37.2℃，P 88次/分，R 20次/分，BP 125/78mmHg。',
    );
    expect(note.slice(sbp.start, sbp.end)).toBe('BP 125/78mmHg');
    const fever = extractions.filter((e) => e.code === 'FEVER');
    expect(fever.every((e) => !e.negated)).toBe(true);
    expect(extractions.find((e) => e.code === 'EDEMA')!.negated).toBe(true);
  });
  it('runs a rule limited to sections only there', () => {
    const r = rule({
      kind: 'syntactic',
      triggers: ['HBV-DNA'],
      value: 'number',
      outputs: [{ code: 'HBV_LAB', name: 'HBV-DNA', unit: 'IU/mL' }],
      sections: ['auxiliary_exam'],
    });
    expect(cleanDocument([r], note).extractions.map((e) => e.section)).toEqual(['auxiliary_exam']);
  });
  it('splits sentences but not clauses', () => {
    const t = '发热，咳嗽。无胸痛；\n乏力';
    expect(splitSentences(t).map((s) => t.slice(s.start, s.end))).toEqual([
      '发热，咳嗽。',
      '无胸痛；',
      '乏力',
    ]);
  });
});
