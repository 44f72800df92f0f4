import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Progress, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { researchApi } from './api';
import { RESEARCH_NS } from './i18n';
import { StatusTag } from './StatusTag';
import SubjectList from './SubjectList';
import { useSubjectId } from './useSubjectId';

/** report: recruitment, completeness and key statistics; printable. */
export default function Report() {
  const { t } = useTranslation(RESEARCH_NS);
  const id = useSubjectId();
  const r = useQuery({
    queryKey: ['research', 'report', id],
    queryFn: () => researchApi.report(id!),
    enabled: id !== null,
  });
  if (id === null) return <SubjectList target="subject-list/report" />;
  const d = r.data;
  if (!d) return <Card loading />;
  const age = d.keyStatistics.age.kind === 'numeric' ? d.keyStatistics.age : null;
  const genders = d.keyStatistics.gender.kind === 'categorical' ? d.keyStatistics.gender.levels : [];
  const genderText = (v: string) =>
    v === '1' ? t('create.genderMale') : v === '2' ? t('create.genderFemale') : t('create.genderUnknown');
  return (
    <Card
      title={`${t('report.title')} · ${d.subject.name}`}
      extra={
        <Button className="no-print" onClick={() => window.print()}>
          {t('report.print')}
        </Button>
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Descriptions title={t('report.recruitment')} column={4} size="small">
          <Descriptions.Item label={t('list.status')}>
            <StatusTag status={d.subject.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('list.enrolled')}>{d.recruitment.enrolled}</Descriptions.Item>
          <Descriptions.Item label={t('report.target')}>{d.recruitment.target}</Descriptions.Item>
          <Descriptions.Item label={t('report.progress')}>
            {d.recruitment.progress === null ? (
              '-'
            ) : (
              <Progress percent={Math.round(d.recruitment.progress * 100)} size="small" />
            )}
          </Descriptions.Item>
        </Descriptions>
        <Table
          rowKey="key"
          size="small"
          pagination={false}
          title={() => <Typography.Text strong>{t('report.completeness')}</Typography.Text>}
          dataSource={d.completeness}
          columns={[
            { title: t('detail.variable'), dataIndex: 'label' },
            {
              title: t('detail.completeness'),
              dataIndex: 'completeness',
              render: (v: number) => `${(v * 100).toFixed(1)}%`,
            },
          ]}
        />
        <Descriptions title={t('report.stats')} column={3} size="small">
          <Descriptions.Item label={t('report.ageMean')}>
            {age?.mean === null || age?.mean === undefined
              ? '-'
              : `${age.mean.toFixed(1)} ± ${(age.sd ?? 0).toFixed(1)}`}
          </Descriptions.Item>
          <Descriptions.Item label={t('report.gender')}>
            {genders.map((l) => `${genderText(l.value)}: ${l.count}`).join(' · ')}
          </Descriptions.Item>
          <Descriptions.Item label={t('report.generated')}>
            {String(d.generatedAt).slice(0, 19).replace('T', ' ')}
          </Descriptions.Item>
        </Descriptions>
      </Space>
    </Card>
  );
}
