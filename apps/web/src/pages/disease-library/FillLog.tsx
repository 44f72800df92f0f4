import { ProTable } from '@ant-design/pro-components';
import { useTranslation } from 'react-i18next';
import { proPage } from '../../components/table/paging';
import { type FillLogEntry, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { LibraryPage } from './LibraryPage';

/** fill_log: per patient and item, what the fill did and which source row a value came from. */
export default function FillLog() {
  const { t } = useTranslation(LIBRARY_NS);
  return <LibraryPage title={t('list.log')}>{(lib) => <Log key={lib.id} libraryId={lib.id} />}</LibraryPage>;
}

function Log({ libraryId }: { libraryId: number }) {
  const { t } = useTranslation(LIBRARY_NS);
  return (
    <ProTable<FillLogEntry>
      rowKey="id"
      search={false}
      request={async (p) => {
        const r = await libraryApi.fillLog(libraryId, proPage(p));
        return { data: r.items, total: r.total, success: true };
      }}
      columns={[
        { title: t('log.patient'), dataIndex: 'patientName' },
        { title: t('log.item'), dataIndex: 'itemKey' },
        {
          title: t('log.outcome'),
          dataIndex: 'outcome',
          render: (_, r) => t(`log.outcomes.${r.outcome}`),
        },
        {
          title: t('log.value'),
          dataIndex: 'value',
          render: (_, r) => (r.value === null ? '-' : String(r.value)),
        },
        {
          title: t('log.source'),
          dataIndex: 'source',
          render: (_, r) => {
            const s = r.source;
            return `${s.rule ?? ''}${s.rowId ? ` · ${s.table}#${s.rowId}` : ''}${s.at ? ` · ${s.at.slice(0, 10)}` : ''}`;
          },
        },
        { title: t('log.time'), dataIndex: 'createdAt', valueType: 'dateTime' },
      ]}
    />
  );
}
