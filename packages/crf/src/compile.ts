import { type ParsedCondition, parseCondition, type ValueKind } from './conditions.js';
import {
  type CalcFunction,
  createFunctionRegistry,
  type FunctionRegistry,
  findFunction,
} from './functions.js';
import type { Condition, Form, FormElement, FormItem, ShowRule } from './types.js';
import { itemValueKind } from './value-kind.js';
import { isOff, isOn, toKeys } from './values.js';
import { isItem, walkBelow } from './walk.js';

/**
 * Compiles a form once into flat arrays and a dependency graph, so the engine works with
 * indices instead of walking JSON, and `setAnswer` touches only what depends on the change.
 * Problems met on the way (unknown keys, unknown conditions) are kept for `analyzeForm`
 * rather than thrown: a form from the older product must still open.
 */

export interface FormNode {
  index: number;
  key: string;
  kind: 'page' | 'container' | 'item';
  element: FormElement;
  /** Set for items only. */
  item: FormItem | undefined;
  parent: number;
  /** Page number the user sees, 1-based. */
  page: number;
  isHide: boolean;
  /** Read the answer as a set of chosen options. */
  asSet: boolean;
  valueKind: ValueKind;
}

export interface CompiledRule {
  /** Where the rule is written, for messages. */
  origin: string;
  indicatorKey: string;
  indicator: number;
  conditionText: string;
  parsed: ParsedCondition | undefined;
  targets: number[];
  unknownTargets: string[];
}

export interface CompiledCalc {
  fnName: string;
  fn: CalcFunction | undefined;
  fields: number[];
  x: number;
  y: number;
  compare: unknown;
  unknownFields: string[];
  manual: boolean;
}

export interface CompiledRequired {
  all: boolean;
  conditions: {
    indicator: number;
    indicatorKey: string;
    parsed: ParsedCondition | undefined;
    text: string;
  }[];
}

export interface CompiledForm {
  form: Form;
  nodes: FormNode[];
  byKey: Map<string, number>;
  rules: CompiledRule[];
  rulesByTarget: CompiledRule[][];
  calcs: (CompiledCalc | undefined)[];
  required: (CompiledRequired | undefined)[];
  /** For each node, the nodes whose visibility or computed value read it. */
  dependents: number[][];
  /** Position in evaluation order; nodes on a cycle come after the rest, in form order. */
  rank: Int32Array;
  order: number[];
  functions: FunctionRegistry;
}

function flatten(form: Form): { nodes: FormNode[]; byKey: Map<string, number> } {
  const nodes: FormNode[] = [];
  const byKey = new Map<string, number>();
  const add = (
    element: FormElement,
    kind: FormNode['kind'],
    parent: number,
    page: number,
    fallbackKey: string,
  ) => {
    const item = kind === 'item' ? (element as FormItem) : undefined;
    const key = typeof element.key === 'string' && element.key ? element.key : fallbackKey;
    const index = nodes.length;
    const valueKind = item ? itemValueKind(item) : 'none';
    nodes.push({
      index,
      key,
      kind,
      element,
      item,
      parent,
      page,
      isHide: isOn(element.isHide),
      asSet: valueKind === 'set',
      valueKind,
    });
    if (!byKey.has(key)) byKey.set(key, index);
    return index;
  };
  form.pages.forEach((page, i) => {
    const self = add(page, 'page', -1, i + 1, `page${i + 1}`);
    const containers = new Map<FormElement, number>();
    walkBelow(page, (child, at) => {
      const parent = at.parents.length ? containers.get(at.parents[at.parents.length - 1]!)! : self;
      if (isItem(child)) add(child, 'item', parent, i + 1, `__${child.type}_${nodes.length}`);
      else containers.set(child, add(child, 'container', parent, i + 1, `__container_${nodes.length}`));
    });
  });
  return { nodes, byKey };
}

function showRulesOf(form: Form, nodes: FormNode[]): { rule: ShowRule; origin: string; indicator: string }[] {
  const out: { rule: ShowRule; origin: string; indicator: string }[] = [];
  (form.showRules ?? []).forEach((rule, i) => {
    out.push({ rule, origin: `showRules.${i}`, indicator: rule.indicatorName ?? '' });
  });
  for (const node of nodes) {
    const item = node.item;
    if (!item?.showRules || isOff(item.ShowItemRelationFlg)) continue;
    item.showRules.forEach((rule, i) => {
      out.push({ rule, origin: `${node.key}.showRules.${i}`, indicator: rule.indicatorName || node.key });
    });
  }
  return out;
}

