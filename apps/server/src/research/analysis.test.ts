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

  it('treats a single-choice column as categorical: a frequency table, and chi-square where a t-test was asked', () => {
    const columns = [
      {
        key: 'q1',
        label: '是否饮酒',
        type: 'number' as const,
        options: [
          { value: 0, label: '否' },
          { value: 1, label: '是' },
        ],
      },
      { key: 'sex', label: '性别', type: 'category' as const, codeFamily: 'gender' as const },
    ];
    const rows = [0, 1, 1, 0, 1, 0, 1, 1].map((q1, i) => ({ q1, sex: (i % 2) + 1 }));
    const d = runAnalysis(rows, { method: 'descriptive', variables: ['q1'] }, columns) as {
      variables: Array<{ kind: string; mean?: number; levels?: Array<{ value: string; count: number }> }>;
    };
    expect(d.variables[0]!.kind).toBe('categorical');
    expect(d.variables[0]!.mean).toBeUndefined();
    expect(d.variables[0]!.levels).toEqual([
      { value: '1', count: 5, percent: 62.5 },
      { value: '0', count: 3, percent: 37.5 },
    ]);
    const c = runAnalysis(
      rows,
      { method: 'groupCompare', outcome: 'q1', group: 'sex', test: 'ttest' },
      columns,
    ) as {
      method: string;
      switchedFrom?: string;
      rowLevels: string[];
    };
    expect(c.method).toBe('chi-square');
    expect(c.switchedFrom).toBe('ttest');
    expect(c.rowLevels).toEqual(['1', '2']);
  });
});
