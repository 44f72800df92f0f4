import { ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import type { IndicatorGroup } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionNameField, DefinitionsScreen, definitionTexts } from '../../components/DefinitionsScreen';
import { PickManyField } from '../../components/form/PickManyField';
import { dataModelsApi, indicatorGroupsApi } from './api';
import { DATA_MODELS_NS } from './i18n';

const MENU = 'DataModelIndicatorGroups';

type GroupForm = { name: string; description?: string; modelId?: number; formulaIds?: number[] };

/** 指标组 (`/data-model/indicatorGroups`): computed indicators grouped in order, optionally for a model. */
export default function IndicatorGroups() {
  const { t } = useTranslation(DATA_MODELS_NS);
  const can = useHasAction();
  const [editing, setEditing] = useState<IndicatorGroup | 'new' | null>(null);
  const list = useQuery({ queryKey: ['indicator-groups'], queryFn: indicatorGroupsApi.list });
  const indicators = useQuery({
    queryKey: ['indicator-groups', 'indicators'],
    queryFn: indicatorGroupsApi.indicators,
    enabled: !!editing,
  });
  const models = useQuery({
    queryKey: ['data-models-all'],
    queryFn: () => dataModelsApi.all(),
    enabled: !!editing && can('DataModelManagements', 'query'),
  });

  return (
    <DefinitionsScreen<IndicatorGroup, GroupForm, Parameters<typeof indicatorGroupsApi.add>[0]>
      {...definitionTexts(t, 'groups')}
      testId="indicator-groups"
      menu={MENU}
      list={list}
      columns={[
        { title: t('groups.name'), dataIndex: 'name' },
        { title: t('groups.description'), dataIndex: 'description' },
        { title: t('groups.model'), dataIndex: 'modelName' },
        {
          title: t('groups.indicators'),
          key: 'indicators',
          render: (_, g) => (
            <Space size={[0, 4]} wrap>
              {g.indicators.map((x) => (
                <Tag key={x.id}>{x.unit ? `${x.name} (${x.unit})` : x.name}</Tag>
              ))}
            </Space>
          ),
        },
      ]}
      actionsTitle={t('actions')}
      editText={t('edit')}
      api={indicatorGroupsApi}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('groups.edit'),
        width: 600,
        valuesOf: (existing) => ({
          modelId: existing.modelId ?? undefined,
          formulaIds: existing.indicators.map((x) => x.id),
        }),
        bodyOf: (v) => ({ modelId: v.modelId ?? null, formulaIds: v.formulaIds ?? [] }),
        savedText: t('saved'),
      }}
      fields={
        <>
          <DefinitionNameField label={t('groups.name')} requiredText={t('required')} />
          <ProFormTextArea name="description" label={t('groups.description')} fieldProps={{ rows: 2 }} />
          {(indicators.isError || models.isError) && (
            <Alert type="error" showIcon message={(indicators.error ?? models.error)?.message} />
          )}
          <ProFormSelect
            name="modelId"
            label={t('groups.model')}
            showSearch
            fieldProps={{ loading: models.isLoading, optionFilterProp: 'label' }}
            options={(models.data?.items ?? []).map((m) => ({
              value: m.id,
              label: `${m.name} v${m.version}`,
            }))}
          />
          <PickManyField
            loading={indicators.isLoading}
            name="formulaIds"
            label={t('groups.indicators')}
            placeholder={t('groups.pick')}
            options={(indicators.data?.items ?? []).map((x) => ({
              value: x.id,
              label: x.unit ? `${x.name} (${x.unit})` : x.name,
            }))}
          />
        </>
      }
    />
  );
}
