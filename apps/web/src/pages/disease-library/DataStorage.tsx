import { ProTable } from '@ant-design/pro-components';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { libraryApi, type StorageRow } from './api';
import { LIBRARY_NS } from './i18n';

/** data-storage: what each library holds (patients, filled values, fill-log rows). */
export default function DataStorage() {
  const { t } = useTranslation(LIBRARY_NS);
  const navigate = useNavigate();
  return (
    <ProTable<StorageRow>
      rowKey="id"
      headerTitle={t('storage.title')}
      search={false}
      pagination={false}
      request={async () => {
        const rows = await libraryApi.storage();
        return { data: rows, total: rows.length, success: true };
      }}
      summary={(rows) => (
        <ProTable.Summary.Row>
          <ProTable.Summary.Cell index={0}>{t('storage.total')}</ProTable.Summary.Cell>
          <ProTable.Summary.Cell index={1}>{rows.reduce((s, r) => s + r.patients, 0)}</ProTable.Summary.Cell>
          <ProTable.Summary.Cell index={2}>{rows.reduce((s, r) => s + r.values, 0)}</ProTable.Summary.Cell>
          <ProTable.Summary.Cell index={3}>{rows.reduce((s, r) => s + r.logs, 0)}</ProTable.Summary.Cell>
          <ProTable.Summary.Cell index={4} />
        </ProTable.Summary.Row>
      )}
      columns={[
        { title: t('list.name'), dataIndex: 'name' },
        { title: t('storage.patients'), dataIndex: 'patients', valueType: 'digit' },
        { title: t('storage.values'), dataIndex: 'values', valueType: 'digit' },
        { title: t('storage.logs'), dataIndex: 'logs', valueType: 'digit' },
        {
          title: '',
          valueType: 'option',
          render: (_, r) => (
            <Button
              size="small"
              type="link"
              onClick={() => navigate(`/zhuanbing-library/zhuanbing-data?libraryId=${r.id}`)}
            >
              {t('storage.open')}
            </Button>
          ),
        },
      ]}
    />
  );
}
