import { describe, expect, it } from 'vitest';
import { type CenterCounts, type CountMask, suppressionMasks } from './suppress.js';

const center = (own: boolean, cases: number, n: number, missing = cases - n): CenterCounts => ({
  own,
  cases,
  variables: { sbp: { n, missing } },
});

/** Every equation the reader can write (per entity and per column) has 0 or at least 2 hidden cells. */
function noLoneHiddenCell(centers: CenterCounts[], r: { centers: CountMask[]; total: CountMask }) {
  const unknown = [...r.centers.filter((_, i) => !centers[i]!.own), r.total];
  for (const m of unknown)
    expect([m.cases, m.n.sbp, m.missing.sbp].filter((x) => x !== null).length).not.toBe(1);
  for (const pick of [(m: CountMask) => m.cases, (m: CountMask) => m.n.sbp, (m: CountMask) => m.missing.sbp])
    expect(unknown.filter((m) => pick(m) !== null).length).not.toBe(1);
}

describe('small-cell suppression of pooled results', () => {
  it('hides nothing when every cell reaches the minimum, or when only the own center is shown', () => {
    const cs = [center(true, 10, 8), center(false, 12, 12)];
    const r = suppressionMasks(cs, ['sbp'], 5);
    expect(r.centers[1]).toEqual({ cases: null, n: { sbp: null }, missing: { sbp: null } });
    expect(r.total.cases).toBeNull();
    const own = suppressionMasks([center(true, 1, 1)], ['sbp'], 5);
    expect(own.total).toEqual({ cases: null, n: { sbp: null }, missing: { sbp: null } });
  });

  it('a small other center is "< min", and with no other center to pair with, the total is hidden too', () => {
    const cs = [center(true, 10, 10), center(false, 1, 1)];
    const r = suppressionMasks(cs, ['sbp'], 5);
    expect(r.centers[0]!.cases).toBeNull();
    expect(r.centers[1]).toMatchObject({ cases: 'small', n: { sbp: 'small' }, missing: { sbp: null } });
    // total − own would give the single case otherwise.
    expect(r.total.cases).toBe('complementary');
    expect(r.total.n.sbp).toBe('complementary');
    noLoneHiddenCell(cs, r);
  });

  it('pairs a small cell with the smallest other center instead of the total', () => {
    const cs = [center(true, 10, 10), center(false, 3, 3), center(false, 40, 40), center(false, 20, 20)];
    const r = suppressionMasks(cs, ['sbp'], 5);
    expect(r.centers[1]!.cases).toBe('small');
    expect(r.centers[3]!.cases).toBe('complementary');
    expect(r.centers[2]!.cases).toBeNull();
    expect(r.total.cases).toBeNull();
    noLoneHiddenCell(cs, r);
  });

  it('a small missing count hides its n (cases − n would give it) and is paired across centers', () => {
    const cs = [center(true, 10, 10), center(false, 30, 28), center(false, 50, 50)];
    const r = suppressionMasks(cs, ['sbp'], 5);
    expect(r.centers[1]!.missing.sbp).toBe('small');
    expect(r.centers[1]!.n.sbp).toBe('complementary');
    expect(r.centers[1]!.cases).toBeNull();
    noLoneHiddenCell(cs, r);
  });

  it('follows the setting: a minimum of 1 hides nothing, 3 hides 1 and 2 only', () => {
    const cs = [center(true, 10, 10), center(false, 2, 2), center(false, 3, 3)];
    expect(suppressionMasks(cs, ['sbp'], 1).centers[1]!.cases).toBeNull();
    const r = suppressionMasks(cs, ['sbp'], 3);
    expect(r.centers[1]!.cases).toBe('small');
    expect(r.centers[2]!.cases).toBe('complementary');
    noLoneHiddenCell(cs, r);
  });

  it('random tables never leave one hidden cell alone in an equation', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 500; i++) {
      const cs = Array.from({ length: 1 + rnd(5) }, (_, j) => {
        const cases = rnd(12);
        return center(j === 0, cases, cases ? rnd(cases + 1) : 0);
      });
      noLoneHiddenCell(cs, suppressionMasks(cs, ['sbp'], 1 + rnd(8)));
    }
  });
});
