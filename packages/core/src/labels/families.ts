import type { AuditAction } from '../contracts/audit.js';
import type { CdrImportStatus } from '../contracts/clinical.js';
import type { JobKind, JobStatus } from '../contracts/jobs.js';
import type { RESEARCH_DATASET_STATUSES } from '../contracts/research.js';
import type { NoticeKind } from '../contracts/system.js';
import { TASK_STATUS_TABLE, type TaskStatus } from '../helpers/code-tables.js';
import { AUDIT_ACTION_LABELS } from './audit-actions.js';
import { AUDIT_ENTITY_LABELS } from './audit-entities.js';
import { CDR_FIELD_KIND_LABELS, CDR_FIELD_LABELS, CDR_SOURCE_LABELS, CDR_TABLE_LABELS } from './cdr.js';
import {
  CLEANING_FAULT_LABELS,
  CLEANING_RULE_KIND_LABELS,
  CLEANING_SECTION_LABELS,
  CLEANING_SPAN_ROLE_LABELS,
  CLEANING_VALUE_KIND_LABELS,
  LATERALITY_LABELS,
} from './cleaning.js';
import {
  CODING_HOW_LABELS,
  CODING_ITEM_STATUS_LABELS,
  CODING_KIND_LABELS,
  CODING_MARKER_REASON_LABELS,
  CODING_REASON_LABELS,
  CODING_REVIEW_STATE_LABELS,
  CODING_VERDICT_LABELS,
} from './coding.js';
import {
  COLLECTION_CHANGE_OP_LABELS,
  COLLECTION_SOURCE_KIND_LABELS,
  COLLECTION_TRANSFORM_LABELS,
  COLLECTION_TRIGGER_LABELS,
  HL7_MESSAGE_STATUS_LABELS,
} from './collection.js';
import { CHART_CHANNEL_LABELS, CHART_SUBTYPE_LABELS, CRF_ITEM_TYPE_LABELS } from './crf-chart.js';
import {
  DATA_MODEL_CLASS_LABELS,
  DATA_MODEL_CORE_LABELS,
  DATA_MODEL_KIND_LABELS,
  DATA_MODEL_ROLE_LABELS,
  DATA_MODEL_SOURCE_LABELS,
  DATA_MODEL_STANDARD_LABELS,
  DATA_MODEL_TYPE_LABELS,
} from './data-models.js';
import { FORMULA_SOURCE_LABELS } from './formulas.js';
import { OBSERVATION_DOMAIN_LABELS, OBSERVATION_RUN_MODE_LABELS } from './observation.js';
import { RECORD_QC_CATEGORY_LABELS, RECORD_QC_CHECK_LABELS, RECORD_QC_SEVERITY_LABELS } from './record-qc.js';
import { BASIC_DICTIONARY_LABELS, HOSPITAL_UNIT_KIND_LABELS } from './reference.js';
import {
  DATA_FACTORY_KIND_LABELS,
  DIAGNOSIS_KIND_LABELS,
  REPORT_OP_LABELS,
  REPORT_PARAM_TYPE_LABELS,
  VISIT_KIND_LABELS,
} from './reports.js';
import {
  EXTERNAL_LAYOUT_LABELS,
  FEDERATED_METRIC_LABELS,
  FEDERATED_MODEL_LABELS,
  TRANSFER_TRANSFORM_LABELS,
} from './research-layer.js';
import { CONCEPT_MATCH_LABELS, TERMINOLOGY_DOMAIN_LABELS } from './terminology.js';
import type { LabelText } from './types.js';
import {
  VARIABLE_AGGREGATE_LABELS,
  VARIABLE_ANCHOR_LABELS,
  VARIABLE_DERIVATION_LABELS,
  VARIABLE_TYPE_LABELS,
} from './variables.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

