import { formatDate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import type { Paged } from './api';

export const dt = (v: unknown) => formatDate(v as string, 'YYYY-MM-DD HH:mm');
export const day = (v: unknown) => formatDate(v as string, 'YYYY-MM-DD');

const FLAG_COLOR: Record<string, string> = { H: 'red', L: 'blue', A: 'orange', N: 'green' };
export function FlagTag({ flag, label }: { flag: string; label: string }) {
  if (!flag) return null;
  return <Tag color={FLAG_COLOR[flag] ?? 'default'}>{label}</Tag>;
}

/** A server-paged list of one patient's rows (page and size go to the server). */
export function PagedTable<Row extends { id: number }>({
  queryKey,
  fetch,
  columns,
  testId,
  onRow,
}: {
  queryKey: unknown[];
  fetch: (page: number, size: number) => Promise<Paged<Row>>;
  columns: TableColumnsType<Row>;
  testId?: string;
  onRow?: (r: Row) => void;
}) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const q = useQuery({ queryKey: [...queryKey, page, size], queryFn: () => fetch(page, size) });
  return (
    <Table<Row>
      data-testid={testId}
      rowKey="id"
      size="small"
      loading={q.isLoading}
      columns={columns}
      dataSource={q.data?.items ?? []}
      onRow={onRow ? (r) => ({ onClick: () => onRow(r), style: { cursor: 'pointer' } }) : undefined}
      pagination={{
        current: page,
        pageSize: size,
        total: q.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (p, s) => {
          setPage(p);
          setSize(s);
        },
      }}
    />
  );
}
