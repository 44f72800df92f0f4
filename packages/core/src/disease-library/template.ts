/**
 * The indicator template language: one line that says where a CRF item's value comes from in
 * the clinical data. Parsed to a small syntax tree here (pure, shared by server and web); the
 * server's `apps/server/src/disease-library/template-sql.ts` compiles the
 * tree to one set-based query over all patients of a library.
 *
 *   rule   := agg source ['.' field] ['where' cond {'and' cond}] [anchor]
 *   agg    := first | latest | min | max | avg | count | exists | value
 *   anchor := (before | after) ref ['within' number 'days']
 *   ref    := first_visit | first_admission | filing_date | t0 number | "YYYY-MM-DD"
 *   cond   := field op literal          op := = != > >= < <= starts contains
 *   literal:= "text" | 'text' | number | {{param}}
 *
 * Examples
 *   latest lab.value where code = "ALT" before first_visit      the baseline ALT
 *   first diagnosis.date where code starts "K74"                 first date of a K74 diagnosis
 *   count visit where kind = "inpatient"                         number of admissions
 *   latest diagnosis.name where kind = "discharge"               text of the discharge diagnosis
 *   value patient.age                                            age in years at the filing date
 *   first lab.value where code = "HBV-DNA" after t0 3 within 180 days
 *                                        the first HBV-DNA within 180 days after the patient's T0
 *                                        of T0 event 3 (patients without that T0 get no value)
 *
 * `before X` means at or before X, `after X` at or after X. A `{{name}}` is replaced by the
 * template parameter of that name, as a literal (never as SQL).
 */
import { scanTokens } from '../helpers/text.js';

export type Aggregate = 'first' | 'latest' | 'min' | 'max' | 'avg' | 'count' | 'exists' | 'value';
export type Operator = '=' | '!=' | '>' | '>=' | '<' | '<=' | 'starts' | 'contains';
export type FieldKind = 'text' | 'number' | 'date';

export interface SourceDef {
  table: string;
  /** Field name -> column and kind. */
  fields: Record<string, { column: string; kind: FieldKind }>;
  dateField: string;
  defaultField: string;
  /** Rows a rule never reads, as fixed SQL over the source's alias `t` (never from a template). */
  rowFilter?: string;
}

const f = (column: string, kind: FieldKind = 'text') => ({ column, kind });

export const SOURCES: Record<string, SourceDef> = {
  lab: {
    table: 'lab_results',
    fields: {
      code: f('item_code'),
      name: f('item_name'),
      value: f('value_num', 'number'),
      text: f('value_text'),
      unit: f('unit'),
      flag: f('abnormal_flag'),
      date: f('collected_at', 'date'),
    },
    dateField: 'date',
    defaultField: 'value',
  },
  diagnosis: {
    table: 'diagnoses',
    fields: { code: f('icd10'), name: f('name'), kind: f('kind'), date: f('diagnosed_at', 'date') },
    dateField: 'date',
    defaultField: 'name',
  },
  visit: {
    table: 'visits',
    fields: {
      kind: f('kind'),
      department: f('department'),
      date: f('admit_at', 'date'),
      discharge: f('discharge_at', 'date'),
    },
    dateField: 'date',
    defaultField: 'date',
  },
  order: {
    table: 'orders',
    fields: {
      category: f('category'),
      code: f('code'),
      name: f('name'),
      dose: f('dose'),
      route: f('route'),
      date: f('start_at', 'date'),
    },
    dateField: 'date',
    defaultField: 'name',
  },
  exam: {
    table: 'exam_reports',
    fields: {
      modality: f('modality'),
      part: f('body_part'),
      findings: f('findings'),
      conclusion: f('conclusion'),
      date: f('exam_at', 'date'),
    },
    dateField: 'date',
    defaultField: 'conclusion',
  },
  operation: {
    table: 'operations',
    fields: { code: f('code'), name: f('name'), date: f('operated_at', 'date') },
    dateField: 'date',
    defaultField: 'name',
  },
  document: {
    table: 'documents',
    fields: { kind: f('kind'), title: f('title'), text: f('body'), date: f('written_at', 'date') },
    dateField: 'date',
    defaultField: 'text',
  },
  /** Values read from clinical text by cleaning tasks (cleaning/README.md), e.g. 收缩压 from notes. */
  cleaned: {
    table: 'cleaned_values',
    fields: {
      code: f('code'),
      name: f('name'),
      value: f('value_num', 'number'),
      text: f('value_text'),
      unit: f('unit'),
      section: f('section'),
      fault: f('fault'),
      date: f('observed_at', 'date'),
    },
    dateField: 'date',
    defaultField: 'value',
    // A value with a QC fault (out of range, unknown unit) stays visible where it was read, but
    // is never an indicator's value.
    rowFilter: "t.fault = ''",
  },
  vital: {
    table: 'vital_signs',
    fields: { name: f('item_name'), value: f('value'), date: f('record_dt', 'date') },
    dateField: 'date',
    defaultField: 'value',
  },
};

