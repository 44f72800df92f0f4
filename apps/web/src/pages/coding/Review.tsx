import {
  CODING_SCREENS,
  type CodingCandidate,
  type CodingDecision,
  type CodingItem,
  type CodingItemStatus,
  type CodingKind,
} from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Input,
  InputNumber,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { RemoteSelect } from '../../components/RemoteSelect';
import { terminologyApi } from '../terminology/api';
import { codingApi, useCan } from './api';
import { CODING_NS } from './i18n';
import { CodedRows, MappingList } from './Mappings';
import { TaskProgress } from './TaskList';

const PAGE = 100;
const score = (c: CodingCandidate) => c.score.toFixed(2);

/** Whether a key press belongs to a field being typed in (then the screen's keys stay out of it). */
const typing = (e: KeyboardEvent) => {
  const el = e.target as HTMLElement | null;
  if (!el) return false;
  return (
    el.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) ||
    !!el.closest('.ant-select, .ant-modal, .ant-picker')
  );
};

/**
 * 疾病/手术编码 (and the lab and drug task screens): a task's terms, most frequent first, each with
 * its candidates. Keyboard first: ↑/↓ move, Enter accepts the first candidate, 1–5 picks one,
 * N marks "no code", / searches the code system, U undoes; after a decision the next term waiting
 * is selected. Bulk accept above a score; the mappings and the CDR rows as coded beside.
 */
