import { describe, expect, it } from 'vitest';
import type { ChartSpec } from '../schema.js';
import { PATIENTS } from './fixtures.test-data.js';
import { toEChartsOption } from './index.js';
import { niceCeil } from './matrix.js';
import { plainText, toTableData } from './text.js';
import { vennRegions } from './venn.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read deep into option objects of many shapes
type Any = any;
const opt = (spec: ChartSpec): Any => toEChartsOption(spec, PATIENTS);

describe('sliced charts', () => {
  it('pie: one slice per category, value sorted ascending, formatted tooltip', () => {
    const o = opt({
      subtype: 'pie',
      channels: {
        category: [{ field: 'province' }],
        value: [{ field: 'cost', sort: { axis: 'value', order: 'asc' }, format: { decimals: 1 } }],
      },
    });
    expect(o.series[0].type).toBe('pie');
    expect(o.series[0].roseType).toBeUndefined();
    expect(o.series[0].data).toEqual([
      { name: '上海', value: 12000 },
      { name: '北京', value: 23000 },
      { name: '广东', value: 171000.5 },
    ]);
    expect(o.tooltip.valueFormatter(171000.5)).toBe('171,000.5');
  });

  it('rose: a Nightingale pie counting rows when no value channel is set is refused (value is required)', () => {
    expect(() => opt({ subtype: 'rose', channels: { category: [{ field: 'sex' }] } })).toThrow(
      /Value needs at least 1 field/,
    );
    const o = opt({
      subtype: 'rose',
      channels: { category: [{ field: 'sex' }], value: [{ field: 'name' }] },
    });
    expect(o.series[0].roseType).toBe('radius');
    expect(o.series[0].data).toEqual([
      { name: '男', value: 4 },
      { name: '女', value: 3 },
      { name: '(空)', value: 1 },
    ]);
  });

  it('funnel: stages on x, values on y, widest first unless sorted', () => {
    const o = opt({
      subtype: 'funnel',
      channels: { x: [{ field: 'outcome' }], y: [{ field: 'name', aggregate: 'count' }] },
    });
    expect(o.series[0]).toMatchObject({ type: 'funnel', sort: 'descending' });
    expect(o.series[0].data).toEqual([
      { name: '入组', value: 6 },
      { name: '脱落', value: 2 },
    ]);
    const sorted = opt({
      subtype: 'funnel',
      channels: {
        x: [{ field: 'outcome', sort: { axis: 'category', order: 'desc' } }],
        y: [{ field: 'age' }],
      },
    });
    expect(sorted.series[0].sort).toBe('none');
  });

  it('word cloud: series type wordCloud for echarts-wordcloud, biggest words first, row count by default', () => {
    const o = opt({
      subtype: 'word-cloud',
      channels: { text: [{ field: 'province' }] },
      options: { maxWords: 2 },
    });
    expect(o.series[0].type).toBe('wordCloud');
    expect(o.series[0].data).toEqual([
      { name: '广东', value: 4 },
      { name: '北京', value: 2 },
    ]);
  });

  it('map: series type map on the china map with a visual range', () => {
    const o = opt({ subtype: 'map', channels: { category: [{ field: 'province' }] } });
    expect(o.series[0]).toMatchObject({ type: 'map', map: 'china' });
    expect(o.series[0].data).toContainEqual({ name: '广东', value: 4 });
    expect(o.visualMap).toMatchObject({ min: 0, max: 4 });
    expect(
      opt({
        subtype: 'map',
        channels: { category: [{ field: 'province' }] },
        options: { mapName: 'china-cities' },
      }).series[0].map,
    ).toBe('china-cities');
  });
});