export const JOB_KIND_LABELS = {
  'diseaseLibrary.push': both('专病库患者推送', 'Disease library push'),
  'diseaseLibrary.fill': both('专病库数据填充', 'Disease library data fill'),
  'diseaseLibrary.export': both('专病库数据导出', 'Disease library export'),
  'research.dataset': both('科研数据集生成', 'Research dataset build'),
  'research.analysis': both('科研统计分析', 'Research analysis'),
  'cdr.import': both('临床数据导入', 'Clinical data import'),
  'cdr.synthetic': both('模拟临床数据生成', 'Synthetic clinical data'),
  'omop.export': both('OMOP 数据导出', 'OMOP export'),
  'dataQc.run': both('数据质控任务', 'Data quality check'),
  't0.materialize': both('T0 事件计算', 'T0 event calculation'),
  'collection.run': both('数据采集任务', 'Data collection run'),
  'hl7.process': both('HL7 消息入库', 'HL7 message processing'),
  'demo.seed': both('示范数据生成', 'Demo data preparation'),
  'rules.run': both('临床规则运行', 'Clinical rule run'),
  'coding.suggest': both('编码候选生成', 'Coding suggestions'),
  'cleaning.run': both('数据清洗任务', 'Data cleaning run'),
  'recordQc.run': both('病历质控任务', 'Medical record QC run'),
  'observation.transform': both('观察性数据库转换', 'Observation store transform'),
  'odm.generate': both('ODM 文件生成', 'ODM file generation'),
  'variable.transfer': both('变量转换', 'Variable transfer'),
  'research.externalAnalysis': both('外部数据集分析', 'External dataset analysis'),
  'multicenter.federated': both('联邦学习任务', 'Federated job'),
} as const satisfies Record<JobKind, LabelText>;

export const JOB_STATUS_LABELS = {
  queued: both('排队中', 'Queued'),
  running: both('运行中', 'Running'),
  succeeded: both('成功', 'Succeeded'),
  failed: both('失败', 'Failed'),
  cancelled: both('已取消', 'Cancelled'),
} as const satisfies Record<JobStatus, LabelText>;

/** Research subject (课题) statuses of spec 001 section 3, from the status code table. */
export const TASK_STATUS_LABELS = Object.fromEntries(
  TASK_STATUS_TABLE.map((e) => [e.code, e.label]),
) as Record<TaskStatus, LabelText>;

/**
 * CRF record statuses. The union lives in @crdp/crf (`CRF_RECORD_STATUSES`), which depends on
 * this package; its test checks every status has a label here.
 */
export const CRF_RECORD_STATUS_LABELS = {
  draft: both('草稿', 'Draft'),
  submitted: both('已提交', 'Submitted'),
  verified: both('已核查', 'Verified'),
  locked: both('已锁定', 'Locked'),
} as const satisfies Record<string, LabelText>;

export const CRF_FORM_STATUS_LABELS = {
  active: both('使用中', 'In use'),
  archived: both('已归档', 'Archived'),
} as const satisfies Record<string, LabelText>;

/** The built-in research design types every app has (an app's own types carry their own names). */
export const RESEARCH_TYPE_LABELS = {
  cohort: both('队列研究', 'Cohort study'),
  caseControl: both('病例对照研究', 'Case-control study'),
  crossSectional: both('横断面研究', 'Cross-sectional study'),
  registry: both('登记研究', 'Registry'),
  interventional: both('干预性研究', 'Interventional study'),
} as const satisfies Record<string, LabelText>;

export const DATASET_STATUS_LABELS = {
  building: both('生成中', 'Building'),
  ready: both('就绪', 'Ready'),
  failed: both('失败', 'Failed'),
} as const satisfies Record<(typeof RESEARCH_DATASET_STATUSES)[number], LabelText>;

export const CDR_IMPORT_STATUS_LABELS = {
  queued: both('排队中', 'Queued'),
  running: both('导入中', 'Importing'),
  succeeded: both('成功', 'Succeeded'),
  partial: both('部分成功', 'Partly imported'),
  failed: both('失败', 'Failed'),
  cancelled: both('已取消', 'Cancelled'),
} as const satisfies Record<CdrImportStatus, LabelText>;

export const NOTICE_KIND_LABELS = {
  'job.finished': both('任务完成', 'Job finished'),
  'dataElement.published': both('数据元发布', 'Data element published'),
  'record.assigned': both('记录分配', 'Record assigned'),
  system: both('系统通知', 'System notice'),
} as const satisfies Record<NoticeKind, LabelText>;

export const GENDER_LABELS = {
  0: both('未知', 'Unknown'),
  1: both('男', 'Male'),
  2: both('女', 'Female'),
  3: both('其他', 'Other'),
} as const satisfies Record<number, LabelText>;

/**
 * The event column of a survival variable (`<key>_event` of a research dataset): 1 the event
 * happened, 0 the follow-up ended without it (censored).
 */
export const SURVIVAL_EVENT_LABELS = {
  1: both('事件', 'Event'),
  0: both('删失', 'Censored'),
} as const satisfies Record<number, LabelText>;

