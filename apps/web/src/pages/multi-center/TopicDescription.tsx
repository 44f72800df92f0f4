import { ProForm, ProFormTextArea } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Empty, Space, Table, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusTag, statusText } from '../research/StatusTag';
import { useSubjectId } from '../research/useSubjectId';
import { mcApi, type Pooled, type Summary } from './api';
import { CaseEntry } from './CaseEntry';
import { MC_NS } from './i18n';

type PooledRow = Summary & { appId: number; name: string; total?: boolean };

/** topic-description: status and its moves, the protocol, centers, this center's case entry and the pooled aggregates. */
export default function TopicDescription() {
  const { t, i18n } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const id = useSubjectId();
  const [moving, setMoving] = useState<string | null>(null);
  const topic = useQuery({
    queryKey: ['mc', 'topic', id],
    queryFn: () => mcApi.get(id!),
    enabled: id !== null,
  });
  const pooled = useQuery({
    queryKey: ['mc', 'pooled', id],
    queryFn: () => mcApi.pooled(id!),
    enabled: id !== null,
  });
  if (id === null) return <Empty />;
  const d = topic.data;
  if (!d) return <Card loading />;
  const lead = d.role === 'lead';
  const label = (s: string) => statusText(s, i18n.language);

  const move = async (to: string) => {
    setMoving(to);
    try {
      await mcApi.move(id, to);
      message.success(t('moved', { status: label(to) }));
      await qc.invalidateQueries({ queryKey: ['mc', 'topic', id] });
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setMoving(null);
    }
  };

  const summary = (r: PooledRow, key: string) => {
    const x = r.variables.find((y) => y.key === key);
    if (!x) return '—';
    return x.mean !== null && x.mean !== undefined
      ? t('summary', { n: x.n, mean: x.mean.toFixed(1) })
      : t('summaryN', { n: x.n });
  };
  const p: Pooled | undefined = pooled.data;
  const rows: PooledRow[] = p
    ? [
        ...p.centers,
        ...(p.centers.length > 1 ? [{ ...p.total, appId: 0, name: t('total'), total: true }] : []),
      ]
    : [];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Card
        title={d.name}
        extra={
          <Space>
            <Tag color={lead ? 'blue' : 'default'}>{t(d.role)}</Tag>
            <Button size="small" onClick={() => navigate(`/multi-center/detection?id=${id}`)}>
              {t('detection')}
            </Button>
          </Space>
        }
      >
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('statusNow')}>
            <span data-testid="topic-status">
              <StatusTag status={d.status} />
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('centerList')}>
            <Space wrap>
              {d.centers.map((c) => (
                <Tag key={c.appId} color={c.role === 'lead' ? 'blue' : undefined}>
                  {c.name} · {t(c.role)}
                </Tag>
              ))}
            </Space>
          </Descriptions.Item>
        </Descriptions>
        <Space wrap style={{ marginBottom: 12 }}>
          {lead ? (
            d.moves.length ? (
              d.moves.map((to) => (
                <Button
                  key={to}
                  data-testid={`move-${to}`}
                  danger={to === 'closed'}
                  type={to === 'closed' ? 'default' : 'primary'}
                  ghost={to !== 'closed'}
                  loading={moving === to}
                  disabled={moving !== null && moving !== to}
                  onClick={() => move(to)}
                >
                  {t('moveTo', { status: label(to) })}
                </Button>
              ))
            ) : (
              <Typography.Text type="secondary">{t('finalStatus')}</Typography.Text>
            )
          ) : (
            <Typography.Text type="secondary">{t('leadMoves')}</Typography.Text>
          )}
        </Space>
        {d.history.length > 0 && (
          <>
            <div>
              <Typography.Text strong>{t('history')}</Typography.Text>
            </div>
            <Timeline
              style={{ marginTop: 12, marginBottom: 0 }}
              items={d.history.map((h) => ({
                children: t('historyItem', {
                  at: new Date(h.at).toLocaleString(i18n.language),
                  user: h.userName,
                  from: label(h.from),
                  to: label(h.to),
                }),
              }))}
            />
          </>
        )}
      </Card>
      <Card title={t('pooled')} data-testid="pooled">
        <Typography.Paragraph type="secondary">
          {lead ? t('pooledHelpLead') : t('pooledHelpMember')}
        </Typography.Paragraph>
        <Table<PooledRow>
          rowKey="appId"
          size="small"
          pagination={false}
          loading={pooled.isLoading}
          dataSource={rows}
          rowClassName={(r) => (r.total ? 'mc-total-row' : '')}
          columns={[
            {
              title: t('center'),
              dataIndex: 'name',
              render: (_, r) => (r.total ? <strong>{r.name}</strong> : r.name),
            },
            { title: t('cases'), dataIndex: 'cases' },
            ...d.variables.map((v) => ({
              title: v.label,
              key: v.key,
              render: (_: unknown, r: PooledRow) => summary(r, v.key),
            })),
          ]}
        />
      </Card>
      <CaseEntry topic={d} />
      <Card title={t('protocol')}>
        <ProForm
          key={d.id}
          initialValues={d.protocol}
          disabled={!lead}
          submitter={lead ? { searchConfig: { submitText: t('save') }, resetButtonProps: false } : false}
          onFinish={async (v) => {
            try {
              await mcApi.saveProtocol(id, v);
              message.success(t('saved'));
            } catch {
              // the client reported the failure
            }
          }}
        >
          {(['background', 'objectives', 'design', 'endpoints'] as const).map((k) => (
            <ProFormTextArea key={k} name={k} label={t(k)} />
          ))}
        </ProForm>
      </Card>
    </Space>
  );
}
