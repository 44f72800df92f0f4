import {
  type Locale,
  QC_RULE_KINDS,
  QC_SEVERITIES,
  type QcCatalogue,
  type QcColumnType,
  type QcRuleKind,
} from '@crdp/core';

/**
 * The clinical tables and columns a QC rule may name. The SQL names below are the only ones a
 * rule's query is ever built from: the client sends keys of this whitelist, never SQL.
 */
export type ColumnType = QcColumnType;

export interface QcColumn {
  key: string;
  sql: string;
  type: ColumnType;
  label: Record<Locale, string>;
  /** National ID or phone: masked in reports for users who may not see identity. */
  identity?: 'nationalId' | 'phone';
}

export interface QcTable {
  key: string;
  sql: string;
  label: Record<Locale, string>;
  /** The column holding the patient's id (the table's own id for patients). */
  patientSql: string;
  columns: QcColumn[];
}

const c = (
  key: string,
  sql: string,
  type: ColumnType,
  zh: string,
  en: string,
  extra: Partial<QcColumn> = {},
) => ({
  key,
  sql,
  type,
  label: { 'zh-CN': zh, 'en-US': en },
  ...extra,
});

export const QC_TABLES: QcTable[] = [
  {
    key: 'patients',
    sql: 'patients',
    label: { 'zh-CN': '患者', 'en-US': 'Patients' },
    patientSql: 'id',
    columns: [
      c('mrn', 'mrn', 'text', '病案号', 'Medical record number'),
      c('name', 'name', 'text', '姓名', 'Name'),
      c('gender', 'gender', 'number', '性别代码', 'Gender code'),
      c('birthDate', 'birth_date', 'date', '出生日期', 'Date of birth'),
      c('nationalId', 'national_id', 'text', '身份证号', 'National ID', { identity: 'nationalId' }),
      c('phone', 'phone', 'text', '电话', 'Phone', { identity: 'phone' }),
      c('address', 'address', 'text', '地址', 'Address'),
    ],
  },
  {
    key: 'visits',
    sql: 'visits',
    label: { 'zh-CN': '就诊', 'en-US': 'Visits' },
    patientSql: 'patient_id',
    columns: [
      c('kind', 'kind', 'text', '就诊类型', 'Visit kind'),
      c('department', 'department', 'text', '科室', 'Department'),
      c('admitAt', 'admit_at', 'datetime', '入院/就诊时间', 'Admission time'),
      c('dischargeAt', 'discharge_at', 'datetime', '出院时间', 'Discharge time'),
    ],
  },
  {
    key: 'diagnoses',
    sql: 'diagnoses',
    label: { 'zh-CN': '诊断', 'en-US': 'Diagnoses' },
    patientSql: 'patient_id',
    columns: [
      c('icd10', 'icd10', 'text', 'ICD-10 编码', 'ICD-10 code'),
      c('name', 'name', 'text', '诊断名称', 'Diagnosis name'),
      c('kind', 'kind', 'text', '诊断类型', 'Diagnosis kind'),
      c('diagnosedAt', 'diagnosed_at', 'datetime', '诊断时间', 'Diagnosis time'),
    ],
  },
  {
    key: 'labResults',
    sql: 'lab_results',
    label: { 'zh-CN': '检验结果', 'en-US': 'Lab results' },
    patientSql: 'patient_id',
    columns: [
      c('itemCode', 'item_code', 'text', '检验项目代码', 'Item code'),
      c('itemName', 'item_name', 'text', '检验项目名称', 'Item name'),
      c('valueNum', 'value_num', 'number', '数值结果', 'Numeric value'),
      c('valueText', 'value_text', 'text', '文本结果', 'Text value'),
      c('unit', 'unit', 'text', '单位', 'Unit'),
      c('refLow', 'ref_low', 'number', '参考下限', 'Reference low'),
      c('refHigh', 'ref_high', 'number', '参考上限', 'Reference high'),
      c('abnormalFlag', 'abnormal_flag', 'text', '异常标志', 'Abnormal flag'),
      c('collectedAt', 'collected_at', 'datetime', '采集时间', 'Collection time'),
    ],
  },
  {
    key: 'orders',
    sql: 'orders',
    label: { 'zh-CN': '医嘱（含用药）', 'en-US': 'Orders (incl. medication)' },
    patientSql: 'patient_id',
    columns: [
      c('category', 'category', 'text', '医嘱类别', 'Category'),
      c('code', 'code', 'text', '医嘱代码', 'Code'),
      c('name', 'name', 'text', '医嘱名称', 'Name'),
      c('dose', 'dose', 'text', '剂量', 'Dose'),
      c('doseUnit', 'dose_unit', 'text', '剂量单位', 'Dose unit'),
      c('route', 'route', 'text', '给药途径', 'Route'),
      c('frequency', 'frequency', 'text', '频次', 'Frequency'),
      c('startAt', 'start_at', 'datetime', '开始时间', 'Start time'),
      c('stopAt', 'stop_at', 'datetime', '停止时间', 'Stop time'),
    ],
  },
  {
    key: 'allergies',
    sql: 'allergies',
    label: { 'zh-CN': '过敏', 'en-US': 'Allergies' },
    patientSql: 'patient_id',
    columns: [
      c('substance', 'substance', 'text', '过敏物', 'Substance'),
      c('reaction', 'reaction', 'text', '过敏反应', 'Reaction'),
      c('severity', 'severity', 'text', '严重程度', 'Severity'),
      c('recordedAt', 'recorded_at', 'datetime', '记录时间', 'Recorded at'),
    ],
  },
  {
    key: 'examReports',
    sql: 'exam_reports',
    label: { 'zh-CN': '检查报告', 'en-US': 'Exam reports' },
    patientSql: 'patient_id',
    columns: [
      c('modality', 'modality', 'text', '检查类型', 'Modality'),
      c('bodyPart', 'body_part', 'text', '检查部位', 'Body part'),
      c('findings', 'findings', 'text', '检查所见', 'Findings'),
      c('conclusion', 'conclusion', 'text', '检查结论', 'Conclusion'),
      c('examAt', 'exam_at', 'datetime', '检查时间', 'Exam time'),
    ],
  },
  {
    key: 'operations',
    sql: 'operations',
    label: { 'zh-CN': '手术', 'en-US': 'Operations' },
    patientSql: 'patient_id',
    columns: [
      c('code', 'code', 'text', '手术编码', 'Code'),
      c('name', 'name', 'text', '手术名称', 'Name'),
      c('operatedAt', 'operated_at', 'datetime', '手术时间', 'Operation time'),
      c('surgeon', 'surgeon', 'text', '术者', 'Surgeon'),
      c('anaesthesia', 'anaesthesia', 'text', '麻醉方式', 'Anaesthesia'),
    ],
  },
  {
    key: 'physicalExams',
    sql: 'physical_exams',
    label: { 'zh-CN': '体格检查', 'en-US': 'Physical exams' },
    patientSql: 'patient_id',
    columns: [
      c('item', 'item', 'text', '项目', 'Item'),
      c('value', 'value', 'text', '结果', 'Value'),
      c('unit', 'unit', 'text', '单位', 'Unit'),
      c('recordedAt', 'recorded_at', 'datetime', '记录时间', 'Recorded at'),
    ],
  },
  {
    key: 'vitalSigns',
    sql: 'vital_signs',
    label: { 'zh-CN': '生命体征', 'en-US': 'Vital signs' },
    patientSql: 'patient_id',
    columns: [
      c('itemName', 'item_name', 'text', '项目', 'Item'),
      c('value', 'value', 'text', '结果', 'Value'),
      c('itemUnit', 'item_unit', 'text', '单位', 'Unit'),
      c('recordDt', 'record_dt', 'datetime', '记录时间', 'Recorded at'),
    ],
  },
];

