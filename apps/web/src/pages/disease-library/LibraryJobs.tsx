import { useQuery } from '@tanstack/react-query';
import { Button, Progress, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobStatusTag, jobTime as time } from '../../components/jobs/JobStatusTag';
import { type LibraryDetail, type LibraryJob, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';
import { useLibraryJob } from './useLibraryJob';

type Kind = 'push' | 'fill';

function Jobs({ lib, kind }: { lib: LibraryDetail; kind: Kind }) {
  const { t } = useTranslation(LIBRARY_NS);
  const [jobId, setJobId] = useState<number | null>(null);
  const jobs = useQuery({
    queryKey: ['diseaseLibrary', lib.id, kind === 'push' ? 'pushes' : 'fills'],
    queryFn: () => (kind === 'push' ? libraryApi.pushes(lib.id) : libraryApi.fills(lib.id)),
  });
  const over = () => {
    setJobId(null);
    void jobs.refetch();
  };
  const progress = useLibraryJob(jobId, kind, over);
  const start = async () => {
    const r = await (kind === 'push' ? libraryApi.push(lib.id) : libraryApi.fill(lib.id));
    setJobId(r.jobId);
  };
  const summary = (j: LibraryJob) => {
    const r = j.result as Record<string, unknown> | null;
    if (j.error) return <Typography.Text type="danger">{j.error}</Typography.Text>;
    if (!r) return '-';
    if (kind === 'push') return t('jobs.pushSummary', r as Record<string, number>);
    return t('jobs.fillSummary', (r as { counts?: Record<string, number> }).counts ?? {});
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Button type="primary" onClick={start} disabled={progress !== null}>
          {t(`list.${kind}`)}
        </Button>
        {progress !== null && <Progress percent={Math.round(progress)} size="small" style={{ width: 200 }} />}
        <Typography.Text type="secondary">
          {kind === 'push'
            ? t('jobs.pushHint', { hours: lib.pushEveryHours })
            : t('jobs.fillHint', { count: Object.keys(lib.sourceRules).length })}
        </Typography.Text>
      </Space>
      <Table<LibraryJob>
        size="small"
        rowKey="id"
        loading={jobs.isLoading}
        dataSource={jobs.data ?? []}
        columns={[
          { title: t('export.created'), dataIndex: 'createdAt', render: time },
          { title: t('jobs.finished'), dataIndex: 'finishedAt', render: time },
          {
            title: t('export.status'),
            dataIndex: 'status',
            render: (v: LibraryJob['status'], j) => (
              <Space>
                <JobStatusTag status={v} />
                {j.scheduled && <Tag>{t('jobs.scheduled')}</Tag>}
              </Space>
            ),
          },
          { title: t('jobs.result'), key: 'result', render: (_, j) => summary(j) },
        ]}
      />
    </Space>
  );
}

/** patients-push and fill_data: the library's push or fill jobs, and starting one. */
export function LibraryJobsPage({ kind }: { kind: Kind }) {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <LibraryPage title={t(kind === 'push' ? 'jobs.pushTitle' : 'jobs.fillTitle')}>
      {(lib) => <Jobs key={`${lib.id}-${kind}`} lib={lib} kind={kind} />}
    </LibraryPage>
  );
}

export default function PatientsPush() {
  return <LibraryJobsPage kind="push" />;
}
