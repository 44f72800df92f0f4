import { cdrSourceLabel, formatNumber } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Table } from 'antd';
import ReactECharts from 'echarts-for-react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { cdr } from '../clinical/api';
import { CLINICAL_NS } from '../clinical/i18n';

/** Data overview (`/data-lake/overviews`): rows by table and source, and new rows per month. */
export default function Overviews() {
  const { t } = useTranslation(CLINICAL_NS);
  const q = useQuery({ queryKey: ['cdr-overview'], queryFn: cdr.overview });
  const tables = useQuery({ queryKey: ['cdr-tables'], queryFn: cdr.tables });
  const locale = currentLocale();
  const label = useCallback(
    (key: string) => tables.data?.find((x) => x.key === key)?.label[locale] ?? key,
    [tables.data, locale],
  );
  const totals = useMemo(() => {
    const m = new Map<string, number>();
    for (const r of q.data?.bySource ?? []) m.set(r.table, (m.get(r.table) ?? 0) + r.n);
    return m;
  }, [q.data]);
  const option = useMemo(() => {
    const months = [...new Set((q.data?.byMonth ?? []).map((r) => r.month))].sort();
    const tables = [...new Set((q.data?.byMonth ?? []).map((r) => r.table))];
    return {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 56, right: 16, top: 48, bottom: 32 },
      xAxis: { type: 'category', data: months },
      yAxis: { type: 'value' },
      series: tables.map((tb) => ({
        type: 'bar',
        stack: 'all',
        name: label(tb),
        data: months.map((m) => q.data!.byMonth.find((r) => r.table === tb && r.month === m)?.n ?? 0),
      })),
    };
  }, [q.data, label]);
  return (
    <Row gutter={[16, 16]}>
      {['patients', 'visits', 'labResults', 'documents'].map((k) => (
        <Col xs={12} lg={6} key={k}>
          <Card loading={q.isLoading}>
            <Statistic title={label(k)} value={formatNumber(totals.get(k) ?? 0)} />
          </Card>
        </Col>
      ))}
      <Col xs={24} lg={14}>
        <Card title={t('overview.byMonth')} loading={q.isLoading}>
          <ReactECharts option={option} style={{ height: 360 }} notMerge />
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title={t('overview.bySource')} loading={q.isLoading}>
          <Table
            size="small"
            rowKey={(r) => `${r.table}-${r.source}`}
            pagination={false}
            dataSource={q.data?.bySource ?? []}
            columns={[
              { title: t('overview.table'), dataIndex: 'table', render: (k: string) => label(k) },
              {
                title: t('cdr.source'),
                dataIndex: 'source',
                render: (v: string) => cdrSourceLabel(v, currentLocale()),
              },
              { title: t('overview.rows'), dataIndex: 'n', render: (n: number) => formatNumber(n) },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
