import type { SciColumn, SciSnapshot, SciSnapshotDetail } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, Progress, Select, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { currentLocale } from '../../app/i18n';
import { type SnapshotScreen, sciApi } from './api';
import { SCI_NS } from './i18n';

const en = () => currentLocale() === 'en-US';

/** A column's label in the reader's language. */
export const columnLabel = (c: Pick<SciColumn, 'labelZh' | 'labelEn'>) =>
  en() ? c.labelEn || c.labelZh : c.labelZh;

/** A cell as read: a category's code with its value-set label, numbers as they are. */
export function cellText(c: SciColumn, v: number | string | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (c.type === 'category') {
    const o = c.valueSet.find((x) => x.code === String(v));
    const l = o && (en() ? o.labelEn || o.labelZh : o.labelZh);
    return l ? `${l} (${v})` : String(v);
  }
  return typeof v === 'number' ? String(Number(v.toPrecision(10))) : v;
}

export const showNumber = (v: number | string | null) =>
  v === null ? '—' : typeof v === 'number' ? Number(v.toFixed(3)).toLocaleString() : v;

export function formatBytes(n: number) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A snapshot's status; while building, the job's progress when it is known. */
export function SnapshotStatus({ s }: { s: Pick<SciSnapshot, 'status'> & { progress?: number } }) {
  const { t } = useTranslation(SCI_NS);
  if (s.status === 'building')
    return (
      <Space data-testid="snapshot-building">
        <Tag color="processing">{t('status.building')}</Tag>
        {s.progress !== undefined && (
          <Progress percent={Math.round(s.progress)} size="small" style={{ width: 100 }} />
        )}
      </Space>
    );
  return (
    <Tag color={s.status === 'ready' ? 'success' : 'error'} data-testid={`snapshot-${s.status}`}>
      {t(`status.${s.status}`)}
    </Tag>
  );
}

/**
 * The ready snapshot a screen shows, chosen from the list (kept in the address as `?snapshot=`,
 * so a link from the runs list opens it). Renders the picker and, once chosen and loaded, the page.
 */
export function SnapshotScreenFrame({
  screen,
  children,
}: {
  screen: SnapshotScreen;
  children: (s: SciSnapshotDetail) => ReactNode;
}) {
  const { t } = useTranslation(SCI_NS);
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: ['sci', 'ready', screen], queryFn: () => sciApi.ready(screen) });
  const wanted = Number(params.get('snapshot')) || null;
  const chosen = wanted ?? list.data?.items[0]?.id ?? null;
  const detail = useQuery({
    queryKey: ['sci', 'snapshot', screen, chosen],
    queryFn: () => sciApi.snapshot(screen, chosen!),
    enabled: chosen !== null,
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Space wrap>
        <Typography.Text>{t('picker.label')}</Typography.Text>
        <Select
          data-testid="snapshot-picker"
          style={{ minWidth: 360 }}
          placeholder={t('picker.placeholder')}
          loading={list.isLoading}
          value={chosen ?? undefined}
          onChange={(id: number) => setParams({ snapshot: String(id) })}
          options={(list.data?.items ?? []).map((s) => ({
            value: s.id,
            label: t('picker.option', { task: s.taskName, version: s.version, rows: s.rowCount }),
          }))}
        />
      </Space>
      {list.isError ? (
        <Alert type="error" showIcon message={list.error.message} />
      ) : detail.isError ? (
        <Alert type="error" showIcon message={detail.error.message} />
      ) : list.data && !list.data.items.length && chosen === null ? (
        <Empty description={t('picker.none')} />
      ) : detail.data ? (
        children(detail.data)
      ) : null}
    </Space>
  );
}
