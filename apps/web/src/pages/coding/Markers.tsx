import { ProTable } from '@ant-design/pro-components';
import type { CodingMarker } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { codingApi, useCan } from './api';
import { CODING_NS } from './i18n';

/** 维护标记: mappings whose code was retired or left out, or whose terminology version changed since. */
export default function CodingMaintenanceMarkers() {
  const { t } = useTranslation(CODING_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useCan();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['coding', 'qc', 'markers', page],
    queryFn: () => codingApi.markers({ page, size: 50 }),
  });
  return (
    <ProTable<CodingMarker>
      rowKey="mappingId"
      headerTitle={t('markers.title')}
      tooltip={t('markers.hint')}
      search={false}
      options={{ reload: () => list.refetch() }}
      loading={list.isLoading}
      dataSource={list.data?.items ?? []}
      locale={{ emptyText: t('markers.none') }}
      pagination={{ current: page, pageSize: 50, total: list.data?.total ?? 0, onChange: setPage }}
      columns={[
        { title: t('markers.term'), dataIndex: 'term' },
        { title: t('qc.kind'), key: 'kind', width: 90, render: (_, m) => word('codingKind', m.kind) },
        {
          title: t('markers.code'),
          key: 'code',
          render: (_, m) => (
            <span>
              <Tag>{m.code}</Tag>
              {m.displayZh}
            </span>
          ),
        },
        {
          title: t('markers.reasons'),
          key: 'reasons',
          render: (_, m) => (
            <Space size={4} wrap>
              {m.reasons.map((r) => (
                <Tag key={r} color={r === 'versionChanged' ? 'orange' : 'red'}>
                  {word('codingMarker', r)}
                </Tag>
              ))}
            </Space>
          ),
        },
        {
          title: t('markers.version'),
          key: 'version',
          render: (_, m) => `${m.mappedVersion || '-'} → ${m.currentVersion || '-'}`,
        },
        { title: t('review.codedBy'), dataIndex: 'codedByName', width: 100 },
        {
          title: '',
          valueType: 'option',
          width: 100,
          render: (_, m) =>
            can('CodingQcMaintenanceMarker.edit') &&
            !m.reasons.includes('retired') &&
            !m.reasons.includes('missing') ? (
              <Button
                type="link"
                size="small"
                onClick={async () => {
                  await codingApi.confirmMarker(m.mappingId);
                  message.success(t('markers.confirmed'));
                  await list.refetch();
                }}
              >
                {t('markers.confirm')}
              </Button>
            ) : null,
        },
      ]}
    />
  );
}
