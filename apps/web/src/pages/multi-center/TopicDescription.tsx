import { ProForm, ProFormTextArea } from '@ant-design/pro-components';
import { MC_APP_CODE_MAX, MC_MIN_CELL_MAX, MC_MIN_CELL_MIN, MC_PROTOCOL_TEXT_MAX } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RequestError } from '../../api/client';
import { Authorized } from '../../components/Authorized';
import { StatusTag, statusText } from '../research/StatusTag';
import { useSubjectId } from '../research/useSubjectId';
import { type CenterStatus, MANAGE_TOPIC, mcApi, type Pooled, type Summary, type TopicDetail } from './api';
import { CaseEntry } from './CaseEntry';
import { FederatedJobs } from './FederatedJobs';
import { MC_NS } from './i18n';
import { Count, countText } from './PooledCount';

type PooledRow = Summary & { appId: number; name: string; total?: boolean };

const STATUS_TEXT: Record<CenterStatus, string> = {
  pending: 'centerPending',
  accepted: 'centerAccepted',
  declined: 'centerDeclined',
  withdrawn: 'centerWithdrawn',
  left: 'centerLeft',
};
const STATUS_COLOR: Record<CenterStatus, string | undefined> = {
  pending: 'gold',
  accepted: 'green',
  declined: 'red',
  withdrawn: undefined,
  left: undefined,
};