/** Every family of codes the labelling layer words, by name. */
export const LABEL_FAMILIES = {
  auditAction: AUDIT_ACTION_LABELS as Record<AuditAction, LabelText>,
  auditEntity: AUDIT_ENTITY_LABELS,
  jobKind: JOB_KIND_LABELS,
  jobStatus: JOB_STATUS_LABELS,
  taskStatus: TASK_STATUS_LABELS,
  crfRecordStatus: CRF_RECORD_STATUS_LABELS,
  crfFormStatus: CRF_FORM_STATUS_LABELS,
  researchType: RESEARCH_TYPE_LABELS,
  datasetStatus: DATASET_STATUS_LABELS,
  cdrImportStatus: CDR_IMPORT_STATUS_LABELS,
  noticeKind: NOTICE_KIND_LABELS,
  gender: GENDER_LABELS,
  crfItemType: CRF_ITEM_TYPE_LABELS,
  chartSubtype: CHART_SUBTYPE_LABELS,
  chartChannel: CHART_CHANNEL_LABELS,
  survivalEvent: SURVIVAL_EVENT_LABELS,
  cdrTable: CDR_TABLE_LABELS,
  cdrSource: CDR_SOURCE_LABELS,
  cdrField: CDR_FIELD_LABELS,
  cdrFieldKind: CDR_FIELD_KIND_LABELS,
  hospitalUnitKind: HOSPITAL_UNIT_KIND_LABELS,
  basicDictionary: BASIC_DICTIONARY_LABELS,
  reportOp: REPORT_OP_LABELS,
  reportParamType: REPORT_PARAM_TYPE_LABELS,
  dataFactoryKind: DATA_FACTORY_KIND_LABELS,
  visitKind: VISIT_KIND_LABELS,
  diagnosisKind: DIAGNOSIS_KIND_LABELS,
  formulaSource: FORMULA_SOURCE_LABELS,
  collectionSourceKind: COLLECTION_SOURCE_KIND_LABELS,
  collectionTransform: COLLECTION_TRANSFORM_LABELS,
  collectionChangeOp: COLLECTION_CHANGE_OP_LABELS,
  collectionTrigger: COLLECTION_TRIGGER_LABELS,
  hl7MessageStatus: HL7_MESSAGE_STATUS_LABELS,
  terminologyDomain: TERMINOLOGY_DOMAIN_LABELS,
  conceptMatch: CONCEPT_MATCH_LABELS,
  codingKind: CODING_KIND_LABELS,
  codingReason: CODING_REASON_LABELS,
  codingItemStatus: CODING_ITEM_STATUS_LABELS,
  codingHow: CODING_HOW_LABELS,
  codingReview: CODING_REVIEW_STATE_LABELS,
  codingVerdict: CODING_VERDICT_LABELS,
  codingMarker: CODING_MARKER_REASON_LABELS,
  cleaningSection: CLEANING_SECTION_LABELS,
  cleaningFault: CLEANING_FAULT_LABELS,
  cleaningRuleKind: CLEANING_RULE_KIND_LABELS,
  cleaningValueKind: CLEANING_VALUE_KIND_LABELS,
  cleaningSpanRole: CLEANING_SPAN_ROLE_LABELS,
  laterality: LATERALITY_LABELS,
  variableType: VARIABLE_TYPE_LABELS,
  variableAggregate: VARIABLE_AGGREGATE_LABELS,
  variableAnchor: VARIABLE_ANCHOR_LABELS,
  variableDerivation: VARIABLE_DERIVATION_LABELS,
  recordQcCheck: RECORD_QC_CHECK_LABELS,
  recordQcCategory: RECORD_QC_CATEGORY_LABELS,
  recordQcSeverity: RECORD_QC_SEVERITY_LABELS,
  federatedModel: FEDERATED_MODEL_LABELS,
  federatedMetric: FEDERATED_METRIC_LABELS,
  transferTransform: TRANSFER_TRANSFORM_LABELS,
  externalLayout: EXTERNAL_LAYOUT_LABELS,
  observationDomain: OBSERVATION_DOMAIN_LABELS,
  observationRunMode: OBSERVATION_RUN_MODE_LABELS,
  dataModelKind: DATA_MODEL_KIND_LABELS,
  dataModelStandard: DATA_MODEL_STANDARD_LABELS,
  dataModelCore: DATA_MODEL_CORE_LABELS,
  dataModelRole: DATA_MODEL_ROLE_LABELS,
  dataModelType: DATA_MODEL_TYPE_LABELS,
  dataModelClass: DATA_MODEL_CLASS_LABELS,
  dataModelSource: DATA_MODEL_SOURCE_LABELS,
} as const;

