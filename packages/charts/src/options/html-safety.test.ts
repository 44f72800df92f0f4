import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlLines } from '../html.js';
import type { ChannelField, ChartRow, ChartSpec } from '../schema.js';
import { CHART_SUBTYPES, type ChannelDef, SUBTYPES } from '../subtypes.js';
import { toEChartsOption } from './index.js';

// biome-ignore lint/suspicious/noExplicitAny: the walk reads option objects of every shape
type Any = any;

/**
 * Issue 15 item 6: ECharts puts what a tooltip `formatter` function returns into the page with
 * innerHTML, so a stored label or value holding markup would run in the clinician's browser
 * (only the CSP stopped it). These tests feed hostile labels, values and number formats through
 * every subtype of the registry and check that no formatter returning HTML lets a tag through.
 */
const IMG = '<img src=x onerror=alert(1)>';
const SVG = '"><svg onload=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
const QUOTE = `' onmouseover='x' & "`;
// Number format prefix and suffix are limited to 20 characters.
const PREFIX = '<svg/onload=x>';
const SUFFIX = '<b onclick=x>';

const ROWS: ChartRow[] = [IMG, SVG, SCRIPT, QUOTE, IMG, SVG].map((h, i) => ({
  h,
  h2: `${SVG}${i % 2}`,
  n: 10 + i * 3,
  n2: 100 - i * 7,
  flag: i % 2 === 0,
  flag2: i % 3 !== 0,
}));

/** A hostile field for a channel role; the second field of a channel uses the second column. */
function hostileField(def: ChannelDef, i: number): ChannelField {
  const override = `${[IMG, SVG, SCRIPT][i % 3]}#${def.channel}`;
  switch (def.role) {
    case 'dimension':
      return { field: i === 0 ? 'h' : 'h2', labelOverride: override };
    case 'measure':
      return {
        field: i === 0 ? 'n' : 'n2',
        labelOverride: override,
        format: { prefix: PREFIX, suffix: SUFFIX },
      };
    case 'any':
      // The scatter label channel and the table/rich-text columns show the hostile text itself.
      return i === 0 ? { field: 'h', labelOverride: override } : { field: 'n', labelOverride: override };
    case 'set':
      return def.channel === 'sets'
        ? { field: i === 0 ? 'flag' : 'flag2', labelOverride: override }
        : { field: 'n', labelOverride: override, condition: { op: 'gte', value: 15 } };
  }
}

/** Every channel of the subtype filled (two fields where it takes more than one). */
function hostileSpec(subtype: ChartSpec['subtype']): ChartSpec {
  const channels: Record<string, ChannelField[]> = {};
  for (const def of SUBTYPES[subtype].channels) {
    const n = Math.min(def.max, 2);
    channels[def.channel] = Array.from({ length: n }, (_, i) => hostileField(def, i));
  }
  return { subtype, title: IMG, channels, options: { locale: 'en-US' } } as ChartSpec;
}

interface Found {
  path: string[];
  fn: (...args: unknown[]) => unknown;
}
function functionsIn(value: unknown, path: string[] = [], out: Found[] = []): Found[] {
  if (typeof value === 'function') out.push({ path, fn: value as Found['fn'] });
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) functionsIn(v, [...path, k], out);
  return out;
}

/** Formatter functions ECharts uses as HTML: `formatter` of any tooltip (top level, series, item). */
const isHtmlFormatter = (path: string[]) => path.at(-1) === 'formatter' && path.includes('tooltip');
/**
 * Functions whose result is drawn on the canvas (or escaped by ECharts itself): they return
 * plain text, and escaping would show `&lt;` to the reader.
 */
const PLAIN_TEXT = [
  /^series\.\d+\.label\.formatter$/,
  /^series\.\d+\.tooltip\.valueFormatter$/,
  /^tooltip\.valueFormatter$/,
  /^(xAxis|yAxis)\.axisLabel\.formatter$/,
  /^parallelAxis\.\d+\.axisLabel\.formatter$/,
  /^visualMap\.formatter$/,
];

/** The params ECharts hands to an item tooltip formatter, for every data item of every series. */
function itemParams(option: Any): Any[] {
  const out: Any[] = [{ seriesName: SVG, name: IMG, value: [1, 2, 3], data: {}, dataIndex: 0, percent: 1 }];
  for (const s of option.series ?? []) {
    (s.data ?? []).forEach((d: Any, dataIndex: number) => {
      const item = d && typeof d === 'object' && !Array.isArray(d) ? d : { value: d };
      out.push({
        componentType: 'series',
        seriesType: s.type,
        seriesName: s.name,
        name: item.name ?? '',
        value: item.value,
        data: d,
        dataIndex,
        percent: 50,
        marker: '',
      });
    });
  }
  return out;
}

