import { describe, expect, it } from 'vitest';
import {
  aggregatesOf,
  choiceFromTemplate,
  choiceProblems,
  choiceToTemplate,
  conditionFieldsOf,
  defaultChoice,
  fieldKindOf,
  fieldsOf,
  operatorsOf,
  RULE_ANCHOR_REFS,
  RULE_SOURCES,
  type RuleChoice,
  type RuleChoiceAnchor,
  type RuleChoiceCondition,
  withAggregate,
  withSource,
} from './rule-builder.js';
import {
  RULE_AGGREGATE_LABELS,
  RULE_FIELD_LABELS,
  RULE_OPERATOR_LABELS,
  RULE_SOURCE_LABELS,
} from './rule-labels.js';
import { SOURCES } from './template.js';

const sample = (kind: string) => (kind === 'number' ? 42.5 : kind === 'date' ? '2024-03-01' : 'K74 "x"');

/** Every choice the builder can make: sources × aggregates × fields × conditions × windows. */
function everyChoice(): RuleChoice[] {
  const anchors: (RuleChoiceAnchor | null)[] = [null];
  for (const side of ['before', 'after'] as const)
    for (const ref of RULE_ANCHOR_REFS)
      for (const withinDays of [null, 0, 30])
        anchors.push({ side, ref, withinDays, ...(ref === 't0' ? { t0EventId: 12 } : {}) });
  const out: RuleChoice[] = [];
  for (const source of RULE_SOURCES)
    for (const agg of aggregatesOf(source)) {
      const fields = fieldsOf(source, agg);
      for (const field of fields.length ? fields : [null]) {
        if (source === 'patient') {
          out.push({ source, agg, field, where: [], anchor: null });
          continue;
        }
        const conds: RuleChoiceCondition[][] = [[]];
        for (const f of conditionFieldsOf(source))
          for (const op of operatorsOf(fieldKindOf(source, f)))
            conds.push([{ field: f, op, value: sample(fieldKindOf(source, f)) }]);
        conds.push([
          { field: conditionFieldsOf(source)[0]!, op: '=', value: 'A' },
          { field: 'date', op: '>=', value: '2020-01-01' },
        ]);
        for (const where of conds) out.push({ source, agg, field, where, anchor: null });
        for (const anchor of anchors) out.push({ source, agg, field, where: conds[1]!, anchor });
      }
    }
  return out;
}

