import { CDR_FORECAST_KINDS, type CdrForecast } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Empty, Select, Space, Spin, Table, Typography } from 'antd';
import ReactECharts from 'echarts-for-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { forecastApi } from './reference-api';
import { REFERENCE_NS } from './reference-i18n';

type Kind = (typeof CDR_FORECAST_KINDS)[number];
const HISTORY = [56, 90, 180, 365] as const;
const round = (n: number) => Math.round(n * 10) / 10;

/** Actual counts, the forecast line and its 80 % / 95 % bands (stacked areas from the lower bound). */
function useOption(f: CdrForecast | undefined) {
  const { t } = useTranslation(REFERENCE_NS);
  return useMemo(() => {
    if (!f) return null;
    const dates = [...f.history.map((h) => h.date), ...f.forecast.map((p) => p.date)];
    const pad = f.history.map(() => null);
    const band = (lo: 'lo80' | 'lo95', hi: 'hi80' | 'hi95') => [
      [...pad, ...f.forecast.map((p) => round(p[lo]))],
      [...pad, ...f.forecast.map((p) => round(p[hi] - p[lo]))],
    ];
    const [lo95, w95] = band('lo95', 'hi95');
    const [lo80, w80] = band('lo80', 'hi80');
    const area = (name: string, data: (number | null)[], stack: string, color: string | null) => ({
      name,
      type: 'line',
      stack,
      data,
      symbol: 'none',
      lineStyle: { opacity: 0 },
      areaStyle: color ? { color } : { opacity: 0 },
      itemStyle: color ? { color } : undefined,
      tooltip: { show: false },
    });
    return {
      // Drawn at once: a daily series of a year animates slowly and screenshots catch it half-drawn.
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: {
        top: 0,
        data: [t('forecast.actual'), t('forecast.mean'), t('forecast.band95'), t('forecast.band80')],
      },
      grid: { left: 40, right: 20, top: 40, bottom: 60 },
      xAxis: { type: 'category', data: dates },
      yAxis: { type: 'value', minInterval: 1 },
      dataZoom: [{ type: 'slider', start: Math.max(0, 100 - (120 / dates.length) * 100), end: 100 }],
      series: [
        area('lo95', lo95!, 'b95', null),
        area(t('forecast.band95'), w95!, 'b95', 'rgba(78,121,167,0.15)'),
        area('lo80', lo80!, 'b80', null),
        area(t('forecast.band80'), w80!, 'b80', 'rgba(78,121,167,0.30)'),
        {
          name: t('forecast.actual'),
          type: 'line',
          data: [...f.history.map((h) => h.n), ...f.forecast.map(() => null)],
          symbol: 'none',
          lineStyle: { width: 1.5, color: '#595959' },
          itemStyle: { color: '#595959' },
        },
        {
          name: t('forecast.mean'),
          type: 'line',
          data: [...pad, ...f.forecast.map((p) => p.mean)],
          symbol: 'circle',
          symbolSize: 4,
          lineStyle: { width: 2, color: '#4e79a7' },
          itemStyle: { color: '#4e79a7' },
        },
      ],
    };
  }, [f, t]);
}

/**
 * 医院预测浏览 (`/data-lake/hos-forecaset-browse`): visits per day of a kind and the next 30 days
 * by the seasonal naive method with its intervals. Kind and history are in the address.
 */
export default function HospitalForecast() {
  const { t } = useTranslation(REFERENCE_NS);
  const [params, setParams] = useSearchParams();
  const kind = (CDR_FORECAST_KINDS as readonly string[]).includes(params.get('kind') ?? '')
    ? (params.get('kind') as Kind)
    : 'inpatient';
  const history = Number(params.get('history')) || 180;
  const q = useQuery({
    queryKey: ['forecast', kind, history],
    queryFn: () => forecastApi.get({ kind, history }),
  });
  const option = useOption(q.data);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(window.location.search);
    next.set(k, v);
    setParams(next, { replace: true });
  };
  const f = q.data;
  return (
    <Card
      title={t('forecast.title')}
      data-testid="forecast"
      extra={
        <Space wrap>
          <Select
            value={kind}
            onChange={(v) => set('kind', v)}
            options={CDR_FORECAST_KINDS.map((k) => ({ value: k, label: t(`forecast.kinds.${k}`) }))}
            aria-label={t('forecast.kind')}
            style={{ minWidth: 160 }}
            data-testid="forecast-kind"
          />
          <Select
            value={history}
            onChange={(v) => set('history', String(v))}
            options={HISTORY.map((d) => ({ value: d, label: t('forecast.days', { count: d }) }))}
            aria-label={t('forecast.history')}
            style={{ minWidth: 110 }}
          />
        </Space>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('forecast.hint')}</Typography.Text>
        {q.isError ? (
          <Alert type="error" showIcon message={q.error.message} data-testid="forecast-error" />
        ) : q.isLoading || !f ? (
          <Spin />
        ) : !f.asOf ? (
          <Empty description={t('forecast.noData')} />
        ) : (
          <>
            <Space wrap>
              <Typography.Text strong data-testid="forecast-as-of">
                {t('forecast.asOf', { date: f.asOf })}
              </Typography.Text>
              {f.sigma !== null && (
                <Typography.Text type="secondary">
                  {t('forecast.sigma', { sigma: round(f.sigma) })}
                </Typography.Text>
              )}
            </Space>
            {f.notice && <Alert type="info" showIcon message={f.notice} data-testid="forecast-notice" />}
            {option && <ReactECharts option={option} style={{ height: 380 }} notMerge />}
            {f.forecast.length > 0 && (
              <Table
                size="small"
                rowKey="date"
                title={() => t('forecast.table')}
                dataSource={f.forecast}
                pagination={{ pageSize: 7, hideOnSinglePage: true }}
                data-testid="forecast-table"
                columns={[
                  { title: t('forecast.date'), dataIndex: 'date' },
                  { title: t('forecast.mean'), dataIndex: 'mean', align: 'right' },
                  {
                    title: t('forecast.band80'),
                    key: 'b80',
                    align: 'right',
                    render: (_, p) => `${round(p.lo80)} – ${round(p.hi80)}`,
                  },
                  {
                    title: t('forecast.band95'),
                    key: 'b95',
                    align: 'right',
                    render: (_, p) => `${round(p.lo95)} – ${round(p.hi95)}`,
                  },
                ]}
              />
            )}
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('forecast.method')}
            </Typography.Paragraph>
          </>
        )}
      </Space>
    </Card>
  );
}
