/**
 * CRF engine against SurveyJS (survey-core) on the same generated form, in the same run:
 * 1,000 items on 20 pages, 500 show rules, 100 computed fields. Prints each measure and
 * `ratio=<ours/surveyjs>`. Run: `npx tsx bench/crf-engine.ts` (or `node --import tsx`).
 */
import { SurveyModel } from 'survey-core';
import { createFormEngine, type Form, type FormItem, type ShowRule } from '../packages/crf/src/index.js';

const PAGES = 20;
const PER_PAGE = 50;
const RULES = 500;
const COMPUTED = 100;
const SET_OPS = 600;

/** Seeded generator, so both engines and every run see the same form and answers. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = prng(20240315);
const pick = (n: number) => Math.floor(rand() * n);

type Kind = 'number' | 'radio' | 'checkbox' | 'computed';
const total = PAGES * PER_PAGE;
const kinds: Kind[] = Array.from({ length: total }, (_, i) =>
  i % 3 === 0 ? 'number' : i % 3 === 1 ? 'radio' : 'checkbox',
);
// Computed fields spread through the form, each summing three earlier number items.
const computedAt = new Set<number>();
while (computedAt.size < COMPUTED) computedAt.add(30 + pick(total - 30));
for (const i of computedAt) kinds[i] = 'computed';
const numberItems = kinds.flatMap((k, i) => (k === 'number' ? [i] : []));
const earlierNumbers = (i: number) => numberItems.filter((n) => n < i);

interface Rule {
  indicator: number;
  target: number;
  op: 'equals' | 'greater than' | 'contains';
  value: string | number;
}
const rules: Rule[] = [];
while (rules.length < RULES) {
  const target = 1 + pick(total - 1);
  const indicator = pick(target);
  const k = kinds[indicator]!;
  if (k === 'computed') continue;
  if (k === 'number') rules.push({ indicator, target, op: 'greater than', value: pick(100) });
  else if (k === 'radio') rules.push({ indicator, target, op: 'equals', value: String(1 + pick(3)) });
  else rules.push({ indicator, target, op: 'contains', value: String(1 + pick(3)) });
}
const sums = new Map<number, number[]>();
for (const i of computedAt) {
  const from = earlierNumbers(i);
  sums.set(i, [from[pick(from.length)]!, from[pick(from.length)]!, from[pick(from.length)]!]);
}

const options = [1, 2, 3].map((c) => ({ name: `option ${c}`, code: String(c) }));

function ourForm(): Form {
  const items: FormItem[] = kinds.map((kind, i): FormItem => {
    const key = `q${i}`;
    if (kind === 'number')
      return {
        key,
        type: 'textQuestion',
        textType: 'number',
        isRequired: i % 2 === 1,
        minVal: 0,
        maxVal: 100,
      };
    if (kind === 'radio') return { key, type: 'radio', isRequired: 1, options };
    if (kind === 'checkbox') return { key, type: 'checkbox', options, selectMostValue: 2 };
    return {
      key,
      type: 'textQuestion',
      fxTopicData: { func: 'sum', fields: sums.get(i)!.map((n) => `q${n}`) },
    };
  });
  const showRules: ShowRule[] = rules.map((r) => ({
    indicatorName: `q${r.indicator}`,
    condition: r.op,
    indicatorVal: r.value,
    selectItems: [`q${r.target}`],
  }));
  return {
    pages: Array.from({ length: PAGES }, (_, p) => ({
      key: `page${p}`,
      items: items.slice(p * PER_PAGE, (p + 1) * PER_PAGE),
    })),
    showRules,
  };
}

function surveyJson() {
  const visibleIf = new Map<number, string[]>();
  for (const r of rules) {
    const op = r.op === 'equals' ? '=' : r.op === 'greater than' ? '>' : 'contains';
    const value = typeof r.value === 'number' ? r.value : `'${r.value}'`;
    visibleIf.set(r.target, [...(visibleIf.get(r.target) ?? []), `{q${r.indicator}} ${op} ${value}`]);
  }
  const choices = options.map((o) => ({ value: o.code, text: o.name }));
  const elements = kinds.map((kind, i) => {
    const base: Record<string, unknown> = { name: `q${i}` };
    const cond = visibleIf.get(i);
    if (cond) base.visibleIf = cond.join(' or ');
    if (kind === 'number') {
      return {
        ...base,
        type: 'text',
        inputType: 'number',
        isRequired: i % 2 === 1,
        validators: [{ type: 'numeric', minValue: 0, maxValue: 100 }],
      };
    }
    if (kind === 'radio') return { ...base, type: 'radiogroup', isRequired: true, choices };
    if (kind === 'checkbox') return { ...base, type: 'checkbox', choices, maxSelectedChoices: 2 };
    return {
      ...base,
      type: 'expression',
      expression: `sum(${sums
        .get(i)!
        .map((n) => `{q${n}}`)
        .join(', ')})`,
    };
  });
  return {
    pages: Array.from({ length: PAGES }, (_, p) => ({
      name: `page${p}`,
      elements: elements.slice(p * PER_PAGE, (p + 1) * PER_PAGE),
    })),
  };
}

// The same answer sequence for both: mostly indicators, so rules and sums really fire.
const indicators = [...new Set(rules.map((r) => r.indicator)), ...numberItems];
const ops: [string, unknown][] = Array.from({ length: SET_OPS }, () => {
  const i = indicators[pick(indicators.length)]!;
  const k = kinds[i]!;
  const value = k === 'number' ? pick(120) : k === 'radio' ? String(1 + pick(3)) : [String(1 + pick(3))];
  return [`q${i}`, value];
});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(runs: number, setup: () => void, fn: () => void): number {
  const out: number[] = [];
  for (let r = 0; r < runs; r++) {
    setup();
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

function report(name: string, ours: number, theirs: number, unit: string) {
  const fmt = (x: number) => (x < 0.1 ? x.toFixed(4) : x.toFixed(2));
  console.log(
    `${name.padEnd(10)} ours=${fmt(ours)}${unit} surveyjs=${fmt(theirs)}${unit} ratio=${(ours / theirs).toFixed(4)}`,
  );
}

const json = surveyJson();
let form = ourForm();
const RUNS = 7;

// Build: a fresh form object each run, so our per-form compile cache does not help.
const buildOurs = time(
  RUNS,
  () => (form = ourForm()),
  () => void createFormEngine(form),
);
const buildTheirs = time(
  RUNS,
  () => {},
  () => void new SurveyModel(json),
);

// setAnswer: the same sequence on one engine each, per call.
const ours = createFormEngine(ourForm());
const theirs = new SurveyModel(json);
for (const [k, v] of ops.slice(0, 200)) {
  ours.setAnswer(k, v);
  theirs.setValue(k, v);
}
const setOurs =
  time(
    RUNS,
    () => {},
    () => {
      for (const [k, v] of ops) ours.setAnswer(k, v);
    },
  ) / SET_OPS;
// SurveyJS re-runs every condition on each change (tens of ms here), so it gets a shorter slice.
const theirOps = ops.slice(0, 300);
const setTheirs =
  time(
    1,
    () => {},
    () => {
      for (const [k, v] of theirOps) theirs.setValue(k, v);
    },
  ) / theirOps.length;
for (const [k, v] of ops.slice(300)) theirs.setValue(k, v);

// Both engines end in the same state, or the comparison means nothing.
// By design CRDP reads a hidden item's answer as empty (its value is not submitted), so an
// item whose only showing rule reads a hidden indicator is hidden too; SurveyJS still reads
// the hidden value. Disagreements are counted apart when that explains them.
let disagree = 0;
let byHiddenIndicator = 0;
for (let i = 0; i < total; i++) {
  const q = theirs.getQuestionByName(`q${i}`);
  if (!q || q.isVisible === ours.isVisible(`q${i}`)) continue;
  const readsHidden = rules.some((r) => r.target === i && !ours.isVisible(`q${r.indicator}`));
  if (readsHidden) byHiddenIndicator++;
  else disagree++;
}

const validateOurs = time(
  RUNS,
  () => {},
  () => void ours.validate(),
);
const validateTheirs = time(
  RUNS,
  () => {},
  () => void theirs.validate(false, false),
);

console.log(
  `crf-engine: ${total} items, ${PAGES} pages, ${RULES} show rules, ${COMPUTED} computed; Node ${process.version}`,
);
report('build', buildOurs, buildTheirs, 'ms');
report('setAnswer', setOurs, setTheirs, 'ms');
report('validate', validateOurs, validateTheirs, 'ms');
console.log(
  `visibility: ${byHiddenIndicator} items differ because a hidden indicator reads as empty; ${disagree} differ otherwise`,
);
console.log(
  `target setAnswer ratio<=0.1: ${setOurs / setTheirs <= 0.1 ? 'met' : 'MISSED'}; under 1 ms: ${setOurs < 1 ? 'met' : 'MISSED'}`,
);