/** What each family is called, for the fallback of a code it does not know. */
export const FAMILY_NAMES: Record<keyof typeof LABEL_FAMILIES, LabelText> = {
  auditAction: both('操作', 'Action'),
  auditEntity: both('对象', 'Object'),
  jobKind: both('任务', 'Job'),
  jobStatus: both('状态', 'Status'),
  taskStatus: both('课题状态', 'Subject status'),
  crfRecordStatus: both('记录状态', 'Record status'),
  crfFormStatus: both('表单状态', 'Form status'),
  researchType: both('研究类型', 'Study type'),
  datasetStatus: both('数据集状态', 'Dataset status'),
  cdrImportStatus: both('导入状态', 'Import status'),
  noticeKind: both('通知', 'Notice'),
  gender: both('性别', 'Sex'),
  crfItemType: both('题型', 'Item type'),
  chartSubtype: both('图表类型', 'Chart type'),
  chartChannel: both('图表通道', 'Chart channel'),
  survivalEvent: both('结局', 'Outcome'),
  cdrTable: both('数据表', 'Table'),
  cdrSource: both('来源', 'Source'),
  cdrField: both('字段', 'Field'),
  cdrFieldKind: both('字段类型', 'Field kind'),
  hospitalUnitKind: both('机构层级', 'Unit level'),
  basicDictionary: both('基础字典', 'Basic dictionary'),
  reportOp: both('运算', 'Operator'),
  reportParamType: both('参数类型', 'Parameter type'),
  dataFactoryKind: both('数据集类型', 'Dataset kind'),
  visitKind: both('就诊类型', 'Visit kind'),
  diagnosisKind: both('诊断类型', 'Diagnosis kind'),
  formulaSource: both('数据来源', 'Source'),
  collectionSourceKind: both('数据源类型', 'Source kind'),
  collectionTransform: both('转换', 'Transform'),
  collectionChangeOp: both('变更', 'Change'),
  collectionTrigger: both('触发方式', 'Trigger'),
  hl7MessageStatus: both('消息状态', 'Message status'),
  terminologyDomain: both('术语领域', 'Terminology domain'),
  conceptMatch: both('匹配方式', 'Match'),
  codingKind: both('编码类别', 'Coding kind'),
  codingReason: both('候选依据', 'Why proposed'),
  codingItemStatus: both('编码状态', 'Coding status'),
  codingHow: both('编码方式', 'How coded'),
  codingReview: both('审核状态', 'Review status'),
  codingVerdict: both('审核结论', 'Verdict'),
  codingMarker: both('维护原因', 'Why revisit'),
  cleaningSection: both('病历段落', 'Section'),
  cleaningFault: both('质控问题', 'QC fault'),
  cleaningRuleKind: both('规则类型', 'Rule kind'),
  cleaningValueKind: both('取值方式', 'Value kind'),
  cleaningSpanRole: both('标注', 'Highlight'),
  laterality: both('侧别', 'Side'),
  variableType: both('变量类型', 'Variable type'),
  variableAggregate: both('取值方式', 'Aggregate'),
  variableAnchor: both('时间窗起点', 'Window start'),
  variableDerivation: both('变量来源', 'Derivation'),
  recordQcCheck: both('病历质控规则', 'Record QC check'),
  recordQcCategory: both('质控类别', 'QC category'),
  recordQcSeverity: both('缺陷等级', 'Fault severity'),
  federatedModel: both('联邦模型', 'Federated model'),
  federatedMetric: both('评估指标', 'Metric'),
  transferTransform: both('取值转换', 'Value transform'),
  externalLayout: both('数据集格式', 'Dataset layout'),
  observationDomain: both('观察域', 'Observation domain'),
  observationRunMode: both('转换方式', 'Run mode'),
  dataModelKind: both('模型类别', 'Model kind'),
  dataModelStandard: both('CDISC 标准', 'CDISC standard'),
  dataModelCore: both('核心级别', 'Core'),
  dataModelRole: both('变量角色', 'Role'),
  dataModelType: both('数据类型', 'Data type'),
  dataModelClass: both('观察类', 'Observation class'),
  dataModelSource: both('来源', 'Source'),
};
