import { type CompiledForm, compiled } from './compile.js';
import { runCondition } from './conditions.js';
import { answersInForm } from './embedded.js';
import type { FunctionRegistry } from './functions.js';
import type { Answers, Form, Issue } from './types.js';
import { validateState } from './validate.js';
import { isEmpty, isOn, roundTo, sameValue } from './values.js';

export interface EngineOptions {
  /** Calculation functions; the defaults when absent. */
  functions?: FunctionRegistry;
  /** Clock for 'age today'; injectable so tests and servers agree on the day. */
  now?: () => Date;
  /**
   * Methods saved with the answers (`snapshot().methods`): a computed item saved as
   * 'machine' is recomputed on load rather than taken as a manual entry.
   */
  methods?: Record<string, string>;
}

export type Method = 'machine' | 'manual';

export interface FormSnapshot {
  /** Answers to submit: visible items only (hidden items' values are not submitted). */
  answers: Answers;
  /** For each computed item, whether its value is computed or entered by a person. */
  methods: Record<string, Method>;
  /** Latest computed value of each computed item (the older product's fxVal). */
  computed: Record<string, unknown>;
  /** Keys of items hidden now. */
  hidden: string[];
  /** Keys of items required now. */
  required: string[];
}

export interface FormEngine {
  readonly form: Form;
  /** Records an answer and re-evaluates only what depends on it; false when nothing changed. */
  setAnswer(key: string, value: unknown): boolean;
  getAnswer(key: string): unknown;
  isVisible(key: string): boolean;
  isRequired(key: string): boolean;
  validate(): Issue[];
  snapshot(): FormSnapshot;
}

/** What validation reads of a running engine. */
export interface EngineState {
  c: CompiledForm;
  values: unknown[];
  visible: Uint8Array;
  requiredAt(index: number): boolean;
}

// Callers may reuse and mutate arrays they pass in; the engine keeps its own copy.
function own(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

/** A small binary heap of node indices ordered by evaluation rank. */
class RankQueue {
  private readonly heap: number[] = [];
  private readonly queued: Uint8Array;
  constructor(private readonly rank: Int32Array) {
    this.queued = new Uint8Array(rank.length);
  }
  get size() {
    return this.heap.length;
  }
  push(n: number) {
    if (this.queued[n]) return;
    this.queued[n] = 1;
    const h = this.heap;
    let i = h.push(n) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.rank[h[p]!]! <= this.rank[n]!) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = n;
  }
  pop(): number {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && this.rank[h[r]!]! < this.rank[h[l]!]! ? r : l;
        if (this.rank[h[c]!]! >= this.rank[last]!) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    this.queued[top] = 0;
    return top;
  }
}

