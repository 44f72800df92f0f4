import { describe, expect, it } from 'vitest';
import type { ChartSpec } from '../schema.js';
import { NotAChartError } from '../validate.js';
import { PATIENTS } from './fixtures.test-data.js';
import { toEChartsOption } from './index.js';

type Series = { type: string; name: string; data: Array<number | null>; stack?: string; areaStyle?: object };
type Axis = {
  type: string;
  data?: string[];
  name?: string;
  max?: number;
  axisLabel: { formatter: (v: unknown) => string };
};
const opt = (spec: ChartSpec) =>
  toEChartsOption(spec, PATIENTS) as {
    series: Series[];
    xAxis: Axis;
    yAxis: Axis;
    legend?: { data: string[] };
  };

describe('column family', () => {
  it('column: sums cost per ward in first-seen order, with the empty category named', () => {
    const o = opt({ subtype: 'column', channels: { x: [{ field: 'ward' }], y: [{ field: 'cost' }] } });
    expect(o.xAxis).toMatchObject({ type: 'category', data: ['B', 'A', 'C'], name: 'ward' });
    expect(o.yAxis).toMatchObject({ type: 'value', name: 'cost' });
    expect(o.series).toHaveLength(1);
    expect(o.series[0]).toMatchObject({ type: 'bar', name: 'cost', data: [36000.5, 158000, 12000] });
    expect(o.series[0]!.stack).toBeUndefined();
  });

  it('column: sorts by value descending, label override names the series, number format on the axis', () => {
    const o = opt({
      subtype: 'column',
      channels: {
        x: [{ field: 'ward' }],
        y: [
          {
            field: 'cost',
            labelOverride: '费用',
            aggregate: 'average',
            sort: { axis: 'value', order: 'desc' },
            format: { prefix: '¥', decimals: 0 },
          },
        ],
      },
    });
    expect(o.xAxis.data).toEqual(['A', 'B', 'C']);
    expect(o.series[0]!.name).toBe('费用');
    expect(o.yAxis.axisLabel.formatter(52666.667)).toBe('¥52,667');
  });

  it('column without x counts as one bar; a text field defaults to count', () => {
    const o = opt({ subtype: 'column', channels: { y: [{ field: 'name' }] } });
    expect(o.series[0]!.data).toEqual([8]);
  });

  it('falls back to the unsorted data when the sort fails (ward letters are not typed values)', () => {
    const o = opt({
      subtype: 'column',
      channels: {
        x: [{ field: 'ward', sort: { axis: 'categoryValue', order: 'asc' } }],
        y: [{ field: 'cost' }],
      },
    });
    expect(o.xAxis.data).toEqual(['B', 'A', 'C']);
  });

  it('stacked column splits by colour and stacks; the empty sex shows as (空)', () => {
    const o = opt({
      subtype: 'stacked-column',
      channels: {
        x: [{ field: 'ward', sort: { axis: 'category', order: 'asc' } }],
        y: [{ field: 'age', aggregate: 'count' }],
        color: [{ field: 'sex' }],
      },
    });
    expect(o.xAxis.data).toEqual(['A', 'B', 'C']);
    expect(o.series.map((s) => s.name)).toEqual(['男', '女', '(空)']);
    expect(o.series.map((s) => s.stack)).toEqual(['total', 'total', 'total']);
    expect(o.series[0]!.data).toEqual([1, 2, 1]);
    expect(o.series[2]!.data).toEqual([1, null, null]);
  });

  it('100% stacked column turns values into shares of each category', () => {
    const o = opt({
      subtype: 'per-stacked-column',
      channels: {
        x: [{ field: 'ward' }],
        y: [{ field: 'age', aggregate: 'count' }],
        color: [{ field: 'sex' }],
      },
    });
    const b = o.series.map((s) => s.data[0]);
    expect(b[0]).toBeCloseTo(66.667, 2);
    expect(b[1]).toBeCloseTo(33.333, 2);
    expect(o.yAxis.max).toBe(100);
    expect(o.yAxis.axisLabel.formatter(50)).toBe('50.0%');
  });
});

