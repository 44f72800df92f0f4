import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  issueText,
  schemaMessage,
  type ValidationProblem,
  validationText,
  valueAt,
} from './validation-messages.js';

/** The problems of a failed parse in the shape fastify-type-provider-zod hands to the error handler. */
function problems(schema: z.ZodType, input: unknown): Array<{ problem: ValidationProblem; path: string[] }> {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected a failure');
  return r.error.issues.map(({ code, message, path, ...params }) => ({
    problem: { keyword: code, message, params },
    path: path.map(String),
  }));
}

const zh = (schema: z.ZodType, input: unknown) =>
  problems(schema, input).map(({ problem, path }) => validationText(problem, 'zh-CN', valueAt(input, path)));

describe('validation problems in Chinese', () => {
  it('says what was expected and what came', () => {
    const s = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) });
    expect(zh(s, { name: 3, age: 1.5 })).toEqual([
      '应为文本，收到的是数字',
      '应为整数，收到的是数字',
      '必填，不能缺少',
    ]);
  });

  it('names limits, allowed values and formats', () => {
    const s = z.object({
      a: z.string().min(1),
      b: z.string().max(5),
      c: z.number().min(0),
      d: z.number().lt(10),
      e: z.array(z.number()).max(2),
      f: z.enum(['csv', 'xlsx']),
      g: z.string().regex(/^\d+$/),
      h: z.email(),
      i: z.string().refine((v) => v.length <= 2, 'at most 2 characters'),
      j: z.string().refine((v) => v === 'x', 'must be x'),
    });
    expect(
      zh(s, {
        a: '',
        b: 'abcdefg',
        c: -1,
        d: 10,
        e: [1, 2, 3],
        f: 'xls',
        g: 'x1',
        h: 'no',
        i: 'abc',
        j: 'y',
      }),
    ).toEqual([
      '不能为空',
      '最多 5 个字符',
      '不能小于 0',
      '应小于 10',
      '最多 2 项',
      '应为以下之一："csv"、"xlsx"',
      '格式不正确',
      '应为有效的电子邮件地址',
      '最多 2 个字符',
      'must be x',
    ]);
  });

  it('lists unknown fields of a strict object, and leaves English to zod', () => {
    const s = z.strictObject({ a: z.string() });
    expect(zh(s, { a: 'x', b: 1 })).toEqual(['不认识的字段："b"']);
    const [first] = problems(s, { a: 'x', b: 1 });
    expect(validationText(first!.problem, 'en-US', undefined)).toBe(first!.problem.message);
  });
});

describe('problems found in a handler and refinements with their own words', () => {
  it('gives a refinement message written with schemaMessage in Chinese, the English unchanged', () => {
    const s = z.object({ min: z.number(), max: z.number() }).refine((v) => v.min <= v.max, {
      message: schemaMessage('min 不能大于 max', 'min must not exceed max'),
    });
    const issue = s.safeParse({ min: 2, max: 1 }).error!.issues[0]!;
    expect(issue.message).toBe('min must not exceed max');
    expect(issueText(issue, { min: 2, max: 1 })).toEqual({
      'zh-CN': 'min 不能大于 max',
      'en-US': 'min must not exceed max',
    });
  });

  it('words a zod issue checked in a handler in both languages, reading the value at its path', () => {
    const s = z.array(z.object({ UserName: z.string() }));
    const issue = s.safeParse([{ UserName: 5 }]).error!.issues[0]!;
    expect(issueText(issue, [{ UserName: 5 }])).toEqual({
      'zh-CN': '应为文本，收到的是数字',
      'en-US': issue.message,
    });
  });
});
