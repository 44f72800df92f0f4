import { ProCard } from '@ant-design/pro-components';
import type { MonthBarEntry } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import axios from 'axios';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import '../visualization/locales';

/** The demo bar chart fed by `GET /analysis/month-bar` (spec 000 section 7), open without sign-in. */
export function MonthBarDemo() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['demo', 'month-bar'],
    queryFn: async () =>
      (await axios.get<{ data: { result: MonthBarEntry[] } }>('/analysis/month-bar', { timeout: 10_000 }))
        .data.data.result,
  });
  const spec: ViewSpec = {
    subtype: 'column',
    channels: {
      x: [{ field: 'x', labelOverride: t('vis.workbench.month') }],
      y: [
        { field: 'y', aggregate: 'sum', labelOverride: t('vis.demo.series1') },
        { field: 'y2', aggregate: 'sum', labelOverride: t('vis.demo.series2') },
      ],
    },
    palette: 'theme',
  };
  return (
    <ProCard
      title={t('vis.demo.title')}
      subTitle={t('vis.demo.subtitle')}
      bordered
      data-testid="month-bar-demo"
    >
      {q.isError ? (
        <Alert type="error" message={t('vis.loadFailed')} />
      ) : (
        <ChartView
          spec={spec}
          rows={q.data ?? []}
          locale={currentLocale()}
          height={300}
          testId="month-bar-chart"
        />
      )}
    </ProCard>
  );
}
