import type { Variable } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Descriptions,
  Drawer,
  Empty,
  Progress,
  Skeleton,
  Space,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { variablesApi } from './api';
import { VARIABLES_NS } from './i18n';

const show = (v: number | string | null) =>
  v === null ? '—' : typeof v === 'number' ? Number(v.toFixed(3)).toLocaleString() : v;

/** A variable's values on the current data: how many patients have one, and their spread or categories. */
export function DistributionDrawer({
  variable,
  onClose,
}: {
  variable: Variable | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(VARIABLES_NS);
  const q = useQuery({
    queryKey: ['variable-distribution', variable?.id, variable?.updatedAt],
    queryFn: () => variablesApi.distribution(variable!.id),
    enabled: !!variable,
  });
  const d = q.data;
  return (
    <Drawer
      open={!!variable}
      onClose={onClose}
      width={640}
      destroyOnHidden
      title={variable && t('distributionTitle', { name: variable.labelZh || variable.code })}
      data-testid="variable-distribution"
    >
      {q.isError ? (
        <Alert type="error" showIcon message={q.error.message} />
      ) : !d ? (
        <Skeleton active />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="large">
          {variable?.ruleText && (
            <Typography.Text type="secondary">
              {t('derivedBy')}: <Typography.Text code>{variable.ruleText}</Typography.Text>
            </Typography.Text>
          )}
          <Space size="large" wrap>
            <Statistic title={t('patients')} value={d.patients} />
            <Statistic title={t('present')} value={d.present} />
            <Statistic title={t('missing')} value={d.missing} />
            <Progress
              type="circle"
              size={64}
              percent={d.patients ? Math.round((d.present / d.patients) * 100) : 0}
            />
          </Space>
          {d.present === 0 ? (
            <Empty description={t('noValues')} />
          ) : variable?.type === 'number' || variable?.type === 'date' ? (
            <Descriptions bordered size="small" column={2} data-testid="variable-stats">
              <Descriptions.Item label={t('min')}>{show(d.min)}</Descriptions.Item>
              <Descriptions.Item label={t('max')}>{show(d.max)}</Descriptions.Item>
              <Descriptions.Item label={t('median')}>{show(d.median)}</Descriptions.Item>
              {variable.type === 'number' && (
                <Descriptions.Item label={t('mean')}>{show(d.mean)}</Descriptions.Item>
              )}
              {d.notNumbers > 0 && (
                <Descriptions.Item label={t('notNumbers')}>{d.notNumbers}</Descriptions.Item>
              )}
            </Descriptions>
          ) : (
            <Table
              size="small"
              rowKey="value"
              pagination={false}
              dataSource={d.categories}
              data-testid="variable-categories"
              columns={[
                {
                  title: t('value'),
                  key: 'value',
                  render: (_, c) => (c.label === c.value ? c.value : `${c.label} (${c.value})`),
                },
                { title: t('count'), dataIndex: 'count', align: 'right' },
                {
                  key: 'bar',
                  width: 200,
                  render: (_, c) => (
                    <Progress percent={Math.round((c.count / d.present) * 100)} size="small" />
                  ),
                },
              ]}
            />
          )}
        </Space>
      )}
    </Drawer>
  );
}
