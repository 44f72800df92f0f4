import { Button, Card, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../app/session';
import { CRF_NS } from '../../../components/crf/i18n';
import { RecordEditor } from '../RecordEditor';

/** `/crf` (crfItem): a free-access link fills the one form it names, without signing in. */
export default function FreeFill() {
  const { t } = useTranslation(CRF_NS);
  const { crfObjectId } = useSession();
  const navigate = useNavigate();
  const [done, setDone] = useState(0);
  const [submitted, setSubmitted] = useState(false);
  const formId = Number(crfObjectId) || null;
  if (!formId) return <Result status="warning" title={t('free.noForm')} />;
  if (submitted)
    return (
      <Result
        status="success"
        title={t('free.done')}
        extra={[
          <Button
            key="again"
            type="primary"
            onClick={() => {
              setSubmitted(false);
              setDone((n) => n + 1);
            }}
          >
            {t('free.again')}
          </Button>,
          <Button key="mine" onClick={() => navigate('/crf/projectData')}>
            {t('free.mine')}
          </Button>,
        ]}
      />
    );
  return (
    <Card title={t('free.title')}>
      <RecordEditor
        key={done}
        formId={formId}
        free
        onSaved={(r, isSubmit) => {
          if (isSubmit) setSubmitted(true);
          else navigate(`/crf/edit?recordId=${r.id}`);
        }}
      />
    </Card>
  );
}
