import { useQuery } from '@tanstack/react-query';
import { Alert, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { patient360 } from '../clinical/api';
import { FORMULAS_NS } from './formulas-i18n';

/** A patient of the app picked by name or MRN, through the patient search (`GET 360`). */
export function PatientSelect({
  value,
  onChange,
  testId,
}: {
  value?: number;
  onChange: (id: number | undefined) => void;
  testId?: string;
}) {
  const { t } = useTranslation(FORMULAS_NS);
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: ['formula-patients', keyword],
    queryFn: () => patient360.search({ keyword: keyword || undefined, size: 20 }),
  });
  if (q.isError) return <Alert type="error" showIcon message={q.error.message} />;
  return (
    <span data-testid={testId} style={{ display: 'inline-block' }}>
      <Select
        showSearch
        allowClear
        style={{ minWidth: 320 }}
        placeholder={t('common.pickPatient')}
        filterOption={false}
        onSearch={(v) => setKeyword(v.trim())}
        loading={q.isFetching}
        value={value}
        onChange={(v) => onChange(v ?? undefined)}
        notFoundContent={q.isFetching ? undefined : t('common.noPatient')}
        options={(q.data?.items ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.mrn}` }))}
      />
    </span>
  );
}
