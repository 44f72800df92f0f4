import type { OdmGeneration, OdmTopic } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Progress, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { JOB_STATUS_COLOR, jobTime } from '../../components/jobs/JobStatusTag';
import { isUnderWay, useJobPoll } from '../../components/jobs/useJobPoll';
import { downloadWithSession } from '../crf/download';
import { odmApi } from './api';
import { ODM_NS } from './i18n';

export const time = jobTime;

const size = (b: number | null) =>
  b === null
    ? '-'
    : b < 1024
      ? `${b} B`
      : b < 1048576
        ? `${(b / 1024).toFixed(1)} KB`
        : `${(b / 1048576).toFixed(1)} MB`;

/** The topics, for the pages that work on one (clinical data, data elements). */
export function useTopics() {
  return useQuery({ queryKey: ['odm', 'topics'], queryFn: () => odmApi.topics() });
}

export function TopicPicker({
  topics,
  value,
  onChange,
}: {
  topics: OdmTopic[];
  value: number | undefined;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation(ODM_NS);
  if (!topics.length) return <Alert type="info" showIcon message={t('topicPicker.none')} />;
  return (
    <Space>
      <span>{t('topicPicker.label')}</span>
      <Select
        value={value}
        onChange={onChange}
        placeholder={t('topicPicker.placeholder')}
        style={{ width: 360 }}
        options={topics.map((x) => ({ value: x.id, label: `${x.subjectName}（${x.patients}）` }))}
        data-testid="odm-topic-picker"
      />
    </Space>
  );
}

/** The generated files (of one topic, or all), polled while one is being made; download when done. */
export function GenerationList({ topicId }: { topicId?: number }) {
  const { t } = useTranslation(ODM_NS);
  const word = useLabel();
  const can = useHasAction();
  const gens = useJobPoll({
    queryKey: ['odm', 'generations', topicId ?? 'all'],
    queryFn: () => odmApi.generations(topicId),
    underWay: (list) => list.items.some((g) => isUnderWay(g.status)),
  });
  return (
    <Table<OdmGeneration>
      size="small"
      rowKey="id"
      loading={gens.isLoading}
      dataSource={gens.data?.items ?? []}
      locale={{ emptyText: <Empty description={t('files.empty')} /> }}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      columns={[
        { title: t('files.file'), dataIndex: 'fileName' },
        {
          title: t('files.status'),
          dataIndex: 'status',
          width: 200,
          render: (_, g) => (
            <Space>
              <Tooltip title={g.error ? t('files.failed', { error: g.error }) : undefined}>
                <Tag color={JOB_STATUS_COLOR[g.status]} data-testid={`odm-gen-status-${g.id}`}>
                  {word('jobStatus', g.status)}
                </Tag>
              </Tooltip>
              {isUnderWay(g.status) && <Progress percent={g.progress} size="small" style={{ width: 80 }} />}
            </Space>
          ),
        },
        {
          title: t('files.subjects'),
          dataIndex: 'subjects',
          width: 90,
          render: (v: number | null) => v ?? '-',
        },
        {
          title: t('files.items'),
          dataIndex: 'items',
          width: 100,
          render: (v: number | null) => v?.toLocaleString() ?? '-',
        },
        { title: t('files.size'), dataIndex: 'bytes', width: 100, render: (v: number | null) => size(v) },
        { title: t('files.creator'), dataIndex: 'createdByName', width: 100 },
        { title: t('files.created'), dataIndex: 'createdAt', width: 170, render: (v: string) => time(v) },
        {
          title: '',
          key: 'op',
          width: 90,
          render: (_, g) =>
            g.status === 'succeeded' &&
            can('OdmClinicalData', 'export') && (
              <Button
                size="small"
                type="link"
                data-testid={`odm-download-${g.id}`}
                onClick={() => downloadWithSession(odmApi.downloadUrl(g.id), g.fileName)}
              >
                {t('files.download')}
              </Button>
            ),
        },
      ]}
    />
  );
}
