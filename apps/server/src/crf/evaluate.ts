import { answerItems, createFormEngine, type Form, type Issue, type IssueCode } from '@crdp/crf';
import { invalid } from './actor.js';

/** What a draft may lack: completeness, not correctness. */
const COMPLETENESS: ReadonlySet<IssueCode> = new Set(['required', 'rowRequired', 'minOptions']);

export interface Evaluated {
  answers: Record<string, unknown>;
  methods: Record<string, string>;
  issues: Issue[];
}

/**
 * Runs the CRF engine over submitted answers, authoritatively: computed items are recomputed,
 * hidden items dropped, and the issues are those the engine finds. A draft is held only to
 * correctness (numbers, bounds, options); a submission also to completeness.
 */
export function evaluateAnswers(
  form: Form,
  answers: Record<string, unknown>,
  methods: Record<string, string>,
  mode: 'draft' | 'submit',
): Evaluated {
  const known = new Set(answerItems(form).map((x) => x.item.key));
  for (const key of Object.keys(answers)) {
    if (!known.has(key))
      throw invalid(`body.answers.${key}`, '本表单没有这个键的题目', 'no item of this form has this key');
  }
  for (const [key, m] of Object.entries(methods)) {
    if (!known.has(key))
      throw invalid(`body.methods.${key}`, '本表单没有这个键的题目', 'no item of this form has this key');
    if (m !== 'machine' && m !== 'manual')
      throw invalid(`body.methods.${key}`, '应为 machine 或 manual', 'must be machine or manual');
  }
  const engine = createFormEngine(form, answers, { methods });
  const snap = engine.snapshot();
  const all = engine.validate().filter((i) => i.severity === 'error');
  const issues = mode === 'submit' ? all : all.filter((i) => !COMPLETENESS.has(i.code));
  return { answers: snap.answers, methods: snap.methods, issues };
}

// The 400 answer of a refused save is a route's concern: reply.ts (re-exported for older imports).
export { sendIssues } from './reply.js';

/** Order-independent comparison of JSON values (answers come back from jsonb with keys reordered). */
export function sameJson(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(v: unknown): string {
  if (v === undefined || v === null || v === '') return 'null';
  if (Array.isArray(v)) return v.length ? `[${v.map(stable).join(',')}]` : 'null';
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : 1));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stable(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
