import { describe, expect, it } from 'vitest';
import { createFormEngine, validateSubmission } from './engine.js';
import { createFunctionRegistry } from './functions.js';
import { sampleForm } from './testdata/sample-form.js';

describe('form engine: show rules', () => {
  it('an item targeted by a rule is shown only while the rule holds', () => {
    const engine = createFormEngine(sampleForm());
    expect(engine.isVisible('pregnant')).toBe(false);
    engine.setAnswer('sex', '2');
    expect(engine.isVisible('pregnant')).toBe(true);
    engine.setAnswer('sex', '1');
    expect(engine.isVisible('pregnant')).toBe(false);
  });

  it('a panel rule shows or hides every item inside the panel', () => {
    const engine = createFormEngine(sampleForm(), { hbsag: 'neg' });
    expect(engine.isVisible('hbvPanel')).toBe(false);
    expect(engine.isVisible('hbvDna')).toBe(false);
    engine.setAnswer('hbsag', 'pos');
    expect(engine.isVisible('hbvDna')).toBe(true);
  });

  it('isHide hides an item no rule shows; a hidden indicator reads as unanswered', () => {
    const form = sampleForm();
    form.pages[0]!.items!.push(
      { key: 'hiddenNote', type: 'textQuestion', isHide: 1 },
      { key: 'afterPregnant', type: 'textQuestion', showRules: [] },
    );
    form.showRules!.push({
      indicatorName: 'pregnant',
      condition: 'equals',
      indicatorVal: 'Y',
      selectItems: 'afterPregnant',
    });
    const engine = createFormEngine(form, { sex: '2', pregnant: 'Y' });
    expect(engine.isVisible('hiddenNote')).toBe(false);
    expect(engine.isVisible('afterPregnant')).toBe(true);
    // Hiding 'pregnant' hides what depended on its answer, in a cascade.
    engine.setAnswer('sex', '1');
    expect(engine.isVisible('afterPregnant')).toBe(false);
    expect(engine.getAnswer('pregnant')).toBe('Y');
    engine.setAnswer('sex', '2');
    expect(engine.isVisible('afterPregnant')).toBe(true);
  });

  it('ShowItemRelationFlg off disables the rules written on an item', () => {
    const form = sampleForm();
    const sex = form.pages[0]!.items![2] as { ShowItemRelationFlg: unknown };
    sex.ShowItemRelationFlg = 0;
    const engine = createFormEngine(form, { sex: '1' });
    expect(engine.isVisible('pregnant')).toBe(true);
  });
});

describe('form engine: calculations', () => {
  it('BMI is computed with the fixed decimals and marked machine', () => {
    const engine = createFormEngine(sampleForm(), { height: '175', weight: 70 });
    expect(engine.getAnswer('bmi')).toBe(22.9);
    expect(engine.snapshot().methods.bmi).toBe('machine');
    engine.setAnswer('weight', 80);
    expect(engine.getAnswer('bmi')).toBe(26.1);
  });

  it('a computed item without manual override refuses a typed value', () => {
    const engine = createFormEngine(sampleForm(), { height: 175, weight: 70 });
    expect(engine.setAnswer('bmi', 99)).toBe(false);
    expect(engine.getAnswer('bmi')).toBe(22.9);
  });

  it('age at the visit date follows both dates', () => {
    const engine = createFormEngine(sampleForm(), { birth: '1978-05-12', visitDate: '2024-05-11' });
    expect(engine.getAnswer('age')).toBe(45);
    engine.setAnswer('visitDate', '2024-05-12');
    expect(engine.getAnswer('age')).toBe(46);
  });

  it('score totals chosen options across items', () => {
    const engine = createFormEngine(sampleForm(), { fatigue: 2, appetiteScore: 'b' });
    expect(engine.getAnswer('totalScore')).toBe(5);
  });

  it('a manual value is kept where fxManual allows, and clearing it hands back to the machine', () => {
    const engine = createFormEngine(sampleForm(), { dose1: 1.234, dose2: 2 });
    expect(engine.getAnswer('totalDose')).toBe(3.23);
    engine.setAnswer('totalDose', 10);
    engine.setAnswer('dose1', 5);
    expect(engine.getAnswer('totalDose')).toBe(10);
    const snap = engine.snapshot();
    expect(snap.methods.totalDose).toBe('manual');
    expect(snap.computed.totalDose).toBe(7);
    engine.setAnswer('totalDose', '');
    expect(engine.getAnswer('totalDose')).toBe(7);
    expect(engine.snapshot().methods.totalDose).toBe('machine');
  });

  it('methods saved as machine are recomputed on load', () => {
    const engine = createFormEngine(
      sampleForm(),
      { dose1: 1, dose2: 2, totalDose: 99 },
      { methods: { totalDose: 'machine' } },
    );
    expect(engine.getAnswer('totalDose')).toBe(3);
  });

  it('a hidden source does not count in a calculation', () => {
    const form = sampleForm();
    form.showRules!.push({
      indicatorName: 'sex',
      condition: 'equals',
      indicatorVal: '2',
      selectItems: ['dose2'],
    });
    const engine = createFormEngine(form, { dose1: 1, dose2: 2, sex: '1' });
    expect(engine.getAnswer('totalDose')).toBe(1);
    engine.setAnswer('sex', '2');
    expect(engine.getAnswer('totalDose')).toBe(3);
  });

  it('functions come from the registry passed in', () => {
    const functions = createFunctionRegistry({ bmi: () => 42 });
    const engine = createFormEngine(sampleForm(), { height: 1, weight: 1 }, { functions });
    expect(engine.getAnswer('bmi')).toBe(42);
    expect(createFormEngine(sampleForm(), { height: 100, weight: 10 }).getAnswer('bmi')).toBe(10);
  });

  it('a throwing study function leaves the item empty instead of breaking entry', () => {
    const functions = createFunctionRegistry({
      bmi: () => {
        throw new Error('boom');
      },
    });
    expect(
      createFormEngine(sampleForm(), { height: 1, weight: 1 }, { functions }).getAnswer('bmi'),
    ).toBeUndefined();
  });
});

