import type { CodedRow, CodingKind, CodingMapping } from '@crdp/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { Alert, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { codingApi } from './api';
import { CODING_NS } from './i18n';

/** A list the coding reads 20 rows a page, with the server's reason above it when it could not. */
function PagedTable<T extends { id: number }>({
  list,
  page,
  onPage,
  toolbar,
  columns,
}: {
  list: UseQueryResult<{ items: T[]; total: number }>;
  page: number;
  onPage: (page: number) => void;
  /** What stands between the reason and the table (a search). */
  toolbar?: ReactNode;
  columns: ColumnsType<T>;
}) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {list.isError && <Alert type="error" showIcon message={(list.error as Error).message} />}
      {toolbar}
      <Table<T>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: 20, total: list.data?.total ?? 0, onChange: onPage }}
        columns={columns}
      />
    </Space>
  );
}

/** The code a term or row is mapped to, with its name, or `none`. */
function MappedCode({
  row,
  none,
}: {
  row: { code: string | null; displayZh: string | null };
  none: ReactNode;
}) {
  return row.code ? (
    <span>
      <Tag color="green">{row.code}</Tag>
      {row.displayZh}
    </span>
  ) : (
    none
  );
}

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
    <PagedTable<CodingMapping>
      list={list}
      page={page}
      onPage={setPage}
      toolbar={
        <Input.Search
          allowClear
          style={{ width: 280 }}
          onSearch={(v) => {
            setPage(1);
            setQ(v.trim());
          }}
        />
      }
      columns={[
        { title: t('review.term'), dataIndex: 'term' },
        {
          title: t('review.mappingCode'),
          key: 'code',
          render: (_, m) => <MappedCode row={m} none={<Tag>{word('codingItemStatus', 'noCode')}</Tag>} />,
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
    <PagedTable<CodedRow>
      list={list}
      page={page}
      onPage={setPage}
      columns={[
        { title: '#', dataIndex: 'id', width: 80 },
        { title: t('review.original'), dataIndex: 'originalText' },
        { title: t('review.sourceCode'), dataIndex: 'sourceCode', width: 120 },
        {
          title: t('review.mapped'),
          key: 'code',
          render: (_, r) => (
            <MappedCode
              row={r}
              none={<Typography.Text type="secondary">{t('review.notMapped')}</Typography.Text>}
            />
          ),
        },
      ]}
    />
  );
}
