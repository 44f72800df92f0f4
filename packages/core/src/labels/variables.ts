import type {
  VariableAggregate,
  VariableAnchor,
  VariableDerivationKind,
  VariableType,
} from '../contracts/variables.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** The variable library's words (科研变量库). */
export const VARIABLE_TYPE_LABELS = {
  number: both('数值', 'Number'),
  text: both('文本', 'Text'),
  date: both('日期', 'Date'),
  category: both('分类', 'Category'),
} as const satisfies Record<VariableType, LabelText>;

export const VARIABLE_AGGREGATE_LABELS = {
  first: both('首次', 'First'),
  last: both('末次', 'Last'),
  min: both('最小值', 'Minimum'),
  max: both('最大值', 'Maximum'),
  mean: both('平均值', 'Mean'),
  count: both('次数', 'Count'),
} as const satisfies Record<VariableAggregate, LabelText>;

export const VARIABLE_ANCHOR_LABELS = {
  first_visit: both('首次就诊后', 'After the first visit'),
  t0: both('T0 事件后', 'After a T0 event'),
} as const satisfies Record<VariableAnchor, LabelText>;

export const VARIABLE_DERIVATION_LABELS = {
  field: both('临床数据字段', 'Clinical data field'),
  lab: both('检验项目', 'Lab item'),
  cleaned: both('清洗结果', 'Cleaned value'),
  crf: both('CRF 题目', 'CRF item'),
} as const satisfies Record<VariableDerivationKind, LabelText>;
