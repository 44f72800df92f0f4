import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Empty, Progress, Space, Table, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { StatusTag, statusText } from './StatusTag';
import { useSubjectId } from './useSubjectId';

/** project-data: one subject — status and its allowed moves, recruitment, the cohort by variables. */
export default function ProjectData() {
  const { t, i18n } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const id = useSubjectId();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const subject = useQuery({
    queryKey: ['research', 'subject', id],
    queryFn: () => researchApi.get(id!),
    enabled: id !== null,
  });
  const data = useQuery({
    queryKey: ['research', 'data', id],
    queryFn: () => researchApi.data(id!),
    enabled: id !== null,
  });
  const types = useQuery({ queryKey: ['research', 'types'], queryFn: researchApi.types });
  const refresh = () => qc.invalidateQueries({ queryKey: ['research'] });
  const move = useMutation({
    mutationFn: (to: string) => researchApi.move(id!, to),
    onSuccess: refresh,
    onError: (e: Error) => message.error(e.message),
  });
  const recruit = useMutation({
    mutationFn: () => researchApi.recruit(id!),
    onSuccess: (r) => {
      message.success(t('detail.recruited', { n: r.added }));
      refresh();
    },
    onError: (e: Error) => message.error(e.message),
  });
  if (id === null) return <Empty description={t('analysis.pickSubject')} />;
  const s = subject.data;
  if (!s) return <Card loading />;
  const go = (page: string) => navigate(`/scientific-research-subject/${page}?id=${id}`);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card title={s.name} extra={<StatusTag status={s.status} />}>
        <Descriptions column={3} size="small">
          <Descriptions.Item label={t('list.type')}>
            {types.data?.find((x) => x.code === s.typeCode)?.name ?? s.typeCode}
          </Descriptions.Item>
          <Descriptions.Item label={t('list.enrolled')}>{s.enrolled}</Descriptions.Item>
          <Descriptions.Item label={t('report.target')}>{s.targetSize}</Descriptions.Item>
          <Descriptions.Item label={t('detail.members')}>
            {s.members?.map((m) => `${m.userName} (${m.role})`).join(', ')}
          </Descriptions.Item>
        </Descriptions>
        <Space wrap style={{ marginTop: 12 }}>
          <Typography.Text strong>{t('detail.moves')}:</Typography.Text>
          {s.allowedMoves.length === 0 && (
            <Typography.Text type="secondary">{t('detail.final')}</Typography.Text>
          )}
          {s.allowedMoves.map((to) => (
            <Button
              key={to}
              data-testid={`move-${to}`}
              loading={move.isPending}
              onClick={() => move.mutate(to)}
            >
              {t('detail.move', { to: statusText(to, i18n.language) })}
            </Button>
          ))}
          {s.status === 'recruiting' && (
            <Button
              type="primary"
              data-testid="recruit"
              loading={recruit.isPending}
              onClick={() => recruit.mutate()}
            >
              {t('detail.recruit')}
            </Button>
          )}
          <Button onClick={() => go('subject-list/data-reduction')}>{t('detail.dataReduction')}</Button>
          <Button onClick={() => go('analysis-mining/index')}>{t('detail.analysis')}</Button>
          <Button onClick={() => go('subject-list/report')}>{t('detail.report')}</Button>
        </Space>
      </Card>
      <Card title={t('detail.variables')}>
        <Table
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={data.data?.variables ?? []}
          columns={[
            { title: t('analysis.variables'), dataIndex: 'label' },
            {
              title: t('detail.completeness'),
              dataIndex: 'completeness',
              render: (v: number) => <Progress percent={Math.round(v * 100)} size="small" />,
            },
            {
              title: 'n / mean / sd',
              render: (_, r) => {
                const x = r.summary as {
                  n: number;
                  mean?: number;
                  sd?: number;
                  levels?: Array<{ value: string; count: number }>;
                };
                return x.levels
                  ? x.levels.map((l) => `${l.value}: ${l.count}`).join('  ')
                  : `${x.n} / ${x.mean?.toFixed(2) ?? '-'} / ${x.sd?.toFixed(2) ?? '-'}`;
              },
            },
          ]}
        />
      </Card>
      <Card title={t('detail.patients')}>
        <Table
          rowKey="id"
          size="small"
          dataSource={data.data?.patients.items ?? []}
          columns={[
            { title: 'MRN', dataIndex: 'mrn' },
            { title: 'Name', dataIndex: 'name' },
            { title: 'Birth', dataIndex: 'birthDate' },
          ]}
        />
      </Card>
      <Card title={t('detail.history')}>
        <Timeline
          items={(s.history ?? []).map((h) => ({
            children: `${h.at.slice(0, 19).replace('T', ' ')} ${h.userName}: ${h.from ? statusText(h.from, i18n.language) : '—'} → ${statusText(h.to, i18n.language)}`,
          }))}
        />
      </Card>
    </Space>
  );
}
