import { type ChartRow, type ChartSpec, toEChartsOption, toTableData, validateChart } from '@crdp/charts';
import { DEFAULT_TREE_PALETTE, type Locale, TREE_PALETTES } from '@crdp/core';
import { Alert, Empty, Table, theme } from 'antd';
import type { EChartsInstance } from 'echarts-for-react';
import ReactECharts from 'echarts-for-react';
import { forwardRef, useImperativeHandle, useMemo, useRef } from 'react';
import './register';

/** Palettes offered by the builder: the tree palettes of 10 colours and the settings' theme colour. */
export const PALETTE_NAMES = ['default', 'blue', 'colorSafe', 'theme'] as const;
export type PaletteName = (typeof PALETTE_NAMES)[number];
export type ViewSpec = ChartSpec & { palette?: PaletteName };

export interface ChartViewHandle {
  /** The chart as a PNG data URL (white background), or null when nothing is drawn. */
  toPng(): string | null;
}

interface Props {
  spec: ViewSpec;
  rows: readonly ChartRow[];
  locale: Locale;
  height?: number;
  testId?: string;
}

function paletteOf(name: PaletteName | undefined, primary: string): string[] {
  if (name === 'theme')
    return [primary, ...DEFAULT_TREE_PALETTE.filter((c) => c.toLowerCase() !== primary.toLowerCase())].slice(
      0,
      10,
    );
  if (name && name in TREE_PALETTES) return [...TREE_PALETTES[name as keyof typeof TREE_PALETTES]];
  return [...DEFAULT_TREE_PALETTE];
}

/**
 * Draws a chart spec of @crdp/charts over rows the server aggregated. A spec that misses a
 * requirement is "not a chart" and shows what is missing instead (spec 001 section 4).
 */
export const ChartView = forwardRef<ChartViewHandle, Props>(function ChartView(
  { spec, rows, locale, height = 360, testId = 'chart-view' },
  ref,
) {
  const { token } = theme.useToken();
  const chart = useRef<ReactECharts>(null);
  const check = useMemo(() => validateChart(spec), [spec]);
  const option = useMemo(() => {
    if (!check.isChart || spec.subtype === 'table') return null;
    const o = toEChartsOption({ ...spec, options: { ...spec.options, locale } }, rows) as Record<
      string,
      unknown
    >;
    return { ...o, color: paletteOf(spec.palette, token.colorPrimary) };
  }, [check.isChart, spec, rows, locale, token.colorPrimary]);

  useImperativeHandle(ref, () => ({
    toPng: () => {
      const inst: EChartsInstance | undefined = chart.current?.getEchartsInstance();
      return inst ? inst.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }) : null;
    },
  }));

  if (!check.isChart) {
    return (
      <Alert
        type="info"
        showIcon
        data-testid="not-a-chart"
        message={check.messages[locale].map((m) => <div key={m}>{m}</div>)}
      />
    );
  }
  if (spec.subtype === 'table') {
    const data = toTableData({ ...spec, options: { ...spec.options, locale } }, rows);
    return (
      <Table
        data-testid={testId}
        size="small"
        rowKey={(_r, i) => String(i)}
        pagination={{ pageSize: 10 }}
        columns={data.columns.map((c) => ({
          title: c.title,
          key: c.key,
          align: c.numeric ? ('right' as const) : undefined,
          render: (_: unknown, r: (typeof data.rows)[number]) => r[c.key]?.text ?? '',
        }))}
        dataSource={data.rows}
      />
    );
  }
  if (rows.length === 0) return <Empty data-testid="chart-empty" />;
  return (
    <div data-testid={testId} data-subtype={spec.subtype}>
      <ReactECharts ref={chart} option={option ?? {}} notMerge lazyUpdate style={{ height, width: '100%' }} />
    </div>
  );
});
