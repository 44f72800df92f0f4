import type {
  CleaningFault,
  CleaningOutput,
  CleaningRuleDefinition,
  Extraction,
  ExtractionSpan,
} from '../contracts/cleaning.js';
import { CLEANING_PATTERN_MAX } from '../contracts/cleaning.js';
import { PAIR_SOURCE, parsePair, parseValue, VALUE_SOURCE } from './numbers.js';
import { qualify } from './qualifiers.js';
import { checkPattern } from './regex-guard.js';
import { type CleaningSection, type SectionSpan, splitSections, splitSentences } from './sections.js';
import { convertUnit, KNOWN_UNIT_SPELLINGS } from './units.js';

/**
 * The cleaning engine: compiled rules run over the sentences of a text and answer what each
 * extracted and why. Pure: the server's tasks and tests and the web's previews run the same code.
 */

export interface CleaningRuleSource {
  ref: string;
  name: string;
  definition: CleaningRuleDefinition;
}

/** A rule that cannot run: `field` is the path inside the definition (`pattern`, `outputs.0.group`). */
export class CleaningRuleError extends Error {
  constructor(
    readonly field: string,
    readonly zh: string,
    message: string,
  ) {
    super(message);
    this.name = 'CleaningRuleError';
  }
}

export interface CompiledRule {
  ref: string;
  name: string;
  definition: CleaningRuleDefinition;
  sections: ReadonlySet<CleaningSection> | null;
  /** Finds the rule's anchors in one sentence: a regex with the `d` flag. */
  find: RegExp;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const UNIT_SOURCE = `(?:${KNOWN_UNIT_SPELLINGS.map(escapeRe).join('|')})`;
const VALUE_AT = new RegExp(`(${VALUE_SOURCE})(\\s*)(${UNIT_SOURCE})?`, 'y');
const PAIR_AT = new RegExp(`(${PAIR_SOURCE})(\\s*)(${UNIT_SOURCE})?`, 'y');
const DIGIT = /\d/;
const CLAUSE_ENDS = new Set([...'，,；;。！!\n'].map((c) => c.charCodeAt(0)));

/** Compiles rules; throws CleaningRuleError naming the first problem. */
export function compileRule(rule: CleaningRuleSource): CompiledRule {
  const d = rule.definition;
  const sections = d.sections.length ? new Set(d.sections) : null;
  if (d.kind === 'regex') {
    d.outputs.forEach((o, i) => {
      if (!o.group)
        throw new CleaningRuleError(
          `outputs.${i}.group`,
          '正则规则的每个输出都要指明取值的命名分组',
          'each output of a regex rule names the group holding its value',
        );
    });
    const groups = [...d.outputs.map((o) => o.group!), ...(d.unitGroup ? [d.unitGroup] : [])];
    const p = checkPattern(d.pattern, { maxLength: CLEANING_PATTERN_MAX, groups });
    if (p) throw new CleaningRuleError('pattern', p.zh, p.en);
    return { ...rule, sections, find: new RegExp(d.pattern, d.ignoreCase ? 'gdi' : 'gd') };
  }
  if (d.value === 'pair' && d.outputs.length !== 2)
    throw new CleaningRuleError(
      'outputs',
      '成对取值（如 120/80）需要两个输出',
      'a pair value (120/80) needs two outputs',
    );
  if (d.value !== 'pair' && d.outputs.length !== 1)
    throw new CleaningRuleError(
      'outputs',
      '单个取值只需要一个输出',
      'a single value needs exactly one output',
    );
  const words = [...new Set(d.triggers)].sort((a, b) => b.length - a.length).map(escapeRe);
  // A Latin trigger (T, BP, ALT) counts only as a whole word: not inside TBIL or ALTx.
  const find = new RegExp(`(?<![A-Za-z])(?:${words.join('|')})(?![A-Za-z])`, 'gi');
  return { ...rule, sections, find };
}

export function compileRules(rules: CleaningRuleSource[]): CompiledRule[] {
  return rules.map(compileRule);
}

interface Place {
  text: string;
  /** The sentence's text, cut once and kept for the regex rules. */
  sentence?: string;
  sentenceStart: number;
  sentenceEnd: number;
  section: CleaningSection;
}

/** Value check and unit conversion of one read value into an output. */
function finish(
  o: CleaningOutput,
  raw: { value: number; high: number | null; unit: string },
): { value: number; high: number | null; unit: string; fault: CleaningFault | null; detail: string } {
  const conv = convertUnit(raw.value, raw.unit, o.unit);
  const high = raw.high === null ? null : convertUnit(raw.high, raw.unit, o.unit).value;
  if (!conv.ok)
    return {
      value: conv.value,
      high,
      unit: conv.unit,
      fault: 'unknown_unit',
      detail: `${raw.unit} → ${o.unit}`,
    };
  const v = conv.value;
  if ((o.min !== null && v < o.min) || (o.max !== null && v > o.max))
    return {
      value: v,
      high,
      unit: conv.unit,
      fault: 'out_of_range',
      detail: `${v} ∉ [${o.min ?? '−∞'}, ${o.max ?? '+∞'}]`,
    };
  return { value: v, high, unit: conv.unit, fault: null, detail: '' };
}

/** A value as read from the text, before its check and unit conversion. */
type Read = { value: number; high: number | null; comparator: Extraction['comparator'] };

/**
 * The extraction of one output from the value read for it (checked and converted by `finish`);
 * without a read (the text is no number) a `bad_number` fault that keeps the text.
 */
function extractionOf(
  partial: ReturnType<typeof base>['partial'],
  o: CleaningOutput,
  read: Read | null | undefined,
  text: string,
  rawUnit: string,
  spans: ExtractionSpan[],
): Extraction {
  if (!read)
    return {
      ...partial,
      value: null,
      valueHigh: null,
      comparator: null,
      unit: rawUnit,
      fault: 'bad_number',
      faultDetail: text,
      spans,
    };
  const f = finish(o, { value: read.value, high: read.high, unit: rawUnit });
  return {
    ...partial,
    value: f.value,
    valueHigh: f.high,
    comparator: read.comparator,
    unit: f.unit,
    fault: f.fault,
    faultDetail: f.detail,
    spans,
  };
}

/** The qualifiers of the last span read: the outputs of one match (120/80) share them. */
let lastQualified: { text: string; start: number; end: number; q: ReturnType<typeof qualify> } | null = null;

function base(rule: CompiledRule, o: CleaningOutput, at: Place, start: number, end: number) {
  const l = lastQualified;
  const q =
    l && l.text === at.text && l.start === start && l.end === end
      ? l.q
      : qualify(at.text, start, end, at.sentenceStart, at.sentenceEnd);
  lastQualified = { text: at.text, start, end, q };
  return {
    q,
    partial: {
      ruleRef: rule.ref,
      ruleName: rule.name,
      code: o.code,
      name: o.name,
      raw: at.text.slice(start, end),
      start,
      end,
      sentenceStart: at.sentenceStart,
      sentenceEnd: at.sentenceEnd,
      section: at.section,
      negated: q.negated,
      uncertain: q.uncertain,
      time: q.time,
      timeDays: q.timeDays,
      laterality: q.laterality,
    },
  };
}

/** One trigger match of a syntactic rule in its sentence: the value after it, or the finding itself. */
function syntacticAt(rule: CompiledRule, at: Place, m: RegExpExecArray, out: Extraction[]) {
  const d = rule.definition;
  if (d.kind !== 'syntactic') return;
  const { text, sentenceEnd: to } = at;
  const re = rule.find;
  const ts = m.index;
  const te = ts + m[0].length;
  if (te > to) return;
  const trigger: ExtractionSpan = { start: ts, end: te, role: 'trigger', label: '' };
  if (d.value === 'presence') {
    const o = d.outputs[0]!;
    const { q, partial } = base(rule, o, at, ts, te);
    out.push({
      ...partial,
      value: q.negated ? 0 : 1,
      valueHigh: null,
      comparator: null,
      unit: '',
      fault: null,
      faultDetail: '',
      spans: [trigger, ...q.spans.map((s) => ({ ...s, label: '' }))],
    });
    return;
  }
  // The value: the first number after the trigger within the window and the clause.
  let clauseEnd = te;
  while (clauseEnd < to && !CLAUSE_ENDS.has(text.charCodeAt(clauseEnd))) clauseEnd++;
  const windowEnd = Math.min(clauseEnd, te + d.window);
  let vs = te;
  while (vs < windowEnd && !DIGIT.test(text[vs]!) && !'<>≤≥＜＞'.includes(text[vs]!)) vs++;
  if (vs >= windowEnd) return;
  const reader = d.value === 'pair' ? PAIR_AT : VALUE_AT;
  reader.lastIndex = vs;
  // Sticky on the whole text (a slice would be copied for the regex on every match).
  const v = reader.exec(text);
  if (!v || vs + v[0].length > clauseEnd) return;
  const rawValue = v[1]!;
  const rawUnit = v[3] ?? '';
  if (d.requireUnit && !rawUnit) return;
  const valueEnd = vs + rawValue.length;
  const end = vs + v[0].length;
  const spans: ExtractionSpan[] = [trigger, { start: vs, end: valueEnd, role: 'value', label: '' }];
  if (rawUnit) spans.push({ start: end - rawUnit.length, end, role: 'unit', label: '' });
  re.lastIndex = end;
  const reads: Read[] = [];
  if (d.value === 'pair') {
    const pair = parsePair(rawValue);
    if (pair)
      reads.push(
        { value: pair[0], high: null, comparator: null },
        { value: pair[1], high: null, comparator: null },
      );
  } else {
    const one = parseValue(rawValue);
    if (one) reads.push({ value: one.value, high: one.high, comparator: one.comparator });
  }
  d.outputs.forEach((o, i) => {
    const { q, partial } = base(rule, o, at, ts, end);
    const allSpans = [...spans, ...q.spans.map((s) => ({ ...s, label: '' }))];
    out.push(extractionOf(partial, o, reads[i], rawValue, rawUnit, allSpans));
  });
}

/**
 * A syntactic rule over a whole document: its trigger regex runs once over the text (a search
 * per sentence would scan on past the sentence each time it finds nothing), and each trigger is
 * read in the sentence that holds it. `places` are the sentences in text order.
 */
function runSyntactic(rule: CompiledRule, places: Place[], text: string, out: Extraction[]) {
  const re = rule.find;
  re.lastIndex = 0;
  let pi = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const ts = m.index;
    while (pi < places.length && places[pi]!.sentenceEnd <= ts) pi++;
    const at = places[pi];
    if (!at) break;
    if (ts < at.sentenceStart || (rule.sections && !rule.sections.has(at.section))) continue;
    syntacticAt(rule, at, m, out);
  }
}

