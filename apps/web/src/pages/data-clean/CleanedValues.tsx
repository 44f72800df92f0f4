import { useQuery } from '@tanstack/react-query';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cleaningApi } from './api';
import { DATA_CLEAN_NS } from './i18n';
import { ValuesTable } from './TaskTable';

/** The personal view's tab of values read from clinical text, with their provenance. */
export function CleanedValuesTab({ patientId }: { patientId: number }) {
  const { t } = useTranslation(DATA_CLEAN_NS);
  const q = useQuery({
    queryKey: ['cleaning', 'patient', patientId],
    queryFn: () => cleaningApi.patientValues(patientId, { page: 1, size: 200 }),
  });
  return (
    <>
      <Typography.Paragraph type="secondary">{t('patient.hint')}</Typography.Paragraph>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      <ValuesTable values={q.data?.items ?? []} loading={q.isLoading} />
    </>
  );
}
