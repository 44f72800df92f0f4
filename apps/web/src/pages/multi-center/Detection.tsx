import type { PooledCount } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Empty, List, Progress, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSubjectId } from '../research/useSubjectId';
import { type Issue, mcApi } from './api';
import { MC_NS } from './i18n';
import { countText } from './PooledCount';

const COLORS = { missing: 'orange', outOfRange: 'red', duplicate: 'purple' } as const;

/** detection: per center completeness, values out of range and duplicates; the own center's list to fix. */
export default function Detection() {
  const { t } = useTranslation(MC_NS);
  const id = useSubjectId();
  const q = useQuery({
    queryKey: ['mc', 'detection', id],
    queryFn: () => mcApi.detection(id!),
    enabled: id !== null,
  });
  const topic = useQuery({
    queryKey: ['mc', 'topic', id],
    queryFn: () => mcApi.get(id!),
    enabled: id !== null,
  });
  if (id === null) return <Empty />;
  const say = (i: Issue) =>
    i.kind === 'missing'
      ? t('fixMissing', { mrn: i.mrn, label: i.label })
      : i.kind === 'outOfRange'
        ? t('fixOutOfRange', {
            mrn: i.mrn,
            label: i.label,
            value: i.value,
            min: i.min ?? '−∞',
            max: i.max ?? '∞',
          })
        : t('fixDuplicate', { mrn: i.mrn, sameAs: i.sameAs });
  const several = (q.data?.length ?? 0) > 1;
  const min = topic.data?.minCellCount ?? 5;
  const num = (x: PooledCount) => (typeof x === 'number' ? x : 0);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card
        size="small"
        title={`${t('detection')}${topic.data ? ` · ${topic.data.name}` : ''}`}
        styles={several ? undefined : { body: { display: 'none' } }}
      >
        {several && <Alert type="info" showIcon message={t('othersCountsOnly')} />}
      </Card>
      {(q.data ?? []).map((c) => (
        <Card key={c.appId} title={c.name} data-testid={`detection-${c.appId}`}>
          <Space size="large" wrap>
            <Statistic title={t('cases')} value={countText(t, c.cases, min)} />
            <div>
              <div style={{ color: 'rgba(0,0,0,0.45)', marginBottom: 4 }}>{t('completeness')}</div>
              <Progress
                type="circle"
                size={60}
                percent={c.completeness === null ? 0 : Math.round(c.completeness * 100)}
                format={c.completeness === null ? () => '—' : undefined}
              />
            </div>
            <Statistic title={t('missing')} value={countText(t, c.counts.missing, min)} />
            <Statistic title={t('outOfRange')} value={countText(t, c.counts.outOfRange, min)} />
            <Statistic title={t('duplicate')} value={countText(t, c.counts.duplicate, min)} />
          </Space>
          {c.issues.length > 0 ? (
            <List
              style={{ marginTop: 12 }}
              header={<Typography.Text strong>{t('fix')}</Typography.Text>}
              size="small"
              dataSource={c.issues}
              renderItem={(i) => (
                <List.Item>
                  <Space>
                    <Tag color={COLORS[i.kind]}>{t(i.kind)}</Tag>
                    {say(i)}
                  </Space>
                </List.Item>
              )}
            />
          ) : (
            typeof c.counts.missing === 'number' &&
            typeof c.counts.outOfRange === 'number' &&
            typeof c.counts.duplicate === 'number' &&
            num(c.counts.missing) + num(c.counts.outOfRange) + num(c.counts.duplicate) === 0 && (
              <Typography.Paragraph type="success" style={{ marginTop: 12, marginBottom: 0 }}>
                {t('noIssues')}
              </Typography.Paragraph>
            )
          )}
        </Card>
      ))}
    </Space>
  );
}
