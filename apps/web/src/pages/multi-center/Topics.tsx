import { type ActionType, ProTable } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSite } from '../../app/queries';
import { Authorized } from '../../components/Authorized';
import { StatusTag } from '../research/StatusTag';
import { type Invitation, MANAGE_TOPIC, mcApi, type Topic } from './api';
import { MC_NS } from './i18n';
import { MultiCenterOff } from './ModeOff';

/**
 * Invitations waiting for this center's administrator: the topic's title, the leading hospital
 * and what taking part shares; accept, or decline after a confirmation.
 */
function Invitations({ onAccepted }: { onAccepted: () => void }) {
  const { t, i18n } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const q = useQuery({ queryKey: ['mc', 'invitations'], queryFn: () => mcApi.invitations() });
  if (!q.data?.length) return null;
  const answer = async (r: Invitation, a: 'accept' | 'decline') => {
    setBusy(`${a}-${r.topicId}`);
    try {
      await mcApi.answer(r.topicId, a);
      message.success(t(a === 'accept' ? 'acceptedMsg' : 'declinedMsg'));
      await qc.invalidateQueries({ queryKey: ['mc', 'invitations'] });
      if (a === 'accept') onAccepted();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card title={t('invitations')} data-testid="invitations" style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary">{t('invitationsHelp')}</Typography.Paragraph>
      <Table<Invitation>
        rowKey="topicId"
        size="small"
        pagination={false}
        dataSource={q.data}
        columns={[
          { title: t('topicName'), dataIndex: 'topic' },
          { title: t('invitationFrom'), dataIndex: 'leadCenter' },
          {
            title: t('invitedAt'),
            dataIndex: 'invitedAt',
            render: (_, r) => new Date(r.invitedAt).toLocaleString(i18n.language),
          },
          { title: t('shares'), dataIndex: 'shares', render: () => t('sharesAggregates') },
          {
            title: '',
            render: (_, r) => (
              <Space>
                <Button
                  type="primary"
                  size="small"
                  data-testid={`accept-${r.topicId}`}
                  loading={busy === `accept-${r.topicId}`}
                  onClick={() => answer(r, 'accept')}
                >
                  {t('accept')}
                </Button>
                <Popconfirm
                  title={t('declineConfirm', { topic: r.topic })}
                  okText={t('decline')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => answer(r, 'decline')}
                >
                  <Button
                    size="small"
                    danger
                    data-testid={`decline-${r.topicId}`}
                    loading={busy === `decline-${r.topicId}`}
                  >
                    {t('decline')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** topics: the multi-center topics this center leads or takes part in, and invitations to answer. */
export default function Topics() {
  const { t } = useTranslation(MC_NS);
  const navigate = useNavigate();
  const table = useRef<ActionType>(undefined);
  const site = useSite();
  return (
    <>
      {!site.multiCenter && <MultiCenterOff />}
      <Authorized apiId={MANAGE_TOPIC}>
        <Invitations onAccepted={() => table.current?.reload()} />
      </Authorized>
      <ProTable<Topic>
        rowKey="id"
        actionRef={table}
        search={false}
        headerTitle={t('topics')}
        request={async () => ({ data: await mcApi.list(), success: true })}
        toolBarRender={() => [
          <Button
            key="n"
            type="primary"
            disabled={!site.multiCenter}
            onClick={() => navigate('/multi-center/create-topic')}
          >
            {t('create')}
          </Button>,
        ]}
        columns={[
          {
            title: t('name'),
            dataIndex: 'name',
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                onClick={() => navigate(`/multi-center/topic-description?id=${r.id}`)}
              >
                {r.name}
              </Button>
            ),
          },
          { title: t('lead'), dataIndex: 'leadCenter' },
          {
            title: t('role'),
            dataIndex: 'role',
            render: (_, r) => <Tag color={r.role === 'lead' ? 'blue' : 'default'}>{t(r.role)}</Tag>,
          },
          { title: t('centers'), dataIndex: 'centers' },
          { title: t('status'), dataIndex: 'status', render: (_, r) => <StatusTag status={r.status} /> },
          {
            title: '',
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => navigate(`/multi-center/detection?id=${r.id}`)}>
                {t('detection')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}
