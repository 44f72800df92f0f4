import { formatMessage, isMessageKey, type Locale, type TextFault, textFaultMessage } from '@crdp/core';

/**
 * Chinese wording of a schema validation problem. zod words its problems in English; a hospital
 * user reading the error in zh-CN gets the same facts in Chinese: what was expected, the limit
 * that was crossed, the allowed values. English keeps zod's own text. Custom messages written
 * next to a schema's refinements are kept as written (the common length limit is translated).
 */
export interface ValidationProblem {
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

const TYPE_ZH: Record<string, string> = {
  string: '文本',
  number: '数字',
  int: '整数',
  bigint: '整数',
  boolean: '布尔值（true 或 false）',
  array: '列表',
  object: '对象',
  date: '日期',
  null: '空值',
  undefined: '空',
  file: '文件',
};

const typeZh = (t: unknown) => TYPE_ZH[String(t)] ?? String(t);

function receivedZh(input: unknown): string {
  if (input === null) return '空值 null';
  if (Array.isArray(input)) return '列表';
  if (typeof input === 'number' && Number.isNaN(input)) return '非数字 NaN';
  return typeZh(typeof input);
}

const list = (values: unknown) =>
  (Array.isArray(values) ? values : []).map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join('、');

function sizeZh(origin: unknown, bound: unknown, big: boolean, inclusive: boolean): string {
  const n = String(bound);
  switch (origin) {
    case 'string':
      return big ? `最多 ${n} 个字符` : Number(bound) === 1 ? '不能为空' : `至少 ${n} 个字符`;
    case 'array':
    case 'set':
      return big ? `最多 ${n} 项` : Number(bound) === 1 ? '至少要有一项' : `至少 ${n} 项`;
    case 'file':
      return big ? `文件不能超过 ${n} 字节` : `文件至少 ${n} 字节`;
    case 'date':
      return big ? `不能晚于 ${n}` : `不能早于 ${n}`;
    default:
      if (big) return inclusive ? `不能大于 ${n}` : `应小于 ${n}`;
      return inclusive ? `不能小于 ${n}` : `应大于 ${n}`;
  }
}

const FORMAT_ZH: Record<string, string> = {
  email: '电子邮件地址',
  url: '网址',
  uuid: 'UUID',
  date: '日期（YYYY-MM-DD）',
  datetime: '日期时间（ISO 8601）',
  time: '时间（HH:mm:ss）',
  ipv4: 'IPv4 地址',
  ipv6: 'IPv6 地址',
};

/** Chinese of custom messages written next to schema refinements, by their English text. */
const CUSTOM_ZH = new Map<string, string>();

/**
 * A refinement's message in both languages: returns the English (zod keeps it, en-US shows it)
 * and remembers the Chinese for zh-CN readers. `refine(f, { message: schemaMessage('不能为空', 'must not be blank') })`.
 */
export function schemaMessage(zh: string, en: string): string {
  CUSTOM_ZH.set(en, zh);
  return en;
}

/** The problem in the reader's language; `input` is the value found at the problem's path. */
export function validationText(problem: ValidationProblem, locale: Locale, input: unknown): string {
  if (locale !== 'zh-CN') return problem.message;
  const p = problem.params;
  switch (problem.keyword) {
    case 'invalid_type':
      if (input === undefined) return '必填，不能缺少';
      return `应为${typeZh(p.expected)}，收到的是${receivedZh(input)}`;
    case 'too_big':
      return sizeZh(p.origin, p.maximum, true, p.inclusive !== false);
    case 'too_small':
      return sizeZh(p.origin, p.minimum, false, p.inclusive !== false);
    case 'invalid_value':
      return `应为以下之一：${list(p.values)}`;
    case 'invalid_format':
      if (p.format === 'regex' || p.format === undefined) return '格式不正确';
      if (p.format === 'starts_with') return `应以 "${String(p.prefix)}" 开头`;
      if (p.format === 'ends_with') return `应以 "${String(p.suffix)}" 结尾`;
      if (p.format === 'includes') return `应包含 "${String(p.includes)}"`;
      return `应为有效的${FORMAT_ZH[String(p.format)] ?? String(p.format)}`;
    case 'not_multiple_of':
      return `应为 ${String(p.divisor)} 的整数倍`;
    case 'unrecognized_keys':
      return `不认识的字段：${list(p.keys)}`;
    case 'invalid_union':
      return '不符合任何一种允许的形式';
    case 'invalid_key':
      return '字段名无效';
    case 'invalid_element':
      return '其中有无效的值';
    default: {
      // The shared text rule of @crdp/core (control characters, lone surrogates) carries its fault.
      const own = p.params as { textFault?: TextFault; messageKey?: string } | undefined;
      if (own?.textFault) return textFaultMessage(own.textFault, locale);
      // A shared schema of @crdp/core that names its catalogue message.
      if (own?.messageKey && isMessageKey(own.messageKey)) return formatMessage(own.messageKey, locale);
      const custom = CUSTOM_ZH.get(problem.message);
      if (custom !== undefined) return custom;
      const most = /^(?:must be )?at most (\d+) characters$/.exec(problem.message);
      if (most) return `最多 ${most[1]} 个字符`;
      return problem.message;
    }
  }
}

/** The value at a dotted path of the request part the problem is about. */
export function valueAt(root: unknown, path: string[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** A zod issue (checked in the handler, not by the route schema) in both languages; `root` is the value checked. */
export function issueText(
  issue: { code: string; message: string; path: readonly PropertyKey[] },
  root: unknown,
): { 'zh-CN': string; 'en-US': string } {
  const { code, message, path: _path, ...params } = issue;
  const problem = { keyword: code, message, params: params as Record<string, unknown> };
  const at = valueAt(
    root,
    issue.path.map((p) => String(p)),
  );
  return { 'zh-CN': validationText(problem, 'zh-CN', at), 'en-US': message };
}
