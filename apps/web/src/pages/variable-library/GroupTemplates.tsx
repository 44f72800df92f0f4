import { ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import type { VariableGroupTemplate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionNameField, definitionTexts } from '../../components/DefinitionsScreen';
import { groupTemplatesApi, variableTemplatesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';
import { TemplatesScreen } from './TemplatesScreen';

const MENU = 'VariableGroupTemplate';

type Form = { name: string; description?: string; templateIds: number[] };

/** 变量组模板 (`/variable-library/variable-group-tempalte`): variable templates whose variables make a group. */
export default function GroupTemplates() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const [editing, setEditing] = useState<VariableGroupTemplate | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-group-templates'], queryFn: groupTemplatesApi.list });
  const templates = useQuery({
    queryKey: ['variable-templates'],
    queryFn: variableTemplatesApi.list,
    enabled: !!editing,
  });
  return (
    <TemplatesScreen<VariableGroupTemplate, Form, Parameters<typeof groupTemplatesApi.add>[0]>
      {...definitionTexts(t, 'groupTemplates')}
      testId="group-templates"
      menu={MENU}
      list={list}
      columns={[
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
      ]}
      applyText={t('groupTemplates.apply')}
      applyTitle={(r) => t('groupTemplates.applyTitle', { name: r.name })}
      withGroupName
      onApply={(r, items, f) => groupTemplatesApi.apply(r.id, { items, groupName: f.groupName ?? '' })}
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
    />
  );
}