function compileCalc(item: FormItem, byKey: Map<string, number>, functions: FunctionRegistry): CompiledCalc {
  const calc = item.fxTopicData!;
  const fnName = String(calc.func || calc.compulateType || '');
  const unknownFields: string[] = [];
  const lookup = (key: string | undefined) => {
    if (!key) return -1;
    const i = byKey.get(key);
    if (i === undefined && !unknownFields.includes(key)) unknownFields.push(key);
    return i ?? -1;
  };
  const fields = toKeys(calc.fields).map(lookup);
  const xy = calc.xyValue;
  const [xKey, yKey] = Array.isArray(xy) ? xy : [xy?.x, xy?.y];
  const fieldKeys = toKeys(calc.fields);
  return {
    fnName,
    fn: findFunction(functions, fnName),
    fields,
    x: lookup(xKey ?? fieldKeys[0]),
    y: lookup(yKey ?? fieldKeys[1]),
    compare: calc.compare,
    unknownFields,
    manual: isOn(item.fxManual),
  };
}

function compileRequired(item: FormItem, byKey: Map<string, number>): CompiledRequired | undefined {
  const rule = item.requiredRule;
  if (!rule || !Array.isArray(rule.rules)) return undefined;
  return {
    all: String(rule.condition ?? 'all').toLowerCase() === 'all',
    conditions: rule.rules.map((c: Condition) => ({
      indicator: byKey.get(c.indicatorName) ?? -1,
      indicatorKey: c.indicatorName,
      parsed: parseCondition(c),
      text: c.condition,
    })),
  };
}

/** Kahn's order over the dependency edges; what is left is on (or behind) a cycle. */
function rankNodes(count: number, dependents: number[][]): { rank: Int32Array; order: number[] } {
  const indegree = new Int32Array(count);
  for (const ds of dependents) for (const d of ds) indegree[d]!++;
  const order: number[] = [];
  const queue: number[] = [];
  for (let i = 0; i < count; i++) if (indegree[i] === 0) queue.push(i);
  for (let head = 0; head < queue.length; head++) {
    const n = queue[head]!;
    order.push(n);
    for (const d of dependents[n]!) if (--indegree[d]! === 0) queue.push(d);
  }
  if (order.length < count) {
    const placed = new Uint8Array(count);
    for (const n of order) placed[n] = 1;
    for (let i = 0; i < count; i++) if (!placed[i]) order.push(i);
  }
  const rank = new Int32Array(count);
  order.forEach((n, r) => {
    rank[n] = r;
  });
  return { rank, order };
}

export function compileForm(form: Form, functions: FunctionRegistry): CompiledForm {
  const { nodes, byKey } = flatten(form);
  const dependents: number[][] = nodes.map(() => []);
  const edge = (from: number, to: number) => {
    if (from >= 0 && !dependents[from]!.includes(to)) dependents[from]!.push(to);
  };
  for (const n of nodes) edge(n.parent, n.index);

  const rulesByTarget: CompiledRule[][] = nodes.map(() => []);
  const rules = showRulesOf(form, nodes).map(({ rule, origin, indicator }): CompiledRule => {
    const unknownTargets: string[] = [];
    const targets: number[] = [];
    for (const key of [...toKeys(rule.selectItems), ...toKeys(rule.selectPanel)]) {
      const t = byKey.get(key);
      if (t === undefined) unknownTargets.push(key);
      else if (!targets.includes(t)) targets.push(t);
    }
    return {
      origin,
      indicatorKey: indicator,
      indicator: byKey.get(indicator) ?? -1,
      conditionText: String(rule.condition),
      parsed: parseCondition({ condition: String(rule.condition), indicatorVal: rule.indicatorVal }),
      targets,
      unknownTargets,
    };
  });
  for (const rule of rules) {
    for (const t of rule.targets) {
      rulesByTarget[t]!.push(rule);
      edge(rule.indicator, t);
    }
  }

  const calcs = nodes.map((n) =>
    n.item?.fxTopicData && !isOff(n.item.fxRadio) ? compileCalc(n.item, byKey, functions) : undefined,
  );
  calcs.forEach((c, i) => {
    if (!c) return;
    for (const f of [...c.fields, c.x, c.y]) edge(f, i);
  });
  const required = nodes.map((n) => (n.item ? compileRequired(n.item, byKey) : undefined));
  const { rank, order } = rankNodes(nodes.length, dependents);
  return { form, nodes, byKey, rules, rulesByTarget, calcs, required, dependents, rank, order, functions };
}

const defaultRegistry = createFunctionRegistry();
const cache = new WeakMap<Form, WeakMap<FunctionRegistry, CompiledForm>>();

/** The compiled form, built once per form object and function registry. */
export function compiled(form: Form, functions: FunctionRegistry = defaultRegistry): CompiledForm {
  let byRegistry = cache.get(form);
  if (!byRegistry) {
    byRegistry = new WeakMap();
    cache.set(form, byRegistry);
  }
  let c = byRegistry.get(functions);
  if (!c) {
    c = compileForm(form, functions);
    byRegistry.set(functions, c);
  }
  return c;
}
