import type { SciColumnStats, SciSnapshotDetail } from '@crdp/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sciApi } from './api';
import { cellText, columnLabel, SnapshotScreenFrame, showNumber } from './common';
import { SCI_NS } from './i18n';

/** 数据预览 (`/scientific-database/preview`): a snapshot's rows, page by page, with column statistics. */
export default function Preview() {
  const { t } = useTranslation(SCI_NS);
  return (
    <Card title={t('preview.title')} data-testid="sci-preview">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('preview.hint')}</Typography.Text>
        <SnapshotScreenFrame screen="preview">{(s) => <Rows key={s.id} s={s} />}</SnapshotScreenFrame>
      </Space>
    </Card>
  );
}

function StatLine({ st, total }: { st: SciColumnStats | undefined; total: number }) {
  const { t } = useTranslation(SCI_NS);
  if (!st) return null;
  const percent = total ? Math.round((st.present / total) * 100) : 0;
  const more =
    st.min !== null && st.max !== null
      ? t('preview.range', { min: showNumber(st.min), max: showNumber(st.max) })
      : st.categories[0]
        ? t('preview.top', { value: st.categories[0].value })
        : '';
  return (
    <div style={{ fontWeight: 'normal', fontSize: 12 }} data-testid={`stat-${st.key}`}>
      <Typography.Text type="secondary">{t('preview.present', { percent })}</Typography.Text>
      {more && (
        <div>
          <Typography.Text type="secondary">{more}</Typography.Text>
        </div>
      )}
    </div>
  );
}

function Rows({ s }: { s: SciSnapshotDetail }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const rows = useQuery({
    queryKey: ['sci', 'rows', s.id, page, size],
    queryFn: () => sciApi.rows(s.id, page, size),
    placeholderData: keepPreviousData,
  });
  if (rows.isError) return <Alert type="error" showIcon message={rows.error.message} />;
  const stats = new Map(s.stats.map((x) => [x.key, x]));
  return (
    <Table<Record<string, number | string | null>>
      data-testid="sci-rows"
      size="small"
      bordered
      rowKey={(r) => String(r.study_no)}
      loading={rows.isFetching}
      dataSource={rows.data?.items ?? []}
      scroll={{ x: 'max-content' }}
      pagination={{
        current: page,
        pageSize: size,
        total: rows.data?.total ?? s.rowCount,
        showSizeChanger: true,
        pageSizeOptions: [20, 50, 100, 200],
        onChange: (p, z) => {
          setPage(z === size ? p : 1);
          setSize(z);
        },
      }}
      columns={[
        { title: 'study_no', dataIndex: 'study_no', fixed: 'left' },
        ...s.columns.map((c) => ({
          key: c.key,
          title: (
            <div>
              <div>{columnLabel(c)}</div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {c.key}
                {c.unit ? ` (${c.unit})` : ''}
              </Typography.Text>
              <StatLine st={stats.get(c.key)} total={s.rowCount} />
            </div>
          ),
          align: c.type === 'number' ? ('right' as const) : undefined,
          render: (_: unknown, r: Record<string, number | string | null>) => cellText(c, r[c.key]),
        })),
      ]}
    />
  );
}