describe('the rule builder model', () => {
  it('round-trips every builder choice: choice → text → choice', () => {
    const all = everyChoice();
    expect(all.length).toBeGreaterThan(500);
    for (const choice of all) {
      expect(choiceProblems(choice)).toEqual([]);
      const text = choiceToTemplate(choice);
      const back = choiceFromTemplate(text);
      expect(back, text).toEqual({ ok: true, choice });
      expect(choiceToTemplate((back as { choice: RuleChoice }).choice)).toBe(text);
    }
  });

  it('reads the examples of the template language into choices', () => {
    expect(choiceFromTemplate('latest lab.value where code = "ALT" before first_visit')).toEqual({
      ok: true,
      choice: {
        source: 'lab',
        agg: 'latest',
        field: 'value',
        where: [{ field: 'code', op: '=', value: 'ALT' }],
        anchor: { side: 'before', ref: 'first_visit', withinDays: null },
      },
    });
    expect(choiceFromTemplate('first diagnosis.date where code starts "K74"')).toMatchObject({
      ok: true,
      choice: { source: 'diagnosis', agg: 'first', field: 'date', where: [{ op: 'starts', value: 'K74' }] },
    });
    expect(choiceFromTemplate('count visit where kind = "inpatient"')).toMatchObject({
      ok: true,
      choice: { source: 'visit', agg: 'count', field: null },
    });
    expect(choiceFromTemplate('latest diagnosis.name where kind = "discharge"')).toMatchObject({
      ok: true,
      choice: { field: 'name', where: [{ field: 'kind', value: 'discharge' }] },
    });
    expect(choiceFromTemplate('value patient.age')).toEqual({
      ok: true,
      choice: { source: 'patient', agg: 'value', field: 'age', where: [], anchor: null },
    });
    expect(
      choiceFromTemplate('max lab.value where code = "AFP" after first_admission within 90 days'),
    ).toMatchObject({ ok: true, choice: { anchor: { side: 'after', withinDays: 90 } } });
  });

  it('names the default field of a rule written without one, so saving it again keeps its meaning', () => {
    const r = choiceFromTemplate('latest lab where code = "ALT"');
    expect(r).toMatchObject({ ok: true, choice: { field: 'value' } });
    expect(choiceToTemplate((r as { choice: RuleChoice }).choice)).toBe(
      'latest lab.value where code = "ALT"',
    );
  });

  it('builds and reads back a window counted from a T0 event, and asks for the event', () => {
    const read = choiceFromTemplate('first lab.value where code = "ALT" after t0 4 within 30 days');
    expect(read).toMatchObject({
      ok: true,
      choice: { anchor: { side: 'after', ref: 't0', t0EventId: 4, withinDays: 30 } },
    });
    const choice = (read as { choice: RuleChoice }).choice;
    expect(choiceToTemplate(choice)).toBe('first lab.value where code = "ALT" after t0 4 within 30 days');
    expect(choiceProblems({ ...choice, anchor: { ...choice.anchor!, t0EventId: null } })).toEqual([
      { at: 't0EventId', code: 't0Required' },
    ]);
  });

  it('leaves the rules it cannot show in text mode, saying why', () => {
    expect(choiceFromTemplate('latest lab.value where code = {{code}}')).toEqual({
      ok: false,
      reason: 'params',
    });
    expect(choiceFromTemplate('latest lab.value before "2024-01-01"')).toEqual({
      ok: false,
      reason: 'dateAnchor',
    });
    const bad = choiceFromTemplate('newest lab.value');
    expect(bad).toMatchObject({ ok: false, reason: 'invalid' });
    expect((bad as { zh: string }).zh).toContain('聚合方式');
  });

  it('says what is missing, at the input that shows it', () => {
    const lab = defaultChoice('lab');
    expect(choiceProblems(lab)).toEqual([{ at: 'where.0', code: 'valueRequired' }]);
    expect(
      choiceProblems({ ...lab, where: [{ field: 'value', op: '>', value: 'high' }], field: null }),
    ).toEqual([
      { at: 'field', code: 'fieldRequired' },
      { at: 'where.0', code: 'numberRequired' },
    ]);
    expect(choiceProblems({ ...lab, where: [{ field: 'date', op: 'starts', value: 'x' }] })).toEqual([
      { at: 'where.0', code: 'operatorInvalid' },
    ]);
    expect(
      choiceProblems({
        ...lab,
        where: [{ field: 'date', op: '>', value: '1.3.2024' }],
        anchor: { side: 'before', ref: 'first_visit', withinDays: -1 },
      }),
    ).toEqual([
      { at: 'where.0', code: 'dateRequired' },
      { at: 'withinDays', code: 'daysInvalid' },
    ]);
  });

  it('keeps the field and window sensible when the aggregate or source changes', () => {
    const lab = { ...defaultChoice('lab'), field: 'text' };
    expect(withAggregate(lab, 'count').field).toBeNull();
    expect(withAggregate(lab, 'avg').field).toBe('value');
    expect(withAggregate(lab, 'first').field).toBe('text');
    expect(withAggregate(withAggregate(lab, 'count'), 'latest').field).toBe('value');
    const anchored = {
      ...lab,
      anchor: { side: 'before' as const, ref: 'filing_date' as const, withinDays: 7 },
    };
    expect(withSource(anchored, 'diagnosis').anchor).toEqual(anchored.anchor);
    expect(withSource(anchored, 'patient').anchor).toBeNull();
    expect(aggregatesOf('diagnosis')).not.toContain('avg');
    expect(aggregatesOf('patient')).toEqual(['value']);
  });

  it('has words in both languages for every source, field, aggregate and operator', () => {
    for (const s of RULE_SOURCES) {
      expect(RULE_SOURCE_LABELS[s]['en-US']).toBeTruthy();
      const fields = s === 'patient' ? fieldsOf(s, 'value') : Object.keys(SOURCES[s]!.fields);
      for (const f of fields) expect(RULE_FIELD_LABELS[s]?.[f]?.['zh-CN'], `${s}.${f}`).toBeTruthy();
      for (const a of aggregatesOf(s)) expect(RULE_AGGREGATE_LABELS[a]['zh-CN']).toBeTruthy();
    }
    for (const op of [...operatorsOf('text'), ...operatorsOf('number')])
      expect(RULE_OPERATOR_LABELS[op]['en-US']).toBeTruthy();
  });
});
