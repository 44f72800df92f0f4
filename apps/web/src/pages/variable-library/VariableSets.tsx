import { ProFormTextArea } from '@ant-design/pro-components';
import type { VariableSet } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DefinitionNameField, DefinitionsScreen, definitionTexts } from '../../components/DefinitionsScreen';
import { PickManyField } from '../../components/form/PickManyField';
import { TwoLines } from '../../components/TwoLines';
import { useAllVariables, variableLabel } from './all-variables';
import { variableGroupsApi, variableSetsApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableSet';

type Form = { name: string; description?: string; variableIds?: number[]; groupIds?: number[] };

/** 变量集 (`/variable-library/variable-set`): the variables a study's dataset is built from. */
export default function VariableSets() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const [editing, setEditing] = useState<VariableSet | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-sets'], queryFn: variableSetsApi.list });
  const vars = useAllVariables(!!editing);
  const groups = useQuery({
    queryKey: ['variable-groups'],
    queryFn: variableGroupsApi.list,
    enabled: !!editing,
  });
  return (
    <DefinitionsScreen<VariableSet, Form, Parameters<typeof variableSetsApi.add>[0]>
      {...definitionTexts(t, 'sets')}
      testId="variable-sets"
      menu={MENU}
      list={list}
      columns={[
        {
          title: t('name'),
          dataIndex: 'name',
          render: (_, s) => <TwoLines sub={t('sets.count', { n: s.variables.length })}>{s.name}</TwoLines>,
        },
        {
          title: t('sets.variables'),
          key: 'variables',
          render: (_, s) => (
            <Space size={[0, 4]} wrap style={{ maxWidth: 640 }}>
              {s.variables.map((v) => (
                <Tag key={v.id}>{variableLabel(v)}</Tag>
              ))}
            </Space>
          ),
        },
        { title: t('description'), dataIndex: 'description' },
      ]}
      actionsTitle={t('actions')}
      editText={t('edit')}
      api={variableSetsApi}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('sets.edit'),
        width: 640,
        valuesOf: (existing) => ({ variableIds: existing.variables.map((v) => v.id) }),
        bodyOf: (v) => ({ variableIds: v.variableIds ?? [], groupIds: v.groupIds ?? [] }),
        savedText: t('saved'),
      }}
      fields={
        <>
          <DefinitionNameField label={t('name')} requiredText={t('required')} />
          <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
          <PickManyField
            loading={vars.isLoading}
            error={vars.error}
            name="variableIds"
            label={t('sets.variables')}
            placeholder={t('sets.pickVariables')}
            options={(vars.data?.items ?? []).map((x) => ({ value: x.id, label: variableLabel(x) }))}
          />
          <PickManyField
            loading={groups.isLoading}
            error={groups.error}
            name="groupIds"
            label={t('sets.groups')}
            placeholder={t('sets.pickGroups')}
            options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        </>
      }
    />
  );
}