export function CodingReviewScreen({ kind }: { kind: CodingKind }) {
  const { t } = useTranslation(CODING_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useCan();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const screen = CODING_SCREENS[kind];
  const taskId = Number(params.get('taskId')) || null;
  const [status, setStatus] = useState<CodingItemStatus | 'all'>('all');
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState(0);
  const [threshold, setThreshold] = useState(0.9);
  const [busy, setBusy] = useState(false);
  const canEdit = can(`${screen.coding}.edit`);
  const kindName = word('codingKind', kind);

  const tasks = useQuery({
    queryKey: ['coding', kind, 'tasks', 'pick'],
    queryFn: () => codingApi.tasks(kind, { page: 1, size: 100 }),
  });
  const task = useQuery({
    queryKey: ['coding', kind, 'task', taskId],
    queryFn: () => codingApi.task(kind, taskId!),
    enabled: taskId !== null,
  });
  const items = useQuery({
    queryKey: ['coding', kind, 'items', taskId, status, page, filter],
    queryFn: () =>
      codingApi.items(kind, taskId!, {
        page,
        size: PAGE,
        ...(status === 'all' ? {} : { status }),
        ...(filter ? { q: filter } : {}),
      }),
    enabled: taskId !== null,
  });
  const rows = items.data?.items ?? [];
  const current: CodingItem | undefined = rows[Math.min(selected, rows.length - 1)];

  const refresh = useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['coding', kind, 'items', taskId] }),
      queryClient.invalidateQueries({ queryKey: ['coding', kind, 'task', taskId] }),
      queryClient.invalidateQueries({ queryKey: ['coding', kind, 'mappings'] }),
      queryClient.invalidateQueries({ queryKey: ['coding', kind, 'rows'] }),
    ]);
  }, [queryClient, kind, taskId]);

  const decide = useCallback(
    async (item: CodingItem, d: Omit<CodingDecision, 'itemId'>) => {
      if (!canEdit || busy) return;
      setBusy(true);
      try {
        const done = await codingApi.decide(kind, { itemId: item.id, ...d });
        if (d.action === 'code') message.success(t('review.saved', { term: item.term, code: done.code }));
        else if (d.action === 'noCode') message.success(t('review.savedNone', { term: item.term }));
        // Next: the first term still waiting after this one.
        const at = rows.findIndex((r) => r.id === item.id);
        const next = rows.findIndex((r, i) => i > at && r.status === 'pending');
        if (d.action !== 'reset' && next >= 0) setSelected(next);
        await refresh();
      } finally {
        setBusy(false);
      }
    },
    [canEdit, busy, kind, message, t, rows, refresh],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e) || !current || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'ArrowDown' || e.key === 'j') {
        setSelected((s) => Math.min(s + 1, rows.length - 1));
        e.preventDefault();
      } else if (e.key === 'ArrowUp' || e.key === 'k') {
        setSelected((s) => Math.max(s - 1, 0));
        e.preventDefault();
      } else if (e.key === 'Enter' && current.candidates[0]) {
        void decide(current, { action: 'code', code: current.candidates[0].code, how: 'suggestion' });
        e.preventDefault();
      } else if (/^[1-5]$/.test(e.key)) {
        const c = current.candidates[Number(e.key) - 1];
        if (c) void decide(current, { action: 'code', code: c.code, how: 'suggestion' });
      } else if (e.key === 'n' || e.key === 'N') void decide(current, { action: 'noCode' });
      else if (e.key === 'u' || e.key === 'U') void decide(current, { action: 'reset' });
      else if (e.key === '/') {
        document.querySelector<HTMLInputElement>('#coding-search input')?.focus();
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, rows.length, decide]);

  // Keep the selected row in view as the keys move it.
  const currentId = current?.id;
  useEffect(() => {
    if (currentId !== undefined)
      document.querySelector('.coding-row-selected')?.scrollIntoView({ block: 'nearest' });
  }, [currentId]);

  const pickTask = (
    <Select
      style={{ width: 320 }}
      placeholder={t('review.pickTask')}
      value={taskId ?? undefined}
      loading={tasks.isLoading}
      onChange={(v) => {
        setSelected(0);
        setPage(1);
        setParams((p) => {
          const next = new URLSearchParams(p);
          next.set('taskId', String(v));
          return next;
        });
      }}
      options={(tasks.data?.items ?? [])
        .filter((x) => x.status === 'succeeded')
        .map((x) => ({ value: x.id, label: `#${x.id} ${x.name}` }))}
      data-testid="coding-task-pick"
    />
  );

  const itemsTab = !taskId ? (
    <Empty description={t('review.noTask')} />
  ) : (
    <Space direction="vertical" style={{ width: '100%' }}>
      {items.isError && <Alert type="error" showIcon message={(items.error as Error).message} />}
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Segmented<CodingItemStatus | 'all'>
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
            setSelected(0);
          }}
          options={[
            { value: 'all', label: t('review.all') },
            ...(['pending', 'coded', 'noCode'] as const).map((s) => ({
              value: s,
              label: word('codingItemStatus', s),
            })),
          ]}
        />
        <Input.Search
          allowClear
          style={{ width: 240 }}
          placeholder={t('review.filter')}
          data-testid="coding-filter"
          onSearch={(v) => {
            setFilter(v.trim());
            setPage(1);
            setSelected(0);
          }}
        />
        {canEdit && (
          <Space>
            <span>{t('review.threshold')}</span>
            <InputNumber
              min={0.5}
              max={1}
              step={0.05}
              value={threshold}
              onChange={(v) => setThreshold(v ?? 0.9)}
            />
            <Button
              data-testid="coding-bulk"
              onClick={async () => {
                const r = await codingApi.bulkAccept(kind, taskId, threshold);
                message.success(t('review.bulkDone', { count: r.accepted }));
                await refresh();
              }}
            >
              {t('review.bulk', { score: threshold })}
            </Button>
          </Space>
        )}
      </Space>
      <Typography.Text type="secondary">{t('review.keys')}</Typography.Text>
      {canEdit && current && (
        <Space>
          <Typography.Text strong>{current.term}</Typography.Text>
          <div id="coding-search">
            <RemoteSelect
              style={{ width: 360 }}
              placeholder={`${t('review.search')}（/）`}
              queryKey={['coding', 'search', screen.systemKey]}
              search={async (q) =>
                q
                  ? (await terminologyApi.search(q, screen.systemKey)).map((h) => ({
                      value: h.code,
                      label: `${h.code} ${h.displayZh}`,
                    }))
                  : []
              }
              value={null}
              onChange={(code) => {
                if (code) void decide(current, { action: 'code', code: String(code), how: 'search' });
              }}
            />
          </div>
        </Space>
      )}
      <Table<CodingItem>
        rowKey="id"
        size="small"
        loading={items.isLoading}
        dataSource={rows}
        pagination={{
          current: page,
          pageSize: PAGE,
          total: items.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (p) => {
            setPage(p);
            setSelected(0);
          },
        }}
        rowClassName={(r) => (r.id === current?.id ? 'coding-row-selected ant-table-row-selected' : '')}
        onRow={(r, i) =>
          ({ onClick: () => setSelected(i ?? 0), 'data-testid': `coding-item-${r.term}` }) as never
        }
        columns={[
          { title: t('review.term'), dataIndex: 'term', width: 220 },
          { title: t('review.rows'), dataIndex: 'rows', width: 70 },
          {
            title: t('review.candidates'),
            key: 'candidates',
            render: (_, r) => (
              <Space size={[4, 4]} wrap>
                {r.candidates.map((c, i) => (
                  <Tooltip
                    key={c.code}
                    title={c.matched ? `${word('codingReason', c.reason)}：${c.matched}` : undefined}
                  >
                    <Tag
                      color={r.code === c.code ? 'green' : i === 0 ? 'blue' : undefined}
                      style={{ cursor: canEdit ? 'pointer' : undefined }}
                      onClick={(e) => {
                        e.stopPropagation();
                        void decide(r, { action: 'code', code: c.code, how: 'suggestion' });
                      }}
                    >
                      {i + 1}. {c.code} {c.displayZh} · {score(c)} · {word('codingReason', c.reason)}
                    </Tag>
                  </Tooltip>
                ))}
              </Space>
            ),
          },
          {
            title: t('review.decision'),
            key: 'decision',
            width: 230,
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                {r.status === 'coded' ? (
                  <Typography.Text>
                    <Tag color="green">{r.code}</Tag>
                    {r.displayZh}
                  </Typography.Text>
                ) : (
                  <Tag color={r.status === 'noCode' ? 'default' : 'orange'}>
                    {word('codingItemStatus', r.status)}
                  </Tag>
                )}
                {r.review === 'disputed' && (
                  <Typography.Text type="danger">
                    {t('review.disputed', { reason: r.reviewReason })}
                  </Typography.Text>
                )}
                {r.review === 'agreed' && (
                  <Typography.Text type="success">{word('codingReview', 'agreed')}</Typography.Text>
                )}
              </Space>
            ),
          },
          ...(canEdit
            ? [
                {
                  title: '',
                  key: 'actions',
                  width: 150,
                  render: (_: unknown, r: CodingItem) => (
                    <Space size={0}>
                      {r.candidates[0] && (
                        <Button
                          type="link"
                          size="small"
                          onClick={(e) => {
                            e.stopPropagation();
                            void decide(r, {
                              action: 'code',
                              code: r.candidates[0]!.code,
                              how: 'suggestion',
                            });
                          }}
                        >
                          {t('review.accept')}
                        </Button>
                      )}
                      <Button
                        type="link"
                        size="small"
                        onClick={(e) => {
                          e.stopPropagation();
                          void decide(r, r.status === 'pending' ? { action: 'noCode' } : { action: 'reset' });
                        }}
                      >
                        {r.status === 'pending' ? t('review.noCode') : t('review.undo')}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );

  return (
    <Card
      title={t('review.title', { kind: kindName })}
      extra={
        <Space>
          {screen.coding === screen.task && (
            <Button
              onClick={() =>
                setParams((p) => {
                  const next = new URLSearchParams(p);
                  next.delete('taskId');
                  return next;
                })
              }
            >
              {t('review.backToTasks')}
            </Button>
          )}
          {task.data && (
            <div style={{ width: 260 }}>
              <TaskProgress task={task.data} />
            </div>
          )}
          {pickTask}
        </Space>
      }
    >
      {task.isError && <Alert type="error" showIcon message={(task.error as Error).message} />}
      <Tabs
        items={[
          { key: 'items', label: t('review.tabs.items'), children: itemsTab },
          { key: 'mappings', label: t('review.tabs.mappings'), children: <MappingList kind={kind} /> },
          { key: 'rows', label: t('review.tabs.rows'), children: <CodedRows kind={kind} /> },
        ]}
      />
    </Card>
  );
}

export const DiseaseCoding = () => <CodingReviewScreen kind="disease" />;
export const SurgeryCoding = () => <CodingReviewScreen kind="surgery" />;
