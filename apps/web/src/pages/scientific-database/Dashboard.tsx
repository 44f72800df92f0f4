import type { SciSnapshotDetail } from '@crdp/core';
import { Card, Col, Row, Space, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { columnLabel, SnapshotScreenFrame } from './common';
import { SCI_NS } from './i18n';
import { VariableChart } from './VariableChart';

/** 数据库看板 (`/scientific-database/dashboard`): one snapshot at a glance. */
export default function Dashboard() {
  const { t } = useTranslation(SCI_NS);
  return (
    <Card title={t('dashboard.title')} data-testid="sci-dashboard">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('dashboard.hint')}</Typography.Text>
        <SnapshotScreenFrame screen="dashboard">{(s) => <Board key={s.id} s={s} />}</SnapshotScreenFrame>
      </Space>
    </Card>
  );
}

function Board({ s }: { s: SciSnapshotDetail }) {
  const { t } = useTranslation(SCI_NS);
  const share = (key: string) => {
    const st = s.stats.find((x) => x.key === key);
    return st && s.rowCount ? Math.round((st.present / s.rowCount) * 1000) / 10 : 0;
  };
  const completeness = s.columns.length
    ? Math.round((s.columns.reduce((n, c) => n + share(c.key), 0) / s.columns.length) * 10) / 10
    : 0;
  const spec: ViewSpec = {
    subtype: 'bar',
    channels: {
      x: [{ field: 'x', labelOverride: t('details.variable') }],
      y: [{ field: 'y', aggregate: 'sum', labelOverride: t('dashboard.percent') }],
    },
    palette: 'theme',
  };
  // The first six variables that can be drawn (dates have no chart here).
  const drawn = s.columns.filter((c) => c.type !== 'date').slice(0, 6);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Row gutter={16}>
        <Col span={8}>
          <Statistic title={t('dashboard.rows')} value={s.rowCount} />
        </Col>
        <Col span={8}>
          <Statistic title={t('dashboard.variables')} value={s.columns.length} />
        </Col>
        <Col span={8}>
          <Statistic title={t('dashboard.completeness')} value={completeness} suffix="%" />
        </Col>
      </Row>
      <Card size="small" title={t('dashboard.completenessChart')}>
        <ChartView
          spec={spec}
          rows={s.columns.map((c) => ({ x: columnLabel(c), y: share(c.key) }))}
          locale={currentLocale()}
          height={Math.max(200, s.columns.length * 28)}
          testId="completeness-chart"
        />
      </Card>
      <Row gutter={[16, 16]}>
        {drawn.map((c) => {
          const st = s.stats.find((x) => x.key === c.key);
          return (
            st && (
              <Col xs={24} lg={12} key={c.key}>
                <Card size="small" title={t('dashboard.distribution', { label: columnLabel(c) })}>
                  <VariableChart column={c} stats={st} height={220} />
                </Card>
              </Col>
            )
          );
        })}
      </Row>
    </Space>
  );
}
