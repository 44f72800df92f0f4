import { describe, expect, it } from 'vitest';
import { StatsError } from './errors.js';
import { seasonalNaive } from './forecast.js';

describe('seasonalNaive', () => {
  // Two weeks and two days of daily admissions; worked by hand below.
  const y = [10, 12, 11, 13, 9, 5, 4, 11, 13, 12, 12, 10, 6, 3, 12, 14];

  it('repeats the last week and widens the interval each further week (fpp3 §5.5)', () => {
    const f = seasonalNaive(y, 7, 14);
    // Seasonal differences: 1 1 1 -1 1 1 -1 1 1 → 9 squares summing to 9 over 16 − 7 values.
    expect(f.sigma).toBeCloseTo(1, 12);
    // h = 1..7 repeat the last seven values (days 10..16), h = 8..14 repeat them again.
    const last = y.slice(-7);
    expect(f.points.map((p) => p.mean)).toEqual([...last, ...last]);
    const [p1, p8] = [f.points[0]!, f.points[7]!];
    // 80 %: z = 1.2816; 95 %: z = 1.95996; the second week's sd is σ·√2.
    expect(p1.hi80 - p1.mean).toBeCloseTo(1.2815516, 6);
    expect(p1.hi95 - p1.mean).toBeCloseTo(1.959964, 6);
    expect(p8.hi95 - p8.mean).toBeCloseTo(1.959964 * Math.SQRT2, 6);
    expect(p1.lo95).toBeCloseTo(p1.mean - 1.959964, 6);
  });

  it('cuts the lower bound of counts at zero', () => {
    const f = seasonalNaive([0, 0, 5, 0, 0, 0], 2, 2, { nonNegative: true });
    expect(f.points[0]!.mean).toBe(0);
    expect(f.points[0]!.lo95).toBe(0);
    expect(f.points[0]!.hi95).toBeGreaterThan(0);
  });

  it('refuses a series shorter than two seasons or holding a non-number', () => {
    expect(() => seasonalNaive([1, 2, 3], 7, 3)).toThrow(StatsError);
    expect(() => seasonalNaive([1, 2, Number.NaN, 4], 2, 1)).toThrow(StatsError);
  });
});