describe('form engine: required state', () => {
  it("a rule with 'any' requires the item when one condition holds", () => {
    const engine = createFormEngine(sampleForm());
    expect(engine.isRequired('reason')).toBe(false);
    engine.setAnswer('hbsag', 'pos');
    expect(engine.isRequired('reason')).toBe(true);
    engine.setAnswer('hbsag', 'neg');
    engine.setAnswer('symptoms', ['a', 'e']);
    expect(engine.isRequired('reason')).toBe(true);
  });

  it("a rule with 'all' needs every condition", () => {
    const form = sampleForm();
    const item = (form.pages[1]!.groups as { key?: string; requiredRule?: { condition: string } }[]).find(
      (g) => g.key === 'reason',
    )!;
    item.requiredRule!.condition = 'all';
    const engine = createFormEngine(form, { hbsag: 'pos' });
    expect(engine.isRequired('reason')).toBe(false);
    engine.setAnswer('symptoms', ['e']);
    expect(engine.isRequired('reason')).toBe(true);
  });

  it('hidden items are never required and their values are not submitted', () => {
    const engine = createFormEngine(sampleForm(), { sex: '1', pregnant: 'Y', hbsag: 'neg', hbvDna: 5 });
    expect(engine.isRequired('pregnant')).toBe(false);
    const snap = engine.snapshot();
    expect(snap.answers).not.toHaveProperty('pregnant');
    expect(snap.answers).not.toHaveProperty('hbvDna');
    expect(snap.hidden).toEqual(expect.arrayContaining(['pregnant', 'hbvDna']));
    expect(engine.validate().some((i) => i.key === 'pregnant' || i.key === 'hbvDna')).toBe(false);
  });
});

describe('form engine: inputs', () => {
  it('unknown keys, containers and paragraphs take no answer', () => {
    const engine = createFormEngine(sampleForm(), { nope: 1 });
    expect(engine.setAnswer('nope', 1)).toBe(false);
    expect(engine.setAnswer('intro', 'x')).toBe(false);
    expect(engine.setAnswer('hbvPanel', 'x')).toBe(false);
    expect(engine.getAnswer('nope')).toBeUndefined();
  });

  it('keeps its own copy of array answers', () => {
    const chosen = ['a'];
    const engine = createFormEngine(sampleForm());
    engine.setAnswer('symptoms', chosen);
    chosen.push('b');
    expect(engine.getAnswer('symptoms')).toEqual(['a']);
  });

  it('validateSubmission runs the same rules as the engine', () => {
    const answers = { name: 'X' };
    expect(validateSubmission(sampleForm(), answers)).toEqual(
      createFormEngine(sampleForm(), answers).validate(),
    );
    expect(() => validateSubmission(sampleForm(), null as never)).not.toThrow();
  });
});

describe('form engine: older forms with answers inside', () => {
  it('opens with the answers stored on the items when no answers are given', () => {
    const form = sampleForm();
    const items = form.pages[0]!.items! as Record<string, unknown>[];
    items[2]!.radio = '2';
    items[3]!.radio = 'N';
    const symptoms = (form.pages[1] as unknown as { groups: Array<{ items: Record<string, unknown>[] }> })
      .groups[0]!.items[0]!;
    symptoms.checkList = ['a', 'b'];
    const engine = createFormEngine(form);
    expect(engine.getAnswer('sex')).toBe('2');
    expect(engine.isVisible('pregnant')).toBe(true);
    expect(engine.getAnswer('symptoms')).toEqual(['a', 'b']);
    expect(createFormEngine(form, {}).getAnswer('sex')).toBeUndefined();
  });
});

describe('form engine: a form with a cycle', () => {
  it('still opens and answers: evaluation is bounded, analyzeForm reports the loop', () => {
    const form = {
      pages: [
        {
          items: [
            { key: 'a', type: 'textQuestion' as const, textType: 'number' },
            { key: 'x', type: 'textQuestion' as const, fxTopicData: { func: 'sum', fields: ['a', 'y'] } },
            { key: 'y', type: 'textQuestion' as const, fxTopicData: { func: 'sum', fields: ['x'] } },
            {
              key: 'flip',
              type: 'textQuestion' as const,
              showRules: [{ condition: 'null or empty', selectItems: ['flip'] }],
            },
          ],
        },
      ],
    };
    const engine = createFormEngine(form, { a: 1 });
    for (let i = 0; i < 5; i++) engine.setAnswer('a', i);
    engine.setAnswer('flip', 'x');
    expect(Array.isArray(engine.validate())).toBe(true);
  });
});
