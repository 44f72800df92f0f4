import { ProCard, StatisticCard } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Col, Empty, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { type LibraryDetail, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

function Board({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const locale = currentLocale();
  const q = useQuery({
    queryKey: ['diseaseLibrary', lib.id, 'dashboard'],
    queryFn: () => libraryApi.dashboard(lib.id),
  });
  if (q.isLoading) return <Skeleton active />;
  const d = q.data;
  if (!d) return null;
  const complete = d.completeness.length
    ? d.completeness.reduce((s, c) => s + c.completeness, 0) / d.completeness.length
    : 0;
  const enrolmentSpec: ViewSpec = {
    subtype: 'line',
    title: t('dashboard.enrolment'),
    channels: {
      x: [
        {
          field: 'month',
          labelOverride: t('dashboard.month'),
          sort: { axis: 'categoryValue', order: 'asc' },
        },
      ],
      y: [{ field: 'count', aggregate: 'sum', labelOverride: t('dashboard.patients') }],
    },
    palette: 'theme',
  };
  const ageSpec: ViewSpec = {
    subtype: 'column',
    title: t('dashboard.age'),
    channels: {
      x: [{ field: 'band', labelOverride: t('dashboard.ageBand') }],
      y: [{ field: 'count', aggregate: 'sum', labelOverride: t('dashboard.patients') }],
    },
    palette: 'theme',
  };
  const genderSpec: ViewSpec = {
    subtype: 'pie',
    title: t('dashboard.gender'),
    channels: {
      category: [{ field: 'gender', labelOverride: t('dashboard.gender') }],
      value: [{ field: 'count', aggregate: 'sum', labelOverride: t('dashboard.patients') }],
    },
    palette: 'theme',
  };
  const completeSpec: ViewSpec = {
    subtype: 'bar',
    title: t('dashboard.completeness'),
    channels: {
      y: [{ field: 'title', labelOverride: t('dashboard.item') }],
      x: [
        {
          field: 'percent',
          aggregate: 'sum',
          labelOverride: t('dashboard.completeRate'),
          format: { suffix: '%', decimals: 1 },
        },
      ],
    },
    palette: 'theme',
  };
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <div data-testid="dashboard-cards">
          <StatisticCard.Group>
            <StatisticCard statistic={{ title: t('dashboard.patients'), value: d.library.patients }} />
            <StatisticCard
              statistic={{
                title: t('dashboard.meanCompleteness'),
                value: Math.round(complete * 1000) / 10,
                suffix: '%',
              }}
            />
            <StatisticCard
              statistic={{ title: t('dashboard.lastPush'), value: d.library.lastPushAt?.slice(0, 10) ?? '-' }}
            />
            <StatisticCard
              statistic={{ title: t('dashboard.lastFill'), value: d.library.lastFillAt?.slice(0, 10) ?? '-' }}
            />
          </StatisticCard.Group>
        </div>
      </Col>
      {d.library.patients === 0 ? (
        <Col span={24}>
          <Empty description={t('dashboard.empty')} />
        </Col>
      ) : (
        <>
          <Col xs={24} xl={12}>
            <ProCard bordered>
              <ChartView
                spec={enrolmentSpec}
                rows={d.enrolment}
                locale={locale}
                height={280}
                testId="chart-enrolment"
              />
            </ProCard>
          </Col>
          <Col xs={24} xl={12}>
            <ProCard bordered>
              <ChartView
                spec={completeSpec}
                rows={d.completeness.map((c) => ({ title: c.title, percent: c.completeness * 100 }))}
                locale={locale}
                height={280}
                testId="chart-completeness"
              />
            </ProCard>
          </Col>
          <Col xs={24} xl={12}>
            <ProCard bordered>
              <ChartView spec={ageSpec} rows={d.ageBands} locale={locale} height={260} testId="chart-age" />
            </ProCard>
          </Col>
          <Col xs={24} xl={12}>
            <ProCard bordered>
              <ChartView
                spec={genderSpec}
                rows={d.gender
                  .filter((g) => g.count > 0)
                  .map((g) => ({ gender: t(`dashboard.genders.${g.gender}`), count: g.count }))}
                locale={locale}
                height={260}
                testId="chart-gender"
              />
            </ProCard>
          </Col>
        </>
      )}
    </Row>
  );
}

/** zhuanbing-dashboard: enrolment over time, age and gender, completeness of the library. */
export default function Dashboard() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('dashboard.title')}>{(lib) => <Board key={lib.id} lib={lib} />}</LibraryPage>;
}
