import { ModalForm, ProFormRadio, ProFormSelect } from '@ant-design/pro-components';
import type { CrfRecordsImported } from '@crdp/crf';
import { Alert, App, Button, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CRF_NS } from '../../components/crf/i18n';
import { type CrfFormSummary, crfApi } from './api';

/** The FormDefs an ODM file holds data of (FormData), read in the browser so the user can pick one. */
function odmDataFormsOf(text: string): string[] {
  if (!/<ODM[\s>]/.test(text) || /<!DOCTYPE/i.test(text)) return [];
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return [];
  return [
    ...new Set(
      Array.from(doc.getElementsByTagNameNS('*', 'FormData')).map((f) => f.getAttribute('FormOID') ?? ''),
    ),
  ].filter(Boolean);
}

/**
 * Records of a published form from a file: the ClinicalData of an ODM file (CRDP's own export, an
 * OpenClinica extract, a REDCap project XML) or a REDCap records CSV. All or none: the answer is
 * the records stored (and what was left out), or every fault of the file, nothing stored.
 */
export function ImportRecords({
  form,
  onClose,
  onDone,
}: {
  form: CrfFormSummary | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(CRF_NS);
  const { message, modal } = App.useApp();
  const [text, setText] = useState('');
  const [formOids, setFormOids] = useState<string[]>([]);
  const [faults, setFaults] = useState<string | null>(null);

  const report = (r: CrfRecordsImported) =>
    modal.success({
      title: t('list.importRecordsDone', { count: r.records.length }),
      width: 640,
      content: (
        <div data-testid="import-records-report">
          <ul>
            {r.records.slice(0, 50).map((x) => (
              <li key={x.id}>
                {t('list.importRecordsRow', {
                  subject: x.subjectCode,
                  source: x.source,
                  count: x.changes,
                })}
              </li>
            ))}
            {r.records.length > 50 && (
              <li>{t('list.importRecordsMore', { count: r.records.length - 50 })}</li>
            )}
          </ul>
          {r.notes.length > 0 && (
            <>
              <Typography.Text strong>{t('list.importRecordsNotes')}</Typography.Text>
              <ul>
                {r.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      ),
    });

  return (
    <ModalForm<{ format: 'odm' | 'redcap'; formOid?: string }>
      title={`${t('list.importRecords')}：${form?.name ?? ''}`}
      open={!!form}
      width={720}
      initialValues={{ format: 'odm' }}
      modalProps={{
        destroyOnHidden: true,
        onCancel: onClose,
        afterClose: () => {
          setText('');
          setFormOids([]);
          setFaults(null);
        },
      }}
      onFinish={async (v) => {
        if (!form) return true;
        if (!text) {
          message.error(t('list.importNoFile'));
          return false;
        }
        setFaults(null);
        try {
          const r = await crfApi.importRecords(form.id, {
            format: v.format,
            content: text,
            ...(v.format === 'odm' && v.formOid ? { formOid: v.formOid } : {}),
          });
          onDone();
          report(r);
          return true;
        } catch (e) {
          // Every fault of the file, one a line: shown whole in the dialog, nothing was stored.
          setFaults(e instanceof Error ? e.message : String(e));
          return false;
        }
      }}
    >
      <Typography.Paragraph type="secondary">{t('list.importRecordsHint')}</Typography.Paragraph>
      <ProFormRadio.Group
        name="format"
        label={t('list.importFormat')}
        options={[
          { value: 'odm', label: t('list.importRecordsOdm') },
          { value: 'redcap', label: t('list.importRecordsRedcap') },
        ]}
      />
      <Upload
        maxCount={1}
        onRemove={() => {
          setText('');
          setFormOids([]);
        }}
        beforeUpload={async (file) => {
          const content = await file.text();
          setText(content);
          setFormOids(odmDataFormsOf(content));
          setFaults(null);
          return false;
        }}
      >
        <Button>{t('list.importFile')}</Button>
      </Upload>
      <div style={{ height: 16 }} />
      {formOids.length > 1 && (
        <ProFormSelect
          name="formOid"
          label={t('list.importRecordsFormOid')}
          extra={t('list.importRecordsFormOidHint')}
          options={formOids.map((o) => ({ value: o, label: o }))}
          fieldProps={{ id: 'import-records-form-oid' }}
          rules={[{ required: true }]}
        />
      )}
      {faults && (
        <Alert
          type="error"
          showIcon
          data-testid="import-records-faults"
          message={t('list.importRecordsFailed')}
          description={
            <div style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre-wrap' }}>{faults}</div>
          }
        />
      )}
    </ModalForm>
  );
}