function runRegex(rule: CompiledRule, at: Place, out: Extraction[]) {
  const d = rule.definition;
  if (d.kind !== 'regex') return;
  at.sentence ??= at.text.slice(at.sentenceStart, at.sentenceEnd);
  const sentence = at.sentence;
  const re = rule.find;
  re.lastIndex = 0;
  for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    const off = at.sentenceStart;
    const start = off + m.index;
    const end = start + m[0].length;
    const groups = m.indices?.groups ?? {};
    const spans: ExtractionSpan[] = [{ start, end, role: 'match', label: '' }];
    for (const [name, pos] of Object.entries(groups))
      if (pos) spans.push({ start: off + pos[0], end: off + pos[1], role: 'group', label: name });
    const rawUnit = (d.unitGroup && m.groups?.[d.unitGroup]) || '';
    for (const o of d.outputs) {
      const raw = m.groups?.[o.group!] ?? '';
      const { q, partial } = base(rule, o, at, start, end);
      const allSpans = [...spans, ...q.spans.map((s) => ({ ...s, label: '' }))];
      if (!raw) continue; // an optional group that did not take part
      out.push(extractionOf(partial, o, parseValue(raw), raw, rawUnit, allSpans));
    }
  }
}

/** Every rule over the sentences of a text, in reading order (sentence, then rule, then position). */
function runRules(rules: CompiledRule[], places: Place[], text: string, out: Extraction[]) {
  for (const r of rules) {
    if (r.definition.kind === 'syntactic') runSyntactic(r, places, text, out);
    else for (const p of places) if (!r.sections || r.sections.has(p.section)) runRegex(r, p, out);
  }
  out.sort((a, b) => a.sentenceStart - b.sentenceStart);
}

export interface DocumentResult {
  sections: SectionSpan[];
  extractions: Extraction[];
}

/** Cleans a whole document: sections, then sentences, then every rule on every sentence. */
export function cleanDocument(rules: CompiledRule[], text: string): DocumentResult {
  const sections = splitSections(text);
  const places: Place[] = [];
  for (const s of sections)
    for (const sent of splitSentences(text, s.start, s.end))
      places.push({ text, sentenceStart: sent.start, sentenceEnd: sent.end, section: s.key });
  const extractions: Extraction[] = [];
  runRules(rules, places, text, extractions);
  return { sections, extractions };
}

/** Cleans one sentence as typed (no sections: rules limited to sections still run). */
export function cleanSentence(rules: CompiledRule[], sentence: string): Extraction[] {
  const out: Extraction[] = [];
  const all = rules.map((r) => ({ ...r, sections: null }));
  const places = splitSentences(sentence).map(
    (sent): Place => ({
      text: sentence,
      sentenceStart: sent.start,
      sentenceEnd: sent.end,
      section: 'header',
    }),
  );
  runRules(all, places, sentence, out);
  return out;
}
