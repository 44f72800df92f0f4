import { AUDIT_ENTITY_LABELS, functionWords, type Locale, type MessageKey } from '@crdp/core';

/** A text in both languages of the product; the error handler picks the request's. */
export interface Bilingual {
  readonly 'zh-CN': string;
  readonly 'en-US': string;
}

/** Chinese first (the default language), English second: `bilingual('该课题未关联 CRF 表单', 'the subject links no CRF form')`. */
export const bilingual = (zh: string, en: string): Bilingual => ({ 'zh-CN': zh, 'en-US': en });

/** A value of a message placeholder: plain, or worded in both languages. */
export type MessageValue = string | number | Bilingual;

/** The values with every bilingual one in the given language. */
export function valuesIn(
  values: Record<string, MessageValue>,
  locale: Locale,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'object' ? (v[locale] ?? v['en-US']) : v;
  return out;
}

/**
 * A typed error the one error handler turns into a response. `key` names a message of the
 * shared catalogue (translated per request); `field` names the input at fault, when one is.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly values: Record<string, MessageValue> = {},
    readonly field?: string,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** A 400 `request.invalid` whose detail is worded in both languages (`bilingual(zh, en)`). */
export const badRequest = (detail: Bilingual, field?: string) =>
  new AppError(400, 'request.invalid', { detail }, field);

/** A 400 whose detail starts with the field at fault: `field: 中文` / `field: English`. */
export const invalidField = (field: string, zh: string, en: string) =>
  badRequest(bilingual(`${field}: ${zh}`, `${field}: ${en}`), field);

export const unauthorized = (key: MessageKey = 'auth.required') => new AppError(401, key);
export const forbidden = (key: MessageKey = 'auth.forbidden', values: Record<string, string> = {}) =>
  new AppError(403, key, values);
/** A refusal for want of a function, named in words (用户管理 · 查询) with its ApiId kept for programs. */
export const forbiddenFunction = (apiId: string) =>
  new AppError(403, 'auth.forbidden', { apiId, function: functionWords(apiId) });

/** Words for what a 404 names that the operation log's entity labels do not hold. */
const NOT_FOUND_WORDS: Record<string, Bilingual> = {
  audit: bilingual('操作日志记录', 'Operation log entry'),
  task: bilingual('分析任务', 'Analysis task'),
  visit: bilingual('就诊', 'Visit'),
  chart: bilingual('图表', 'Chart'),
  dashboard: bilingual('仪表盘', 'Dashboard'),
  topic: bilingual('多中心课题', 'Multi-center topic'),
  export: bilingual('导出文件', 'Export file'),
  crf_form_version: bilingual('表单版本', 'Form version'),
  exam_report: bilingual('检查报告', 'Exam report'),
  omop_file: bilingual('OMOP 导出文件', 'OMOP export file'),
};

/**
 * A 404 naming what was not found in words (病种不存在 / Disease not found), never by its code:
 * `entity` is an entity of the operation log's labels or of the list above.
 */
export const notFound = (entity: string) => {
  const key = entity.replace(/ /g, '_');
  const words: Bilingual | undefined =
    NOT_FOUND_WORDS[key] ?? (AUDIT_ENTITY_LABELS as Record<string, Bilingual>)[key];
  return new AppError(404, 'entity.notFound', { entity: words ?? entity });
};
