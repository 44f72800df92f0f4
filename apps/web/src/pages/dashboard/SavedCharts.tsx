import { ProCard } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasApiId } from '../../app/access';
import { useSession } from '../../app/session';
import { type Area, listCharts } from '../visualization/api';
import { SavedChartCard } from '../visualization/Overviews';
import './demo-locales';

/** At most this many saved charts are drawn on the workbench; the rest are a click away. */
const SHOWN = 3;

/** The app's saved charts on the workbench, for users who may open the saved charts. */
export function SavedCharts() {
  const { t } = useTranslation();
  const { access } = useSession();
  // The list needs the saved-charts function, drawing one the chart builder's (its aggregate call).
  const may = (overview: string, builder: string) =>
    !!access && hasApiId(access, `${overview}.query`) && hasApiId(access, `${builder}.query`);
  const area: Area | null = may('VisualizationOverviews', 'VisualizationChart')
    ? 'visualization'
    : may('DataLakeVisualize', 'DataLakeVisualizeChart')
      ? 'data-lake'
      : null;
  const charts = useQuery({
    queryKey: ['workbench', 'saved-charts', area],
    queryFn: () => listCharts(area!),
    enabled: area !== null,
    retry: false,
  });
  if (!area || !charts.data?.length) return null;
  const all = area === 'visualization' ? '/visualization/overviews' : '/data-lake/visualize';
  return (
    <ProCard
      title={t('demoHospital.savedCharts')}
      extra={<Link to={all}>{t('demoHospital.allCharts')}</Link>}
      style={{ marginTop: 16 }}
      data-testid="workbench-saved-charts"
    >
      <Row gutter={[16, 16]}>
        {charts.data.slice(0, SHOWN).map((c) => (
          <Col key={c.id} xs={24} xl={8}>
            <SavedChartCard area={area} chart={c} />
          </Col>
        ))}
      </Row>
    </ProCard>
  );
}
