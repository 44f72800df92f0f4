import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Empty, Table, type TableProps } from 'antd';

/**
 * A table of what a query read: loading while it reads, the server's reason instead of the table
 * when it could not be read, and a sentence when there is nothing. Wide tables scroll sideways
 * unless `scroll` says otherwise; every other Table prop passes through.
 */
export function QueryTable<T extends object>({
  query,
  empty,
  errorTestId,
  ...table
}: Omit<TableProps<T>, 'loading'> & {
  query: UseQueryResult<unknown, Error>;
  /** What the empty table says (without it, antd's own words under the large empty picture). */
  empty: string | undefined;
  /** `data-testid` of the error. */
  errorTestId?: string;
}) {
  if (query.isError)
    return <Alert type="error" showIcon message={query.error.message} data-testid={errorTestId} />;
  return (
    <Table<T>
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={empty} /> }}
      {...table}
      loading={query.isLoading}
    />
  );
}