/** Patient-level values, read with `value patient.<field>`. */
export const PATIENT_FIELDS = ['age', 'gender', 'birth_date', 'name', 'mrn'] as const;
export type PatientField = (typeof PATIENT_FIELDS)[number];

export type Literal = string | number;
export interface Condition {
  field: string;
  op: Operator;
  value: Literal;
}
export type AnchorRef = 'first_visit' | 'first_admission' | 'filing_date' | { date: string } | { t0: number };
export interface Anchor {
  side: 'before' | 'after';
  ref: AnchorRef;
  withinDays?: number;
}
export interface IndicatorRule {
  agg: Aggregate;
  source: string;
  field: string | null;
  where: Condition[];
  anchor: Anchor | null;
}

/** A template that does not parse: the message says where, the field names the input at fault. */
export class TemplateError extends Error {
  /** `message` is the English; `zh` says the same in Chinese. */
  constructor(
    readonly zh: string,
    message: string,
    readonly field: 'template_str' | `template_params.${string}` = 'template_str',
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

const KIND_ZH: Record<string, string> = { text: '文本', number: '数值', date: '日期' };
const kindZh = (kind: string) => KIND_ZH[kind] ?? kind;

type Token =
  | { t: 'word'; v: string; at: number }
  | { t: 'str'; v: string; at: number }
  | { t: 'num'; v: number; at: number }
  | { t: 'op'; v: string; at: number }
  | { t: 'param'; v: string; at: number }
  | { t: 'dot'; at: number };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  scanTokens(src, (rest, i, c) => {
    const param = rest.match(/^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/);
    const str = param ? null : rest.match(/^"((?:[^"\\]|\\.)*)"|^'((?:[^'\\]|\\.)*)'/);
    const num = param || str ? null : rest.match(/^-?\d+(\.\d+)?/);
    const op = param || str || num ? null : rest.match(/^(!=|>=|<=|=|>|<)/);
    const word = rest.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (param) {
      out.push({ t: 'param', v: param[1]!, at: i });
      return param[0].length;
    }
    if (str) {
      out.push({ t: 'str', v: (str[1] ?? str[2] ?? '').replace(/\\(.)/g, '$1'), at: i });
      return str[0].length;
    }
    if (num) {
      out.push({ t: 'num', v: Number(num[0]), at: i });
      return num[0].length;
    }
    if (op) {
      out.push({ t: 'op', v: op[0], at: i });
      return op[0].length;
    }
    if (c === '.') {
      out.push({ t: 'dot', at: i });
      return 1;
    }
    if (word) {
      out.push({ t: 'word', v: word[0].toLowerCase(), at: i });
      return word[0].length;
    }
    throw new TemplateError(
      `第 ${i + 1} 个字符 '${c}' 无法识别`,
      `unexpected character '${c}' at position ${i + 1}`,
    );
  });
  return out;
}

