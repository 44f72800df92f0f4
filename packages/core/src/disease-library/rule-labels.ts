import type { LabelText } from '../labels/types.js';
import type { RuleAnchorRef, RuleProblemCode, RuleSource } from './rule-builder.js';
import type { Aggregate, Operator } from './template.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** Words of the indicator rule builder: sources, fields, aggregates, operators, windows. */
export const RULE_SOURCE_LABELS = {
  lab: both('检验结果', 'Lab result'),
  diagnosis: both('诊断', 'Diagnosis'),
  visit: both('就诊', 'Visit'),
  order: both('医嘱', 'Order'),
  exam: both('检查报告', 'Exam report'),
  operation: both('手术', 'Operation'),
  document: both('病历文书', 'Clinical document'),
  vital: both('生命体征', 'Vital sign'),
  cleaned: both('文本结构化结果', 'Values from clinical text'),
  patient: both('患者信息', 'Patient details'),
} as const satisfies Record<RuleSource, LabelText>;

export const RULE_AGGREGATE_LABELS = {
  latest: both('最近一次', 'Latest'),
  first: both('首次', 'First'),
  min: both('最小值', 'Lowest'),
  max: both('最大值', 'Highest'),
  avg: both('平均值', 'Average'),
  count: both('次数', 'Number of records'),
  exists: both('是否存在', 'Whether any exists'),
  value: both('取值', 'Value'),
} as const satisfies Record<Aggregate, LabelText>;

export const RULE_FIELD_LABELS: Record<RuleSource, Record<string, LabelText>> = {
  lab: {
    code: both('项目代码', 'Item code'),
    name: both('项目名称', 'Item name'),
    value: both('结果数值', 'Numeric result'),
    text: both('结果文本', 'Text result'),
    unit: both('单位', 'Unit'),
    flag: both('异常标记', 'Abnormal flag'),
    date: both('采集时间', 'Collected on'),
  },
  diagnosis: {
    code: both('ICD-10 编码', 'ICD-10 code'),
    name: both('诊断名称', 'Diagnosis name'),
    kind: both('诊断类别', 'Diagnosis type'),
    date: both('诊断日期', 'Diagnosed on'),
  },
  visit: {
    kind: both('就诊类型', 'Visit type'),
    department: both('科室', 'Department'),
    date: both('入院/就诊日期', 'Admitted or seen on'),
    discharge: both('出院日期', 'Discharged on'),
  },
  order: {
    category: both('医嘱类别', 'Order category'),
    code: both('医嘱代码', 'Order code'),
    name: both('医嘱名称', 'Order name'),
    dose: both('剂量', 'Dose'),
    route: both('给药途径', 'Route'),
    date: both('开始时间', 'Started on'),
  },
  exam: {
    modality: both('检查类型', 'Modality'),
    part: both('检查部位', 'Body part'),
    findings: both('检查所见', 'Findings'),
    conclusion: both('检查结论', 'Conclusion'),
    date: both('检查时间', 'Examined on'),
  },
  operation: {
    code: both('手术编码', 'Procedure code'),
    name: both('手术名称', 'Procedure name'),
    date: both('手术日期', 'Operated on'),
  },
  document: {
    kind: both('文书类型', 'Document type'),
    title: both('标题', 'Title'),
    text: both('正文', 'Text'),
    date: both('书写时间', 'Written on'),
  },
  vital: {
    name: both('体征名称', 'Sign'),
    value: both('测量值', 'Measured value'),
    date: both('测量时间', 'Measured on'),
  },
  cleaned: {
    code: both('指标代码', 'Item code'),
    name: both('指标名称', 'Item name'),
    value: both('数值', 'Value'),
    text: both('原文', 'Text as written'),
    unit: both('单位', 'Unit'),
    section: both('病历段落', 'Section'),
    fault: both('质控问题', 'QC fault'),
    date: both('文书时间', 'Document date'),
  },
  patient: {
    age: both('年龄（建档时）', 'Age at filing'),
    gender: both('性别', 'Sex'),
    birth_date: both('出生日期', 'Date of birth'),
    name: both('姓名', 'Name'),
    mrn: both('病案号', 'MRN'),
  },
};

export const RULE_OPERATOR_LABELS = {
  '=': both('等于', 'is'),
  '!=': both('不等于', 'is not'),
  '>': both('大于', 'greater than'),
  '>=': both('大于等于', 'at least'),
  '<': both('小于', 'less than'),
  '<=': both('小于等于', 'at most'),
  starts: both('开头是', 'starts with'),
  contains: both('包含', 'contains'),
} as const satisfies Record<Operator, LabelText>;

export const RULE_ANCHOR_LABELS = {
  first_visit: both('首次就诊', 'First visit'),
  first_admission: both('首次住院', 'First admission'),
  filing_date: both('建档日期', 'Filing date'),
  t0: both('时间零点（T0 事件）', 'Zero point (T0 event)'),
} as const satisfies Record<RuleAnchorRef, LabelText>;

export const RULE_SIDE_LABELS = {
  before: both('之前（含当天）', 'On or before'),
  after: both('之后（含当天）', 'On or after'),
} as const satisfies Record<'before' | 'after', LabelText>;

/** Known values of the coded text fields, offered as a list (another value stays possible in text). */
export const RULE_KNOWN_VALUES: Partial<Record<RuleSource, Record<string, Record<string, LabelText>>>> = {
  visit: {
    kind: {
      inpatient: both('住院', 'Inpatient'),
      outpatient: both('门诊', 'Outpatient'),
      emergency: both('急诊', 'Emergency'),
    },
  },
  diagnosis: {
    kind: {
      main: both('主要诊断', 'Main diagnosis'),
      admission: both('入院诊断', 'Admission diagnosis'),
      discharge: both('出院诊断', 'Discharge diagnosis'),
      secondary: both('次要诊断', 'Secondary diagnosis'),
    },
  },
};

export const RULE_PROBLEM_LABELS = {
  fieldRequired: both('请选择要取的字段', 'Pick the field to read'),
  valueRequired: both('请填写或选择条件的值', 'Pick or type the value of this condition'),
  numberRequired: both('这里需要一个数字', 'This needs a number'),
  dateRequired: both('这里需要一个日期', 'This needs a date'),
  operatorInvalid: both('这个比较方式不适用于该字段', 'This comparison does not apply to the field'),
  daysInvalid: both('天数应为 0 到 36500 之间的整数', 'Days must be a whole number from 0 to 36,500'),
  t0Required: both('请选择 T0 事件', 'Choose a T0 event'),
} as const satisfies Record<RuleProblemCode, LabelText>;
