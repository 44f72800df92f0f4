import { type CompiledForm, compiled } from './compile.js';
import { isApplicable, normalise, type ParsedCondition } from './conditions.js';
import type { FunctionRegistry } from './functions.js';
import type { Bounds, Form, Problem, ProblemDetail } from './types.js';
import { toNumber } from './values.js';
import { answerItems } from './walk.js';

/**
 * Checks a form before it is published: what would make rules silently never fire, loop or
 * refuse every answer. The engine tolerates all of these at run time; this is where a form
 * designer hears about them.
 */

/** Strongly connected components of size > 1, or single nodes with an edge to themselves. */
function cycles(c: CompiledForm): number[][] {
  const n = c.nodes.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const found: number[][] = [];
  let counter = 0;
  for (let start = 0; start < n; start++) {
    if (index[start] !== -1) continue;
    // Iterative Tarjan: each frame is a node and the position in its edge list.
    const frames: [number, number][] = [[start, 0]];
    index[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = 1;
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const [v, e] = frame;
      const edges = c.dependents[v]!;
      if (e < edges.length) {
        frame[1]++;
        const w = edges[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      frames.pop();
      if (frames.length) {
        const parent = frames[frames.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || c.dependents[v]!.includes(v)) found.push(component.reverse());
      }
    }
  }
  return found;
}

function checkCondition(
  c: CompiledForm,
  at: string,
  indicator: number,
  indicatorKey: string,
  conditionText: string,
  parsed: ParsedCondition | undefined,
  problems: Problem[],
): void {
  if (indicator < 0) {
    problems.push({
      code: 'unknownKey',
      detail: 'indicatorUnknown',
      at,
      message: `indicator '${indicatorKey}' is not an item of the form`,
      keys: [indicatorKey],
      params: { key: indicatorKey },
    });
    return;
  }
  if (!parsed) {
    problems.push({
      code: 'unknownCondition',
      at,
      message: `condition '${conditionText}' is not known`,
      params: { condition: conditionText },
    });
    return;
  }
  const node = c.nodes[indicator]!;
  const notApplicable = (detail: ProblemDetail, why: string, extra: Record<string, string> = {}) =>
    problems.push({
      code: 'conditionNotApplicable',
      detail,
      at,
      message: `'${conditionText}' on '${indicatorKey}': ${why}`,
      keys: [indicatorKey],
      params: { condition: parsed.op, key: indicatorKey, ...extra },
    });
  if (!isApplicable(parsed.op, node.valueKind)) {
    const type = node.item?.type ?? node.kind;
    notApplicable('kindMismatch', `cannot apply to a ${type} answer`, { type });
    return;
  }
  const ordering = ['lessThan', 'greaterThan', 'lessOrEqual', 'greaterOrEqual'].includes(parsed.op);
  const o = parsed.operand;
  if (
    ordering &&
    node.valueKind === 'choice' &&
    node.item?.options?.some((opt) => toNumber(opt.code) === undefined)
  ) {
    notApplicable('noOrder', 'options have codes that are not numbers, so they have no order');
  } else if (ordering && node.valueKind === 'number' && o.num === undefined) {
    notApplicable('notNumber', `'${o.text}' is not a number`, { value: o.text });
  } else if (ordering && node.valueKind === 'date' && o.date === undefined) {
    notApplicable('notDate', `'${o.text}' is not a date`, { value: o.text });
  }
  const choices = node.item?.options;
  if (
    choices?.length &&
    ['equals', 'notEquals', 'inList', 'notInList', 'contains', 'notContains'].includes(parsed.op)
  ) {
    const codes = new Set(choices.map((opt) => normalise(opt.code)));
    const missing = [...o.set].filter((v) => !codes.has(v));
    if (missing.length)
      notApplicable('notOption', `value ${String(o.raw)} is not among the options`, { value: String(o.raw) });
  }
}

function checkBounds(
  at: string,
  b: Bounds & { selectLeastValue?: unknown; selectMostValue?: unknown },
  problems: Problem[],
) {
  const pairs: [unknown, unknown, string, ProblemDetail][] = [
    [b.minVal, b.maxVal, 'minVal > maxVal', 'valueRange'],
    [b.minNub, b.maxNub, 'minNub > maxNub', 'lengthRange'],
    [b.selectLeastValue, b.selectMostValue, 'selectLeastValue > selectMostValue', 'choiceRange'],
  ];
  for (const [min, max, what, detail] of pairs) {
    const lo = toNumber(min);
    const hi = toNumber(max);
    if (lo !== undefined && hi !== undefined && hi > 0 && lo > hi) {
      problems.push({
        code: 'minExceedsMax',
        detail,
        at,
        message: `${what} (${lo} > ${hi}): no answer can pass`,
        params: { min: lo, max: hi },
      });
    }
  }
}

export function analyzeForm(form: Form, functions?: FunctionRegistry): Problem[] {
  const c = compiled(form, functions);
  const problems: Problem[] = [];
  // Paragraphs alone collect nothing: such a form cannot be published.
  if (!answerItems(form).length)
    problems.push({ code: 'noItems', at: 'pages', message: 'the form has no item to answer' });
  const seen = new Set<string>();
  for (const node of c.nodes) {
    if (seen.has(node.key)) {
      problems.push({
        code: 'duplicateKey',
        at: node.key,
        message: `key '${node.key}' is used twice`,
        keys: [node.key],
        params: { key: node.key },
      });
    }
    seen.add(node.key);
  }
  for (const rule of c.rules) {
    checkCondition(
      c,
      rule.origin,
      rule.indicator,
      rule.indicatorKey,
      rule.conditionText,
      rule.parsed,
      problems,
    );
    for (const key of rule.unknownTargets) {
      problems.push({
        code: 'unknownKey',
        detail: 'targetUnknown',
        at: rule.origin,
        message: `target '${key}' is not in the form`,
        keys: [key],
        params: { key },
      });
    }
  }
  c.nodes.forEach((node, i) => {
    const item = node.item;
    if (!item) return;
    c.required[i]?.conditions.forEach((cond, j) => {
      const at = `${node.key}.requiredRule.rules.${j}`;
      checkCondition(c, at, cond.indicator, cond.indicatorKey, cond.text, cond.parsed, problems);
    });
    const calc = c.calcs[i];
    if (calc) {
      const at = `${node.key}.fxTopicData`;
      if (!calc.fn) {
        problems.push({
          code: 'unknownFunction',
          at,
          message: `function '${calc.fnName}' is not registered`,
          params: { fn: calc.fnName },
        });
      }
      for (const key of calc.unknownFields) {
        problems.push({
          code: 'unknownKey',
          detail: 'fieldUnknown',
          at,
          message: `field '${key}' is not in the form`,
          keys: [key],
          params: { key },
        });
      }
    }
    checkBounds(node.key, item, problems);
    item.gapFilling?.forEach((blank, j) => {
      checkBounds(`${node.key}.gapFilling.${j}`, blank, problems);
    });
    item.rows?.forEach((row, j) => {
      checkBounds(`${node.key}.rows.${j}`, row, problems);
    });
  });
  for (const component of cycles(c)) {
    const keys = component.map((n) => c.nodes[n]!.key);
    problems.push({
      code: 'cycle',
      at: keys[0]!,
      message: `computed fields and show rules depend on each other in a loop: ${keys.join(' -> ')}`,
      keys,
      params: { path: keys.join(' → ') },
    });
  }
  return problems;
}
