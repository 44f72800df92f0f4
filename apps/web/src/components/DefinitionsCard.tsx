import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Card, Empty, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { Authorized } from './Authorized';

/**
 * A page of an app's definitions (scales, indicator templates, T0 events…): a card with a hint,
 * the add buttons for those allowed to add, and the list as a table, or the server's reason
 * when it could not be read.
 */
export function DefinitionsCard<T extends { id: number }>({
  title,
  testId,
  addApiId,
  actions,
  hint,
  list,
  empty,
  columns,
  children,
}: {
  title: string;
  /** `data-testid` of the card; the error's is `${testId}-error`. */
  testId: string;
  /** The access that shows `actions` (`Menu.add`). */
  addApiId: string;
  actions: ReactNode;
  hint: string;
  list: UseQueryResult<{ items: T[] }, Error>;
  empty: string;
  columns: ColumnsType<T>;
  /** The page's forms and drawers. */
  children?: ReactNode;
}) {
  return (
    <Card title={title} data-testid={testId} extra={<Authorized apiId={addApiId}>{actions}</Authorized>}>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{hint}</Typography.Text>
        {list.isError ? (
          <Alert type="error" showIcon message={list.error.message} data-testid={`${testId}-error`} />
        ) : (
          <Table<T>
            rowKey="id"
            loading={list.isLoading}
            dataSource={list.data?.items ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={empty} /> }}
            columns={columns}
          />
        )}
      </Space>
      {children}
    </Card>
  );
}
