import { describe, expect, it } from 'vitest';
import { BUILTIN_SCALES, builtinScale } from './builtins.js';
import { ScaleAnswerError, type ScaleDefinition, scaleIssues, scaleRange, scoreScale } from './scales.js';

const childPugh = builtinScale('child-pugh', 'zh-CN')!.definition;
const gcs = builtinScale('gcs', 'en-US')!.definition;
const nrs = builtinScale('nrs-2002', 'zh-CN')!.definition;

describe('assessment scales', () => {
  it('ship Child-Pugh, GCS and NRS-2002 with consistent definitions in both languages', () => {
    for (const s of BUILTIN_SCALES)
      for (const locale of ['zh-CN', 'en-US'] as const) {
        const def = builtinScale(s.key, locale)!.definition;
        expect(scaleIssues(def), `${s.key} ${locale}`).toEqual([]);
        const range = scaleRange(def);
        // The bands cover every whole total the items allow.
        for (let total = range.min; total <= range.max; total++)
          expect(
            def.bands.some((b) => total >= b.min && total <= b.max),
            `${s.key} ${total}`,
          ).toBe(true);
      }
    expect(scaleRange(childPugh)).toEqual({ min: 5, max: 15 });
    expect(scaleRange(gcs)).toEqual({ min: 3, max: 15 });
    expect(scaleRange(nrs)).toEqual({ min: 0, max: 7 });
    expect(builtinScale('apache', 'zh-CN')).toBeUndefined();
  });

  it('scores Child-Pugh into classes A (5–6), B (7–9) and C (10–15)', () => {
    // Bilirubin 34–50 (2), albumin >35 (1), INR <1.7 (1), mild ascites (2), no encephalopathy (1) = 7 → B.
    const b = scoreScale(childPugh, {
      bilirubin: '2',
      albumin: '1',
      inr: '1',
      ascites: '2',
      encephalopathy: '1',
    });
    expect(b.total).toBe(7);
    expect(b.band?.label).toBe('B 级');
    expect(b.items.map((i) => i.points)).toEqual([2, 1, 1, 2, 1]);
    const a = scoreScale(childPugh, {
      bilirubin: '1',
      albumin: '1',
      inr: '1',
      ascites: '1',
      encephalopathy: '2',
    });
    expect([a.total, a.band?.label]).toEqual([6, 'A 级']);
    const c = scoreScale(childPugh, {
      bilirubin: '3',
      albumin: '3',
      inr: '2',
      ascites: '1',
      encephalopathy: '1',
    });
    expect([c.total, c.band?.label]).toEqual([10, 'C 级']);
  });

  it('scores GCS (E4 V5 M6 = 15 mild; E1 V2 M4 = 7 severe) and NRS-2002 (≥3 at risk)', () => {
    const best = scoreScale(gcs, { eye: '4', verbal: '5', motor: '6' });
    expect([best.total, best.band?.label]).toEqual([15, 'Mild']);
    const low = scoreScale(gcs, { eye: '1', verbal: '2', motor: '4' });
    expect([low.total, low.band?.label]).toEqual([7, 'Severe']);
    // Weight loss >5 % in 2 months (2) + cirrhosis (1) + age 72 (1) = 4.
    const risk = scoreScale(nrs, { nutrition: '3', severity: '2', age: '2' });
    expect([risk.total, risk.band?.label]).toEqual([4, '有营养风险']);
    const none = scoreScale(nrs, { nutrition: '1', severity: '2', age: '1' });
    expect([none.total, none.band?.label]).toEqual([1, '无营养风险']);
  });

  it('names unanswered items and unknown options, and scores a total outside every band as unbanded', () => {
    try {
      scoreScale(gcs, { eye: '4', motor: '9' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScaleAnswerError);
      expect((e as ScaleAnswerError).en).toBe(
        'not answered: Verbal response; no such option: Motor response=9',
      );
      expect((e as ScaleAnswerError).zh).toBe('未回答：Verbal response；选项不存在：Motor response=9');
    }
    const gap: ScaleDefinition = { ...gcs, bands: [{ min: 3, max: 8, label: 'Severe' }] };
    const s = scoreScale(gap, { eye: '4', verbal: '5', motor: '6' });
    expect([s.total, s.bandIndex, s.band]).toEqual([15, -1, null]);
  });

  it('finds duplicate codes, single-option items and reversed or overlapping bands', () => {
    const bad: ScaleDefinition = {
      items: [
        { key: 'a', title: 'A', options: [{ code: '1', label: 'x', points: 0 }] },
        {
          key: 'a',
          title: 'B',
          options: [
            { code: '1', label: 'x', points: 0 },
            { code: '1', label: 'y', points: 1 },
          ],
        },
      ],
      bands: [
        { min: 0, max: 2, label: 'low' },
        { min: 2, max: 3, label: 'high' },
        { min: 5, max: 4, label: 'odd' },
      ],
    };
    expect(scaleIssues(bad).map((i) => i.path)).toEqual([
      'items.0.options',
      'items.1.key',
      'items.1.options.1.code',
      'bands.2.min',
      'bands.1.min',
    ]);
  });
});
