import { describe, expect, it } from 'vitest';
import { fillMonths, MAX_FILLED_MONTHS } from './months.js';
import { toEChartsOption } from './options/index.js';

type Out = {
  xAxis: { data: string[]; axisLabel: object };
  series: Array<{ name: string; data: Array<number | null> }>;
  grid: Record<string, unknown>;
};
const chart = (spec: Parameters<typeof toEChartsOption>[0], rows: Record<string, unknown>[]) =>
  toEChartsOption(spec, rows) as unknown as Out;

// Server-aggregated rows as the workbench gets them: a count per month (and visit kind).
const VISITS = [
  { month: '2025-11', kind: '门诊', count: 4 },
  { month: '2026-02', kind: '门诊', count: 2 },
  { month: '2026-02', kind: '住院', count: 1 },
];

describe('month axes keep every month', () => {
  const group = (label: string) => ({ label, raw: label, rows: [] });

  it('puts the months the data skips back in their place, across a year end', () => {
    const { items, monthly } = fillMonths([group('2025-11'), group('2026-02')], group);
    expect(monthly).toBe(true);
    expect(items.map((g) => g.label)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  it('keeps a descending order, and leaves other categories and huge spans alone', () => {
    expect(fillMonths([group('2026-03'), group('2026-01')], group).items.map((g) => g.label)).toEqual([
      '2026-03',
      '2026-02',
      '2026-01',
    ]);
    expect(fillMonths([group('2026-01'), group('内科')], group).monthly).toBe(false);
    expect(fillMonths([group('2026-13'), group('2026-01')], group).monthly).toBe(false);
    const far = fillMonths([group('1900-01'), group('2026-01')], group);
    expect(far.monthly).toBe(false);
    expect(far.items).toHaveLength(2);
    expect(MAX_FILLED_MONTHS).toBe(240);
  });

  it('a line of visits per month shows empty months as zero, not as a gap in the axis', () => {
    const o = chart(
      { subtype: 'line', channels: { x: [{ field: 'month' }], y: [{ field: 'count', aggregate: 'sum' }] } },
      VISITS,
    );
    expect(o.xAxis.data).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(o.series[0]!.data).toEqual([4, 0, 0, 3]);
  });

  it('each colour series is zero in the months it has no rows; an average of nothing stays empty', () => {
    const o = chart(
      {
        subtype: 'stacked-column',
        channels: {
          x: [{ field: 'month' }],
          y: [{ field: 'count', aggregate: 'sum' }],
          color: [{ field: 'kind' }],
        },
      },
      VISITS,
    );
    expect(o.series.map((s) => [s.name, s.data])).toEqual([
      ['门诊', [4, 0, 0, 2]],
      ['住院', [0, 0, 0, 1]],
    ]);
    const avg = chart(
      {
        subtype: 'line',
        channels: { x: [{ field: 'month' }], y: [{ field: 'count', aggregate: 'average' }] },
      },
      VISITS,
    );
    expect(avg.series[0]!.data).toEqual([4, null, null, 1.5]);
  });

  it('a chart ranked by its values is not a time axis', () => {
    const o = chart(
      {
        subtype: 'column',
        channels: {
          x: [{ field: 'month' }],
          y: [{ field: 'count', aggregate: 'sum', sort: { axis: 'value', order: 'desc' } }],
        },
      },
      VISITS,
    );
    expect(o.xAxis.data).toEqual(['2025-11', '2026-02']);
  });

  it('axis names and labels stay inside the canvas; long category labels are cut with an ellipsis', () => {
    const o = chart(
      { subtype: 'column', channels: { x: [{ field: 'month' }], y: [{ field: 'count' }] } },
      VISITS,
    );
    expect(o.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'all' });
    expect(o.grid.containLabel).toBeUndefined();
    expect(o.xAxis.axisLabel).toMatchObject({ hideOverlap: true, overflow: 'truncate' });
  });
});
