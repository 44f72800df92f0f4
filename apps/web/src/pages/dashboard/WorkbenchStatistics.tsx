import { ProCard } from '@ant-design/pro-components';
import { API_BASE, hasLabel, SESSION_HEADER } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Col, Row, Statistic } from 'antd';
import axios from 'axios';
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { hasApiId } from '../../app/access';
import { currentLocale } from '../../app/i18n';
import { useLabel } from '../../app/labels';
import { getSession, useSession } from '../../app/session';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { type Area, aggregate } from '../visualization/api';
import '../visualization/locales';
import { shapeOf } from './statistics-shape';

/**
 * Statistics of the workbench (spec 000 section 7). Each call answers what the user may see;
 * a call that is refused, missing or fails hides its card: no sample numbers stand in for it.
 * They go around the shared client on purpose: an optional card must not raise the
 * "Forbidden" notice or a retry message on the landing page.
 */
const STATISTICS = [
  { key: 'dataSources', url: 'data_source_record_statistics', apiId: 'DataLakeOverviews.query' },
  {
    key: 'diseaseLibraries',
    url: 'diseaselibrary/disease_library_statistics',
    apiId: 'ZhuanbingLibraryList.query',
  },
  { key: 'topics', url: 'topic_count', apiId: 'ResearchSubjectList.query' },
  { key: 'topicsByMonth', url: 'topic_count_chart', apiId: 'ResearchSubjectList.query' },
  { key: 'topicTypes', url: 'topic_type_count', apiId: 'ResearchSubjectList.query' },
  { key: 'rdr', url: 'diseaselibrary/rdr_statistics', apiId: 'ZhuanbingDashboard.query' },
] as const;

async function quietGet(url: string): Promise<unknown> {
  const token = getSession().token;
  const res = await axios.get(`${API_BASE}/${url}`, {
    headers: token ? { [SESSION_HEADER]: token, 'Accept-Language': currentLocale() } : {},
    timeout: 30_000,
    validateStatus: () => true,
  });
  const body = res.data as { code?: number; data?: unknown } | undefined;
  if (res.status !== 200 || !body || (body.code !== 200 && body.code !== 0)) return null;
  return body.data ?? null;
}

function StatisticsCard({ title, url }: { title: string; url: string }) {
  const { t, i18n } = useTranslation();
  const word = useLabel();
  const locale = currentLocale();
  const q = useQuery({
    queryKey: ['workbench', 'statistics', url, locale],
    queryFn: () => quietGet(url),
    retry: false,
  });
  const shape = shapeOf(q.data);
  if (!shape) return null;
  // Keys and codes of the answers shown in the user's language where known, else as they come.
  const term = (key: string) =>
    i18n.exists(`vis.terms.${key}`)
      ? t(`vis.terms.${key}`)
      : hasLabel('taskStatus', key)
        ? word('taskStatus', key)
        : hasLabel('researchType', key)
          ? word('researchType', key)
          : key;
  const series = shape.series;
  const category = t('vis.workbench.category');
  const rows =
    series?.rows.map((r) => ({ [category]: term(String(r[series.category])), [title]: r[series.value] })) ??
    [];
  const spec: ViewSpec = {
    subtype: 'column',
    channels: { x: [{ field: category }], y: [{ field: title, aggregate: 'sum' }] },
    palette: 'theme',
  };
  return (
    <Col xs={24} xl={12}>
      <ProCard title={title} bordered data-testid={`stat-${url}`} style={{ height: '100%' }}>
        {shape.numbers.length > 0 && (
          <Row gutter={[16, 8]}>
            {shape.numbers.slice(0, 6).map((i) => (
              <Col key={i.label} xs={12} sm={8}>
                <Statistic title={i.label ? term(i.label) : title} value={i.value} />
              </Col>
            ))}
          </Row>
        )}
        {series && <ChartView spec={spec} rows={rows} locale={locale} height={240} testId={`chart-${url}`} />}
      </ProCard>
    </Col>
  );
}

/** Charts of the app's clinical data for users who may open the chart builder. */
/** One card of the clinical overview: a column of the row, its figure (if any) over its chart. */
function ChartCard({
  xl,
  testId,
  chart,
  children,
}: {
  xl: number;
  testId: string;
  chart: ComponentProps<typeof ChartView>;
  children?: ReactNode;
}) {
  return (
    <Col xs={24} xl={xl}>
      <ProCard bordered data-testid={testId} style={{ height: '100%' }}>
        {children}
        <ChartView {...chart} />
      </ProCard>
    </Col>
  );
}

function ClinicalOverview({ area }: { area: Area }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const total = useQuery({
    queryKey: ['workbench', 'patients', area, locale],
    queryFn: () => aggregate(area, { dataset: 'patients', dimensions: ['gender'], measures: ['count'] }),
    retry: false,
  });
  const visits = useQuery({
    queryKey: ['workbench', 'visits', area, locale],
    queryFn: () => aggregate(area, { dataset: 'visits', dimensions: ['month', 'kind'], measures: ['count'] }),
    retry: false,
  });
  const patients = total.data?.rows.reduce((s, r) => s + Number(r.count ?? 0), 0) ?? 0;
  if (!total.data || patients === 0) return null;
  const genderSpec: ViewSpec = {
    subtype: 'pie',
    title: t('vis.workbench.byGender'),
    channels: {
      category: [{ field: 'gender', labelOverride: t('vis.workbench.gender') }],
      value: [{ field: 'count', aggregate: 'sum', labelOverride: t('vis.workbench.patients') }],
    },
    palette: 'theme',
  };
  const visitSpec: ViewSpec = {
    subtype: 'stacked-column',
    title: t('vis.workbench.visitsByMonth'),
    channels: {
      x: [
        {
          field: 'month',
          labelOverride: t('vis.workbench.month'),
          sort: { axis: 'categoryValue', order: 'asc' },
        },
      ],
      y: [{ field: 'count', aggregate: 'sum', labelOverride: t('vis.workbench.visits') }],
      color: [{ field: 'kind' }],
    },
    palette: 'theme',
  };
  return (
    <>
      <ChartCard
        xl={10}
        testId="stat-patients"
        chart={{ spec: genderSpec, rows: total.data.rows, locale, height: 280, testId: 'chart-gender' }}
      >
        <Statistic title={t('vis.workbench.patients')} value={patients} />
      </ChartCard>
      {visits.data && visits.data.rows.length > 0 && (
        <ChartCard
          xl={14}
          testId="stat-visits"
          chart={{ spec: visitSpec, rows: visits.data.rows, locale, height: 330, testId: 'chart-visits' }}
        />
      )}
    </>
  );
}

export function WorkbenchStatistics() {
  const { t } = useTranslation();
  const { access } = useSession();
  const area: Area | null = !access
    ? null
    : hasApiId(access, 'VisualizationChart.query')
      ? 'visualization'
      : hasApiId(access, 'DataLakeVisualizeChart.query')
        ? 'data-lake'
        : null;
  return (
    <Row gutter={[16, 16]} style={{ marginTop: 16 }} data-testid="workbench-statistics">
      {area && <ClinicalOverview area={area} />}
      {/* Only the cards whose function the user holds are asked for: the server refuses (and audits) the rest. */}
      {access &&
        STATISTICS.filter((s) => hasApiId(access, s.apiId)).map((s) => (
          <StatisticsCard key={s.url} url={s.url} title={t(`vis.workbench.${s.key}`)} />
        ))}
    </Row>
  );
}
