import { compiled } from './compile.js';
import { normalise } from './conditions.js';
import type { Answers, Form, FormItem } from './types.js';
import { toNumber } from './values.js';
import { attr, kids, text, type XNode, xmlParser } from './xml.js';

/**
 * Reads a structured case record (HL7 CDA shape: sections of coded entries) and places its
 * entries into form items by code, then by display name; values are matched to options by
 * name or code, numbers converted to the item's unit. What cannot be placed safely (no item,
 * no option, a unit that needs the analyte's molar mass) is returned, never guessed.
 */

export interface RecordEntry {
  section: string;
  code?: string;
  codeSystem?: string;
  /** Other codes of the same thing (a local lab item's LOINC code); an item may name any. */
  otherCodes?: string[];
  displayName?: string;
  value?: string;
  valueCode?: string;
  unit?: string;
  text?: string;
  /** A medication entry: the drug's name (its `value` and `unit` are the dose). */
  drug?: string;
  /** When the value was measured or recorded (ISO date or date-time), when the source says. */
  at?: string;
}

/**
 * Why an entry was not placed, as a code with what a reader needs to word it (an item's key, a
 * value, units); `reason` beside it is the same in English, for logs and API readers.
 */
export type PrefillReason =
  | { code: 'noItem' }
  | { code: 'notAnOption'; item: string; value: string }
  | { code: 'noValue'; item: string }
  | { code: 'notANumber'; item: string; value: string }
  | { code: 'unitNotConvertible'; item: string; unit: string; target: string }
  | { code: 'severalBlanks'; item: string }
  | { code: 'itemCannotTake'; item: string; type: string }
  | { code: 'closerMatchHeld'; item: string }
  | { code: 'closerMatchTaken'; item: string };

export const PREFILL_REASON_CODES = [
  'noItem',
  'notAnOption',
  'noValue',
  'notANumber',
  'unitNotConvertible',
  'severalBlanks',
  'itemCannotTake',
  'closerMatchHeld',
  'closerMatchTaken',
] as const satisfies ReadonlyArray<PrefillReason['code']>;

export interface UnmatchedEntry {
  entry: RecordEntry;
  /** In English. */
  reason: string;
  why: PrefillReason;
}

export interface RecordMapping {
  answers: Answers;
  /** The entry each answer came from, by item key (a checkbox ticked by several: the last). */
  placed: Record<string, RecordEntry>;
  unmatched: UnmatchedEntry[];
}

/** The English of a reason (the API's `reason`, logs). */
export function prefillReasonText(why: PrefillReason): string {
  switch (why.code) {
    case 'noItem':
      return 'no item matches its code or name';
    case 'notAnOption':
      return `value '${why.value}' is not an option of '${why.item}'`;
    case 'noValue':
      return 'entry has no value';
    case 'notANumber':
      return `value '${why.value}' is not a number, as '${why.item}' needs`;
    case 'unitNotConvertible':
      return `unit ${why.unit} cannot be converted to ${why.target} for '${why.item}'`;
    case 'severalBlanks':
      return 'gap filling with several blanks';
    case 'itemCannotTake':
      return `a ${why.type} item cannot take a record value`;
    case 'closerMatchHeld':
      return `'${why.item}' already holds a closer match`;
    case 'closerMatchTaken':
      return `'${why.item}' took a closer match`;
  }
}

const parser = xmlParser();

/** First descendant with one of the names, breadth first (the act's own code before nested ones). */
function find(node: XNode, names: string[]): XNode | undefined {
  const queue: XNode[] = [node];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    for (const [k, v] of Object.entries(n)) {
      if (k.startsWith('@_') || k === '#text' || !Array.isArray(v)) continue;
      const children = kids(n, k);
      if (names.includes(k) && children[0]) return children[0];
      queue.push(...children);
    }
  }
  return undefined;
}

/** CDA time stamps (YYYYMMDD[HHmmss]) as ISO dates, the form's date spelling. */
function readTime(v: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?/.exec(v);
  if (!m) return v;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  return m[4] && m[5] ? `${date} ${m[4]}:${m[5]}` : date;
}

