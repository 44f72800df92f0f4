import { type ActionType, ProTable } from '@ant-design/pro-components';
import type { RuleSummary } from '@crdp/core';
import { App, Button, Popconfirm, Space, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { proPage } from '../../components/table/paging';
import { updatedColumn } from '../../components/table-columns';
import { useCan } from '../data-qc/api';
import { rulesApi } from './api';
import { RULES_NS } from './i18n';
import { RuleEditor } from './RuleEditor';
import { RunModal } from './RunModal';

const A = (action: string) => `DataQcClinicalRule.${action}`;

/** 临床规则: the app's clinical rules; the editor (conditions, actions, samples) opens in a drawer. */
export default function RuleList() {
  const { t } = useTranslation(RULES_NS);
  const { message } = App.useApp();
  const can = useCan();
  const table = useRef<ActionType>(null);
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [running, setRunning] = useState<RuleSummary | null>(null);
  const reload = () => table.current?.reload();

  return (
    <>
      <ProTable<RuleSummary, { keyword?: string }>
        rowKey="id"
        actionRef={table}
        headerTitle={t('title')}
        search={false}
        options={{ search: { placeholder: t('search'), name: 'keyword', allowClear: true }, reload: true }}
        request={async (p) => {
          const r = await rulesApi.list({
            ...proPage(p),
            keyword: p.keyword ?? '',
          });
          return { data: r.items, total: r.total, success: true };
        }}
        pagination={{ defaultPageSize: 20 }}
        toolBarRender={() =>
          can(A('add'))
            ? [
                <Button key="create" type="primary" onClick={() => setEditing({ id: null })}>
                  {t('create')}
                </Button>,
              ]
            : []
        }
        columns={[
          { title: t('name'), dataIndex: 'name', width: 180, ellipsis: true },
          { title: t('description'), dataIndex: 'description', ellipsis: true },
          {
            title: t('status'),
            dataIndex: 'status',
            width: 110,
            render: (_, r) => (
              <Tag color={r.status === 'published' ? 'green' : 'default'}>
                {t(r.status)} v{r.version}
              </Tag>
            ),
          },
          { title: t('conditions'), dataIndex: 'conditions', width: 70 },
          {
            title: t('actions'),
            key: 'actions',
            width: 150,
            render: (_, r) => r.actions.map((k) => <Tag key={k}>{t(`editor.${k}`)}</Tag>),
          },
          { title: t('samples'), dataIndex: 'samples', width: 70 },
          updatedColumn<RuleSummary>(t('updated')),
          {
            title: t('operations'),
            valueType: 'option',
            width: 170,
            render: (_, r) => (
              <Space size={0}>
                {can(A('get')) && (
                  <Button type="link" size="small" onClick={() => setEditing({ id: r.id })}>
                    {t('edit')}
                  </Button>
                )}
                {can(A('edit')) && (
                  <Button type="link" size="small" onClick={() => setRunning(r)}>
                    {t('run')}
                  </Button>
                )}
                {can(A('delete')) && (
                  <Popconfirm
                    title={t('deleteConfirm', { name: r.name })}
                    onConfirm={async () => {
                      await rulesApi.remove(r.id);
                      message.success(t('deleted'));
                      reload();
                    }}
                  >
                    <Button type="link" size="small" danger>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <RuleEditor
        open={editing !== null}
        ruleId={editing?.id ?? null}
        onClose={() => setEditing(null)}
        onSaved={reload}
      />
      {running && <RunModal rule={running} onClose={() => setRunning(null)} />}
    </>
  );
}
