import {
  answerItems,
  type Form,
  type FormItem,
  mapRecordToAnswers,
  type PrefillReason,
  type RecordMapping,
} from '@crdp/crf';
import { Alert, Button, List, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { CRF_NS } from '../../components/crf/i18n';
import { crfApi, refusalText } from './api';

type Source = 'xml' | 'cdr';
type Entry = RecordMapping['unmatched'][number]['entry'];

/** The patient fields of a clinical-data prefill, by the LOINC code the server gives them. */
const PATIENT_FIELD: Record<string, 'gender' | 'birthDate' | 'age'> = {
  '76689-9': 'gender',
  '21112-8': 'birthDate',
  '30525-0': 'age',
};

const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** An answer as a person reads it: an option by its name, several by their names, blanks by their values. */
function shown(item: FormItem | undefined, v: unknown): string {
  const name = (code: unknown) =>
    item?.options?.find((o) => String(o.code) === String(code))?.name ?? String(code);
  if (Array.isArray(v)) return v.map(name).join('、');
  if (item?.options?.length) return name(v);
  if (v && typeof v === 'object') return Object.values(v).map(String).join('、');
  return String(v);
}

/**
 * Prefill of a new record: from a structured case record (HL7 CDA XML, read here) or, when the
 * record is for a known patient, from the patient's clinical data (the server reads the CDR as of
 * today). A review lists what would be filled, from what and when; items that already hold an
 * answer keep it. Entries that could not be placed are listed with the reason.
 */
export function Prefill({
  form,
  formId,
  patientId,
  current,
  onAccept,
}: {
  form: Form;
  formId: number;
  /** The record's patient, when known: clinical-data prefill is offered then. */
  patientId: number | null;
  /** The answers the editor holds now. */
  current: () => Record<string, unknown>;
  onAccept: (answers: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation(CRF_NS);
  const word = useLabel();
  const [review, setReview] = useState<{ source: Source; mapping: RecordMapping } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = new Map(answerItems(form).map(({ item }) => [item.key, item]));
  const order = [...items.keys()];
  const title = (key: string) => items.get(key)?.title || key;
  const held = review ? current() : {};
  const rows = review
    ? Object.entries(review.mapping.answers)
        .map(([key, value]) => ({
          key,
          value,
          entry: review.mapping.placed[key],
          kept: !empty(held[key]),
        }))
        .sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key))
    : [];
  /**
   * What an entry is, in the reader's words where they are ours: a clinical-data entry's table
   * and a patient field by their labels; a lab item's or a record's own names as the data gives them.
   */
  const source = (e: Entry) => {
    if (review?.source !== 'cdr') return [e.section, e.displayName].filter(Boolean).join(' · ');
    const field = e.section === 'patients' && e.code ? PATIENT_FIELD[e.code] : undefined;
    const name = field === 'age' ? t('records.prefillAge') : field ? word('cdrField', field) : e.displayName;
    return [word('cdrTable', e.section), name].filter(Boolean).join(' · ');
  };
  const measured = (e: Entry) => (e.value === undefined ? '' : `${e.value}${e.unit ? ` ${e.unit}` : ''}`);
  const noItem = review?.mapping.unmatched.filter((u) => u.why.code === 'noItem') ?? [];
  // From the chart, everything the form does not ask for has no item: counted, not listed.
  const listed =
    review?.mapping.unmatched.filter((u) => review.source === 'xml' || u.why.code !== 'noItem') ?? [];
  const why = (w: PrefillReason) =>
    t(`records.prefillWhy.${w.code}`, {
      item: 'item' in w ? title(w.item) : '',
      value: 'value' in w ? w.value : '',
      unit: 'unit' in w ? w.unit : '',
      target: 'target' in w ? w.target : '',
    });

  const fromCdr = async () => {
    if (patientId === null) return;
    setLoading(true);
    setError(null);
    try {
      const mapping = await crfApi.prefillCdr(formId, {
        patient_id: patientId,
        as_of: dayjs().format('YYYY-MM-DD'),
      });
      setReview({ source: 'cdr', mapping });
    } catch (e) {
      setError(refusalText(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <Upload
        accept=".xml,text/xml,application/xml"
        showUploadList={false}
        beforeUpload={async (file) => {
          setError(null);
          try {
            setReview({ source: 'xml', mapping: mapRecordToAnswers(await file.text(), form) });
          } catch {
            setError(t('records.prefillNotXml'));
          }
          return false;
        }}
      >
        <Button>{t('records.prefill')}</Button>
      </Upload>
      {patientId !== null && (
        <Button onClick={fromCdr} loading={loading} data-testid="crf-prefill-cdr">
          {t('records.prefillCdr')}
        </Button>
      )}
      {error && <Alert type="error" showIcon message={error} closable onClose={() => setError(null)} />}
      <Modal
        open={!!review}
        width={760}
        title={review?.source === 'cdr' ? t('records.prefillCdr') : t('records.prefill')}
        okText={t('records.prefillAccept')}
        okButtonProps={{ disabled: !rows.some((r) => !r.kept) }}
        onCancel={() => setReview(null)}
        onOk={() => {
          onAccept(Object.fromEntries(rows.filter((r) => !r.kept).map((r) => [r.key, r.value])));
          setReview(null);
        }}
      >
        {review && (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="crf-prefill-review">
            <Typography.Text>
              {t('records.prefillFound', { count: rows.filter((r) => !r.kept).length })}
            </Typography.Text>
            {rows.length > 0 && (
              <Table
                size="small"
                pagination={false}
                rowKey="key"
                dataSource={rows}
                columns={[
                  { title: t('records.prefillItem'), key: 'item', render: (_, r) => title(r.key) },
                  {
                    title: t('records.prefillValue'),
                    key: 'value',
                    render: (_, r) => shown(items.get(r.key), r.value),
                  },
                  {
                    title: t('records.prefillFrom'),
                    key: 'from',
                    render: (_, r) =>
                      r.entry ? (
                        <Space direction="vertical" size={0}>
                          <span>
                            {r.entry.value !== undefined && r.entry.value !== shown(items.get(r.key), r.value)
                              ? t('records.prefillSaid', { what: source(r.entry), value: measured(r.entry) })
                              : source(r.entry)}
                          </span>
                          {r.entry.at && (
                            <Typography.Text type="secondary">
                              {dayjs(r.entry.at).format('YYYY-MM-DD HH:mm')}
                            </Typography.Text>
                          )}
                        </Space>
                      ) : null,
                  },
                  {
                    title: '',
                    key: 'kept',
                    render: (_, r) =>
                      r.kept ? (
                        <Tag>{t('records.prefillKept')}</Tag>
                      ) : (
                        <Tag color="blue">{t('records.prefillNew')}</Tag>
                      ),
                  },
                ]}
              />
            )}
            {listed.length > 0 && (
              <List
                size="small"
                header={t('records.prefillUnmatched')}
                dataSource={listed}
                renderItem={(u) => (
                  <List.Item>
                    {t(
                      u.entry.value === undefined
                        ? 'records.prefillNotPlacedBare'
                        : 'records.prefillNotPlaced',
                      {
                        what:
                          review.source === 'cdr'
                            ? source(u.entry)
                            : (u.entry.displayName ?? u.entry.code ?? u.entry.section),
                        value: measured(u.entry),
                        why: why(u.why),
                      },
                    )}
                  </List.Item>
                )}
              />
            )}
            {review.source === 'cdr' && noItem.length > 0 && (
              <Typography.Text type="secondary">
                {t('records.prefillNoItem', { count: noItem.length })}
              </Typography.Text>
            )}
          </Space>
        )}
      </Modal>
    </>
  );
}