/** The HTML has no tag but the line breaks the helper adds, and every hostile text survives as text. */
function expectInert(html: unknown, where: string) {
  expect(typeof html, where).toBe('string');
  const text = html as string;
  expect(text.replaceAll('<br/>', ''), where).not.toMatch(/[<>]/);
  expect(text, where).not.toMatch(/"[^"]*\bon[a-z]+=/);
}

describe('HTML escaping of chart formatters (issue 15 item 6)', () => {
  it('escapeHtml replaces & < > " \' and nothing else', () => {
    expect(escapeHtml(IMG)).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(SVG)).toBe('&quot;&gt;&lt;svg onload=window.__xss=1&gt;');
    expect(escapeHtml(`a&b 'c' 中文 ¥1,000`)).toBe('a&amp;b &#39;c&#39; 中文 ¥1,000');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(12.5)).toBe('12.5');
    expect(htmlLines([IMG, 'x: 1'])).toBe('&lt;img src=x onerror=alert(1)&gt;<br/>x: 1');
  });

  it('scatter plot: the tooltip shows labelOverride, the label channel and formatted values as text', () => {
    const spec: ChartSpec = {
      subtype: 'scatter-plot',
      channels: {
        x: [{ field: 'n', labelOverride: IMG, format: { prefix: PREFIX } }],
        y: [{ field: 'n2', labelOverride: SVG, format: { suffix: SUFFIX } }],
        label: [{ field: 'h' }],
      },
    };
    const o: Any = toEChartsOption(spec, ROWS);
    const point = o.series[0].data[0];
    expect(point.name).toBe(IMG);
    const html = o.tooltip.formatter({ seriesName: o.series[0].name, name: point.name, value: point.value });
    expect(html).toBe(
      [
        '&lt;img src=x onerror=alert(1)&gt;',
        '&lt;img src=x onerror=alert(1)&gt;: &lt;svg/onload=x&gt;10',
        '&quot;&gt;&lt;svg onload=window.__xss=1&gt;: 100&lt;b onclick=x&gt;',
      ].join('<br/>'),
    );
    // Without a label the series name (the y label) heads the tooltip, escaped as well.
    const bare: Any = toEChartsOption({ ...spec, channels: { ...spec.channels, label: [] } }, ROWS);
    expectInert(bare.tooltip.formatter({ seriesName: bare.series[0].name, value: [1, 2] }), 'bare');
  });

  it('bubble: size label and value in the tooltip are escaped', () => {
    const o: Any = toEChartsOption(hostileSpec('bubble'), ROWS);
    const html = o.tooltip.formatter({ seriesName: o.series[0].name, value: o.series[0].data[0].value });
    expectInert(html, 'bubble');
    expect(html).toContain('&lt;svg/onload=x&gt;');
  });

  // The registry walk: a formatter added later to any subtype is checked without anyone listing it.
  for (const subtype of CHART_SUBTYPES) {
    it(`${subtype}: every HTML formatter escapes hostile labels and values; every other function is a known plain-text one`, () => {
      const option: Any = toEChartsOption(hostileSpec(subtype), ROWS);
      const found = functionsIn(option);
      for (const { path, fn } of found) {
        const where = `${subtype} ${path.join('.')}`;
        if (isHtmlFormatter(path)) {
          for (const p of itemParams(option)) {
            // Axis tooltips get every series' params at once, item tooltips one item's.
            expectInert(fn(option.tooltip?.trigger === 'axis' ? [p, p] : p), where);
          }
        } else {
          expect(
            PLAIN_TEXT.some((re) => re.test(path.join('.'))),
            `${where}: a new function in the option; if ECharts shows its result as HTML (a tooltip), build it with escapeHtml/htmlLines and let this test call it`,
          ).toBe(true);
        }
      }
      // String templates in tooltips are escaped by ECharts itself; raw HTML strings would not be.
      for (const { path, value } of stringsUnderTooltip(option)) {
        expect(value, `${subtype} ${path}`).not.toMatch(/<(?!br\/>)/);
      }
    });
  }
});

function stringsUnderTooltip(value: unknown, path: string[] = [], inTip = false) {
  const out: Array<{ path: string; value: string }> = [];
  if (typeof value === 'string' && inTip) out.push({ path: path.join('.'), value });
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value))
      out.push(...stringsUnderTooltip(v, [...path, k], inTip || k === 'tooltip'));
  return out;
}
