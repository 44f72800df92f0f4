import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, DatePicker, Row, Select, Space, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { ChartView, type ViewSpec } from '../../components/chart/ChartView';
import { observationApi } from './api';
import { OBS_NS } from './i18n';

/**
 * clinical-activity-dashboard: admissions, lab results and operations per day and per
 * department, counted by the server from the observation store.
 */
export default function Dashboard() {
  const { t } = useTranslation(OBS_NS);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day'), dayjs()]);
  const [department, setDepartment] = useState('');
  const params = { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD'), department };
  const activity = useQuery({
    queryKey: ['observation', 'activity', params],
    queryFn: () => observationApi.activity(params),
  });
  const d = activity.data;
  const series = useMemo(
    () => [
      { field: 'admissions', aggregate: 'sum' as const, labelOverride: t('dashboard.admissions') },
      { field: 'labs', aggregate: 'sum' as const, labelOverride: t('dashboard.labs') },
      { field: 'operations', aggregate: 'sum' as const, labelOverride: t('dashboard.operations') },
    ],
    [t],
  );
  const perDay: ViewSpec = {
    subtype: 'line',
    channels: { x: [{ field: 'date', labelOverride: t('dashboard.day') }], y: series },
    palette: 'theme',
  };
  const perDept: ViewSpec = {
    subtype: 'column',
    channels: { x: [{ field: 'department', labelOverride: t('dashboard.department') }], y: series },
    palette: 'theme',
  };
  const locale = currentLocale();
  const stat = (key: 'admissions' | 'labs' | 'operations' | 'patients') => (
    <Col xs={12} md={6}>
      <Card size="small">
        <Statistic
          title={t(`dashboard.${key}`)}
          value={d?.totals[key] ?? 0}
          loading={activity.isLoading}
          data-testid={`total-${key}`}
        />
      </Card>
    </Col>
  );

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={t('dashboard.title')}
        extra={
          <Space wrap>
            <DatePicker.RangePicker
              value={range}
              allowClear={false}
              aria-label={t('dashboard.range')}
              onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
              disabledDate={(day) => day.isAfter(dayjs().add(1, 'year'))}
              data-testid="activity-range"
            />
            <Select
              value={department}
              onChange={setDepartment}
              style={{ width: 180 }}
              aria-label={t('dashboard.department')}
              options={[
                { value: '', label: t('dashboard.allDepartments') },
                ...(d?.departments ?? []).map((x) => ({ value: x, label: x })),
              ]}
              data-testid="activity-department"
            />
          </Space>
        }
      >
        {activity.isError && <Alert type="error" showIcon message={activity.error.message} />}
        {d && !d.lastTransformAt && (
          <Alert type="info" showIcon message={t('dashboard.noTransform')} style={{ marginBottom: 12 }} />
        )}
        {d?.lastTransformAt && (
          <Typography.Paragraph type="secondary">
            {t('dashboard.lastTransform', { at: dayjs(d.lastTransformAt).format('YYYY-MM-DD HH:mm') })}
          </Typography.Paragraph>
        )}
        <Row gutter={[12, 12]}>
          {stat('admissions')}
          {stat('labs')}
          {stat('operations')}
          {stat('patients')}
        </Row>
      </Card>
      <Card title={t('dashboard.perDay')} size="small">
        <ChartView
          spec={perDay}
          rows={d?.days ?? []}
          locale={locale}
          height={320}
          testId="activity-per-day"
        />
      </Card>
      <Card title={t('dashboard.perDepartment')} size="small">
        <ChartView
          spec={perDept}
          rows={d?.byDepartment ?? []}
          locale={locale}
          height={320}
          testId="activity-per-department"
        />
      </Card>
    </Space>
  );
}