describe('hierarchies and flows', () => {
  it('sunburst nests groups level by level with totals', () => {
    const o = opt({ subtype: 'sunburst', channels: { group: [{ field: 'province' }, { field: 'ward' }] } });
    expect(o.series[0].type).toBe('sunburst');
    const gd = o.series[0].data[0];
    expect(gd).toMatchObject({ name: '广东', value: 4 });
    expect(gd.children).toEqual([
      { name: 'B', value: 2 },
      { name: 'A', value: 2 },
    ]);
    expect(o.series[0].sort).toBe('desc');
  });

  it('tree map keeps a user sort (ECharts would sort by value otherwise)', () => {
    const o = opt({
      subtype: 'tree-map',
      channels: {
        group: [{ field: 'ward', sort: { axis: 'category', order: 'asc' } }],
        value: [{ field: 'cost' }],
      },
    });
    expect(o.series[0].type).toBe('treemap');
    expect(o.series[0].sort).toBeUndefined();
    expect(o.series[0].data.map((n: Any) => n.name)).toEqual(['A', 'B', 'C']);
  });

  it('sankey links consecutive stages and names values repeated across stages by stage', () => {
    const rows = [
      { a: '是', b: '否' },
      { a: '是', b: '是' },
      { a: '否', b: '否' },
    ];
    const o: Any = toEChartsOption(
      { subtype: 'sankey-diagram', channels: { xs: [{ field: 'a' }, { field: 'b' }] } },
      rows,
    );
    expect(o.series[0].type).toBe('sankey');
    expect(o.series[0].data.map((n: Any) => n.name)).toEqual(['是 (a)', '否 (b)', '是 (b)', '否 (a)']);
    expect(o.series[0].links).toEqual([
      { source: '是 (a)', target: '否 (b)', value: 1 },
      { source: '是 (a)', target: '是 (b)', value: 1 },
      { source: '否 (a)', target: '否 (b)', value: 1 },
    ]);
    const plain = opt({
      subtype: 'sankey-diagram',
      channels: { xs: [{ field: 'stage' }, { field: 'outcome' }] },
    });
    expect(plain.series[0].links).toEqual([
      { source: '筛选', target: '入组', value: 6 },
      { source: '筛选', target: '脱落', value: 2 },
    ]);
  });
});

describe('matrices and statistics', () => {
  it('heatmap: [x, y, value] cells with a visual range', () => {
    const o = opt({
      subtype: 'heatmap',
      channels: {
        x: [{ field: 'ward', sort: { axis: 'category', order: 'asc' } }],
        y: [{ field: 'dm' }],
        intensity: [{ field: 'age', aggregate: 'max' }],
      },
    });
    expect(o.xAxis.data).toEqual(['A', 'B', 'C']);
    expect(o.yAxis.data).toEqual(['true', 'false']);
    expect(o.series[0].data).toContainEqual([0, 0, 90]);
    expect(o.series[0].data).toContainEqual([2, 1, 49]);
    expect(o.visualMap).toMatchObject({ min: 45, max: 90 });
  });

  it('radar: one indicator per measure scaled to a nice maximum, one polygon per category', () => {
    const o = opt({
      subtype: 'radar',
      channels: {
        x: [{ field: 'sex' }],
        y: [
          { field: 'age', aggregate: 'average' },
          { field: 'cost', aggregate: 'max' },
        ],
      },
    });
    expect(o.radar.indicator).toEqual([
      { name: 'age', max: 100 },
      { name: 'cost', max: 200000 },
    ]);
    expect(o.series[0].data[0]).toEqual({ name: '男', value: [59.25, 30000] });
    expect(niceCeil(7)).toBe(10);
    expect(niceCeil(230)).toBe(250);
  });

  it('box: Tukey five numbers per category and outliers as points', () => {
    const o = opt({ subtype: 'box', channels: { y: [{ field: 'cost' }] } });
    const [box, outliers] = o.series;
    expect(box.type).toBe('boxplot');
    // Costs sorted: 5000 7000 8000 9000 12000.5 15000 30000 120000; Q1 7750, median 10500.25, Q3 18750.
    expect(box.data[0]).toEqual([5000, 7750, 10500.25, 18750, 30000]);
    expect(outliers.data).toEqual([[0, 120000]]);
  });

  it('scatter: raw points, grouped by colour, rows with non-numbers left out', () => {
    const rows = [...PATIENTS, { age: 'unknown', cost: 1 }];
    const o: Any = toEChartsOption(
      {
        subtype: 'scatter-plot',
        channels: { x: [{ field: 'age' }], y: [{ field: 'cost' }], color: [{ field: 'dm' }] },
      },
      rows,
    );
    expect(o.series.map((s: Any) => s.name)).toEqual(['true', 'false', '(空)']);
    expect(o.series[0].data[0]).toEqual([62, 12000.5]);
    expect(o.series[2].data).toEqual([]);
    expect(o.tooltip.formatter({ seriesName: 'true', value: [62, 12000.5] })).toBe(
      'true<br/>age: 62<br/>cost: 12,000.5',
    );
  });

  it('bubble: symbol area proportional to size', () => {
    const o = opt({
      subtype: 'bubble',
      channels: { x: [{ field: 'age' }], y: [{ field: 'cost' }], size: [{ field: 'htn' }] },
    });
    const data = o.series[0].data;
    expect(data[0]).toEqual({ value: [62, 12000.5, 1], symbolSize: 60 });
    expect(data[2]).toEqual({ value: [71, 30000, 0], symbolSize: 6 });
  });

  it('coordinates: value axes for numbers, category axes for text, one line per row', () => {
    const o = opt({
      subtype: 'coordinates',
      channels: { ys: [{ field: 'age' }, { field: 'ward' }, { field: 'cost' }] },
    });
    expect(o.parallelAxis.map((a: Any) => a.type)).toEqual(['value', 'category', 'value']);
    expect(o.parallelAxis[1].data).toEqual(['B', 'A', 'C']);
    expect(o.series[0].type).toBe('parallel');
    expect(o.series[0].data[0]).toEqual([62, 'B', 12000.5]);
  });
});

