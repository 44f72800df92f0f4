import { formatMessage } from '@crdp/core';
import { answerItems, createFormEngine, type Form, type Issue, type IssueCode } from '@crdp/crf';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** An invalid save: 400 with the engine's issues (page, question, message); nothing is stored. */
export function sendIssues(req: FastifyRequest, reply: FastifyReply, issues: Issue[]) {
  const first = issues[0]!;
  const en = req.locale === 'en-US';
  return reply.code(400).send({
    code: 400,
    data: null,
    issues: issues.map((i) => ({
      key: i.key,
      path: i.path,
      page: i.page,
      question: i.question,
      code: i.code,
      message: en ? i.messageEn : i.message,
      ...(i.blank !== undefined ? { blank: i.blank } : {}),
      ...(i.row !== undefined ? { row: i.row } : {}),
    })),
    message: formatMessage('crf.invalid', req.locale, {
      count: issues.length,
      first: en ? first.messageEn : first.message,
    }),
    errorCode: 'crf.invalid',
    field: `body.answers.${first.key}`,
    requestId: String(req.id),
  });
}

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