/** The kinds and severities are the contract's (@crdp/core), which the web reads too. */
export const QC_KINDS = QC_RULE_KINDS;
export type QcKind = QcRuleKind;
export { QC_SEVERITIES };

/** The column types each kind of rule can check. */
export const KIND_TYPES: Record<QcKind, ColumnType[]> = {
  required: ['text', 'number', 'date', 'datetime'],
  range: ['number'],
  pattern: ['text'],
  allowed: ['text', 'number'],
  date_order: ['date', 'datetime'],
  future_date: ['date', 'datetime'],
};

export const KIND_LABELS: Record<QcKind, Record<Locale, string>> = {
  required: { 'zh-CN': '必填', 'en-US': 'Required' },
  range: { 'zh-CN': '数值范围', 'en-US': 'Numeric range' },
  pattern: { 'zh-CN': '格式（正则）', 'en-US': 'Pattern (regex)' },
  allowed: { 'zh-CN': '取值范围', 'en-US': 'Allowed values' },
  date_order: { 'zh-CN': '日期先后', 'en-US': 'Date order' },
  future_date: { 'zh-CN': '非未来日期', 'en-US': 'Not in the future' },
};

const byKey = new Map(QC_TABLES.map((t) => [t.key, t]));

export const tableOf = (key: string) => byKey.get(key);
export const columnOf = (table: QcTable, key: string) => table.columns.find((col) => col.key === key);

/** The whitelist as the rule drawer shows it, in the request's language. */
export function describeCatalogue(locale: Locale): QcCatalogue {
  return {
    kinds: QC_KINDS.map((k) => ({ key: k, label: KIND_LABELS[k][locale], types: KIND_TYPES[k] })),
    tables: QC_TABLES.map((t) => ({
      key: t.key,
      label: t.label[locale],
      columns: t.columns.map((col) => ({ key: col.key, label: col.label[locale], type: col.type })),
    })),
  };
}
