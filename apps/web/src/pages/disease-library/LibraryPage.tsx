import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Select, Skeleton, Space } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { readStored, writeStored } from '../../app/storage';
import { useTabObject } from '../../shell/useTabs';
import { type LibraryDetail, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';

/** The library last chosen on any library page (cleared with the rest of storage on logout). */
const LAST_LIBRARY = 'ZHUANBING_LIBRARY_ID';

/**
 * The library a page works on: `?libraryId=` in the address, so a page can be linked and reloaded.
 * A page opened without it (from the menu) takes the library chosen last and writes it into the
 * address, so the sub-pages of one library never ask for it again.
 */
export function useLibraryId(): [number, (id: number) => void] {
  const [params, setParams] = useSearchParams();
  const inAddress = Number(params.get('libraryId') ?? 0) || 0;
  const id = inAddress || readStored<number>(LAST_LIBRARY, 0) || 0;
  useEffect(() => {
    if (inAddress) writeStored(LAST_LIBRARY, inAddress);
    else if (id)
      setParams(
        (p) => {
          const q = new URLSearchParams(p);
          q.set('libraryId', String(id));
          return q;
        },
        { replace: true },
      );
  }, [inAddress, id, setParams]);
  return [
    id,
    (next) =>
      // Another library: what the page showed of the last one (a patient) goes.
      setParams(new URLSearchParams({ libraryId: String(next) })),
  ];
}

export function LibraryPicker() {
  const { t } = useTranslation(LIBRARY_NS);
  const [id, setId] = useLibraryId();
  const libs = useQuery({
    queryKey: ['diseaseLibrary', 'libraries', 'picker'],
    queryFn: () => libraryApi.list({ page: 1, size: 200 }),
  });
  return (
    <Select
      data-testid="library-picker"
      style={{ minWidth: 220 }}
      placeholder={t('picker.placeholder')}
      loading={libs.isLoading}
      value={id || undefined}
      onChange={setId}
      showSearch
      optionFilterProp="label"
      options={(libs.data?.items ?? []).map((l) => ({ value: l.id, label: l.name }))}
    />
  );
}

/**
 * A page over one library: the library picker in the header, the library's detail (form items,
 * rules, search fields) handed to the body once it is loaded.
 */
export function LibraryPage({
  title,
  extra,
  children,
}: {
  title: string;
  extra?: ReactNode;
  children: (lib: LibraryDetail) => ReactNode;
}) {
  const { t } = useTranslation(LIBRARY_NS);
  const [id] = useLibraryId();
  const detail = useQuery({
    queryKey: ['diseaseLibrary', id, 'detail'],
    queryFn: () => libraryApi.detail(id),
    enabled: id > 0,
  });
  useTabObject(detail.data?.name);
  return (
    <Card
      title={title}
      extra={
        <Space>
          {extra}
          <LibraryPicker />
        </Space>
      }
    >
      {!id ? (
        <Alert type="info" showIcon message={t('picker.pick')} />
      ) : detail.isLoading ? (
        <Skeleton active />
      ) : detail.data ? (
        children(detail.data)
      ) : (
        <Alert type="warning" showIcon message={t('picker.missing')} />
      )}
    </Card>
  );
}

/** Shows a value of a library grid cell. */
export const cellText = (v: unknown) =>
  v === undefined || v === null || v === ''
    ? '-'
    : Array.isArray(v)
      ? v.join('、')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
