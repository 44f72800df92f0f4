import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RemoteOption {
  value: number | string;
  label: string;
}

export interface RemoteSelectProps
  extends Omit<SelectProps<number | string>, 'options' | 'onSearch' | 'filterOption' | 'loading'> {
  /** Cache key of this list (the keyword is added). */
  queryKey: readonly unknown[];
  /** Asks the server for the options matching what the person typed (empty: the first page). */
  search: (keyword: string) => Promise<RemoteOption[]>;
  /** The option of the current value when it is not in the loaded page (an edit form). */
  selected?: RemoteOption | null;
}

/**
 * A picker over a list that lives on the server: it asks as the person types (after a short
 * pause), shows that it is loading, and says so when the server refuses — it never sits empty
 * while an error hides behind it.
 */
export function RemoteSelect({ queryKey, search, selected, ...props }: RemoteSelectProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const q = useQuery({ queryKey: [...queryKey, keyword], queryFn: () => search(keyword), retry: false });
  const options = [...(q.data ?? [])];
  if (selected && !options.some((o) => o.value === selected.value)) options.unshift(selected);
  const failed = q.isError ? (q.error as Error).message || t('error.retry') : null;
  return (
    <>
      <Select<number | string>
        showSearch
        allowClear
        filterOption={false}
        onSearch={setTyped}
        options={options}
        loading={q.isFetching}
        status={failed ? 'error' : undefined}
        notFoundContent={
          q.isFetching ? (
            <Spin size="small" />
          ) : failed ? (
            failed
          ) : keyword ? (
            t('picker.noMatch')
          ) : (
            t('picker.empty')
          )
        }
        {...props}
      />
      {failed && (
        <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 4 }}>
          {failed}
        </Typography.Text>
      )}
    </>
  );
}