describe('bar family (horizontal)', () => {
  it('bar puts categories on y and values on x', () => {
    const o = opt({
      subtype: 'bar',
      channels: { y: [{ field: 'province' }], x: [{ field: 'cost', aggregate: 'max' }] },
    });
    expect(o.yAxis).toMatchObject({ type: 'category', data: ['广东', '北京', '上海'] });
    expect(o.xAxis.type).toBe('value');
    expect(o.series[0]!.data).toEqual([120000, 15000, 7000]);
  });

  it('stacked bar with two measures and a colour stacks per measure', () => {
    const o = opt({
      subtype: 'stacked-bar',
      channels: {
        y: [{ field: 'ward' }],
        x: [{ field: 'cost' }, { field: 'age' }],
        color: [{ field: 'sex' }],
      },
    });
    expect(o.series).toHaveLength(6);
    expect(o.series[0]).toMatchObject({ name: 'cost - 男', stack: 'cost' });
    expect(o.series[3]).toMatchObject({ name: 'age - 男', stack: 'age' });
    expect(o.legend!.data).toHaveLength(6);
  });

  it('100% stacked bar shares sum to 100 per category', () => {
    const o = opt({
      subtype: 'per-stacked-bar',
      channels: { y: [{ field: 'ward' }], x: [{ field: 'cost' }], color: [{ field: 'dm' }] },
    });
    for (let i = 0; i < 3; i++) {
      expect(o.series.reduce((sum, s) => sum + (s.data[i] ?? 0), 0)).toBeCloseTo(100, 6);
    }
    expect(o.xAxis.max).toBe(100);
  });
});

describe('line family', () => {
  it('line: median age per visit month sorted by date', () => {
    const rows = PATIENTS.map((p) => ({ ...p, month: String(p.visit).slice(0, 7) }));
    const o = toEChartsOption(
      {
        subtype: 'line',
        channels: {
          x: [{ field: 'month', sort: { axis: 'categoryValue', order: 'asc' } }],
          y: [{ field: 'age', aggregate: 'median' }],
        },
      },
      rows,
    ) as { xAxis: Axis; series: Series[] };
    expect(o.xAxis.data).toEqual(['2024-01', '2024-02', '2024-03']);
    expect(o.series[0]).toMatchObject({ type: 'line', data: [45, 71, 58.5] });
  });

  it('area fills and starts at the axis; stacked area stacks', () => {
    const area = opt({ subtype: 'area', channels: { x: [{ field: 'ward' }], y: [{ field: 'age' }] } });
    expect(area.series[0]!.areaStyle).toEqual({});
    expect(area.xAxis).toMatchObject({ boundaryGap: false });
    const stacked = opt({
      subtype: 'stacked-area',
      channels: { x: [{ field: 'ward' }], y: [{ field: 'age' }], color: [{ field: 'sex' }] },
    });
    expect(stacked.series.every((s) => s.stack === 'total' && s.areaStyle)).toBe(true);
  });

  it('a label field shows its own formatted value on each point', () => {
    const o = toEChartsOption(
      {
        subtype: 'line',
        channels: {
          x: [{ field: 'ward' }],
          y: [{ field: 'age' }],
          label: [{ field: 'cost', format: { suffix: '元', decimals: 0 } }],
        },
      },
      PATIENTS,
    ) as { series: Array<{ label: { formatter: (p: { dataIndex: number }) => string } }> };
    expect(o.series[0]!.label.formatter({ dataIndex: 0 })).toBe('36,001元');
  });

  it('throws NotAChartError with the message when an axis is missing', () => {
    expect(() => toEChartsOption({ subtype: 'line', channels: { y: [{ field: 'age' }] } }, PATIENTS)).toThrow(
      NotAChartError,
    );
    try {
      toEChartsOption({ subtype: 'line', channels: { y: [{ field: 'age' }] } }, PATIENTS);
    } catch (e) {
      expect((e as NotAChartError).validation.messages['zh-CN']).toEqual(['“X 轴”至少需要 1 个字段']);
    }
  });
});
