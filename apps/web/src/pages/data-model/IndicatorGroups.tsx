import { ModalForm, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { IndicatorGroup } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { saveThen } from '../../components/form/server-errors';
import { dataModelsApi, indicatorGroupsApi } from './api';
import { DATA_MODELS_NS } from './i18n';

const MENU = 'DataModelIndicatorGroups';

type GroupForm = { name: string; description?: string; modelId?: number; formulaIds?: number[] };

/** 指标组 (`/data-model/indicatorGroups`): computed indicators grouped in order, optionally for a model. */
export default function IndicatorGroups() {
  const { t } = useTranslation(DATA_MODELS_NS);
  const { message } = App.useApp();
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
  const existing = editing && editing !== 'new' ? editing : null;

  return (
    <DefinitionsCard<IndicatorGroup>
      title={t('groups.title')}
      testId="indicator-groups"
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
        {
          title: t('actions'),
          key: 'actions',
          render: (_, g) => (
            <Space size={0}>
              {can(MENU, 'edit') && (
                <Button type="link" size="small" onClick={() => setEditing(g)}>
                  {t('edit')}
                </Button>
              )}
              {can(MENU, 'delete') && (
                <DeleteLink
                  name={g.name}
                  onDelete={() => indicatorGroupsApi.remove(g.id)}
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
                modelId: existing.modelId ?? undefined,
                formulaIds: existing.indicators.map((x) => x.id),
              }
            : {}
        }
        onFinish={async (v) => {
          const body = {
            name: v.name,
            description: v.description ?? '',
            modelId: v.modelId ?? null,
            formulaIds: v.formulaIds ?? [],
          };
          return saveThen(
            message,
            () => (existing ? indicatorGroupsApi.edit(existing.id, body) : indicatorGroupsApi.add(body)),
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
        {(indicators.isError || models.isError) && (
          <Alert type="error" showIcon message={(indicators.error ?? models.error)?.message} />
        )}
        <ProFormSelect
          name="modelId"
          label={t('groups.model')}
          showSearch
          fieldProps={{ loading: models.isLoading, optionFilterProp: 'label' }}
          options={(models.data?.items ?? []).map((m) => ({ value: m.id, label: `${m.name} v${m.version}` }))}
        />
        <ProFormSelect
          name="formulaIds"
          label={t('groups.indicators')}
          placeholder={t('groups.pick')}
          mode="multiple"
          showSearch
          fieldProps={{ loading: indicators.isLoading, optionFilterProp: 'label' }}
          options={(indicators.data?.items ?? []).map((x) => ({
            value: x.id,
            label: x.unit ? `${x.name} (${x.unit})` : x.name,
          }))}
        />
      </ModalForm>
    </DefinitionsCard>
  );
}
