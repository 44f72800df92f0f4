import { ProTable } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Result, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CRF_NS } from '../../components/crf/i18n';
import { LinkButton } from '../../components/crf/LinkButton';
import { proPage } from '../../components/table/paging';
import { type LibraryPatient, type PatientListRequest, pocApi, readWalk, writeWalk } from './pocApi';

/** `/data-clean/hepatopathyPoc`: the patients of a disease library whose CRF is filled here. */
export default function PocPatients() {
  const { t } = useTranslation(CRF_NS);
  const navigate = useNavigate();
  const libraries = useQuery({ queryKey: ['poc', 'libraries'], queryFn: pocApi.libraries });
  const withForm = (libraries.data?.items ?? []).filter((l) => l.crfFormId);
  // Back from the record form, the list shows the library and page the walk came from.
  const [walked] = useState(() => readWalk()?.request ?? null);
  const [libraryId, setLibraryId] = useState<number | null>(walked?.library_id ?? null);
  const library = withForm.find((l) => l.id === libraryId) ?? withForm[0];
  const [last, setLast] = useState<{ request: PatientListRequest; items: LibraryPatient[] } | null>(null);

  if (libraries.isSuccess && !library) return <Result status="info" title={t('poc.noForm')} />;
  return (
    <ProTable<LibraryPatient>
      rowKey="id"
      headerTitle={
        <Select
          data-testid="poc-library"
          style={{ width: 360 }}
          value={library?.id}
          options={withForm.map((l) => ({ value: l.id, label: `${l.name}（${l.crfFormName ?? ''}）` }))}
          onChange={setLibraryId}
        />
      }
      params={{ libraryId: library?.id }}
      search={{ labelWidth: 'auto' }}
      pagination={{
        defaultPageSize: walked?.size ?? 10,
        defaultCurrent: walked?.page ?? 1,
      }}
      request={async (p) => {
        if (!library) return { data: [], total: 0, success: true };
        const name = (p.Patient_name as string | undefined) || undefined;
        const request: PatientListRequest = {
          library_id: library.id,
          ...proPage(p, 10),
          ...(name ? { filters: { name } } : {}),
        };
        const r = await pocApi.patients(request);
        setLast({ request, items: r.items });
        return { data: r.items, total: r.total, success: true };
      }}
      columns={[
        { title: t('poc.name'), dataIndex: 'Patient_name' },
        { title: 'MRN', dataIndex: 'mrn', search: false },
        {
          title: t('poc.filingDate'),
          dataIndex: 'Filing_date',
          search: false,
          render: (_, r) => (r.Filing_date ?? '').slice(0, 10),
        },
        {
          title: t('list.actions'),
          valueType: 'option',
          render: (_, r) => (
            <LinkButton
              data-testid={`poc-open-${r.id}`}
              onClick={() => {
                if (!last || !library?.crfFormId) return;
                writeWalk({
                  request: last.request,
                  items: last.items,
                  index: last.items.findIndex((x) => x.id === r.id),
                  crfFormId: library.crfFormId,
                });
                navigate('/data-clean/hepatopathyPocList');
              }}
            >
              {t('list.fill')}
            </LinkButton>
          ),
        },
      ]}
    />
  );
}
