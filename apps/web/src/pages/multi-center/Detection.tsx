import { useQuery } from '@tanstack/react-query';
import { Card, Empty, List, Progress, Space, Statistic, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSubjectId } from '../research/useSubjectId';
import { mcApi } from './api';
import { MC_NS } from './i18n';

/** detection: per center completeness, values out of range and duplicates; the own center's list to fix. */
export default function Detection() {
  const { t } = useTranslation(MC_NS);
  const id = useSubjectId();
  const q = useQuery({
    queryKey: ['mc', 'detection', id],
    queryFn: () => mcApi.detection(id!),
    enabled: id !== null,
  });
  if (id === null) return <Empty />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {(q.data ?? []).map((c) => (
        <Card key={c.appId} title={c.name}>
          <Space size="large">
            <Statistic title={t('cases')} value={c.cases} />
            <div>
              {t('completeness')}
              <Progress
                type="circle"
                size={60}
                percent={c.completeness === null ? 0 : Math.round(c.completeness * 100)}
              />
            </div>
            <Statistic title={t('missing')} value={c.counts.missing} />
            <Statistic title={t('outOfRange')} value={c.counts.outOfRange} />
            <Statistic title={t('duplicate')} value={c.counts.duplicate} />
          </Space>
          {c.issues.length > 0 && (
            <List
              header={t('fix')}
              size="small"
              dataSource={c.issues}
              renderItem={(i: { kind: string; patientId?: number; detail: string }) => (
                <List.Item>
                  <Tag>{t(i.kind)}</Tag> #{i.patientId} {i.detail}
                </List.Item>
              )}
            />
          )}
        </Card>
      ))}
    </Space>
  );
}
