import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFormEngine, validateSubmission } from './engine.js';
import { sampleForm } from './testdata/sample-form.js';
import type { Answers, Form, FormItem, ShowRule } from './types.js';

const KEYS = [
  'name',
  'sex',
  'pregnant',
  'birth',
  'visitDate',
  'age',
  'height',
  'weight',
  'bmi',
  'symptoms',
  'hbsag',
  'hbvDna',
  'vitals',
  'qol',
  'fatigue',
  'appetiteScore',
  'totalScore',
  'reason',
  'dose1',
  'dose2',
  'totalDose',
  'report',
  'intro',
];

// Answers that mean something to the form mixed with arbitrary JSON, which must not break it.
const answerValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('1', '2', 'pos', 'neg', 'Y', 'N', '', '  ', 'b', 0, 2),
  fc.subarray(['a', 'b', 'c', 'd', 'e']),
  fc.integer({ min: -10, max: 300 }),
  fc.constantFrom('1978-05-12', '2024-02-29', '2023-02-30'),
  fc.record({ sbp: fc.jsonValue(), dbp: fc.integer(), note: fc.string() }),
);
const answers = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string()), answerValue);
const steps = fc.array(fc.tuple(fc.constantFrom(...KEYS), answerValue), { maxLength: 30 });

/** A random acyclic form: rules and calculations read only earlier items. */
const randomForm = fc.integer({ min: 2, max: 14 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.constantFrom('number', 'radio', 'checkbox', 'sum'), { minLength: n, maxLength: n }),
      fc.array(
        fc.record({
          from: fc.nat(),
          to: fc.nat(),
          condition: fc.constantFrom(
            'equals',
            'greater than',
            'in list',
            'contains',
            'null or empty',
            'not equals',
          ),
          value: fc.constantFrom('1', '2', '1,2', 5),
        }),
        { maxLength: n * 2 },
      ),
    )
    .map(([kinds, rawRules]): Form => {
      const items: FormItem[] = kinds.map((kind, i): FormItem => {
        const key = `q${i}`;
        if (kind === 'radio' || kind === 'checkbox') {
          return {
            key,
            type: kind,
            isRequired: 1,
            options: [
              { name: 'one', code: '1' },
              { name: 'two', code: '2' },
            ],
          };
        }
        if (kind === 'sum' && i > 0) {
          return {
            key,
            type: 'textQuestion',
            fxManual: i % 2 === 1,
            fxTopicData: { func: 'sum', fields: [`q${i - 1}`, 'q0'] },
          };
        }
        return { key, type: 'textQuestion', textType: 'number', isRequired: i % 2 === 1 };
      });
      const showRules: ShowRule[] = rawRules
        .map((r) => ({ a: r.from % n, b: r.to % n, r }))
        .filter(({ a, b }) => a < b)
        .map(({ a, b, r }) => ({
          indicatorName: `q${a}`,
          condition: r.condition,
          indicatorVal: r.value,
          selectItems: [`q${b}`],
        }));
      return {
        pages: [{ items: items.slice(0, Math.ceil(n / 2)) }, { items: items.slice(Math.ceil(n / 2)) }],
        showRules,
      };
    }),
);
const randomValue = fc.oneof(fc.constantFrom('1', '2', '', 5, 7), fc.subarray(['1', '2']), fc.jsonValue());
const runs = { numRuns: 150 };

describe('engine invariants', () => {
  it('validate never throws on any JSON answers', () => {
    fc.assert(
      fc.property(answers, (a) => {
        const engine = createFormEngine(sampleForm(), a as Answers);
        expect(Array.isArray(engine.validate())).toBe(true);
        engine.snapshot();
      }),
      runs,
    );
    fc.assert(
      fc.property(fc.jsonValue(), (a) => Array.isArray(validateSubmission(sampleForm(), a as Answers))),
      runs,
    );
  });

  it('hidden items never yield required errors', () => {
    const form = sampleForm();
    fc.assert(
      fc.property(answers, (a) => {
        const engine = createFormEngine(form, a as Answers);
        for (const issue of engine.validate()) expect(engine.isVisible(issue.key)).toBe(true);
        for (const key of engine.snapshot().hidden) {
          expect(engine.isRequired(key)).toBe(false);
          expect(engine.snapshot().answers).not.toHaveProperty(key);
        }
      }),
      runs,
    );
  });

  it('a sequence of setAnswer ends where building with the answers starts (sample form)', () => {
    const form = sampleForm();
    fc.assert(
      fc.property(steps, (pairs) => {
        const fed = createFormEngine(form);
        for (const [k, v] of pairs) fed.setAnswer(k, v);
        const built = createFormEngine(form, Object.fromEntries(pairs));
        expect(fed.snapshot()).toEqual(built.snapshot());
        expect(fed.validate()).toEqual(built.validate());
      }),
      runs,
    );
  });

  it('a sequence of setAnswer ends where building with the answers starts (random acyclic forms)', () => {
    fc.assert(
      fc.property(randomForm, fc.array(fc.tuple(fc.nat(), randomValue), { maxLength: 25 }), (form, raw) => {
        const count = form.pages.reduce((s, p) => s + (p.items?.length ?? 0), 0);
        const pairs = raw.map(([i, v]) => [`q${i % count}`, v] as const);
        const fed = createFormEngine(form);
        for (const [k, v] of pairs) fed.setAnswer(k, v);
        const built = createFormEngine(form, Object.fromEntries(pairs));
        expect(fed.snapshot()).toEqual(built.snapshot());
      }),
      runs,
    );
  });
});
