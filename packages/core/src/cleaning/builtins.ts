import type { CleaningRuleDefinitionInput } from '../contracts/cleaning.js';

/**
 * Built-in cleaning rules every app has (read-only; a person copies one to change it). Ranges
 * are plausibility limits, not normal ranges: a value outside is a QC fault (a typo or a unit
 * slip), kept with the fault rather than dropped.
 */
export interface BuiltinCleaningRule {
  key: string;
  name: { 'zh-CN': string; 'en-US': string };
  description: { 'zh-CN': string; 'en-US': string };
  definition: CleaningRuleDefinitionInput;
}

const out = (code: string, name: string, unit: string, min: number | null, max: number | null) => ({
  code,
  name,
  unit,
  min,
  max,
});

export const BUILTIN_CLEANING_RULES: readonly BuiltinCleaningRule[] = [
  {
    key: 'blood_pressure',
    name: { 'zh-CN': '血压', 'en-US': 'Blood pressure' },
    description: {
      'zh-CN': '“血压120/80mmHg”→收缩压 120、舒张压 80 mmHg（kPa 换算为 mmHg）',
      'en-US': '"血压120/80mmHg" → systolic 120 and diastolic 80 mmHg (kPa converted)',
    },
    definition: {
      kind: 'syntactic',
      triggers: ['血压', 'BP', 'Bp'],
      window: 8,
      value: 'pair',
      outputs: [out('SBP', '收缩压', 'mmHg', 40, 300), out('DBP', '舒张压', 'mmHg', 20, 200)],
    },
  },
  {
    key: 'hbv_dna',
    name: { 'zh-CN': 'HBV-DNA 定量', 'en-US': 'HBV DNA load' },
    description: {
      'zh-CN': '“HBV-DNA 1.2×10^5 IU/ml”与“1.2E+05 IU/mL”→120000 IU/mL；“<20 IU/mL”记为低于 20',
      'en-US': '"HBV-DNA 1.2×10^5 IU/ml" and "1.2E+05 IU/mL" → 120000 IU/mL; "<20 IU/mL" is below 20',
    },
    definition: {
      kind: 'syntactic',
      triggers: ['HBV-DNA', 'HBV DNA', 'HBVDNA', 'HBV-DNA定量', '乙肝病毒DNA', '乙型肝炎病毒DNA'],
      window: 12,
      value: 'number',
      outputs: [out('HBV_DNA', 'HBV-DNA', 'IU/mL', 0, 1e10)],
    },
  },
  {
    key: 'alt',
    name: { 'zh-CN': '谷丙转氨酶 ALT', 'en-US': 'ALT' },
    description: { 'zh-CN': 'ALT/谷丙转氨酶，U/L', 'en-US': 'ALT (alanine aminotransferase), U/L' },
    definition: {
      kind: 'syntactic',
      triggers: ['ALT', 'GPT', '谷丙转氨酶', '丙氨酸氨基转移酶', '丙氨酸转氨酶'],
      window: 10,
      value: 'number',
      outputs: [out('ALT', '谷丙转氨酶', 'U/L', 0, 10000)],
    },
  },
  {
    key: 'ast',
    name: { 'zh-CN': '谷草转氨酶 AST', 'en-US': 'AST' },
    description: { 'zh-CN': 'AST/谷草转氨酶，U/L', 'en-US': 'AST (aspartate aminotransferase), U/L' },
    definition: {
      kind: 'syntactic',
      triggers: ['AST', 'GOT', '谷草转氨酶', '天门冬氨酸氨基转移酶', '天冬氨酸氨基转移酶'],
      window: 10,
      value: 'number',
      outputs: [out('AST', '谷草转氨酶', 'U/L', 0, 10000)],
    },
  },
  {
    key: 'temperature',
    name: { 'zh-CN': '体温', 'en-US': 'Temperature' },
    description: {
      'zh-CN': '体温/T，℃（°F 换算）；单字母 T 须带单位',
      'en-US': 'Temperature (T), ℃ (°F converted); a bare T needs its unit',
    },
    definition: {
      kind: 'syntactic',
      triggers: ['体温', 'T'],
      window: 6,
      value: 'number',
      requireUnit: true,
      outputs: [out('TEMP', '体温', '℃', 30, 45)],
    },
  },
  {
    key: 'pulse',
    name: { 'zh-CN': '脉搏/心率', 'en-US': 'Pulse / heart rate' },
    description: {
      'zh-CN': '脉搏、心率、P、HR，次/分',
      'en-US': 'Pulse, heart rate (P, HR), beats per minute',
    },
    definition: {
      kind: 'syntactic',
      triggers: ['脉搏', '心率', 'P', 'HR'],
      window: 6,
      value: 'number',
      requireUnit: true,
      outputs: [out('PULSE', '脉搏', '次/分', 20, 250)],
    },
  },
  {
    key: 'weight',
    name: { 'zh-CN': '体重（正则）', 'en-US': 'Body weight (regex)' },
    description: {
      'zh-CN': '正则规则示例：体重65kg / 体重：130斤 → kg',
      'en-US': 'A regex rule example: 体重65kg / 体重：130斤 → kg',
    },
    definition: {
      kind: 'regex',
      pattern: '体重[:：]?\\s?(?:约|为)?(?<value>\\d{1,3}(?:\\.\\d{1,2})?)\\s?(?<unit>kg|公斤|千克|斤)',
      unitGroup: 'unit',
      outputs: [{ ...out('WEIGHT', '体重', 'kg', 1, 400), group: 'value' }],
    },
  },
  {
    key: 'fever',
    name: { 'zh-CN': '发热（症状）', 'en-US': 'Fever (finding)' },
    description: {
      'zh-CN': '是否发热：1 为有，0 为否认/无；标注怀疑、时间（3天前）',
      'en-US': 'Fever present (1) or denied (0), with uncertainty and time (3天前)',
    },
    definition: {
      kind: 'syntactic',
      triggers: ['发热', '发烧'],
      window: 1,
      value: 'presence',
      outputs: [out('FEVER', '发热', '', null, null)],
    },
  },
  {
    key: 'ascites',
    name: { 'zh-CN': '腹水', 'en-US': 'Ascites' },
    description: { 'zh-CN': '腹水：有 1 / 无 0，标注怀疑', 'en-US': 'Ascites present (1) or absent (0)' },
    definition: {
      kind: 'syntactic',
      triggers: ['腹水', '腹腔积液'],
      window: 1,
      value: 'presence',
      outputs: [out('ASCITES', '腹水', '', null, null)],
    },
  },
  {
    key: 'edema',
    name: { 'zh-CN': '水肿', 'en-US': 'Oedema' },
    description: {
      'zh-CN': '水肿：有 1 / 无 0，标注左右侧',
      'en-US': 'Oedema present (1) or absent (0), with its side',
    },
    definition: {
      kind: 'syntactic',
      triggers: ['下肢水肿', '下肢浮肿', '水肿'],
      window: 1,
      value: 'presence',
      outputs: [out('EDEMA', '水肿', '', null, null)],
    },
  },
];
