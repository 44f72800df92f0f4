import { App, Breadcrumb, Button, Card, Result, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CRF_NS } from '../../components/crf/i18n';
import { LinkButton } from '../../components/crf/LinkButton';
import { RecordEditor } from '../crf/RecordEditor';
import { pocApi, readWalk, type WalkState, writeWalk } from './pocApi';

/**
 * `/data-clean/hepatopathyPocList`: one patient's record form. The breadcrumb names the patient
 * and the filing date; next moves along the list and asks for the next page at the end of one.
 */
export default function PocRecord() {
  const { t } = useTranslation(CRF_NS);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [walk, setWalk] = useState<WalkState | null>(() => readWalk());
  const [busy, setBusy] = useState(false);
  const patient = walk?.items[walk.index];

  const next = async () => {
    if (!walk?.items.length) {
      message.info(t('poc.empty'));
      return;
    }
    if (walk.index + 1 < walk.items.length) {
      const w = { ...walk, index: walk.index + 1 };
      writeWalk(w);
      setWalk(w);
      return;
    }
    setBusy(true);
    try {
      const request = { ...walk.request, page: walk.request.page + 1 };
      const r = await pocApi.patients(request);
      if (!r.items.length) {
        message.info(t('poc.last'));
        return;
      }
      const w = { ...walk, request, items: r.items, index: 0 };
      writeWalk(w);
      setWalk(w);
    } finally {
      setBusy(false);
    }
  };

  const crumbs = (
    <Space style={{ width: '100%', justifyContent: 'space-between' }}>
      <Breadcrumb
        items={[
          {
            title: (
              <LinkButton onClick={() => navigate('/data-clean/hepatopathyPoc')}>{t('poc.list')}</LinkButton>
            ),
          },
          ...(patient
            ? [
                { title: <span data-testid="poc-patient">{patient.Patient_name}</span> },
                { title: <span data-testid="poc-filing">{(patient.Filing_date ?? '').slice(0, 10)}</span> },
              ]
            : []),
        ]}
      />
      <Button type="primary" onClick={next} loading={busy} data-testid="poc-next">
        {t('poc.next')}
      </Button>
    </Space>
  );

  if (!walk || !patient)
    return (
      <Card title={crumbs}>
        <Result status="info" title={t('poc.empty')} />
      </Card>
    );
  return (
    <Card title={crumbs}>
      <RecordEditor
        key={patient.id}
        formId={walk.crfFormId}
        recordId={patient.record_id ?? undefined}
        patientId={patient.patient_id}
        patientName={patient.Patient_name}
        onSaved={(r) => {
          // A new record: the walk remembers it, so this patient opens it from now on (a second
          // save changes it instead of starting another one).
          if (patient.record_id === r.id) return;
          const w = {
            ...walk,
            items: walk.items.map((p, i) => (i === walk.index ? { ...p, record_id: r.id } : p)),
          };
          writeWalk(w);
          setWalk(w);
        }}
      />
    </Card>
  );
}
