import { ModalForm, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { VariableGroup } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { saveThen } from '../../components/form/server-errors';
import { variableGroupsApi, variablesApi } from './api';
import { VARIABLES_NS } from './i18n';

const MENU = 'VariableGroupList';

type GroupForm = { name: string; description?: string; variableIds?: number[] };

/** 变量组列表 (`/variable-library/variable-group-list`): variables collected, in order, for a study. */
export default function VariableGroups() {
  const { t } = useTranslation(VARIABLES_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [editing, setEditing] = useState<VariableGroup | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-groups'], queryFn: variableGroupsApi.list });
  const vars = useQuery({
    queryKey: ['variables', 'all'],
    queryFn: () => variablesApi.list({}),
    enabled: !!editing,
  });
  const existing = editing && editing !== 'new' ? editing : null;
  const en = currentLocale() === 'en-US';
  const labelOf = (v: { code: string; labelZh: string; labelEn: string }) =>
    `${v.code} · ${en ? v.labelEn || v.labelZh : v.labelZh}`;

  return (
    <DefinitionsCard<VariableGroup>
      title={t('groups.title')}
      testId="variable-groups"
      addApiId={`${MENU}.add`}
      actions={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('groups.add')}
        </Button>
      }
      hint={t('groups.hint')}
      list={list}
      empty={t('groups.empty')}
      columns={[
        { title: t('groups.name'), dataIndex: 'name' },
        { title: t('groups.description'), dataIndex: 'description' },
        {
          title: t('groups.variables'),
          key: 'variables',
          render: (_, g) => (
            <Space size={[0, 4]} wrap>
              {g.variables.map((v) => (
                <Tag key={v.id}>{labelOf(v)}</Tag>
              ))}
            </Space>
          ),
        },
        {
          title: t('actions'),
          key: 'actions',
          render: (_, g) => (
            <Space size={0}>
              {can(MENU, 'edit') && (
                <Button type="link" size="small" onClick={() => setEditing(g)}>
                  {t('editLink')}
                </Button>
              )}
              {can(MENU, 'delete') && (
                <DeleteLink
                  name={g.name}
                  onDelete={() => variableGroupsApi.remove(g.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <ModalForm<GroupForm>
        title={existing ? t('groups.edit') : t('groups.add')}
        open={!!editing}
        width={600}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          existing
            ? {
                name: existing.name,
                description: existing.description,
                variableIds: existing.variables.map((v) => v.id),
              }
            : {}
        }
        onFinish={async (v) => {
          const body = { name: v.name, description: v.description ?? '', variableIds: v.variableIds ?? [] };
          return saveThen(
            message,
            () => (existing ? variableGroupsApi.edit(existing.id, body) : variableGroupsApi.add(body)),
            t('saved'),
            () => {
              setEditing(null);
              return list.refetch();
            },
          );
        }}
      >
        <ProFormText
          name="name"
          label={t('groups.name')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
        <ProFormTextArea name="description" label={t('groups.description')} fieldProps={{ rows: 2 }} />
        {vars.isError && <Alert type="error" showIcon message={vars.error.message} />}
        <ProFormSelect
          name="variableIds"
          label={t('groups.variables')}
          placeholder={t('groups.pick')}
          mode="multiple"
          showSearch
          fieldProps={{ loading: vars.isLoading, optionFilterProp: 'label' }}
          options={(vars.data?.items ?? []).map((x) => ({ value: x.id, label: labelOf(x) }))}
        />
      </ModalForm>
    </DefinitionsCard>
  );
}
