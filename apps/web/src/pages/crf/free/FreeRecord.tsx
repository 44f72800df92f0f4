import { Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../app/session';
import { CRF_NS } from '../../../components/crf/i18n';
import { RecordEditor } from '../RecordEditor';

/** `/crf/details` and `/crf/edit` (crfLgDetails, crfLgEdit): one record made through this link. */
export default function FreeRecord() {
  const { t } = useTranslation(CRF_NS);
  const { crfObjectId } = useSession();
  const [params] = useSearchParams();
  const formId = Number(crfObjectId) || null;
  const recordId = Number(params.get('recordId')) || null;
  if (!formId || !recordId) return <Result status="warning" title={t('free.noForm')} />;
  return (
    <Card title={t('free.title')}>
      <RecordEditor formId={formId} recordId={recordId} free />
    </Card>
  );
}
