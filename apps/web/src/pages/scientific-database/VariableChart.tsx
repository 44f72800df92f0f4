import type { SciColumn, SciColumnStats } from '@crdp/core';
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { cellText, showNumber } from './common';
import { SCI_NS } from './i18n';

/** A column's distribution as the snapshot summarised it: a histogram, or counts per value. */
export function VariableChart({
  column,
  stats,
  height = 260,
}: {
  column: SciColumn;
  stats: SciColumnStats;
  height?: number;
}) {
  const { t } = useTranslation(SCI_NS);
  const rows =
    column.type === 'number'
      ? stats.histogram.map((b) => ({
          x: b.from === b.to ? showNumber(b.from) : `${showNumber(b.from)}–${showNumber(b.to)}`,
          y: b.count,
        }))
      : stats.categories.map((c) => ({ x: cellText(column, c.value), y: c.count }));
  if (!rows.length) return <Empty description={t('details.noValues')} />;
  const spec: ViewSpec = {
    subtype: 'column',
    channels: {
      x: [{ field: 'x', labelOverride: column.key }],
      y: [{ field: 'y', aggregate: 'sum', labelOverride: t('dashboard.patients') }],
    },
    palette: 'theme',
  };
  return (
    <ChartView
      spec={spec}
      rows={rows}
      locale={currentLocale()}
      height={height}
      testId={`chart-${column.key}`}
    />
  );
}
