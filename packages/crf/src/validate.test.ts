import { describe, expect, it } from 'vitest';
import { createFormEngine, validateSubmission } from './engine.js';
import { sampleForm } from './testdata/sample-form.js';
import type { Answers, Issue } from './types.js';

const complete: Answers = {
  name: '王建国',
  sex: '1',
  symptoms: ['a'],
  vitals: { sbp: 120, dbp: 80, note: '静息' },
  qol: { sleep: 1, appetite: 2 },
  report: ['file-1.pdf'],
};

const issuesOf = (answers: Answers) => validateSubmission(sampleForm(), { ...complete, ...answers });
const only = (issues: Issue[], key: string) => issues.filter((i) => i.key === key);

describe('submit validation', () => {
  it('a complete submission has no issue', () => {
    expect(validateSubmission(sampleForm(), complete)).toEqual([]);
  });

  it('required items name page and question; paragraphs carry no number', () => {
    const issues = validateSubmission(sampleForm(), {});
    const name = only(issues, 'name')[0]!;
    expect(name).toMatchObject({ page: 1, question: 1, code: 'required', path: 'name' });
    expect(name.message).toBe('第1页第1题为必填项');
    expect(name.messageEn).toBe('Page 1, question 1 is required');
    expect(name.pathMessage).toBe('name is required');
    // Page 1: name(1) sex(2) [pregnant hidden] birth(3) visitDate(4) age(5) height(6) weight(7) bmi(8).
    expect(only(issues, 'sex')[0]).toMatchObject({ page: 1, question: 2 });
    expect(only(issues, 'symptoms')[0]).toMatchObject({
      page: 2,
      question: 1,
      message: '第2页第1题为必填项',
    });
    expect(only(issues, 'report')[0]!.code).toBe('required');
  });

  it('question numbers follow what the user sees when an item appears', () => {
    const issues = validateSubmission(sampleForm(), { sex: '2' });
    expect(only(issues, 'pregnant')[0]).toMatchObject({ page: 1, question: 3 });
  });

  it('text is trimmed before the emptiness check', () => {
    expect(only(issuesOf({ name: '   ' }), 'name')[0]!.code).toBe('required');
  });

  it('text character bounds count characters, not bytes', () => {
    expect(only(issuesOf({ name: '王' }), 'name')[0]).toMatchObject({
      code: 'minLength',
      limit: 2,
      message: '第1页第1题至少输入2个字符',
    });
    const long = only(issuesOf({ name: '王'.repeat(21) }), 'name')[0]!;
    expect(long).toMatchObject({ code: 'maxLength', messageEn: 'Page 1, question 1: at most 20 characters' });
  });

  it('numeric text questions check numbers and bounds', () => {
    expect(only(issuesOf({ height: 'tall' }), 'height')[0]!.code).toBe('notNumber');
    expect(only(issuesOf({ height: 300 }), 'height')[0]).toMatchObject({
      code: 'maxValue',
      message: '第1页第6题最大输入值为250',
    });
    expect(only(issuesOf({ height: 20 }), 'height')[0]).toMatchObject({
      code: 'minValue',
      pathMessage: 'height must be at least 50',
    });
    expect(only(issuesOf({ birth: '2023-02-30' }), 'birth')[0]!.code).toBe('notDate');
  });

  it('checkbox at least and at most N options', () => {
    const least = only(issuesOf({ symptoms: [] }), 'symptoms')[0]!;
    expect(least.code).toBe('required');
    const most = only(issuesOf({ symptoms: ['a', 'b', 'c', 'd'] }), 'symptoms')[0]!;
    expect(most).toMatchObject({
      code: 'maxOptions',
      message: '第2页第1题最多选择3项',
      pathMessage: 'symptoms: at most 3 items',
    });
    const form = sampleForm();
    const symptoms = (
      form.pages[1] as unknown as { groups: Array<{ items: Array<{ selectLeastValue: number }> }> }
    ).groups[0]!.items[0]!;
    symptoms.selectLeastValue = 2;
    const few = validateSubmission(form, { ...complete, symptoms: ['a'] }).find((i) => i.key === 'symptoms')!;
    expect(few).toMatchObject({
      code: 'minOptions',
      messageEn: 'Page 2, question 1: choose at least 2 options',
    });
    expect(few.pathMessage).toBe('symptoms: at least 2 items');
  });

  it('a choice not among the options is refused', () => {
    expect(only(issuesOf({ sex: '9' }), 'sex')[0]!.code).toBe('unknownOption');
    expect(only(issuesOf({ symptoms: ['z'] }), 'symptoms')[0]!.code).toBe('unknownOption');
  });

  it('gap-filling blanks: required, numeric bounds and character bounds, per blank', () => {
    const missing = only(issuesOf({ vitals: { sbp: 120 } }), 'vitals');
    expect(missing.map((i) => [i.code, i.blank, i.path])).toEqual([
      ['required', 2, 'vitals.dbp'],
      ['required', 3, 'vitals.note'],
    ]);
    expect(missing[0]!.message).toBe('第2页第3题第2空为必填项');
    const bad = only(
      issuesOf({ vitals: { sbp: 300, dbp: 10, note: '这是一段很长很长的备注文字' } }),
      'vitals',
    );
    expect(bad.map((i) => i.code)).toEqual(['maxValue', 'minValue', 'maxLength']);
    expect(bad[0]!.message).toBe('第2页第3题第1空最大输入值为250');
    expect(bad[1]!.messageEn).toBe('Page 2, question 3, blank 2: minimum input value 30');
    expect(only(issuesOf({ vitals: ['120', 'x', '好的'] }), 'vitals')[0]).toMatchObject({
      code: 'notNumber',
      blank: 2,
    });
    expect(only(issuesOf({ vitals: { sbp: 120, dbp: 80, note: '短' } }), 'vitals')[0]!.code).toBe(
      'minLength',
    );
  });

  it('every row of a required matrix must be answered', () => {
    const issues = only(issuesOf({ qol: { sleep: 1 } }), 'qol');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      code: 'rowRequired',
      row: 2,
      path: 'qol.appetite',
      message: '第2页第4题第2行为必填项',
    });
    expect(issues[0]!.pathMessage).toBe('qol.appetite is required');
    expect(only(issuesOf({ qol: { sleep: 9, appetite: 1 } }), 'qol')[0]!.code).toBe('unknownOption');
  });

  it('matrix cells carry the row bounds, per row and cell', () => {
    const form = sampleForm();
    const qol = form.pages[1]!.groups![3] as Record<string, unknown>;
    qol.forM = 'input';
    qol.rows = [
      { key: 'am', name: '上午', matrixProperty: 'number', minVal: 0, maxVal: 10 },
      { key: 'pm', name: '下午', matrixProperty: 'text', maxNub: 2 },
    ];
    const issues = validateSubmission(form, {
      ...complete,
      qol: { am: { 1: 11, 2: 5 }, pm: { 1: '很好很好' } },
    }).filter((i) => i.key === 'qol');
    expect(issues.map((i) => [i.code, i.row, i.column, i.path])).toEqual([
      ['maxValue', 1, 1, 'qol.am.1'],
      ['maxLength', 2, 1, 'qol.pm.1'],
    ]);
    expect(issues[0]!.message).toBe('第2页第4题第1行第1列最大输入值为10');
  });

  it('a score item without options takes a number', () => {
    const form = sampleForm();
    form.pages[1]!.groups!.push({ key: 'pain', type: 'score', title: '疼痛评分' });
    const issue = validateSubmission(form, { ...complete, pain: 'a lot' }).find((i) => i.key === 'pain');
    expect(issue?.code).toBe('notNumber');
  });

  it('a required item inside a panel the rule hides yields nothing; shown, it is required', () => {
    expect(only(issuesOf({ hbsag: 'neg' }), 'hbvDna')).toEqual([]);
    expect(only(issuesOf({ hbsag: 'pos' }), 'hbvDna')[0]!.code).toBe('required');
  });

  it('the engine validates its current state', () => {
    const engine = createFormEngine(sampleForm(), complete);
    expect(engine.validate()).toEqual([]);
    engine.setAnswer('name', '');
    expect(engine.validate().map((i) => i.key)).toEqual(['name']);
  });
});

