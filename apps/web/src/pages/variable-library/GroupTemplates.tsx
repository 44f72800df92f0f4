import { ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import type { VariableGroupTemplate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionNameField, DefinitionsScreen } from '../../components/DefinitionsScreen';
import { ApplyItemsModal } from './ApplyItemsModal';
import { groupTemplatesApi, variableTemplatesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableGroupTemplate';

type Form = { name: string; description?: string; templateIds: number[] };

/** 变量组模板 (`/variable-library/variable-group-tempalte`): variable templates whose variables make a group. */
export default function GroupTemplates() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const can = useHasAction();
  const [editing, setEditing] = useState<VariableGroupTemplate | 'new' | null>(null);
  const [applying, setApplying] = useState<VariableGroupTemplate | null>(null);
  const list = useQuery({ queryKey: ['variable-group-templates'], queryFn: groupTemplatesApi.list });
  const templates = useQuery({
    queryKey: ['variable-templates'],
    queryFn: variableTemplatesApi.list,
    enabled: !!editing,
  });
  return (
    <DefinitionsScreen<VariableGroupTemplate, Form, Parameters<typeof groupTemplatesApi.add>[0]>
      title={t('groupTemplates.title')}
      testId="group-templates"
      menu={MENU}
      addText={t('groupTemplates.add')}
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
      ]}
      actionsTitle={t('actions')}
      editText={t('edit')}
      rowLinks={(r) =>
        can(MENU, 'add') && (
          <Button type="link" size="small" onClick={() => setApplying(r)}>
            {t('groupTemplates.apply')}
          </Button>
        )
      }
      api={groupTemplatesApi}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('groupTemplates.edit'),
        width: 560,
        valuesOf: (existing) => ({ templateIds: existing.templates.map((x) => x.id) }),
        bodyOf: (v) => ({ templateIds: v.templateIds ?? [] }),
        savedText: t('saved'),
      }}
      fields={
        <>
          <DefinitionNameField label={t('name')} requiredText={t('required')} />
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
        </>
      }
    >
      <ApplyItemsModal
        title={applying ? t('groupTemplates.applyTitle', { name: applying.name }) : ''}
        open={!!applying}
        withGroupName
        onClose={() => {
          setApplying(null);
        }}
        onApply={(items, f) => groupTemplatesApi.apply(applying!.id, { items, groupName: f.groupName ?? '' })}
      />
    </DefinitionsScreen>
  );
}
