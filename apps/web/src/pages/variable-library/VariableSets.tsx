import { ModalForm, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { VariableSet } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { saveThen } from '../../components/form/server-errors';
import { variableGroupsApi, variableSetsApi, variablesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableSet';

type Form = { name: string; description?: string; variableIds?: number[]; groupIds?: number[] };

/** 变量集 (`/variable-library/variable-set`): the variables a study's dataset is built from. */
export default function VariableSets() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [editing, setEditing] = useState<VariableSet | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-sets'], queryFn: variableSetsApi.list });
  const vars = useQuery({
    queryKey: ['variables', 'all'],
    queryFn: () => variablesApi.list({}),
    enabled: !!editing,
  });
  const groups = useQuery({
    queryKey: ['variable-groups'],
    queryFn: variableGroupsApi.list,
    enabled: !!editing,
  });
  const existing = editing && editing !== 'new' ? editing : null;
  const en = currentLocale() === 'en-US';
  const labelOf = (v: { code: string; labelZh: string; labelEn: string }) =>
    `${v.code} · ${en ? v.labelEn || v.labelZh : v.labelZh}`;
  return (
    <DefinitionsCard<VariableSet>
      title={t('sets.title')}
      testId="variable-sets"
      addApiId={`${MENU}.add`}
      actions={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('sets.add')}
        </Button>
      }
      hint={t('sets.hint')}
      list={list}
      empty={t('sets.empty')}
      columns={[
        {
          title: t('name'),
          dataIndex: 'name',
          render: (_, s) => (
            <Space direction="vertical" size={0}>
              {s.name}
              <Typography.Text type="secondary">{t('sets.count', { n: s.variables.length })}</Typography.Text>
            </Space>
          ),
        },
        {
          title: t('sets.variables'),
          key: 'variables',
          render: (_, s) => (
            <Space size={[0, 4]} wrap style={{ maxWidth: 640 }}>
              {s.variables.map((v) => (
                <Tag key={v.id}>{labelOf(v)}</Tag>
              ))}
            </Space>
          ),
        },
        { title: t('description'), dataIndex: 'description' },
        {
          title: t('actions'),
          key: 'actions',
          render: (_, s) => (
            <Space size={0}>
              {can(MENU, 'edit') && (
                <Button type="link" size="small" onClick={() => setEditing(s)}>
                  {t('edit')}
                </Button>
              )}
              {can(MENU, 'delete') && (
                <DeleteLink
                  name={s.name}
                  onDelete={() => variableSetsApi.remove(s.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <ModalForm<Form>
        title={existing ? t('sets.edit') : t('sets.add')}
        open={!!editing}
        width={640}
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
          const body = {
            name: v.name,
            description: v.description ?? '',
            variableIds: v.variableIds ?? [],
            groupIds: v.groupIds ?? [],
          };
          return saveThen(
            message,
            () => (existing ? variableSetsApi.edit(existing.id, body) : variableSetsApi.add(body)),
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
          label={t('name')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
        <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
        {vars.isError && <Alert type="error" showIcon message={vars.error.message} />}
        {groups.isError && <Alert type="error" showIcon message={groups.error.message} />}
        <ProFormSelect
          name="variableIds"
          label={t('sets.variables')}
          placeholder={t('sets.pickVariables')}
          mode="multiple"
          showSearch
          fieldProps={{ loading: vars.isLoading, optionFilterProp: 'label' }}
          options={(vars.data?.items ?? []).map((x) => ({ value: x.id, label: labelOf(x) }))}
        />
        <ProFormSelect
          name="groupIds"
          label={t('sets.groups')}
          placeholder={t('sets.pickGroups')}
          mode="multiple"
          showSearch
          fieldProps={{ loading: groups.isLoading, optionFilterProp: 'label' }}
          options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
        />
      </ModalForm>
    </DefinitionsCard>
  );
}