const AGGREGATES: readonly Aggregate[] = ['first', 'latest', 'min', 'max', 'avg', 'count', 'exists', 'value'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses a template with its parameters into a checked rule, or throws TemplateError. */
export function parseTemplate(src: string, params: Record<string, unknown> = {}): IndicatorRule {
  if (src.length > 500)
    throw new TemplateError('模板最多 500 个字符', 'a template is at most 500 characters');
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const where = () => {
    const t = peek();
    return t ? `at position ${t.at + 1}` : 'at the end';
  };
  const whereZh = () => {
    const t = peek();
    return t ? `第 ${t.at + 1} 个字符处` : '末尾处';
  };
  const word = (expected?: string): string => {
    const t = toks[p];
    if (t?.t !== 'word' || (expected && t.v !== expected))
      throw new TemplateError(
        `${whereZh()}应为${expected ? ` '${expected}'` : '一个词'}`,
        `expected ${expected ? `'${expected}'` : 'a word'} ${where()}`,
      );
    p++;
    return t.v;
  };
  const literal = (): Literal => {
    const t = toks[p];
    if (!t) throw new TemplateError('末尾缺少一个值', 'expected a value at the end');
    p++;
    if (t.t === 'str' || t.t === 'num') return t.v;
    if (t.t === 'param') {
      if (!(t.v in params))
        throw new TemplateError(
          `参数 ${t.v} 没有给值`,
          `no value for parameter ${t.v}`,
          `template_params.${t.v}`,
        );
      const v = params[t.v];
      if (typeof v === 'string' && v.length <= 200) return v;
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      throw new TemplateError(
        `参数 ${t.v} 应为文本或数字`,
        `parameter ${t.v} must be a text or a number`,
        `template_params.${t.v}`,
      );
    }
    p--;
    throw new TemplateError(`${whereZh()}应为一个值`, `expected a value ${where()}`);
  };

  const agg = word() as Aggregate;
  if (!AGGREGATES.includes(agg))
    throw new TemplateError(
      `'${agg}' 不是聚合方式，请使用以下之一：${AGGREGATES.join('、')}`,
      `'${agg}' is not an aggregate; use one of ${AGGREGATES.join(', ')}`,
    );
  const source = word();
  let field: string | null = null;
  if (peek()?.t === 'dot') {
    p++;
    field = word();
  }
  if (source === 'patient') {
    if (agg !== 'value')
      throw new TemplateError(
        "患者字段请用 'value patient.<字段>' 读取",
        "patient fields are read with 'value patient.<field>'",
      );
    if (!field || !(PATIENT_FIELDS as readonly string[]).includes(field))
      throw new TemplateError(
        `患者的字段有：${PATIENT_FIELDS.join('、')}`,
        `patient has the fields ${PATIENT_FIELDS.join(', ')}`,
      );
    if (p < toks.length) throw new TemplateError(`${whereZh()}有多余的内容`, `unexpected text ${where()}`);
    return { agg, source, field, where: [], anchor: null };
  }
  const def = SOURCES[source];
  if (!def)
    throw new TemplateError(
      `'${source}' 不是数据来源，请使用 patient 或 ${Object.keys(SOURCES).join('、')}`,
      `'${source}' is not a source; use patient or ${Object.keys(SOURCES).join(', ')}`,
    );
  if (agg === 'value')
    throw new TemplateError("'value' 只能读取患者字段", "'value' reads patient fields only");
  const checkField = (name: string) => {
    if (!def.fields[name])
      throw new TemplateError(
        `${source} 没有字段 '${name}'，可用的字段：${Object.keys(def.fields).join('、')}`,
        `${source} has no field '${name}'; it has ${Object.keys(def.fields).join(', ')}`,
      );
    return def.fields[name];
  };
  if (field) checkField(field);
  if (agg === 'count' || agg === 'exists') {
    if (field)
      throw new TemplateError(`'${agg}' 统计行数，不带字段`, `'${agg}' counts rows and takes no field`);
  } else {
    field ??= def.defaultField;
    const kind = def.fields[field]!.kind;
    if (agg === 'avg' && kind !== 'number')
      throw new TemplateError(
        `'avg' 需要数值字段，${field} 是${kindZh(kind)}字段`,
        `'avg' needs a number field; ${field} is ${kind}`,
      );
  }

  const conds: Condition[] = [];
  if (peek()?.t === 'word' && (peek() as { v: string }).v === 'where') {
    p++;
    for (;;) {
      const name = word();
      const kind = checkField(name)!.kind;
      const t = peek();
      let op: Operator;
      if (t?.t === 'op') op = t.v as Operator;
      else if (t?.t === 'word' && (t.v === 'starts' || t.v === 'contains')) op = t.v;
      else throw new TemplateError(`${whereZh()}应为一个运算符`, `expected an operator ${where()}`);
      p++;
      const value = literal();
      if ((op === 'starts' || op === 'contains') && kind !== 'text')
        throw new TemplateError(
          `'${op}' 只用于文本字段，${name} 是${kindZh(kind)}字段`,
          `'${op}' works on text fields; ${name} is ${kind}`,
        );
      if (kind === 'number' && typeof value !== 'number')
        throw new TemplateError(`${name} 只能与数字比较`, `${name} compares with a number`);
      if (kind === 'date' && (typeof value !== 'string' || !ISO_DATE.test(value)))
        throw new TemplateError(
          `${name} 只能与日期 "YYYY-MM-DD" 比较`,
          `${name} compares with a date "YYYY-MM-DD"`,
        );
      conds.push({ field: name, op, value });
      if (peek()?.t === 'word' && (peek() as { v: string }).v === 'and') {
        p++;
        continue;
      }
      break;
    }
  }

  let anchor: Anchor | null = null;
  const t = peek();
  if (t?.t === 'word' && (t.v === 'before' || t.v === 'after')) {
    p++;
    let ref: AnchorRef;
    const r = peek();
    if (r?.t === 'word' && ['first_visit', 'first_admission', 'filing_date'].includes(r.v)) {
      ref = r.v as AnchorRef;
      p++;
    } else if (r?.t === 'word' && r.v === 't0') {
      p++;
      const id = literal();
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647)
        throw new TemplateError('t0 后应为 T0 事件的编号', 't0 takes the id of a T0 event');
      ref = { t0: id };
    } else if (r && (r.t === 'str' || r.t === 'param')) {
      const v = literal();
      if (typeof v !== 'string' || !ISO_DATE.test(v))
        throw new TemplateError('日期锚点应写成 "YYYY-MM-DD"', 'a date anchor is written "YYYY-MM-DD"');
      ref = { date: v };
    } else
      throw new TemplateError(
        `${whereZh()}应为 first_visit、first_admission、filing_date、t0 <编号> 或日期`,
        `expected first_visit, first_admission, filing_date, t0 <id> or a date ${where()}`,
      );
    anchor = { side: t.v, ref };
    if (peek()?.t === 'word' && (peek() as { v: string }).v === 'within') {
      p++;
      const n = literal();
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 36_500)
        throw new TemplateError('within 后应为整数天数', 'within takes a whole number of days');
      word('days');
      anchor.withinDays = n;
    }
  }
  if (p < toks.length) throw new TemplateError(`${whereZh()}有多余的内容`, `unexpected text ${where()}`);
  return { agg, source, field, where: conds, anchor };
}

