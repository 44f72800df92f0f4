import type { ExternalLayout } from '../contracts/external-datasets.js';
import type { FederatedMetric, FederatedModel } from '../contracts/federated.js';
import type { TransferTransform } from '../contracts/variable-library.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** The federated-learning model name map of spec 000 §3. */
export const FEDERATED_MODEL_LABELS = {
  homoLR: both('横向逻辑回归', 'Horizontal logistic regression'),
  heteroLR: both('纵向逻辑回归', 'Vertical logistic regression'),
  boost: both('梯度提升树', 'Gradient boosting'),
  binning: both('特征分箱', 'Feature binning'),
  evaluation: both('模型评估', 'Model evaluation'),
} as const satisfies Record<FederatedModel, LabelText>;

/** The federated-learning metric type map of spec 000 §3. */
export const FEDERATED_METRIC_LABELS = {
  auc: both('AUC', 'AUC'),
  ks: both('KS 值', 'KS'),
  accuracy: both('准确率', 'Accuracy'),
  precision: both('精确率', 'Precision'),
  recall: both('召回率', 'Recall'),
  iv: both('信息值 (IV)', 'Information value (IV)'),
  logLoss: both('对数损失', 'Log loss'),
} as const satisfies Record<FederatedMetric, LabelText>;

export const TRANSFER_TRANSFORM_LABELS = {
  copy: both('原值', 'As is'),
  linear: both('线性换算', 'Linear (× factor + offset)'),
  valueMap: both('值映射', 'Value map'),
} as const satisfies Record<TransferTransform, LabelText>;

export const EXTERNAL_LAYOUT_LABELS = {
  mimic_icu: both('MIMIC ICU 住院表', 'MIMIC ICU stay table'),
  generic: both('通用表格', 'Generic table'),
} as const satisfies Record<ExternalLayout, LabelText>;
