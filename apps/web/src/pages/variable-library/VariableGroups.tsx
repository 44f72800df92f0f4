import { ProFormTextArea } from '@ant-design/pro-components';
import type { VariableGroup } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionNameField, DefinitionsScreen, definitionTexts } from '../../components/DefinitionsScreen';
import { PickManyField } from '../../components/form/PickManyField';
import { useAllVariables, variableLabel } from './all-variables';
import { variableGroupsApi } from './api';
import { VARIABLES_NS } from './i18n';

const MENU = 'VariableGroupList';

type GroupForm = { name: string; description?: string; variableIds?: number[] };

/** 变量组列表 (`/variable-library/variable-group-list`): variables collected, in order, for a study. */
export default function VariableGroups() {
  const { t } = useTranslation(VARIABLES_NS);
  const [editing, setEditing] = useState<VariableGroup | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-groups'], queryFn: variableGroupsApi.list });
  const vars = useAllVariables(!!editing);

  return (
    <DefinitionsScreen<VariableGroup, GroupForm, Parameters<typeof variableGroupsApi.add>[0]>
      {...definitionTexts(t, 'groups')}
      testId="variable-groups"
      menu={MENU}
      list={list}
      columns={[
        { title: t('groups.name'), dataIndex: 'name' },
        { title: t('groups.description'), dataIndex: 'description' },
        {
          title: t('groups.variables'),
          key: 'variables',
          render: (_, g) => (
            <Space size={[0, 4]} wrap>
              {g.variables.map((v) => (
                <Tag key={v.id}>{variableLabel(v)}</Tag>
              ))}
            </Space>
          ),
        },
      ]}
      actionsTitle={t('actions')}
      editText={t('editLink')}
      api={variableGroupsApi}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('groups.edit'),
        width: 600,
        valuesOf: (existing) => ({ variableIds: existing.variables.map((v) => v.id) }),
        bodyOf: (v) => ({ variableIds: v.variableIds ?? [] }),
        savedText: t('saved'),
      }}
      fields={
        <>
          <DefinitionNameField label={t('groups.name')} requiredText={t('required')} />
          <ProFormTextArea name="description" label={t('groups.description')} fieldProps={{ rows: 2 }} />
          <PickManyField
            loading={vars.isLoading}
            error={vars.error}
            name="variableIds"
            label={t('groups.variables')}
            placeholder={t('groups.pick')}
            options={(vars.data?.items ?? []).map((x) => ({ value: x.id, label: variableLabel(x) }))}
          />
        </>
      }
    />
  );
}
