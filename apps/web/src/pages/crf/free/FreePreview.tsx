import { useQuery } from '@tanstack/react-query';
import { Card, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session';
import { CrfRenderer } from '../../../components/crf/CrfRenderer';
import { CRF_NS } from '../../../components/crf/i18n';
import { crfApi } from '../api';

/** `/crf/preview` (crfLgPreview): the published form, filled by nobody. */
export default function FreePreview() {
  const { t } = useTranslation(CRF_NS);
  const { crfObjectId } = useSession();
  const formId = Number(crfObjectId) || 0;
  const form = useQuery({
    queryKey: ['crf', 'form', formId],
    queryFn: () => crfApi.form(formId),
    enabled: !!formId,
  });
  const latest = form.data?.latestVersion ?? 0;
  const version = useQuery({
    queryKey: ['crf', 'version', formId, latest],
    queryFn: () => crfApi.version(formId, latest),
    enabled: latest > 0,
  });
  if (!formId) return <Result status="warning" title={t('free.noForm')} />;
  if (!version.data) return <Spin />;
  return (
    <Card title={form.data?.name}>
      <CrfRenderer form={version.data.definition} />
    </Card>
  );
}
