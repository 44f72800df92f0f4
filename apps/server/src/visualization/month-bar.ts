import { type MonthBarEntry, seededRandom } from '@crdp/core';

/**
 * The demo month bar data of spec 000 section 7 (`GET /analysis/month-bar`): one entry per
 * month with two demo values, `y` from 1 to 22 and `y2` from 1 to 30 (the two demo ranges of
 * spec 000 section 9). The numbers are pseudo-random but fixed per year, so the example chart
 * does not jump on every reload and tests can rely on them.
 */
export function monthBar(year: number): MonthBarEntry[] {
  const next = seededRandom(year);
  return Array.from({ length: 12 }, (_, i) => ({
    x: `${year}-${String(i + 1).padStart(2, '0')}`,
    month: i + 1,
    y: 1 + Math.floor(next() * 22),
    y2: 1 + Math.floor(next() * 30),
  }));
}
