import type { DataFactoryKind } from '../contracts/data-factory.js';
import type { ReportOp, ReportParamType } from '../contracts/reports.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** Filter operators of a report (报表查询). */
export const REPORT_OP_LABELS = {
  eq: both('等于', 'equals'),
  prefix: both('开头是', 'starts with'),
  contains: both('包含', 'contains'),
  gte: both('不小于', 'at least'),
  lte: both('不大于', 'at most'),
  between: both('介于', 'between'),
} as const satisfies Record<ReportOp, LabelText>;

/** Types of a report's run-time parameters. */
export const REPORT_PARAM_TYPE_LABELS = {
  text: both('文本', 'Text'),
  number: both('数值', 'Number'),
  date: both('日期', 'Date'),
  dateRange: both('日期范围', 'Date range'),
} as const satisfies Record<ReportParamType, LabelText>;

/** The kinds of derived dataset in the data factory directory (数据工厂目录). */
export const DATA_FACTORY_KIND_LABELS = {
  t0Event: both('T0 事件结果', 'T0 event results'),
  diseaseLibrary: both('专病库', 'Disease library'),
  researchDataset: both('科研数据集', 'Research dataset'),
  report: both('报表', 'Report'),
} as const satisfies Record<DataFactoryKind, LabelText>;

/** Visit kinds of the CDR (`visits.kind`). */
export const VISIT_KIND_LABELS = {
  outpatient: both('门诊', 'Outpatient'),
  inpatient: both('住院', 'Inpatient'),
  emergency: both('急诊', 'Emergency'),
} as const satisfies Record<string, LabelText>;

/** Diagnosis kinds of the CDR (`diagnoses.kind`). */
export const DIAGNOSIS_KIND_LABELS = {
  main: both('主要诊断', 'Main'),
  secondary: both('次要诊断', 'Secondary'),
  admission: both('入院诊断', 'Admission'),
  discharge: both('出院诊断', 'Discharge'),
  outpatient: both('门诊诊断', 'Outpatient'),
} as const satisfies Record<string, LabelText>;

/** The label family that words the values of a report column, where its values are codes. */
export const REPORT_COLUMN_FAMILIES: Readonly<Record<string, 'gender' | 'visitKind' | 'diagnosisKind'>> = {
  'patients.gender': 'gender',
  'visits.kind': 'visitKind',
  'diagnoses.kind': 'diagnosisKind',
};
