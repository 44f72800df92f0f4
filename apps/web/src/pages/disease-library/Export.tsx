import type { JobStatus } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Col, Progress, Radio, Row, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobStatusTag, jobTime } from '../../components/jobs/JobStatusTag';
import { downloadWithSession } from '../crf/download';
import { AllNoneButtons } from './AllNoneButtons';
import { type LibraryDetail, type LibraryJob, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';
import { useLibraryJob } from './useLibraryJob';

function ExportPanel({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const [chosen, setChosen] = useState<string[]>(lib.items.map((i) => i.key));
  const [format, setFormat] = useState<'csv' | 'xlsx'>('xlsx');
  const [jobId, setJobId] = useState<number | null>(null);
  const jobs = useQuery({
    queryKey: ['diseaseLibrary', lib.id, 'exports'],
    queryFn: () => libraryApi.exports(lib.id),
  });
  const over = () => {
    setJobId(null);
    void jobs.refetch();
  };
  const progress = useLibraryJob(jobId, 'export', over);
  const start = async () => {
    const r = await libraryApi.exportStart(lib.id, { itemKeys: chosen, format });
    setJobId(r.jobId);
  };
  const result = (j: LibraryJob) => j.result as { fileName?: string; rows?: number; format?: string } | null;
  return (
    <Row gutter={24}>
      <Col xs={24} xl={10}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text strong>{t('export.items')}</Typography.Text>
          <Space>
            <AllNoneButtons keys={lib.items.map((i) => i.key)} onChoose={setChosen} />
          </Space>
          <Checkbox.Group
            value={chosen}
            onChange={(v) => setChosen(v as string[])}
            style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 6 }}
            options={lib.items.map((i) => ({ value: i.key, label: i.title }))}
          />
          <Radio.Group
            value={format}
            onChange={(e) => setFormat(e.target.value)}
            options={[
              { value: 'xlsx', label: t('export.xlsx') },
              { value: 'csv', label: t('export.csv') },
            ]}
          />
          <Button
            type="primary"
            disabled={!chosen.length || progress !== null}
            onClick={start}
            data-testid="export-start"
          >
            {t('export.start')}
          </Button>
          {progress !== null && <Progress percent={Math.round(progress)} size="small" />}
          <Typography.Text type="secondary">{t('export.hint')}</Typography.Text>
        </Space>
      </Col>
      <Col xs={24} xl={14}>
        <Table<LibraryJob>
          size="small"
          rowKey="id"
          loading={jobs.isLoading}
          dataSource={jobs.data ?? []}
          pagination={{ pageSize: 10 }}
          title={() => <Typography.Text strong>{t('export.history')}</Typography.Text>}
          columns={[
            {
              title: t('export.created'),
              dataIndex: 'createdAt',
              render: (v: string) => jobTime(v),
            },
            {
              title: t('export.status'),
              dataIndex: 'status',
              render: (v: JobStatus) => <JobStatusTag status={v} />,
            },
            { title: t('export.rows'), key: 'rows', render: (_, j) => result(j)?.rows ?? '-' },
            {
              title: '',
              key: 'op',
              render: (_, j) => {
                const r = result(j);
                if (j.status !== 'succeeded' || !r?.fileName) return null;
                return (
                  <Space>
                    <Button
                      size="small"
                      type="link"
                      onClick={() => downloadWithSession(libraryApi.downloadUrl(j.id), r.fileName!)}
                    >
                      {t('export.download')}
                    </Button>
                    {r.format === 'csv' && (
                      <Button
                        size="small"
                        type="link"
                        onClick={() =>
                          downloadWithSession(
                            libraryApi.downloadUrl(j.id, true),
                            r.fileName!.replace(/\.csv$/, '-dictionary.csv'),
                          )
                        }
                      >
                        {t('export.dictionary')}
                      </Button>
                    )}
                  </Space>
                );
              },
            },
          ]}
        />
      </Col>
    </Row>
  );
}

/** export: chosen indicators as CSV (with its dictionary file) or XLSX (with a dictionary sheet), as a job. */
export default function Export() {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <LibraryPage title={t('export.title')}>{(lib) => <ExportPanel key={lib.id} lib={lib} />}</LibraryPage>
  );
}
