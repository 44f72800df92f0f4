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
  const find = new RegExp(`(?<![A-Za-z])(?:${words.join('|')})(?![A-Za-z])`, 'gdi');
  return { ...rule, sections, find };
}

export function compileRules(rules: CleaningRuleSource[]): CompiledRule[] {
  return rules.map(compileRule);
}

interface Place {
  text: string;
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

function base(rule: CompiledRule, o: CleaningOutput, at: Place, start: number, end: number) {
  const q = qualify(at.text, start, end, at.sentenceStart, at.sentenceEnd);
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

function runSyntactic(rule: CompiledRule, at: Place, out: Extraction[]) {
  const d = rule.definition;
  if (d.kind !== 'syntactic') return;
  const { text, sentenceStart: from, sentenceEnd: to } = at;
  const re = rule.find;
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const ts = m.index;
    const te = ts + m[0].length;
    if (te > to) break;
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
      continue;
    }
    // The value: the first number after the trigger within the window and the clause.
    let clauseEnd = te;
    while (clauseEnd < to && !/[，,；;。！!\n]/.test(text[clauseEnd]!)) clauseEnd++;
    const windowEnd = Math.min(clauseEnd, te + d.window);
    let vs = te;
    while (vs < windowEnd && !DIGIT.test(text[vs]!) && !'<>≤≥＜＞'.includes(text[vs]!)) vs++;
    if (vs >= windowEnd) continue;
    const reader = d.value === 'pair' ? PAIR_AT : VALUE_AT;
    reader.lastIndex = vs;
    const v = reader.exec(text.slice(0, clauseEnd));
    if (!v) continue;
    const rawValue = v[1]!;
    const rawUnit = v[3] ?? '';
    if (d.requireUnit && !rawUnit) continue;
    const valueEnd = vs + rawValue.length;
    const end = vs + v[0].length;
    const spans: ExtractionSpan[] = [trigger, { start: vs, end: valueEnd, role: 'value', label: '' }];
    if (rawUnit) spans.push({ start: end - rawUnit.length, end, role: 'unit', label: '' });
    re.lastIndex = end;
    const reads: { value: number; high: number | null; comparator: Extraction['comparator'] }[] = [];
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
      const r = reads[i];
      const allSpans = [...spans, ...q.spans.map((s) => ({ ...s, label: '' }))];
      if (!r) {
        out.push({
          ...partial,
          value: null,
          valueHigh: null,
          comparator: null,
          unit: rawUnit,
          fault: 'bad_number',
          faultDetail: rawValue,
          spans: allSpans,
        });
        return;
      }
      const f = finish(o, { value: r.value, high: r.high, unit: rawUnit });
      out.push({
        ...partial,
        value: f.value,
        valueHigh: f.high,
        comparator: r.comparator,
        unit: f.unit,
        fault: f.fault,
        faultDetail: f.detail,
        spans: allSpans,
      });
    });
  }
}

function runRegex(rule: CompiledRule, at: Place, out: Extraction[]) {
  const d = rule.definition;
  if (d.kind !== 'regex') return;
  const sentence = at.text.slice(at.sentenceStart, at.sentenceEnd);
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
      const one = parseValue(raw);
      if (!one) {
        out.push({
          ...partial,
          value: null,
          valueHigh: null,
          comparator: null,
          unit: rawUnit,
          fault: 'bad_number',
          faultDetail: raw,
          spans: allSpans,
        });
        continue;
      }
      const f = finish(o, { value: one.value, high: one.high, unit: rawUnit });
      out.push({
        ...partial,
        value: f.value,
        valueHigh: f.high,
        comparator: one.comparator,
        unit: f.unit,
        fault: f.fault,
        faultDetail: f.detail,
        spans: allSpans,
      });
    }
  }
}

function runSentence(rules: CompiledRule[], at: Place, out: Extraction[]) {
  for (const r of rules) {
    if (r.sections && !r.sections.has(at.section)) continue;
    if (r.definition.kind === 'regex') runRegex(r, at, out);
    else runSyntactic(r, at, out);
  }
}

export interface DocumentResult {
  sections: SectionSpan[];
  extractions: Extraction[];
}

/** Cleans a whole document: sections, then sentences, then every rule on every sentence. */
export function cleanDocument(rules: CompiledRule[], text: string): DocumentResult {
  const sections = splitSections(text);
  const extractions: Extraction[] = [];
  for (const s of sections)
    for (const sent of splitSentences(text, s.start, s.end))
      runSentence(
        rules,
        { text, sentenceStart: sent.start, sentenceEnd: sent.end, section: s.key },
        extractions,
      );
  return { sections, extractions };
}

/** Cleans one sentence as typed (no sections: rules limited to sections still run). */
export function cleanSentence(rules: CompiledRule[], sentence: string): Extraction[] {
  const out: Extraction[] = [];
  const all = rules.map((r) => ({ ...r, sections: null }));
  for (const sent of splitSentences(sentence))
    runSentence(
      all,
      { text: sentence, sentenceStart: sent.start, sentenceEnd: sent.end, section: 'header' },
      out,
    );
  return out;
}
