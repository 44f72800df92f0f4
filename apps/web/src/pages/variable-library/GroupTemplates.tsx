import { ModalForm, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { VariableGroupTemplate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { saveThen } from '../../components/form/server-errors';
import { ApplyItemsModal } from './ApplyItemsModal';
import { groupTemplatesApi, variableTemplatesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableGroupTemplate';

type Form = { name: string; description?: string; templateIds: number[] };

/** 变量组模板 (`/variable-library/variable-group-tempalte`): variable templates whose variables make a group. */
export default function GroupTemplates() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [editing, setEditing] = useState<VariableGroupTemplate | 'new' | null>(null);
  const [applying, setApplying] = useState<VariableGroupTemplate | null>(null);
  const list = useQuery({ queryKey: ['variable-group-templates'], queryFn: groupTemplatesApi.list });
  const templates = useQuery({
    queryKey: ['variable-templates'],
    queryFn: variableTemplatesApi.list,
    enabled: !!editing,
  });
  const existing = editing && editing !== 'new' ? editing : null;
  return (
    <DefinitionsCard<VariableGroupTemplate>
      title={t('groupTemplates.title')}
      testId="group-templates"
      addApiId={`${MENU}.add`}
      actions={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('groupTemplates.add')}
        </Button>
      }
      hint={t('groupTemplates.hint')}
      list={list}
      empty={t('groupTemplates.empty')}
      columns={[
        { title: t('name'), dataIndex: 'name' },
        {
          title: t('groupTemplates.templates'),
          key: 'templates',
          render: (_, r) => (
            <Space size={[0, 4]} wrap>
              {r.templates.map((x) => (
                <Tag key={x.id}>{x.name}</Tag>
              ))}
            </Space>
          ),
        },
        { title: t('description'), dataIndex: 'description' },
        {
          title: t('actions'),
          key: 'actions',
          render: (_, r) => (
            <Space size={0}>
              {can(MENU, 'add') && (
                <Button type="link" size="small" onClick={() => setApplying(r)}>
                  {t('groupTemplates.apply')}
                </Button>
              )}
              {can(MENU, 'edit') && (
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  {t('edit')}
                </Button>
              )}
              {can(MENU, 'delete') && (
                <DeleteLink
                  name={r.name}
                  onDelete={() => groupTemplatesApi.remove(r.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <ModalForm<Form>
        title={existing ? t('groupTemplates.edit') : t('groupTemplates.add')}
        open={!!editing}
        width={560}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          existing
            ? {
                name: existing.name,
                description: existing.description,
                templateIds: existing.templates.map((x) => x.id),
              }
            : {}
        }
        onFinish={async (v) => {
          const body = { name: v.name, description: v.description ?? '', templateIds: v.templateIds ?? [] };
          return saveThen(
            message,
            () => (existing ? groupTemplatesApi.edit(existing.id, body) : groupTemplatesApi.add(body)),
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
        {templates.isError && <Alert type="error" showIcon message={templates.error.message} />}
        <ProFormSelect
          name="templateIds"
          label={t('groupTemplates.templates')}
          mode="multiple"
          rules={[{ required: true, message: t('required') }]}
          fieldProps={{ loading: templates.isLoading, optionFilterProp: 'label' }}
          options={(templates.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
        />
        <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
      </ModalForm>
      <ApplyItemsModal
        title={applying ? t('groupTemplates.applyTitle', { name: applying.name }) : ''}
        open={!!applying}
        withGroupName
        onClose={() => {
          setApplying(null);
        }}
        onApply={(items, f) => groupTemplatesApi.apply(applying!.id, { items, groupName: f.groupName ?? '' })}
      />
    </DefinitionsCard>
  );
}
