import type {
  CodingHow,
  CodingItemStatus,
  CodingKind,
  CodingMarkerReason,
  CodingReason,
  CodingReviewState,
  CodingVerdict,
} from '../contracts/coding.js';
import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** What a coding task codes. */
export const CODING_KIND_LABELS = {
  disease: both('疾病诊断', 'Diagnoses'),
  surgery: both('手术操作', 'Operations'),
  lab: both('检验项目', 'Lab tests'),
  drug: both('药品', 'Drugs'),
} as const satisfies Record<CodingKind, LabelText>;

/** Why a candidate code was proposed. */
export const CODING_REASON_LABELS = {
  mapped: both('本院已有映射', 'Mapped before here'),
  exact: both('名称完全一致', 'Exact name'),
  synonym: both('同义词/缩写', 'Synonym or abbreviation'),
  normalized: both('规范化后一致', 'Same after normalising'),
  tokens: both('分词重合', 'Word overlap'),
  trigram: both('字符相似', 'Similar characters'),
} as const satisfies Record<CodingReason, LabelText>;

export const CODING_ITEM_STATUS_LABELS = {
  pending: both('待编码', 'To code'),
  coded: both('已编码', 'Coded'),
  noCode: both('无对应编码', 'No code'),
} as const satisfies Record<CodingItemStatus, LabelText>;

export const CODING_HOW_LABELS = {
  suggestion: both('接受候选', 'Suggestion accepted'),
  search: both('检索选择', 'Picked by search'),
  bulk: both('批量接受', 'Bulk accepted'),
  noCode: both('标记无编码', 'Marked no code'),
} as const satisfies Record<CodingHow, LabelText>;

export const CODING_REVIEW_STATE_LABELS = {
  unreviewed: both('未审核', 'Not reviewed'),
  agreed: both('审核同意', 'Agreed'),
  disputed: both('审核退回', 'Sent back'),
} as const satisfies Record<CodingReviewState, LabelText>;

export const CODING_VERDICT_LABELS = {
  pending: both('待审核', 'To review'),
  agree: both('同意', 'Agree'),
  disagree: both('不同意', 'Disagree'),
} as const satisfies Record<CodingVerdict, LabelText>;

export const CODING_MARKER_REASON_LABELS = {
  retired: both('编码已停用', 'Code retired'),
  missing: both('编码已不在术语中', 'Code no longer in the list'),
  versionChanged: both('术语版本已变更', 'Terminology version changed'),
} as const satisfies Record<CodingMarkerReason, LabelText>;
