import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** The clinical data repository's tables (`CDR_TABLES` of the server), as people name them. */
export const CDR_TABLE_LABELS = {
  patients: both('患者', 'Patients'),
  visits: both('就诊', 'Visits'),
  diagnoses: both('诊断', 'Diagnoses'),
  allergies: both('过敏', 'Allergies'),
  orders: both('医嘱', 'Orders'),
  labResults: both('检验结果', 'Lab results'),
  examReports: both('检查报告', 'Exam reports'),
  operations: both('手术', 'Operations'),
  physicalExams: both('体格检查', 'Physical examinations'),
  vitalSigns: both('生命体征', 'Vital signs'),
  documents: both('病历文书', 'Documents'),
} as const satisfies Record<string, LabelText>;

/**
 * The repository's fields (the CDR browser's columns, the CSV import's mapping). A field whose
 * words depend on its table has a `table.field` entry too (a patient's name is 姓名, a
 * diagnosis's 名称): look that up first ({@link cdrFieldLabelKey}).
 */
export const CDR_FIELD_LABELS = {
  id: both('编号', 'Id'),
  mrn: both('病案号', 'MRN'),
  name: both('名称', 'Name'),
  gender: both('性别', 'Gender'),
  birthDate: both('出生日期', 'Date of birth'),
  nationalId: both('身份证号', 'National ID'),
  phone: both('电话', 'Phone'),
  address: both('地址', 'Address'),
  contacts: both('联系人', 'Contacts'),
  source: both('来源', 'Source'),
  sourceId: both('来源编号', 'Source id'),
  createdAt: both('创建时间', 'Created'),
  updatedAt: both('更新时间', 'Updated'),
  patientId: both('患者 ID', 'Patient id'),
  kind: both('类型', 'Kind'),
  department: both('科室', 'Department'),
  admitAt: both('入院/就诊时间', 'Admitted'),
  dischargeAt: both('出院时间', 'Discharged'),
  visitId: both('就诊 ID', 'Visit id'),
  icd10: both('ICD-10 编码', 'ICD-10'),
  codings: both('全部编码', 'Codings'),
  diagnosedAt: both('诊断时间', 'Diagnosed'),
  substance: both('过敏原', 'Substance'),
  reaction: both('反应', 'Reaction'),
  severity: both('严重程度', 'Severity'),
  recordedAt: both('记录时间', 'Recorded'),
  category: both('类别', 'Category'),
  code: both('编码', 'Code'),
  dose: both('剂量', 'Dose'),
  doseUnit: both('剂量单位', 'Dose unit'),
  route: both('给药途径', 'Route'),
  frequency: both('频次', 'Frequency'),
  startAt: both('开始时间', 'Start'),
  stopAt: both('停止时间', 'Stop'),
  itemCode: both('项目编码', 'Item code'),
  itemName: both('项目名称', 'Item'),
  valueNum: both('数值结果', 'Value'),
  valueText: both('文本结果', 'Text value'),
  unit: both('单位', 'Unit'),
  refLow: both('参考下限', 'Ref. low'),
  refHigh: both('参考上限', 'Ref. high'),
  abnormalFlag: both('异常标志', 'Flag'),
  collectedAt: both('采集时间', 'Collected'),
  modality: both('检查类型', 'Modality'),
  bodyPart: both('检查部位', 'Body part'),
  findings: both('检查所见', 'Findings'),
  conclusion: both('检查结论', 'Conclusion'),
  examAt: both('检查时间', 'Examined'),
  operatedAt: both('手术时间', 'Operated'),
  surgeon: both('术者', 'Surgeon'),
  doctor: both('主管医师', 'Doctor in charge'),
  author: both('书写医师', 'Written by'),
  anaesthesia: both('麻醉方式', 'Anaesthesia'),
  item: both('项目', 'Item'),
  value: both('结果', 'Value'),
  itemUnit: both('单位', 'Unit'),
  recordDt: both('记录时间', 'Recorded'),
  title: both('标题', 'Title'),
  writtenAt: both('书写时间', 'Written'),
  body: both('正文', 'Text'),
  'patients.name': both('姓名', 'Name'),
  'patients.gender': both('性别', 'Sex'),
  'diagnoses.name': both('诊断名称', 'Diagnosis'),
  'orders.name': both('医嘱名称', 'Order'),
  'operations.name': both('手术名称', 'Operation'),
} as const satisfies Record<string, LabelText>;

/** The key of a field's words in `cdrField`: the table's own entry when it has one. */
export function cdrFieldLabelKey(table: string, field: string): string {
  const own = `${table}.${field}`;
  return Object.hasOwn(CDR_FIELD_LABELS, own) ? own : field;
}

/** How the directory (目录浏览) profiles a field (`CDR_FIELD_KINDS`). */
export const CDR_FIELD_KIND_LABELS = {
  id: both('编号', 'Identifier'),
  text: both('文本', 'Text'),
  number: both('数值', 'Number'),
  date: both('日期', 'Date'),
  boolean: both('是/否', 'Yes/no'),
  json: both('结构化', 'Structured'),
} as const satisfies Record<string, LabelText>;

/** Where CDR rows came from (their `source`): imports, entry by hand, the generator, a collection source. */
export const CDR_SOURCE_LABELS = {
  fhir: both('FHIR 导入', 'FHIR import'),
  csv: both('CSV 导入', 'CSV import'),
  manual: both('手工录入', 'Entered by hand'),
  synthetic: both('模拟数据', 'Synthetic data'),
  collect: both('数据采集', 'Data collection'),
} as const satisfies Record<string, LabelText>;
