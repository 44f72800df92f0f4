import type { CodedRow, CodingKind, CodingMapping } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { codingApi } from './api';
import { CODING_NS } from './i18n';

/** The app's mappings of a kind (local term → code), with how many CDR rows each codes now. */
export function MappingList({ kind }: { kind: CodingKind }) {
  const { t } = useTranslation(CODING_NS);
  const word = useLabel();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const list = useQuery({
    queryKey: ['coding', kind, 'mappings', page, q],
    queryFn: () => codingApi.mappings(kind, { page, size: 20, ...(q ? { q } : {}) }),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {list.isError && <Alert type="error" showIcon message={(list.error as Error).message} />}
      <Input.Search
        allowClear
        style={{ width: 280 }}
        onSearch={(v) => {
          setPage(1);
          setQ(v.trim());
        }}
      />
      <Table<CodingMapping>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: 20, total: list.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: t('review.term'), dataIndex: 'term' },
          {
            title: t('review.mappingCode'),
            key: 'code',
            render: (_, m) =>
              m.code ? (
                <span>
                  <Tag color="green">{m.code}</Tag>
                  {m.displayZh}
                </span>
              ) : (
                <Tag>{word('codingItemStatus', 'noCode')}</Tag>
              ),
          },
          { title: t('review.rows'), dataIndex: 'rows', width: 70 },
          { title: t('review.how'), key: 'how', width: 110, render: (_, m) => word('codingHow', m.how) },
          {
            title: t('review.review'),
            key: 'review',
            width: 200,
            render: (_, m) => (
              <Space direction="vertical" size={0}>
                <Tag color={m.review === 'disputed' ? 'red' : m.review === 'agreed' ? 'green' : undefined}>
                  {word('codingReview', m.review)}
                </Tag>
                {m.review === 'disputed' && <Typography.Text type="danger">{m.reviewReason}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('review.codedBy'),
            key: 'by',
            width: 160,
            render: (_, m) => `${m.codedByName} ${dayjs(m.codedAt).format('MM-DD HH:mm')}`,
          },
        ]}
      />
    </Space>
  );
}

/** CDR rows of a kind as the coding reads them: the original text and source code kept beside the mapped code. */
export function CodedRows({ kind }: { kind: CodingKind }) {
  const { t } = useTranslation(CODING_NS);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['coding', kind, 'rows', page],
    queryFn: () => codingApi.rows(kind, { page, size: 20 }),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {list.isError && <Alert type="error" showIcon message={(list.error as Error).message} />}
      <Table<CodedRow>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: 20, total: list.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: '#', dataIndex: 'id', width: 80 },
          { title: t('review.original'), dataIndex: 'originalText' },
          { title: t('review.sourceCode'), dataIndex: 'sourceCode', width: 120 },
          {
            title: t('review.mapped'),
            key: 'code',
            render: (_, r) =>
              r.code ? (
                <span>
                  <Tag color="green">{r.code}</Tag>
                  {r.displayZh}
                </span>
              ) : (
                <Typography.Text type="secondary">{t('review.notMapped')}</Typography.Text>
              ),
          },
        ]}
      />
    </Space>
  );
}
