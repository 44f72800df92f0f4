import { ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Breadcrumb, Button, Card, Progress, Skeleton, Space, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CutText } from '../../components/CutText';
import { CrfRenderer, type CrfRendererHandle } from '../../components/crf/CrfRenderer';
import { useNarrowTable } from '../../components/table/narrow';
import { proPage } from '../../components/table/paging';
import {
  type LibraryDetail,
  libraryApi,
  type PatientEntry,
  type PatientListRequest,
  type PatientPage,
} from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';
import { nextPatient } from './nextPatient';

interface Cursor {
  request: PatientListRequest;
  page: PatientPage;
  index: number;
}

/** One patient's record form, with the next-patient button. */
function PatientRecord({
  libraryId,
  cursor,
  onMove,
  onBack,
}: {
  libraryId: number;
  cursor: Cursor;
  onMove: (c: Cursor) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation(LIBRARY_NS);
  const { message } = App.useApp();
  const entry = cursor.page.items[cursor.index]!;
  const form = useRef<CrfRendererHandle>(null);
  const q = useQuery({
    queryKey: ['diseaseLibrary', libraryId, 'patient', entry.patient_id],
    queryFn: () => libraryApi.patient(libraryId, entry.patient_id),
  });
  const next = async () => {
    const step = await nextPatient(cursor.request, cursor.page, cursor.index, libraryApi.patients);
    if (step.kind === 'empty') message.info(t('patients.empty'));
    else if (step.kind === 'last') message.info(t('patients.last'));
    else onMove({ request: step.request, page: step.page, index: step.index });
  };
  const save = async () => {
    if (!q.data?.record || !form.current) return;
    try {
      await libraryApi.save(libraryId, entry.patient_id, {
        answers: form.current.snapshot().answers,
        revision: q.data.record.revision,
      });
      message.success(t('patients.saved'));
      await q.refetch();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const d = q.data;
  return (
    <Card
      title={
        <Breadcrumb
          items={[
            {
              title: (
                <Button type="link" size="small" style={{ padding: 0 }} onClick={onBack}>
                  {d?.libraryName ?? t('patients.title')}
                </Button>
              ),
            },
            { title: `${entry.Patient_name}${entry.first_visit ? ` · ${entry.first_visit}` : ''}` },
          ]}
        />
      }
      extra={
        <Space>
          <Button onClick={onBack}>{t('patients.back')}</Button>
          <Button onClick={save} disabled={!d?.record}>
            {t('patients.save')}
          </Button>
          <Button type="primary" onClick={next} data-testid="next-patient">
            {t('patients.next')}
          </Button>
        </Space>
      }
    >
      {d && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <span>
              {t('patients.filing')}: {d.filingDate.slice(0, 10)}
            </span>
            <span>
              {t('patients.reason')}: {d.reason.join('；')}
            </span>
            {Object.entries(d.itemMethods).map(([k, m]) => (
              <Tag key={k} color={m === 'manual' ? 'orange' : 'blue'}>
                {k}: {t(`patients.${m === 'manual' ? 'manual' : 'machine'}`)}
              </Tag>
            ))}
          </Space>
          {d.definition && d.record ? (
            <CrfRenderer
              key={`${entry.patient_id}-${d.record.revision}`}
              ref={form}
              form={d.definition}
              answers={d.record.answers}
              methods={d.record.methods}
            />
          ) : (
            <Alert type="info" message={t('patients.empty')} />
          )}
        </Space>
      )}
    </Card>
  );
}

/** Where a patient of the address stands in the list: the pages are read until it is found. */
async function locate(libraryId: number, patientId: number): Promise<Cursor | null> {
  const size = 100;
  for (let page = 1; page <= 50; page++) {
    const request = { library_id: libraryId, page, size, filters: {} };
    const found = await libraryApi.patients(request);
    const index = found.items.findIndex((e) => e.patient_id === patientId);
    if (index >= 0) return { request, page: found, index };
    if (page * size >= found.total) return null;
  }
  return null;
}

/**
 * The library's patients; opening one shows its record. The open patient is in the address
 * (`&patientId=`), so the next-patient button changes the address and a record can be linked.
 */
function Patients({ lib }: { lib: LibraryDetail }) {
  const { t } = useTranslation(LIBRARY_NS);
  const narrowTable = useNarrowTable();
  const [params, setParams] = useSearchParams();
  const patientId = Number(params.get('patientId') ?? 0) || 0;
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const last = useRef<{ request: PatientListRequest; page: PatientPage } | null>(null);
  const shown = cursor && cursor.page.items[cursor.index]?.patient_id === patientId ? cursor : null;
  // A patient in the address without its place in the list (a link, a reload, the back button).
  const located = useQuery({
    queryKey: ['diseaseLibrary', lib.id, 'locate', patientId],
    queryFn: () => locate(lib.id, patientId),
    enabled: patientId > 0 && !shown,
  });
  const open = (c: Cursor) => {
    setCursor(c);
    setParams({ libraryId: String(lib.id), patientId: String(c.page.items[c.index]!.patient_id) });
  };
  const back = () => setParams({ libraryId: String(lib.id) });
  const current = shown ?? located.data ?? null;
  if (patientId && current)
    return <PatientRecord libraryId={lib.id} cursor={current} onMove={open} onBack={back} />;
  if (patientId && located.isLoading) return <Skeleton active />;
  return (
    <>
      {patientId > 0 && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('patients.notFound')} />
      )}
      <ProTable<PatientEntry>
        rowKey="id"
        headerTitle={t('patients.title')}
        search={false}
        pagination={{ defaultPageSize: 10 }}
        request={async (p) => {
          const request = { library_id: lib.id, ...proPage(p, 10), filters: {} };
          const page = await libraryApi.patients(request);
          last.current = { request, page };
          return { data: page.items, total: page.total, success: true };
        }}
        {...narrowTable}
        columns={[
          {
            title: t('patients.name'),
            dataIndex: 'Patient_name',
            render: (_, r) => <CutText text={r.Patient_name} limit={20} />,
          },
          { title: t('patients.mrn'), dataIndex: 'mrn' },
          {
            title: t('patients.filing'),
            dataIndex: 'Filing_date',
            render: (_, r) => r.Filing_date.slice(0, 10),
          },
          { title: t('patients.firstVisit'), dataIndex: 'first_visit' },
          {
            title: t('patients.reason'),
            dataIndex: 'reason',
            render: (_, r) => <CutText text={r.reason.join('；')} />,
          },
          {
            title: t('patients.completeness'),
            dataIndex: 'completeness',
            render: (_, r) =>
              r.completeness === null ? (
                '-'
              ) : (
                <Progress percent={Math.round(r.completeness * 100)} size="small" />
              ),
          },
          {
            title: '',
            valueType: 'option',
            render: (_, _r, index) => (
              <Button
                type="link"
                size="small"
                onClick={() =>
                  last.current && open({ request: last.current.request, page: last.current.page, index })
                }
              >
                {t('patients.open')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

/** patients-list / ZhuanbingPatientsList: the library (remembered, in the address) and its patients. */
export default function PatientsList() {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <LibraryPage title={t('patients.title')}>{(lib) => <Patients key={lib.id} lib={lib} />}</LibraryPage>
  );
}
