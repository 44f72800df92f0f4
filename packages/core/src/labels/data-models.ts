import type { DataModelKind, DataModelStandard } from '../contracts/data-models.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** The data models' words (数据模型). */
export const DATA_MODEL_KIND_LABELS = {
  hospital: both('院内模型', 'Hospital model'),
  template: both('专病模型模板', 'Disease model template'),
} as const satisfies Record<DataModelKind, LabelText>;

export const DATA_MODEL_STANDARD_LABELS = {
  sdtmig: both('SDTM 实施指南（SDTMIG）', 'SDTM Implementation Guide (SDTMIG)'),
  cdashig: both('CDASH 实施指南（CDASHIG）', 'CDASH Implementation Guide (CDASHIG)'),
} as const satisfies Record<DataModelStandard, LabelText>;

/** Core designations: SDTM (Req/Exp/Perm) and CDASH (HR, R/C, O). */
export const DATA_MODEL_CORE_LABELS = {
  Req: both('必需', 'Required'),
  Exp: both('预期', 'Expected'),
  Perm: both('允许', 'Permissible'),
  HR: both('强烈推荐', 'Highly recommended'),
  'R/C': both('推荐/条件', 'Recommended/conditional'),
  O: both('可选', 'Optional'),
} as const satisfies Record<string, LabelText>;

export const DATA_MODEL_ROLE_LABELS = {
  Identifier: both('标识变量', 'Identifier'),
  Topic: both('主题变量', 'Topic'),
  Timing: both('时间变量', 'Timing'),
  'Grouping Qualifier': both('分组限定', 'Grouping qualifier'),
  'Result Qualifier': both('结果限定', 'Result qualifier'),
  'Synonym Qualifier': both('同义限定', 'Synonym qualifier'),
  'Record Qualifier': both('记录限定', 'Record qualifier'),
  'Variable Qualifier': both('变量限定', 'Variable qualifier'),
  Rule: both('规则', 'Rule'),
} as const satisfies Record<string, LabelText>;

export const DATA_MODEL_TYPE_LABELS = {
  Char: both('字符', 'Character'),
  Num: both('数值', 'Numeric'),
} as const satisfies Record<string, LabelText>;

/** The SDTM observation classes of a domain. */
export const DATA_MODEL_CLASS_LABELS = {
  'Special-Purpose': both('特殊用途', 'Special-purpose'),
  Events: both('事件类', 'Events'),
  Interventions: both('干预类', 'Interventions'),
  Findings: both('发现类', 'Findings'),
} as const satisfies Record<string, LabelText>;

/** Where each built-in model and the terminology come from (the CDISC model screen's source lines). */
export const DATA_MODEL_SOURCE_LABELS = {
  sdtmig: both(
    'CDISC SDTMIG v3.4 变量元数据（CDISC Library 导出），取自 GitHub rubentalstra/Trial-Submission-Studio（MIT）',
    'CDISC SDTMIG v3.4 variable metadata (CDISC Library export), from GitHub rubentalstra/Trial-Submission-Studio (MIT)',
  ),
  cdashig: both(
    'CDISC CDASHIG v2.1 八个域的采集字段（名称、核心级别、SDTM 目标变量），由 CRDP 按已发布的标准整理',
    'CDISC CDASHIG v2.1 collection fields of the eight domains (names, cores, SDTM targets), transcribed by CRDP from the published standard',
  ),
  ct: both(
    'CDISC SDTM 受控术语 2022-09-30（NCI EVS 发布），取自 GitHub hakupao/sdtm-pedia（CC BY 4.0）',
    'CDISC SDTM Controlled Terminology 2022-09-30 (published by NCI EVS), from GitHub hakupao/sdtm-pedia (CC BY 4.0)',
  ),
} as const satisfies Record<string, LabelText>;
