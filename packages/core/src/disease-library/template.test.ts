import { describe, expect, it } from 'vitest';
import { parseTemplate, ruleText, TemplateError } from './template.js';

describe('the indicator template language', () => {
  it('reads the issue’s four examples', () => {
    expect(parseTemplate('latest lab.value where code = "ALT" before first_visit')).toEqual({
      agg: 'latest',
      source: 'lab',
      field: 'value',
      where: [{ field: 'code', op: '=', value: 'ALT' }],
      anchor: { side: 'before', ref: 'first_visit' },
    });
    expect(parseTemplate('first diagnosis.date where code starts "K74"').where[0]).toEqual({
      field: 'code',
      op: 'starts',
      value: 'K74',
    });
    expect(parseTemplate('count visit where kind = "inpatient"')).toMatchObject({
      agg: 'count',
      field: null,
    });
    expect(parseTemplate('latest diagnosis.name where kind = "discharge"').field).toBe('name');
  });

  it('substitutes parameters as literals and prints the canonical text', () => {
    const r = parseTemplate(
      'max lab where code = {{code}} and value > {{min}} after {{from}} within 30 days',
      {
        code: "ALT'; drop table patients; --",
        min: 40,
        from: '2024-01-01',
      },
    );
    expect(r.where[0]!.value).toBe("ALT'; drop table patients; --");
    expect(ruleText(r)).toBe(
      'max lab.value where code = "ALT\'; drop table patients; --" and value > 40 after "2024-01-01" within 30 days',
    );
  });

  it('counts time from a T0 event: `after t0 <id>` reads back as it was written', () => {
    const r = parseTemplate('first lab.value where code = "HBV-DNA" after t0 3 within 180 days');
    expect(r.anchor).toEqual({ side: 'after', ref: { t0: 3 }, withinDays: 180 });
    expect(ruleText(r)).toBe('first lab.value where code = "HBV-DNA" after t0 3 within 180 days');
    expect(parseTemplate('count visit before t0 {{event}}', { event: 7 }).anchor?.ref).toEqual({ t0: 7 });
    for (const bad of [
      'count visit after t0',
      'count visit after t0 0',
      'count visit after t0 1.5',
      'count visit after t0 "3"',
    ])
      expect(() => parseTemplate(bad), bad).toThrow(TemplateError);
  });

  it('refuses what it cannot read, saying where and which parameter', () => {
    const fails = (s: string, params = {}) => {
      try {
        parseTemplate(s, params);
      } catch (e) {
        expect(e).toBeInstanceOf(TemplateError);
        return e as TemplateError;
      }
      throw new Error(`accepted: ${s}`);
    };
    expect(fails('sum lab').message).toContain("'sum' is not an aggregate");
    expect(fails('latest blood.value').message).toContain("'blood' is not a source");
    expect(fails('latest lab.colour').message).toContain("lab has no field 'colour'");
    expect(fails('avg diagnosis.name').message).toContain('needs a number field');
    expect(fails('count visit.kind').message).toContain('takes no field');
    expect(fails('latest lab where value > "high"').message).toContain('compares with a number');
    expect(fails('latest lab before yesterday').message).toContain('expected first_visit');
    expect(fails('latest lab where code = {{c}}').field).toBe('template_params.c');
    expect(fails('latest lab where code = {{c}}', { c: { x: 1 } }).field).toBe('template_params.c');
    expect(fails('latest lab ; drop').message).toContain("unexpected character ';'");
    expect(fails('sum lab').zh).toContain("'sum' 不是聚合方式");
    expect(fails('latest lab.colour').zh).toContain("lab 没有字段 'colour'");
    expect(fails('avg diagnosis.name').zh).toBe("'avg' 需要数值字段，name 是文本字段");
    expect(fails('latest lab ; drop').zh).toBe("第 12 个字符 ';' 无法识别");
    expect(fails('latest lab where code = {{c}}').zh).toBe('参数 c 没有给值');
  });
});
