import { describe, expect, it } from 'vitest';
import { runAnalysis } from './analysis.js';

describe('an analysis of a dataset (runAnalysis)', () => {
  it('draws Kaplan-Meier curves by group without a log-rank test when no event occurred', () => {
    const rows = [10, 20, 30, 40].map((time, i) => ({ t: time, e: 0, g: i % 2 }));
    const r = runAnalysis(rows, { method: 'kaplanMeier', time: 't', event: 'e', group: 'g' }) as {
      curves: Array<{ group: string; n: number; events: number; median: number | null }>;
      logRank: unknown;
    };
    expect(r.curves.map((c) => [c.group, c.n, c.events, c.median])).toEqual([
      ['0', 2, 0, null],
      ['1', 2, 0, null],
    ]);
    expect(r.logRank).toBeNull();
  });
});