function readEntry(section: string, entry: XNode, sectionCode?: string): RecordEntry {
  const out: RecordEntry = { section };
  const code = find(entry, ['code']);
  const value = find(entry, ['value', 'doseQuantity']);
  const act = Object.keys(entry).find((k) => !k.startsWith('@_') && k !== '#text');
  const narrative = act ? kids(kids(entry, act)[0] ?? {}, 'text')[0] : undefined;
  if (attr(code, 'code')) out.code = attr(code, 'code')!;
  if (attr(code, 'codeSystem')) out.codeSystem = attr(code, 'codeSystem')!;
  if (attr(code, 'displayName')) out.displayName = attr(code, 'displayName')!;
  if (value) {
    const type = attr(value, 'type');
    const raw = attr(value, 'value');
    if (attr(value, 'code')) out.valueCode = attr(value, 'code')!;
    const shown = attr(value, 'displayName') ?? text(value) ?? raw;
    if (shown !== undefined) out.value = type === 'TS' ? readTime(shown) : shown;
    if (attr(value, 'unit')) out.unit = attr(value, 'unit')!;
  }
  const t = text(narrative);
  if (t) out.text = t;
  // A medication (also one inside a discharge-medication act) names its drug in
  // consumable/manufacturedProduct/manufactured{Material,LabeledDrug}: the drug's code is the
  // entry's code, its name the drug; value and unit stay the dose.
  const given = act === 'substanceAdministration' ? entry : find(entry, ['substanceAdministration']);
  if (given) {
    const product = find(given, ['manufacturedMaterial', 'manufacturedLabeledDrug']);
    const drugCode = kids(product, 'code')[0];
    const drug =
      attr(drugCode, 'displayName') ??
      text(kids(drugCode, 'originalText')[0]) ??
      text(kids(product, 'name')[0]);
    if (drug) out.drug = drug;
    if (attr(drugCode, 'code')) {
      out.code = attr(drugCode, 'code')!;
      if (attr(drugCode, 'codeSystem')) out.codeSystem = attr(drugCode, 'codeSystem')!;
      if (attr(drugCode, 'displayName')) out.displayName = attr(drugCode, 'displayName')!;
    }
    const dose = find(given, ['doseQuantity']);
    if (dose && attr(dose, 'value') !== undefined) {
      out.value = attr(dose, 'value')!;
      if (attr(dose, 'unit')) out.unit = attr(dose, 'unit')!;
      else delete out.unit;
    }
  }
  // An allergy names its allergen in participant/participantRole/playingEntity: that is its value.
  const allergen = find(entry, ['playingEntity']);
  if (allergen) {
    const c = kids(allergen, 'code')[0];
    const name =
      attr(c, 'displayName') ?? text(kids(c, 'originalText')[0]) ?? text(kids(allergen, 'name')[0]);
    if (name) {
      out.value = name;
      delete out.unit;
      if (attr(c, 'code')) out.valueCode = attr(c, 'code')!;
      else delete out.valueCode;
      // The concern act's code (CONC) says nothing: the allergy is its section's (48765-2).
      if (sectionCode && (!out.code || out.code === 'CONC')) {
        out.code = sectionCode;
        delete out.codeSystem;
        out.displayName = section;
      }
    }
  }
  return out;
}

/**
 * The entries an `entry` holds: an organizer (vital signs, a lab panel) holds one observation per
 * component, each its own entry with its own code, value and unit; anything else is one entry.
 */
function entriesOf(section: string, entry: XNode, sectionCode?: string): RecordEntry[] {
  const organizer = kids(entry, 'organizer')[0];
  if (!organizer) return [readEntry(section, entry, sectionCode)];
  const parts = kids(organizer, 'component').flatMap((c) =>
    kids(c, 'observation').map((o) => readEntry(section, { observation: [o] })),
  );
  return parts.length ? parts : [readEntry(section, entry, sectionCode)];
}

/** The entries of a record, section by section; a section's narrative text is one entry too. */
export function readRecordEntries(xml: string): RecordEntry[] {
  const doc = parser.parse(xml) as XNode;
  const entries: RecordEntry[] = [];
  const walk = (node: XNode) => {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('@_') || k === '#text' || !Array.isArray(v)) continue;
      for (const child of kids(node, k)) {
        if (k !== 'section') {
          walk(child);
          continue;
        }
        const code = kids(child, 'code')[0];
        const name = attr(code, 'displayName') ?? text(kids(child, 'title')[0]) ?? '';
        for (const entry of kids(child, 'entry')) entries.push(...entriesOf(name, entry, attr(code, 'code')));
        const narrative = text(kids(child, 'text')[0]);
        if (narrative) {
          const e: RecordEntry = { section: name, displayName: name, text: narrative };
          if (attr(code, 'code')) e.code = attr(code, 'code')!;
          entries.push(e);
        }
        walk(child);
      }
    }
  };
  walk(doc);
  return entries;
}

