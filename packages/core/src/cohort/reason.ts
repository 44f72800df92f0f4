import { GENDER_TABLE } from '../helpers/code-tables.js';
import type { Locale } from '../messages.js';
import type { CohortCondition } from './index.js';

/**
 * Why a patient is in a disease library (纳入原因). The push keeps each matched condition as a
 * short code text ("diagnosis C22", "lab ALT ≥40 ≥2024-01-01"); a screen shows it in words in
 * the reader's language, with the names of the codes ("诊断：肝恶性肿瘤 (C22)").
 */
export interface ReasonNames {
  /** ICD-10 code → the diagnosis name the hospital uses. */
  diagnosis?: ReadonlyMap<string, string>;
  /** Lab item code → its name. */
  lab?: ReadonlyMap<string, string>;
}

const WORDS = {
  diagnosis: { 'zh-CN': '诊断', 'en-US': 'Diagnosis' },
  lab: { 'zh-CN': '检验', 'en-US': 'Lab' },
  age: { 'zh-CN': '年龄', 'en-US': 'Age' },
  gender: { 'zh-CN': '性别', 'en-US': 'Sex' },
  visit: { 'zh-CN': '就诊', 'en-US': 'Visit' },
  document: { 'zh-CN': '文书含', 'en-US': 'Document mentions' },
  from: { 'zh-CN': '{d} 起', 'en-US': 'from {d}' },
  to: { 'zh-CN': '至 {d}', 'en-US': 'until {d}' },
  or: { 'zh-CN': '或', 'en-US': ' or ' },
} as const;

const VISIT_WORDS: Record<string, Record<Locale, string>> = {
  outpatient: { 'zh-CN': '门诊', 'en-US': 'Outpatient' },
  inpatient: { 'zh-CN': '住院', 'en-US': 'Inpatient' },
  emergency: { 'zh-CN': '急诊', 'en-US': 'Emergency' },
};

const DATE = /^\d{4}-\d{2}-\d{2}/;

/** Splits the trailing bounds (≥x ≤y) off a reason's words; dates form the window, numbers the range. */
function bounds(parts: string[]) {
  const out = { min: undefined as string | undefined, max: undefined as string | undefined };
  const window = { from: undefined as string | undefined, to: undefined as string | undefined };
  const rest: string[] = [];
  for (const p of parts) {
    const m = /^(≥|≤)(.+)$/.exec(p);
    if (!m) rest.push(p);
    else if (DATE.test(m[2]!)) window[m[1] === '≥' ? 'from' : 'to'] = m[2];
    else out[m[1] === '≥' ? 'min' : 'max'] = m[2];
  }
  return { ...out, ...window, rest };
}

function windowText(w: { from?: string; to?: string }, locale: Locale) {
  const parts = [
    w.from ? WORDS.from[locale].replace('{d}', w.from) : '',
    w.to ? WORDS.to[locale].replace('{d}', w.to) : '',
  ].filter(Boolean);
  if (!parts.length) return '';
  return locale === 'zh-CN' ? `（${parts.join('')}）` : ` (${parts.join(', ')})`;
}

function rangeText(b: { min?: string; max?: string }) {
  return [b.min !== undefined ? `≥ ${b.min}` : '', b.max !== undefined ? `≤ ${b.max}` : '']
    .filter(Boolean)
    .join(' ');
}

const colon = (locale: Locale) => (locale === 'zh-CN' ? '：' : ': ');

/** One stored reason in words; a text of another shape (typed by hand) is shown as it is. */
export function wordReason(reason: string, locale: Locale, names: ReasonNames = {}): string {
  const doc = /^document “(.*)”((?: [≥≤]\S+)*)$/.exec(reason);
  if (doc) {
    const b = bounds(doc[2]!.trim().split(' ').filter(Boolean));
    return `${WORDS.document[locale]}“${doc[1]}”${windowText(b, locale)}`;
  }
  const [kind, ...parts] = reason.trim().split(/\s+/);
  switch (kind) {
    case 'diagnosis': {
      const [codes = '', ...more] = parts;
      const b = bounds(more);
      const list = codes
        .split('/')
        .filter(Boolean)
        .map((c) => {
          const name = names.diagnosis?.get(c);
          return name ? `${name} (${c})` : c;
        });
      return `${WORDS.diagnosis[locale]}${colon(locale)}${list.join(WORDS.or[locale])}${windowText(b, locale)}`;
    }
    case 'lab': {
      const [item = '', ...more] = parts;
      const b = bounds(more);
      const name = names.lab?.get(item);
      const range = rangeText(b);
      return `${WORDS.lab[locale]}${colon(locale)}${name ? `${name} (${item})` : item}${range ? ` ${range}` : ''}${windowText(b, locale)}`;
    }
    case 'age': {
      const range = rangeText(bounds(parts));
      return `${WORDS.age[locale]} ${range}`.trim();
    }
    case 'gender': {
      const list = (parts[0] ?? '')
        .split('/')
        .map((c) => GENDER_TABLE.find((g) => String(g.code) === c)?.label[locale] ?? c);
      return `${WORDS.gender[locale]}${colon(locale)}${list.join(WORDS.or[locale])}`;
    }
    case 'visit': {
      const [kinds = '', ...more] = parts;
      const list = kinds.split('/').map((k) => VISIT_WORDS[k]?.[locale] ?? k);
      return `${WORDS.visit[locale]}${colon(locale)}${list.join(WORDS.or[locale])}${windowText(bounds(more), locale)}`;
    }
    default:
      return reason;
  }
}

/** The codes a list of reasons names, so the caller can look up their names in one query each. */
export function reasonCodes(reasons: readonly string[]) {
  const diagnosis = new Set<string>();
  const lab = new Set<string>();
  for (const r of reasons) {
    const [kind, first = ''] = r.trim().split(/\s+/);
    if (kind === 'diagnosis') for (const c of first.split('/')) if (c) diagnosis.add(c);
    if (kind === 'lab' && first) lab.add(first);
  }
  return { diagnosis: [...diagnosis], lab: [...lab] };
}

/** A condition as the short code text kept as the reason a patient was included (read with `wordReason`). */
export function describeCondition(c: CohortCondition): string {
  const win =
    'from' in c || 'to' in c
      ? `${'from' in c && c.from ? ` ≥${c.from}` : ''}${'to' in c && c.to ? ` ≤${c.to}` : ''}`
      : '';
  switch (c.kind) {
    case 'diagnosis':
      return `diagnosis ${c.codes.join('/')}${win}`;
    case 'lab':
      return `lab ${c.itemCode}${c.min !== undefined ? ` ≥${c.min}` : ''}${c.max !== undefined ? ` ≤${c.max}` : ''}${win}`;
    case 'age':
      return `age${c.min !== undefined ? ` ≥${c.min}` : ''}${c.max !== undefined ? ` ≤${c.max}` : ''}`;
    case 'gender':
      return `gender ${c.codes.join('/')}`;
    case 'visit':
      return `visit ${c.visitKinds.join('/')}${win}`;
    case 'documentText':
      return `document “${c.text}”${win}`;
  }
}