describe('venn', () => {
  it('counts every region from flags and conditions', () => {
    const regions = vennRegions(PATIENTS, [
      { field: 'dm', labelOverride: '糖尿病' },
      { field: 'htn', labelOverride: '高血压' },
      { field: 'age', labelOverride: '老年', condition: { op: 'gte', value: 65 } },
    ]);
    const find = (...sets: string[]) => regions.find((r) => r.sets.join() === sets.join())!;
    expect(find('糖尿病')).toMatchObject({ size: 4, exclusive: 0 });
    expect(find('高血压')).toMatchObject({ size: 4, exclusive: 1 });
    expect(find('糖尿病', '高血压')).toMatchObject({ size: 2, exclusive: 2 });
    expect(find('糖尿病', '老年')).toMatchObject({ size: 2, exclusive: 2 });
    expect(find('糖尿病', '高血压', '老年')).toMatchObject({ size: 0, exclusive: 0 });
  });

  it('draws one circle per set and region labels as ECharts graphic elements', () => {
    const o = opt({
      subtype: 'venn',
      channels: {
        sets: [
          { field: 'dm', labelOverride: '糖尿病' },
          { field: 'htn', labelOverride: '高血压' },
        ],
      },
    });
    const group = o.graphic[0];
    expect(group).toMatchObject({ type: 'group', left: 'center', top: 'middle' });
    const circles = group.children.filter((c: Any) => c.type === 'circle');
    expect(circles).toHaveLength(2);
    for (const c of circles) expect(c.shape.r).toBeGreaterThan(0);
    const texts = group.children.filter((c: Any) => c.type === 'text').map((t: Any) => t.style.text);
    expect(texts).toEqual(expect.arrayContaining(['糖尿病\n2', '高血压\n2', '2']));
    expect(o.dataset.source).toContainEqual(['糖尿病 ∩ 高血压', 2, 2]);
  });
});

describe('table and rich text', () => {
  it('table lists rows with formatted numbers and sorts them', () => {
    const t = toTableData(
      {
        subtype: 'table',
        channels: {
          column: [
            { field: 'name', labelOverride: '姓名' },
            { field: 'cost', sort: { axis: 'value', order: 'desc' }, format: { prefix: '¥' } },
          ],
        },
      },
      PATIENTS,
    );
    expect(t.columns.map((c) => [c.title, c.numeric])).toEqual([
      ['姓名', false],
      ['cost', true],
    ]);
    expect(t.rows[0]!['cost#1']).toEqual({ value: 120000, text: '¥120,000' });
    expect(t.rows[0]!['name#0']!.text).toBe('吴十');
  });

  it('table groups by the plain columns when some column aggregates', () => {
    const o = opt({
      subtype: 'table',
      channels: { column: [{ field: 'ward' }, { field: 'age', aggregate: 'count', labelOverride: '人数' }] },
    });
    expect(o.dataset).toEqual({
      dimensions: ['ward', '人数'],
      source: [
        ['B', '3'],
        ['A', '3'],
        ['C', '2'],
      ],
    });
  });

  it('rich text shows authored content as plain text, or the text fields of the first row', () => {
    const o = opt({ subtype: 'rich-text', content: '<p>入组 <b>6</b> 例</p><p>a &amp; b</p>' });
    expect(o.graphic[0].style.text).toBe('入组 6 例\na & b');
    expect(opt({ subtype: 'rich-text', channels: { text: [{ field: 'name' }] } }).graphic[0].style.text).toBe(
      '张三',
    );
    expect(plainText('x<br/>y')).toBe('x\ny');
  });

  it('every subtype gives an option with a title when one is set', () => {
    const o = opt({ subtype: 'pie', title: '省份分布', channels: { value: [{ field: 'age' }] } });
    expect(o.title).toEqual({ text: '省份分布', left: 'center' });
    expect(o.color).toHaveLength(10);
  });
});