const quote = (v: Literal) => (typeof v === 'number' ? String(v) : JSON.stringify(v));

/** The canonical text of a rule (parameters substituted), as stored in logs. */
export function ruleText(r: IndicatorRule): string {
  let s = `${r.agg} ${r.source}${r.field ? `.${r.field}` : ''}`;
  if (r.where.length)
    s += ` where ${r.where.map((c) => `${c.field} ${c.op} ${quote(c.value)}`).join(' and ')}`;
  if (r.anchor) {
    const a = r.anchor.ref;
    const ref = typeof a === 'string' ? a : 't0' in a ? `t0 ${a.t0}` : quote(a.date);
    s += ` ${r.anchor.side} ${ref}`;
    if (r.anchor.withinDays !== undefined) s += ` within ${r.anchor.withinDays} days`;
  }
  return s;
}

/** The kind of value a rule yields, so the fill can tell a number from a date. */
export function resultKind(r: IndicatorRule): FieldKind {
  if (r.agg === 'count' || r.agg === 'exists' || r.agg === 'avg') return 'number';
  if (r.source === 'patient')
    return r.field === 'age' || r.field === 'gender' ? 'number' : r.field === 'birth_date' ? 'date' : 'text';
  return SOURCES[r.source]!.fields[r.field!]!.kind;
}