export function createFormEngine(form: Form, answers?: Answers, options: EngineOptions = {}): FormEngine {
  const c = compiled(form, options.functions);
  const { nodes, byKey, rulesByTarget, calcs, dependents } = c;
  const now = options.now ?? (() => new Date());
  const count = nodes.length;
  const values: unknown[] = new Array(count).fill(undefined);
  const visible = new Uint8Array(count);
  const manual = new Uint8Array(count);
  const machine: unknown[] = new Array(count).fill(undefined);
  const queue = new RankQueue(c.rank);
  // Guards a form with a cycle: each node may be re-queued a bounded number of times.
  const maxSteps = count * 8 + 16;

  const effective = (i: number): unknown => (i >= 0 && visible[i] ? values[i] : undefined);

  const shown = (i: number): boolean => {
    const node = nodes[i]!;
    if (node.parent >= 0 && !visible[node.parent]) return false;
    const rules = rulesByTarget[i]!;
    if (rules.length === 0) return !node.isHide;
    for (const rule of rules) {
      // A rule the engine cannot read shows its targets, so no answer is silently dropped.
      if (!rule.parsed) return true;
      if (runCondition(rule.parsed, effective(rule.indicator), nodes[rule.indicator]?.asSet ?? false))
        return true;
    }
    return false;
  };

  const compute = (i: number): unknown => {
    const calc = calcs[i]!;
    if (!calc.fn) return undefined;
    try {
      const result = calc.fn({
        values: calc.fields.map(effective),
        items: calc.fields.map((f) => nodes[f]?.item),
        x: effective(calc.x),
        y: effective(calc.y),
        compare: calc.compare,
        now,
      });
      return typeof result === 'number' && Number.isFinite(result)
        ? roundTo(result, nodes[i]!.item?.fixed)
        : undefined;
    } catch {
      // A study's own function must not break data entry; the item stays empty.
      return undefined;
    }
  };

  /** Re-evaluates one node; true when what its dependents read of it has changed. */
  const update = (i: number): boolean => {
    const before = effective(i);
    const wasVisible = visible[i];
    visible[i] = shown(i) ? 1 : 0;
    if (calcs[i]) {
      machine[i] = compute(i);
      if (!manual[i]) values[i] = machine[i];
    }
    return visible[i] !== wasVisible || !sameValue(effective(i), before);
  };

  const propagate = (from: number) => {
    for (const d of dependents[from]!) queue.push(d);
    let steps = 0;
    while (queue.size > 0 && steps++ < maxSteps) {
      const n = queue.pop();
      if (update(n)) for (const d of dependents[n]!) queue.push(d);
    }
    while (queue.size > 0) queue.pop();
  };

  /** Stores a raw answer; false when the key takes no answer or the value is refused. */
  const store = (i: number, value: unknown, savedMethod?: string): boolean => {
    const node = nodes[i]!;
    if (node.kind !== 'item' || node.item?.type === 'paragraph') return false;
    const calc = calcs[i];
    if (!calc) {
      values[i] = own(value);
      return true;
    }
    // A computed item takes a person's value only where manual override is allowed;
    // clearing it hands the item back to the machine.
    if (!calc.manual || savedMethod === 'machine') return false;
    if (isEmpty(value)) {
      manual[i] = 0;
      values[i] = machine[i];
    } else {
      manual[i] = 1;
      values[i] = own(value);
    }
    return true;
  };

  const methods = options.methods ?? {};
  // Without answers, an older form opens with the answers stored in it. Answers come from
  // browsers and imports: anything but an object of answers is no answer.
  const given =
    answers === undefined
      ? answersInForm(form)
      : typeof answers === 'object' && answers !== null && !Array.isArray(answers)
        ? answers
        : {};
  for (const [key, value] of Object.entries(given)) {
    const i = byKey.get(key);
    if (i !== undefined) store(i, value, methods[key]);
  }
  for (const n of c.order) update(n);

  const requiredAt = (i: number): boolean => {
    const node = nodes[i];
    const item = node?.item;
    if (!item || !visible[i] || item.type === 'paragraph') return false;
    const rule = c.required[i];
    if (!rule || rule.conditions.length === 0) return isOn(item.isRequired);
    const holds = (cond: (typeof rule.conditions)[number]) =>
      cond.parsed !== undefined &&
      runCondition(cond.parsed, effective(cond.indicator), nodes[cond.indicator]?.asSet ?? false);
    return rule.all ? rule.conditions.every(holds) : rule.conditions.some(holds);
  };

  const state: EngineState = { c, values, visible, requiredAt };

  return {
    form,
    setAnswer(key, value) {
      const i = byKey.get(key);
      if (i === undefined) return false;
      const before = effective(i);
      const beforeRaw = values[i];
      if (!store(i, value)) return false;
      // A computed item is re-evaluated too: clearing a manual value hands it back to the machine.
      if (calcs[i]) update(i);
      const changed = !sameValue(effective(i), before);
      if (changed) propagate(i);
      return changed || !sameValue(values[i], beforeRaw);
    },
    getAnswer(key) {
      const i = byKey.get(key);
      return i === undefined ? undefined : values[i];
    },
    isVisible(key) {
      const i = byKey.get(key);
      return i !== undefined && visible[i] === 1;
    },
    isRequired(key) {
      const i = byKey.get(key);
      return i !== undefined && requiredAt(i);
    },
    validate() {
      return validateState(state);
    },
    snapshot() {
      const snap: FormSnapshot = { answers: {}, methods: {}, computed: {}, hidden: [], required: [] };
      for (const node of nodes) {
        if (node.kind !== 'item') continue;
        const i = node.index;
        if (!visible[i]) snap.hidden.push(node.key);
        else if (values[i] !== undefined && node.item?.type !== 'paragraph')
          snap.answers[node.key] = own(values[i]);
        if (requiredAt(i)) snap.required.push(node.key);
        if (calcs[i]) {
          snap.methods[node.key] = manual[i] ? 'manual' : 'machine';
          snap.computed[node.key] = machine[i];
        }
      }
      return snap;
    },
  };
}

/** Server-side check of a submission: the same rules the browser ran, run again. */
export function validateSubmission(form: Form, answers: Answers, options?: EngineOptions): Issue[] {
  return createFormEngine(form, answers, options).validate();
}