// Units by dimension and factor to that dimension's base, for converting to the item's unit.
const UNITS: Record<string, [string, number]> = {
  m: ['length', 100],
  cm: ['length', 1],
  mm: ['length', 0.1],
  kg: ['mass', 1],
  g: ['mass', 0.001],
  mg: ['mass', 1e-6],
  'g/l': ['massConc', 1],
  'g/dl': ['massConc', 10],
  'mg/dl': ['massConc', 0.01],
  'mg/l': ['massConc', 0.001],
  'ng/ml': ['massConc', 1e-6],
  'ug/l': ['massConc', 1e-6],
  'u/l': ['activity', 1],
  'iu/l': ['activity', 1],
  'umol/l': ['molar', 1],
  'mmol/l': ['molar', 1000],
  '℃': ['temperature', 1],
  '°c': ['temperature', 1],
  'iu/ml': ['viralLoad', 1],
  kpa: ['pressure', 1],
  mmhg: ['pressure', 0.133322],
  'mm[hg]': ['pressure', 0.133322],
  '10^9/l': ['count', 1],
  '10+3/ul': ['count', 1],
  '10*3/ul': ['count', 1],
  '10^3/ul': ['count', 1],
  '[lb_av]': ['mass', 0.45359237],
  lb: ['mass', 0.45359237],
  '[in_i]': ['length', 2.54],
  in: ['length', 2.54],
  ug: ['mass', 1e-9],
  mcg: ['mass', 1e-9],
  '[degf]': ['temperature', 1],
  '°f': ['temperature', 1],
  cel: ['temperature', 1],
};

/** Fahrenheit spellings: temperatures convert by an offset, not a factor. */
const FAHRENHEIT = new Set(['[degf]', '°f']);

function unitKey(unit: string): string {
  return unit.trim().toLowerCase().replace(/[μµ]/g, 'u').replace(/\s+/g, '');
}

/** Strips spaces and punctuation so '丙氨酸氨基转移酶 (ALT)' and '丙氨酸氨基转移酶（alt）' agree. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[\s:：,，.。、;；'"“”\-_/]/g, '');
}

/** Spellings of a name: whole, without the bracket, and the bracketed abbreviation if not a unit. */
function spellings(name: string): string[] {
  const out = [squash(name.replace(/[()（）]/g, ''))];
  const m = /^(.*?)[(（]([^)）]*)[)）]\s*$/.exec(name);
  if (m) {
    out.push(squash(m[1]!));
    if (!(unitKey(m[2]!) in UNITS) && /[a-z]/i.test(m[2]!)) out.push(squash(m[2]!));
  }
  return out.filter((s) => s.length > 0);
}

function unitOf(item: FormItem): string | undefined {
  if (item.unit) return item.unit;
  const m = /[(（]([^)）]*)[)）]\s*$/.exec(item.title ?? '');
  return m && unitKey(m[1]!) in UNITS ? m[1] : undefined;
}

function nameScore(item: FormItem, entry: RecordEntry): number {
  if (!entry.displayName || !item.title) return 0;
  const a = spellings(item.title);
  const b = spellings(entry.displayName);
  if (a[0] === b[0]) return 3;
  if (a.some((x) => b.includes(x))) return 2;
  const [ta, tb] = [a[a.length > 1 ? 1 : 0]!, b[b.length > 1 ? 1 : 0]!];
  return ta.length >= 2 && tb.length >= 2 && (ta.includes(tb) || tb.includes(ta)) ? 1 : 0;
}

const YES = ['是', '有', '阳性', 'yes', 'true', 'positive'];
const NO = ['否', '无', '阴性', 'no', 'false', 'negative'];

function toOption(item: FormItem, entry: RecordEntry): string | number | undefined {
  const options = item.options ?? [];
  // A medication entry names the drug in its code's display name, not in its value.
  const said = [entry.value, entry.valueCode, entry.text, entry.displayName].filter((s): s is string => !!s);
  for (const s of said) {
    const byName = options.find((o) => squash(o.name) === squash(s));
    if (byName) return byName.code;
  }
  for (const s of said) {
    const byCode = options.find((o) => normalise(o.code) === normalise(s));
    if (byCode) return byCode.code;
  }
  const named = options.find(
    (o) => o.name.length >= 2 && said.some((s) => squash(s).includes(squash(o.name))),
  );
  if (named) return named.code;
  const truth = said.map((s) => s.toLowerCase()).find((s) => s === 'true' || s === 'false');
  if (truth) {
    const names = truth === 'true' ? YES : NO;
    return options.find((o) => names.includes(o.name.toLowerCase()))?.code;
  }
  return undefined;
}

type Placed = { value: unknown } | { why: PrefillReason };