/** The leading center invites a center in multi-center mode: picked from the list, or by its code. */
function InviteCenter({ topic, onDone }: { topic: TopicDetail; onDone: () => Promise<void> }) {
  const { t } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const [appId, setAppId] = useState<number | undefined>();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const centers = useQuery({ queryKey: ['mc', 'centers'], queryFn: () => mcApi.centers(), retry: false });
  const taken = new Set(
    topic.centers.filter((c) => c.status === 'pending' || c.status === 'accepted').map((c) => c.appId),
  );
  const send = async () => {
    const by = appId !== undefined ? { appId } : code.trim() ? { appCode: code.trim() } : null;
    if (!by) {
      message.warning(t('inviteOne'));
      return;
    }
    setBusy(true);
    try {
      const r = await mcApi.invite(topic.id, by);
      message.success(t('invited', { name: r.name }));
      setAppId(undefined);
      setCode('');
      await onDone();
    } catch (e) {
      // The server's one answer for an unknown app and one not in multi-center mode names the field.
      const field = e instanceof RequestError ? (e.body as { field?: string } | undefined)?.field : undefined;
      message.error(field === 'appId' || field === 'appCode' ? t('noSuchCenter') : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="invite-center">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('inviteHelp')}
      </Typography.Paragraph>
      <Space wrap>
        <Select<number>
          style={{ width: 240 }}
          allowClear
          placeholder={t('invitePick')}
          aria-label={t('invitePick')}
          value={appId}
          onChange={(v) => {
            setAppId(v);
            if (v !== undefined) setCode('');
          }}
          loading={centers.isLoading}
          notFoundContent={t('pickCentersEmpty')}
          options={(centers.data ?? [])
            .filter((c) => !taken.has(c.appId))
            .map((c) => ({ value: c.appId, label: `${c.name}（${c.shortName}）` }))}
        />
        <Input
          style={{ width: 360 }}
          aria-label={t('inviteCode')}
          placeholder={t('inviteCodePlaceholder')}
          addonBefore={t('inviteCode')}
          value={code}
          maxLength={MC_APP_CODE_MAX}
          onChange={(e) => {
            setCode(e.target.value);
            if (e.target.value) setAppId(undefined);
          }}
        />
        <Button type="primary" loading={busy} onClick={send} data-testid="send-invite">
          {t('inviteSend')}
        </Button>
      </Space>
    </div>
  );
}

/** The leading center's minimum count of a pooled cell of another center (1–100). */
function MinCellSetting({ topic, onDone }: { topic: TopicDetail; onDone: () => Promise<void> }) {
  const { t } = useTranslation(MC_NS);
  const { message } = App.useApp();
  const [value, setValue] = useState<number | null>(topic.minCellCount);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (value === null) return;
    setBusy(true);
    try {
      const r = await mcApi.saveSettings(topic.id, value);
      message.success(t('minCellSaved', { n: r.minCellCount }));
      await onDone();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space wrap data-testid="min-cell">
      <InputNumber
        aria-label={t('minCell')}
        min={MC_MIN_CELL_MIN}
        max={MC_MIN_CELL_MAX}
        precision={0}
        value={value}
        onChange={(v) => setValue(v)}
      />
      <Button onClick={save} loading={busy} disabled={value === null || value === topic.minCellCount}>
        {t('save')}
      </Button>
      <Typography.Text type="secondary">{t('minCellHelp', { n: topic.minCellCount })}</Typography.Text>
    </Space>
  );
}

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
  const reload = async () => {
    await qc.invalidateQueries({ queryKey: ['mc', 'topic', id] });
    await qc.invalidateQueries({ queryKey: ['mc', 'pooled', id] });
  };
  const withdraw = async (appId: number) => {
    try {
      await mcApi.withdraw(id, appId);
      message.success(t('withdrawn'));
      await reload();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const leave = async () => {
    try {
      await mcApi.leave(id);
      message.success(t('leftTopic'));
      navigate('/multi-center/topics');
    } catch (e) {
      message.error((e as Error).message);
    }
  };

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

  const p: Pooled | undefined = pooled.data;
  const min = p?.minCellCount ?? d.minCellCount;
  const summary = (r: PooledRow, key: string) => {
    const x = r.variables.find((y) => y.key === key);
    if (!x) return '—';
    if (typeof x.n !== 'number') return <Count value={x.n} min={min} />;
    return x.mean !== null && x.mean !== undefined
      ? t('summary', { n: x.n, mean: x.mean.toFixed(1) })
      : t('summaryN', { n: countText(t, x.n, min) });
  };
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
            <Space wrap data-testid="center-list">
              {d.centers.map((c) => (
                <Space key={c.appId} size={2}>
                  <Tag color={c.role === 'lead' ? 'blue' : undefined}>
                    {c.name} · {t(c.role)}
                  </Tag>
                  {c.role === 'member' && (
                    <Tag color={STATUS_COLOR[c.status]} data-testid={`center-status-${c.appId}`}>
                      {t(STATUS_TEXT[c.status])}
                    </Tag>
                  )}
                  {lead && c.status === 'pending' && (
                    <Authorized apiId={MANAGE_TOPIC}>
                      <Popconfirm
                        title={t('withdrawConfirm', { name: c.name })}
                        okText={t('withdraw')}
                        onConfirm={() => withdraw(c.appId)}
                      >
                        <Button type="link" size="small" data-testid={`withdraw-${c.appId}`}>
                          {t('withdraw')}
                        </Button>
                      </Popconfirm>
                    </Authorized>
                  )}
                </Space>
              ))}
            </Space>
          </Descriptions.Item>
          {lead && (
            <Descriptions.Item label={t('invite')}>
              <Authorized apiId={MANAGE_TOPIC}>
                <InviteCenter topic={d} onDone={reload} />
              </Authorized>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('minCell')}>
            {lead ? (
              <Authorized
                apiId={MANAGE_TOPIC}
                fallback={<Typography.Text>{t('minCellNow', { n: d.minCellCount })}</Typography.Text>}
              >
                <MinCellSetting key={d.minCellCount} topic={d} onDone={reload} />
              </Authorized>
            ) : (
              <Typography.Text>{t('minCellNow', { n: d.minCellCount })}</Typography.Text>
            )}
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
            <>
              <Typography.Text type="secondary">{t('leadMoves')}</Typography.Text>
              <Authorized apiId={MANAGE_TOPIC}>
                <Popconfirm
                  title={t('leaveConfirm')}
                  okText={t('leave')}
                  okButtonProps={{ danger: true }}
                  onConfirm={leave}
                >
                  <Button danger size="small" data-testid="leave-topic">
                    {t('leave')}
                  </Button>
                </Popconfirm>
              </Authorized>
            </>
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
            { title: t('cases'), dataIndex: 'cases', render: (_, r) => <Count value={r.cases} min={min} /> },
            ...d.variables.map((v) => ({
              title: v.label,
              key: v.key,
              render: (_: unknown, r: PooledRow) => summary(r, v.key),
            })),
          ]}
        />
      </Card>
      <CaseEntry topic={d} />
      <FederatedJobs topic={d} />
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
            <ProFormTextArea key={k} name={k} label={t(k)} rules={[{ max: MC_PROTOCOL_TEXT_MAX }]} />
          ))}
        </ProForm>
      </Card>
    </Space>
  );
}
