import { ProTable } from '@ant-design/pro-components';
import { useTranslation } from 'react-i18next';
import { CutText } from '../../components/CutText';
import { proPage } from '../../components/table/paging';
import { type LibraryItem, libraryApi, type SearchRow } from './api';
import { LIBRARY_NS } from './i18n';
import { cellText, LibraryPage } from './LibraryPage';

/** The fixed patient columns and one column per CRF item, shared by the data grid and the search. */
export function useGridColumns(items: LibraryItem[]) {
  const { t } = useTranslation(LIBRARY_NS);
  return [
    { title: t('patients.name'), dataIndex: 'name', fixed: 'left' as const, width: 100 },
    { title: t('patients.mrn'), dataIndex: 'mrn', width: 120 },
    { title: t('patients.filing'), dataIndex: 'filingDate', width: 110 },
    ...items.map((it) => ({
      title: it.title,
      key: it.key,
      width: 140,
      render: (_: unknown, r: SearchRow) => <CutText text={cellText(r.values[it.key])} limit={16} />,
    })),
  ];
}

function Grid({ libraryId, items }: { libraryId: number; items: LibraryItem[] }) {
  const columns = useGridColumns(items);
  return (
    <ProTable<SearchRow>
      rowKey="patientId"
      search={false}
      options={{ density: true, reload: true, setting: true }}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 20 }}
      params={{ libraryId }}
      request={async (p) => {
        const r = await libraryApi.data(libraryId, proPage(p));
        return { data: r.items, total: r.total, success: true };
      }}
      columns={columns}
    />
  );
}

/** zhuanbing-data: the library's patients by its indicators, a page at a time. */
export default function LibraryData() {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <LibraryPage title={t('data.title')}>
      {(lib) => <Grid libraryId={lib.id} items={lib.items} />}
    </LibraryPage>
  );
}