function convert(item: FormItem, entry: RecordEntry): Placed {
  const kind = `${item.textType ?? ''} ${item.inputType ?? ''}`.toLowerCase();
  const raw = entry.value ?? entry.text;
  switch (item.type) {
    case 'radio':
    case 'score':
    case 'checkbox': {
      const code = toOption(item, entry);
      if (code === undefined) return { why: { code: 'notAnOption', item: item.key, value: raw ?? '' } };
      return { value: item.type === 'checkbox' ? [code] : code };
    }
    case 'textQuestion':
    case 'gapFilling': {
      // A medication fills a text item with its drug, a number item with its dose.
      if (entry.drug && !unitOf(item) && !kind.includes('number')) return { value: entry.drug };
      if (raw === undefined) return { why: { code: 'noValue', item: item.key } };
      let value: unknown = raw;
      const n = toNumber(raw);
      const target = unitOf(item);
      if (n === undefined && kind.includes('number'))
        return { why: { code: 'notANumber', item: item.key, value: raw } };
      if (n !== undefined && (kind.includes('number') || target)) {
        value = n;
        if (target && entry.unit && unitKey(target) !== unitKey(entry.unit)) {
          const from = UNITS[unitKey(entry.unit)];
          const to = UNITS[unitKey(target)];
          if (!from || !to || from[0] !== to[0]) {
            return { why: { code: 'unitNotConvertible', item: item.key, unit: entry.unit, target } };
          }
          const f = FAHRENHEIT.has(unitKey(entry.unit));
          const tf = FAHRENHEIT.has(unitKey(target));
          if (from[0] === 'temperature' && f !== tf) {
            value = Number((f ? ((n - 32) * 5) / 9 : (n * 9) / 5 + 32).toFixed(2));
          } else value = Number(((n * from[1]) / to[1]).toPrecision(12));
        }
      }
      if (item.type === 'gapFilling') {
        const blank = item.gapFilling?.[0];
        return item.gapFilling?.length === 1
          ? { value: { [blank?.key ?? '0']: value } }
          : { why: { code: 'severalBlanks', item: item.key } };
      }
      return { value };
    }
    default:
      return { why: { code: 'itemCannotTake', item: item.key, type: item.type } };
  }
}

/** Places a structured case record's entries into the form's items (`placeEntries`). */
export function mapRecordToAnswers(xml: string, form: Form): RecordMapping {
  return placeEntries(readRecordEntries(xml), form);
}

/**
 * Places entries (of a case record, or of the patient's clinical data) into the form's items;
 * returns answers, the entry behind each, and what it could not place with the reason.
 */
export function placeEntries(entries: RecordEntry[], form: Form): RecordMapping {
  const c = compiled(form);
  const items = c.nodes
    .map((n) => n.item)
    .filter(
      (i): i is FormItem =>
        !!i && i.type !== 'paragraph' && !(i.fxTopicData && i.fxManual !== true && i.fxManual !== 1),
    );
  const answers: Answers = {};
  const placed: Record<string, RecordEntry> = {};
  const unmatched: UnmatchedEntry[] = [];
  const refuse = (entry: RecordEntry, why: PrefillReason) =>
    unmatched.push({ entry, reason: prefillReasonText(why), why });
  // When two entries fit one item, the closer match (code, exact name, contained name) wins.
  const placedBy = new Map<string, { entry: RecordEntry; score: number }>();
  for (const entry of entries) {
    const codes = [entry.code, ...(entry.otherCodes ?? [])].filter((x): x is string => !!x);
    const byCode = codes.length
      ? items.find(
          (i) =>
            i.code &&
            String(i.code)
              .split(/[|,，]/)
              .map((s) => s.trim())
              .some((x) => codes.includes(x)),
        )
      : undefined;
    let target = byCode;
    let best = byCode ? 4 : 0;
    if (!target) {
      for (const item of items) {
        const s = nameScore(item, entry);
        if (s > best) [best, target] = [s, item];
      }
    }
    if (!target) {
      refuse(entry, { code: 'noItem' });
      continue;
    }
    const got = convert(target, entry);
    if ('why' in got) {
      refuse(entry, got.why);
      continue;
    }
    const prior = answers[target.key];
    if (target.type === 'checkbox' && Array.isArray(prior)) {
      // Several entries may tick options of one checkbox.
      answers[target.key] = [...new Set([...prior, ...(got.value as unknown[])])];
      placed[target.key] = entry;
      continue;
    }
    const held = placedBy.get(target.key);
    if (held && held.score >= best) {
      refuse(entry, { code: 'closerMatchHeld', item: target.key });
      continue;
    }
    if (held) refuse(held.entry, { code: 'closerMatchTaken', item: target.key });
    placedBy.set(target.key, { entry, score: best });
    answers[target.key] = got.value;
    placed[target.key] = entry;
  }
  return { answers, placed, unmatched };
}