describe('national ID items (spec 001): the same check in the browser and on the server', () => {
  const form = {
    pages: [
      {
        key: 'p',
        items: [
          { key: 'id', type: 'textQuestion' as const, title: '身份证号', textType: 'nationalId' },
          {
            key: 'g',
            type: 'gapFilling' as const,
            title: '证件 ___',
            gapFilling: [{ key: 'b1', gapFillingProperty: 'nationalId' }],
          },
        ],
      },
    ],
  };
  const check = (id: string) => validateSubmission(form, { id, g: { b1: id } });

  it('passes a valid number (lower-case x read as X) and words each of the three faults', () => {
    expect(check('11010519491231002x')).toEqual([]);
    expect(check('1101051949123100').map((i) => i.code)).toEqual(['nationalIdFormat', 'nationalIdFormat']);
    expect(check('99010519491231002X')[0]).toMatchObject({
      code: 'nationalIdProvince',
      message: '第1页第1题身份证号地址编码错误',
    });
    const wrongDigit = check('110105194912310021');
    expect(wrongDigit.map((i) => [i.code, i.path])).toEqual([
      ['nationalIdCheckDigit', 'id'],
      ['nationalIdCheckDigit', 'g.b1'],
    ]);
    expect(wrongDigit[1]!.message).toBe('第1页第2题第1空身份证号校验位错误');
    expect(wrongDigit[0]!.messageEn).toBe(
      "Page 1, question 1: the national ID number's check digit is wrong",
    );
  });
});
