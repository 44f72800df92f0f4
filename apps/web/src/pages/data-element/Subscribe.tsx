import type { DataElement, DataElementUpdates } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../data-qc/api';
import { elementsApi } from './api';
import { ElementModal } from './ElementModal';
import { ELEMENT_NS } from './i18n';

const A = (action: string) => `DataElementSubscribe.${action}`;

/** What changed in the subscribed elements since the version the reader last read. */
function Updates({ updates }: { updates: DataElementUpdates }) {
  const { t } = useTranslation(ELEMENT_NS);
  if (!updates.items.length) return <Typography.Text type="secondary">{t('updates.none')}</Typography.Text>;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {updates.items.map((u) => (
        <Card
          key={u.id}
          size="small"
          title={`${u.code} · ${u.name}`}
          extra={<Tag color="red">{t('updates.from', { from: u.fromVersion, to: u.toVersion })}</Tag>}
        >
          {u.notes.length > 0 && (
            <Typography.Paragraph type="secondary">{u.notes.join('；')}</Typography.Paragraph>
          )}
          <Table
            size="small"
            rowKey="field"
            pagination={false}
            dataSource={u.changes}
            columns={[
              {
                title: t('updates.field'),
                dataIndex: 'field',
                width: 120,
                render: (f: string) => t(`fields.${f}`),
              },
              {
                title: t('updates.before'),
                dataIndex: 'before',
                render: (v: string) => <Typography.Text delete>{v}</Typography.Text>,
              },
              {
                title: t('updates.after'),
                dataIndex: 'after',
                render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
              },
            ]}
          />
        </Card>
      ))}
    </Space>
  );
}

/**
 * 数据元订阅: the app's data elements (subscribe, and for a data steward create and publish
 * versions) and, above them, what changed in the subscribed ones. Opened from the header's red
 * icon (`?isnotify=true`), the changes shown are marked read, which clears the icon.
 */
export default function Subscribe() {
  const { t } = useTranslation(ELEMENT_NS);
  const { message } = App.useApp();
  const can = useCan();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const fromIcon = params.get('isnotify') === 'true';
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<DataElement | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({ queryKey: ['data-elements', keyword], queryFn: () => elementsApi.list(keyword) });
  const updates = useQuery({
    queryKey: ['data-elements', 'updates'],
    queryFn: elementsApi.updates,
    staleTime: Infinity,
  });
  const cleared = useRef(false);
  const markRead = async () => {
    await elementsApi.markRead();
    await qc.invalidateQueries({ queryKey: ['notices'] });
  };
  useEffect(() => {
    // Opened from the icon: the changes on screen count as read (they stay shown until the page is left).
    if (!fromIcon || cleared.current || !updates.data?.items.length) return;
    cleared.current = true;
    markRead().catch((e: Error) => setError(e.message));
  });
  const act = async (f: () => Promise<unknown>) => {
    setError(null);
    try {
      await f();
      await list.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const loadError = list.error ?? updates.error;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      {(error || loadError) && <Alert type="error" showIcon message={error ?? loadError?.message} />}
      <Card
        title={t('updates.title')}
        data-testid="data-element-updates"
        extra={
          !fromIcon && updates.data?.items.length ? (
            <Button
              onClick={() =>
                act(async () => {
                  await markRead();
                  message.success(t('updates.cleared'));
                })
              }
            >
              {t('updates.read')}
            </Button>
          ) : null
        }
      >
        {updates.data && <Updates updates={updates.data} />}
      </Card>
      <Card
        title={t('title')}
        extra={
          <Space>
            <Input.Search
              allowClear
              placeholder={t('search')}
              onSearch={(v) => setKeyword(v.trim())}
              style={{ width: 240 }}
            />
            {can(A('add')) && (
              <Button type="primary" onClick={() => setEditing(null)}>
                {t('create')}
              </Button>
            )}
          </Space>
        }
      >
        <Table<DataElement>
          rowKey="id"
          data-testid="data-elements"
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          pagination={{ pageSize: 20 }}
          columns={[
            { title: t('code'), dataIndex: 'code', width: 160 },
            { title: t('name'), key: 'name', render: (_, r) => r.definition.name },
            { title: t('type'), key: 'type', width: 90, render: (_, r) => t(`types.${r.definition.type}`) },
            { title: t('unit'), key: 'unit', width: 90, render: (_, r) => r.definition.unit },
            {
              title: t('version'),
              dataIndex: 'version',
              width: 110,
              render: (v: number, r) => (
                <Space size={4}>
                  v{v}
                  {r.subscribed && <Tag color="blue">{t('subscribed')}</Tag>}
                </Space>
              ),
            },
            { title: t('subscribers'), dataIndex: 'subscribers', width: 90 },
            {
              title: t('operations'),
              key: 'op',
              width: 260,
              render: (_, r) => (
                <Space size={0}>
                  {can(A('get')) && (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => act(() => elementsApi.subscribe(r.id, !r.subscribed))}
                    >
                      {r.subscribed ? t('unsubscribe') : t('subscribe')}
                    </Button>
                  )}
                  {can(A('add')) && (
                    <Button type="link" size="small" onClick={() => setEditing(r)}>
                      {t('publish')}
                    </Button>
                  )}
                  {can(A('delete')) && (
                    <Popconfirm
                      title={t('deleteConfirm', { name: r.definition.name })}
                      onConfirm={() => act(() => elementsApi.remove(r.id))}
                    >
                      <Button type="link" size="small" danger>
                        {t('delete')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {editing !== undefined && (
        <ElementModal
          element={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            message.success(t('saved'));
            list.refetch();
          }}
        />
      )}
    </Space>
  );
}
