import type { Locale } from '../messages.js';

/** One row of a code table: the stored code, a stable key for code, and the labels people see. */
export interface CodeEntry<C extends string | number = number, K extends string = string> {
  code: C;
  key: K;
  label: Record<Locale, string>;
}

export const GENDER_TABLE = [
  { code: 0, key: 'unknown', label: { 'zh-CN': '未知', 'en-US': 'Unknown' } },
  { code: 1, key: 'male', label: { 'zh-CN': '男', 'en-US': 'Male' } },
  { code: 2, key: 'female', label: { 'zh-CN': '女', 'en-US': 'Female' } },
  { code: 3, key: 'other', label: { 'zh-CN': '其他', 'en-US': 'Other' } },
] as const satisfies readonly CodeEntry[];

export const SOLUTION_CATEGORY_TABLE = [
  { code: 0, key: 'outpatient', label: { 'zh-CN': '门诊', 'en-US': 'Outpatient' } },
  { code: 1, key: 'admission', label: { 'zh-CN': '入院', 'en-US': 'Admission' } },
  { code: 2, key: 'surgery', label: { 'zh-CN': '手术', 'en-US': 'Surgery' } },
  { code: 3, key: 'discharge', label: { 'zh-CN': '出院', 'en-US': 'Discharge' } },
] as const satisfies readonly CodeEntry[];

/** Research task (topic) statuses of spec 001 section 3, in their natural order. */
export const TASK_STATUSES = [
  'staged',
  'recruiting',
  'recruitmentStopped',
  'dataPreparing',
  'dataPrepared',
  'calculationDone',
  'closed',
  'topicConcluded',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Ant Design Badge status, so lists can show a coloured dot without a style sheet. */
export type BadgeStatus = 'default' | 'processing' | 'success' | 'warning' | 'error';

export interface TaskStatusEntry extends CodeEntry<TaskStatus, TaskStatus> {
  /** CSS class of the status tag; closed and topic concluded share one (spec 001 section 3). */
  className: string;
  badge: BadgeStatus;
}

export const TASK_STATUS_TABLE: readonly TaskStatusEntry[] = [
  {
    code: 'staged',
    key: 'staged',
    label: { 'zh-CN': '暂存', 'en-US': 'Staged' },
    className: 'task-status-staged',
    badge: 'default',
  },
  {
    code: 'recruiting',
    key: 'recruiting',
    label: { 'zh-CN': '招募中', 'en-US': 'Recruiting' },
    className: 'task-status-recruiting',
    badge: 'processing',
  },
  {
    code: 'recruitmentStopped',
    key: 'recruitmentStopped',
    label: { 'zh-CN': '停止招募', 'en-US': 'Recruitment stopped' },
    className: 'task-status-recruitment-stopped',
    badge: 'warning',
  },
  {
    code: 'dataPreparing',
    key: 'dataPreparing',
    label: { 'zh-CN': '数据准备中', 'en-US': 'Data preparing' },
    className: 'task-status-data-preparing',
    badge: 'processing',
  },
  {
    code: 'dataPrepared',
    key: 'dataPrepared',
    label: { 'zh-CN': '数据已准备', 'en-US': 'Data prepared' },
    className: 'task-status-data-prepared',
    badge: 'success',
  },
  {
    code: 'calculationDone',
    key: 'calculationDone',
    label: { 'zh-CN': '计算完成', 'en-US': 'Calculation done' },
    className: 'task-status-calculation-done',
    badge: 'success',
  },
  {
    code: 'closed',
    key: 'closed',
    label: { 'zh-CN': '已关闭', 'en-US': 'Closed' },
    className: 'task-status-finished',
    badge: 'default',
  },
  {
    code: 'topicConcluded',
    key: 'topicConcluded',
    label: { 'zh-CN': '课题结题', 'en-US': 'Topic concluded' },
    className: 'task-status-finished',
    badge: 'default',
  },
];

export const isTaskStatus = (value: unknown): value is TaskStatus =>
  typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);

/**
 * The label of a code in a table, or the code itself as text when the table does not know it
 * (old data may carry codes added later; showing the raw code beats showing nothing).
 */
export function codeLabel<C extends string | number>(
  table: readonly CodeEntry<C>[],
  code: C | null | undefined,
  locale: Locale = 'zh-CN',
): string {
  if (code === null || code === undefined) return '';
  // Codes often arrive as text from query strings or spreadsheets: '1' finds 1.
  const entry = table.find((e) => String(e.code) === String(code));
  return entry ? entry.label[locale] : String(code);
}

export const genderLabel = (code: number | string | null | undefined, locale: Locale = 'zh-CN') =>
  codeLabel(GENDER_TABLE as readonly CodeEntry<number | string>[], code, locale);
export const solutionCategoryLabel = (code: number | string | null | undefined, locale: Locale = 'zh-CN') =>
  codeLabel(SOLUTION_CATEGORY_TABLE as readonly CodeEntry<number | string>[], code, locale);
export const taskStatusEntry = (status: string | null | undefined) =>
  TASK_STATUS_TABLE.find((e) => e.code === status);
