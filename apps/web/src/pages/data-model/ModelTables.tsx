import type { DataModelTable, DataModelVariable } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Empty, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../app/labels';
import { dataModelsApi } from './api';
import { DATA_MODELS_NS } from './i18n';

/** A CDISC CT codelist and its terms. */
function CodelistDrawer({ code, onClose }: { code: string | null; onClose: () => void }) {
  const { t } = useTranslation(DATA_MODELS_NS);
  const q = useQuery({
    queryKey: ['codelist', code],
    queryFn: () => dataModelsApi.codelist(code!),
    enabled: !!code,
  });
  return (
    <Drawer
      open={!!code}
      onClose={onClose}
      width={640}
      title={q.data ? t('cdisc.codelistTitle', { code: q.data.code, name: q.data.name }) : code}
      data-testid="codelist-drawer"
    >
      {q.isError && <Alert type="error" showIcon message={q.error.message} />}
      {q.data && (
        <>
          <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('cdisc.extensible')}>
              {q.data.extensible ? t('cdisc.yes') : t('cdisc.no')}
            </Descriptions.Item>
            <Descriptions.Item label={t('cdisc.ct')}>{q.data.version}</Descriptions.Item>
          </Descriptions>
          <Table
            rowKey={(r) => `${r.code}:${r.value}`}
            size="small"
            dataSource={q.data.terms}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: t('cdisc.termValue'), dataIndex: 'value' },
              { title: t('cdisc.termCode'), dataIndex: 'code' },
              { title: t('cdisc.termSynonym'), dataIndex: 'synonym' },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}

/**
 * A model's tables as tabs, each a table of its variables (name, label, type, role, core, codelist
 * with its terms, coding kind). `actions` adds a column (edit/delete) and `tableExtra` a toolbar.
 */
export function ModelTables({
  tables,
  actions,
  tableExtra,
  showTarget,
}: {
  tables: DataModelTable[];
  actions?: (table: DataModelTable, v: DataModelVariable) => ReactNode;
  tableExtra?: (table: DataModelTable) => ReactNode;
  showTarget?: boolean;
}) {
  const { t } = useTranslation(DATA_MODELS_NS);
  const word = useLabel();
  const [codelist, setCodelist] = useState<string | null>(null);
  const columns = useMemo(() => {
    const cols: ColumnsType<DataModelVariable> = [
      {
        title: t('vars.name'),
        dataIndex: 'name',
        width: 110,
        render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
      },
      { title: t('vars.label'), dataIndex: 'label' },
      {
        title: t('vars.type'),
        dataIndex: 'type',
        width: 80,
        render: (v: string) => word('dataModelType', v),
      },
      {
        title: t('vars.role'),
        dataIndex: 'role',
        render: (v: string) => (v ? word('dataModelRole', v) : ''),
      },
      {
        title: t('vars.core'),
        dataIndex: 'core',
        width: 110,
        render: (v: string) => (v ? word('dataModelCore', v) : ''),
      },
      {
        title: t('vars.codelist'),
        dataIndex: 'codelist',
        render: (_: string, v) =>
          v.codelist ? (
            <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setCodelist(v.codelist)}>
              {v.codelist} · {v.codelistName}
            </Button>
          ) : null,
      },
      {
        title: t('vars.coding'),
        dataIndex: 'codingKind',
        render: (v: DataModelVariable['codingKind']) =>
          v ? <Tag color="blue">{word('codingKind', v)}</Tag> : null,
      },
    ];
    if (showTarget)
      cols.push({
        title: t('cdisc.sdtmTarget'),
        dataIndex: 'sdtmTarget',
        render: (v: string | null) => v ?? '',
      });
    return cols;
  }, [t, word, showTarget]);

  if (!tables.length) return <Empty description={t('vars.noTables')} />;
  return (
    <>
      <Tabs
        items={tables.map((tab) => ({
          key: tab.name,
          label: `${tab.name} · ${tab.label}`,
          children: (
            <div data-testid={`model-table-${tab.name}`}>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                {[tab.tableClass && word('dataModelClass', tab.tableClass), tab.structure]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography.Paragraph>
              {tableExtra?.(tab)}
              <Table<DataModelVariable>
                rowKey={(v) => `${v.id}:${v.name}`}
                size="small"
                dataSource={tab.variables}
                pagination={false}
                scroll={{ x: 'max-content' }}
                locale={{ emptyText: <Empty description={t('vars.empty')} /> }}
                columns={
                  actions
                    ? [...columns, { title: t('actions'), key: 'actions', render: (_, v) => actions(tab, v) }]
                    : columns
                }
              />
            </div>
          ),
        }))}
      />
      <CodelistDrawer code={codelist} onClose={() => setCodelist(null)} />
    </>
  );
}
