import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { CODING_REASON_MAX, type CodingReview } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLabel } from '../../app/labels';
import { saveOrShow } from '../../components/form/server-errors';
import { codingApi, useCan } from './api';
import { CODING_NS } from './i18n';

const VERDICT_COLOR = { pending: 'orange', agree: 'green', disagree: 'red' } as const;

/**
 * 编码审核: the drawn mappings of a batch. A agrees, D opens the reason (required: it goes back to
 * the coder), ↑/↓ move. The server refuses a verdict on one's own coding.
 */
export default function CodingQcAudit() {
  const { t } = useTranslation(CODING_NS);
  const word = useLabel();
  const { message } = App.useApp();
  const can = useCan();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const batchId = Number(params.get('batchId')) || undefined;
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState(0);
  const [disagreeing, setDisagreeing] = useState<CodingReview | null>(null);
  const canEdit = can('CodingQcAudit.edit');
  const batches = useQuery({
    queryKey: ['coding', 'qc', 'batches', 'pick'],
    queryFn: () => codingApi.batches({ page: 1, size: 100 }),
  });
  const reviews = useQuery({
    queryKey: ['coding', 'qc', 'reviews', batchId, page],
    queryFn: () => codingApi.reviews({ page, size: 100, batchId }),
  });
  const rows = reviews.data?.items ?? [];
  const current = rows[Math.min(selected, rows.length - 1)];

  const agree = useCallback(
    async (r: CodingReview) => {
      try {
        await codingApi.verdict({ reviewId: r.id, verdict: 'agree' });
        message.success(t('audit.done'));
        const next = rows.findIndex((x, i) => i > rows.indexOf(r) && x.verdict === 'pending');
        if (next >= 0) setSelected(next);
        await queryClient.invalidateQueries({ queryKey: ['coding', 'qc'] });
      } catch (e) {
        message.error((e as Error).message);
      }
    },
    [message, t, rows, queryClient],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (
        !current ||
        !canEdit ||
        disagreeing ||
        (el && (['INPUT', 'TEXTAREA'].includes(el.tagName) || el.closest('.ant-select, .ant-modal')))
      )
        return;
      if (e.key === 'ArrowDown') setSelected((s) => Math.min(s + 1, rows.length - 1));
      else if (e.key === 'ArrowUp') setSelected((s) => Math.max(s - 1, 0));
      else if (e.key === 'a' || e.key === 'A') void agree(current);
      else if (e.key === 'd' || e.key === 'D') setDisagreeing(current);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current, canEdit, disagreeing, rows.length, agree]);

  return (
    <Card
      title={t('audit.title')}
      extra={
        <Select
          style={{ width: 320 }}
          allowClear
          placeholder={t('audit.allBatches')}
          value={batchId}
          onChange={(v) => {
            setPage(1);
            setSelected(0);
            setParams((p) => {
              const next = new URLSearchParams(p);
              if (v) next.set('batchId', String(v));
              else next.delete('batchId');
              return next;
            });
          }}
          options={(batches.data?.items ?? []).map((b) => ({
            value: b.id,
            label: `#${b.id} ${word('codingKind', b.kind)} ${b.taskName} (${b.reviewed}/${b.size})`,
          }))}
        />
      }
    >
      {reviews.isError && <Alert type="error" showIcon message={(reviews.error as Error).message} />}
      <Typography.Paragraph type="secondary">{t('audit.keys')}</Typography.Paragraph>
      <Table<CodingReview>
        rowKey="id"
        size="small"
        loading={reviews.isLoading}
        dataSource={rows}
        pagination={{ current: page, pageSize: 100, total: reviews.data?.total ?? 0, onChange: setPage }}
        rowClassName={(r) => (r.id === current?.id ? 'ant-table-row-selected' : '')}
        onRow={(r, i) =>
          ({ onClick: () => setSelected(i ?? 0), 'data-testid': `coding-review-${r.term}` }) as never
        }
        columns={[
          { title: t('audit.term'), dataIndex: 'term' },
          { title: t('qc.kind'), key: 'kind', width: 90, render: (_, r) => word('codingKind', r.kind) },
          {
            title: t('audit.code'),
            key: 'code',
            render: (_, r) =>
              r.code ? (
                <span>
                  <Tag color="blue">{r.code}</Tag>
                  {r.displayZh}
                </span>
              ) : (
                <Tag>{word('codingItemStatus', 'noCode')}</Tag>
              ),
          },
          { title: t('audit.coder'), dataIndex: 'coderName', width: 100 },
          {
            title: t('audit.verdict'),
            key: 'verdict',
            width: 260,
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <Tag color={VERDICT_COLOR[r.verdict]}>{word('codingVerdict', r.verdict)}</Tag>
                {r.reason && <Typography.Text type="danger">{r.reason}</Typography.Text>}
                {r.suggestedCode && (
                  <Typography.Text type="secondary">{`${t('audit.suggested')}: ${r.suggestedCode}`}</Typography.Text>
                )}
                {r.reviewedByName && (
                  <Typography.Text type="secondary">{`${t('audit.reviewer')}: ${r.reviewedByName}`}</Typography.Text>
                )}
              </Space>
            ),
          },
          ...(canEdit
            ? [
                {
                  title: '',
                  key: 'actions',
                  width: 140,
                  render: (_: unknown, r: CodingReview) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => void agree(r)}>
                        {t('audit.agree')}
                      </Button>
                      <Button type="link" size="small" danger onClick={() => setDisagreeing(r)}>
                        {t('audit.disagree')}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ModalForm<{ reason: string; suggestedCode?: string }>
        title={disagreeing ? `${t('audit.disagree')}：${disagreeing.term}` : ''}
        open={disagreeing !== null}
        width={480}
        modalProps={{ destroyOnHidden: true, onCancel: () => setDisagreeing(null) }}
        onFinish={async (v) => {
          const r = disagreeing;
          if (!r) return true;
          const ok = await saveOrShow(message, async () => {
            await codingApi.verdict({
              reviewId: r.id,
              verdict: 'disagree',
              reason: v.reason,
              suggestedCode: v.suggestedCode?.trim() ? v.suggestedCode.trim() : null,
            });
            message.success(t('audit.done'));
            await queryClient.invalidateQueries({ queryKey: ['coding', 'qc'] });
          }).catch(() => false);
          if (ok) setDisagreeing(null);
          return ok;
        }}
      >
        <ProFormTextArea
          name="reason"
          label={t('audit.reason')}
          rules={[
            { required: true, whitespace: true, message: t('audit.reasonRequired') },
            { max: CODING_REASON_MAX },
          ]}
          fieldProps={{ autoFocus: true }}
        />
        <ProFormText name="suggestedCode" label={t('audit.suggested')} />
      </ModalForm>
    </Card>
  );
}
