import { type Form, mapRecordToAnswers, type RecordMapping } from '@crdp/crf';
import { Button, List, Modal, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from '../../components/crf/i18n';

/** Prefill from a structured case record (XML): shows what it fills and what it could not place. */
export function Prefill({
  form,
  onAccept,
}: {
  form: Form;
  onAccept: (answers: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation(CRF_NS);
  const [mapping, setMapping] = useState<RecordMapping | null>(null);
  return (
    <>
      <Upload
        accept=".xml,text/xml,application/xml"
        showUploadList={false}
        beforeUpload={async (file) => {
          setMapping(mapRecordToAnswers(await file.text(), form));
          return false;
        }}
      >
        <Button>{t('records.prefill')}</Button>
      </Upload>
      <Modal
        open={!!mapping}
        title={t('records.prefill')}
        okText={t('records.prefillAccept')}
        onCancel={() => setMapping(null)}
        onOk={() => {
          if (mapping) onAccept(mapping.answers);
          setMapping(null);
        }}
      >
        {mapping && (
          <>
            <Typography.Paragraph>
              {t('records.prefillFound', { count: Object.keys(mapping.answers).length })}：
              {Object.entries(mapping.answers)
                .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
                .join('；')}
            </Typography.Paragraph>
            {mapping.unmatched.length > 0 && (
              <List
                size="small"
                header={t('records.prefillUnmatched')}
                dataSource={mapping.unmatched}
                renderItem={(u) => (
                  <List.Item>
                    {u.entry.displayName ?? u.entry.code ?? u.entry.section} — {u.reason}
                  </List.Item>
                )}
              />
            )}
          </>
        )}
      </Modal>
    </>
  );
}
