import {
  ModalForm,
  ProFormDependency,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import {
  DATA_MODEL_CORES,
  DATA_MODEL_ROLES,
  DATA_MODEL_STANDARDS,
  DATA_MODEL_VARIABLE_TYPES,
  type DataModel,
  type DataModelKind,
  type DataModelStandard,
  type DataModelSummary,
  type DataModelVariable,
  formatDate,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel, useLabelOptions } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { saveThen } from '../../components/form/server-errors';
import { dataModelsApi, ownModelsApi } from './api';
import { DATA_MODELS_NS } from './i18n';
import { ModelTables } from './ModelTables';

const MENUS: Record<DataModelKind, string> = {
  hospital: 'DataModelMaintenance',
  template: 'DataModelSpecialTemplate',
};

type ModelForm = {
  code: string;
  name: string;
  description?: string;
  from: 'empty' | 'standard' | 'model';
  standard?: DataModelStandard;
  tables?: string[];
  modelId?: number;
  diseaseId?: number;
  libraryId?: number;
  subjectId?: number;
};
type TableForm = { name: string; label: string; tableClass?: string; structure?: string };
type VariableForm = {
  name: string;
  label: string;
  type: 'Char' | 'Num';
  role?: string;
  core?: string;
  codelist?: string;
  codingKind?: DataModelVariable['codingKind'];
};

/** What a model is for: its disease, library and research subject, as tags. */
export function LinkTags({ m }: { m: DataModelSummary }) {
  return (
    <Space size={[0, 4]} wrap>
      {m.diseaseName && <Tag>{m.diseaseName}</Tag>}
      {m.libraryName && <Tag color="geekblue">{m.libraryName}</Tag>}
      {m.subjectName && <Tag color="purple">{m.subjectName}</Tag>}
    </Space>
  );
}

/** The columns every list of models shows: code, name, version, standard, links, size, last change. */
export function useModelColumns(): ColumnsType<DataModelSummary> {
  const { t } = useTranslation(DATA_MODELS_NS);
  return [
    { title: t('own.code'), dataIndex: 'code' },
    { title: t('own.name'), dataIndex: 'name' },
    {
      title: t('own.version'),
      dataIndex: 'version',
      render: (v: number, m) => (
        <Space size={4}>
          v{v}
          {m.latest && <Tag color="green">{t('own.latest')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('own.standard'),
      key: 'standard',
      render: (_, m) => (m.standard ? `${m.standard} ${m.standardVersion}` : t('own.own')),
    },
    { title: t('own.links'), key: 'links', render: (_, m) => <LinkTags m={m} /> },
    { title: t('own.tables'), dataIndex: 'tables' },
    { title: t('own.variables'), dataIndex: 'variables' },
    { title: t('own.updatedAt'), dataIndex: 'updatedAt', render: (v: string) => formatDate(v) },
  ];
}

/** One model: its tables and variables; the latest version is edited here. */
function ModelDrawer({
  kind,
  id,
  onClose,
  onChanged,
}: {
  kind: DataModelKind;
  id: number | null;
  onClose: () => void;
  onChanged: () => unknown;
}) {
  const { t } = useTranslation(DATA_MODELS_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const api = ownModelsApi(kind);
  const q = useQuery({
    queryKey: ['data-model', kind, id],
    queryFn: () => api.get(id!),
    enabled: id !== null,
  });
  const [addTable, setAddTable] = useState(false);
  const [variable, setVariable] = useState<{ tableId: number; v: DataModelVariable | null } | null>(null);
  const roles = DATA_MODEL_ROLES.filter(Boolean);
  const cores = DATA_MODEL_CORES.filter(Boolean);
  const word = useLabel();
  const codingKinds = useLabelOptions('codingKind');
  const m = q.data;
  const editable = !!m?.latest && can(MENUS[kind], 'edit');
  const after = async (next: DataModel) => {
    q.refetch();
    await onChanged();
    return next;
  };

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      width="80%"
      title={m ? t('own.detailTitle', { name: m.name, version: m.version }) : ''}
      data-testid="data-model-drawer"
      extra={
        editable && (
          <Button onClick={() => setAddTable(true)} data-testid="add-table">
            {t('vars.addTable')}
          </Button>
        )
      }
    >
      {q.isError && <Alert type="error" showIcon message={q.error.message} />}
      {m && !m.latest && (
        <Alert type="info" showIcon message={t('own.readOnly')} style={{ marginBottom: 12 }} />
      )}
      {m && (
        <ModelTables
          tables={m.tableList}
          tableExtra={(tab) =>
            editable && (
              <Space style={{ marginBottom: 8 }}>
                <Button size="small" type="primary" onClick={() => setVariable({ tableId: tab.id, v: null })}>
                  {t('vars.addVariable')}
                </Button>
                <DeleteLink name={tab.name} onDelete={() => api.removeTable(m.id, tab.id).then(after)} />
              </Space>
            )
          }
          actions={
            editable
              ? (tab, v) => (
                  <Space size={0}>
                    <Button type="link" size="small" onClick={() => setVariable({ tableId: tab.id, v })}>
                      {t('edit')}
                    </Button>
                    <DeleteLink name={v.name} onDelete={() => api.removeVariable(m.id, v.id).then(after)} />
                  </Space>
                )
              : undefined
          }
        />
      )}
      <ModalForm<TableForm>
        title={t('vars.addTable')}
        open={addTable}
        width={520}
        modalProps={{ destroyOnHidden: true, onCancel: () => setAddTable(false) }}
        onFinish={async (v) =>
          saveThen(
            message,
            () =>
              api.addTable(m!.id, {
                name: v.name,
                label: v.label,
                tableClass: v.tableClass ?? '',
                structure: v.structure ?? '',
              }),
            t('saved'),
            async () => {
              setAddTable(false);
              q.refetch();
              await onChanged();
            },
          )
        }
      >
        <ProFormText
          name="name"
          label={t('vars.tableName')}
          extra={t('vars.tableNameRule')}
          rules={[{ required: true, message: t('required') }]}
        />
        <ProFormText
          name="label"
          label={t('vars.tableLabel')}
          rules={[{ required: true, message: t('required') }]}
        />
        <ProFormSelect
          name="tableClass"
          label={t('vars.tableClass')}
          options={['Special-Purpose', 'Events', 'Interventions', 'Findings'].map((c) => ({
            value: c,
            label: word('dataModelClass', c),
          }))}
        />
        <ProFormText name="structure" label={t('vars.structure')} />
      </ModalForm>
      <ModalForm<VariableForm>
        title={variable?.v ? t('vars.editVariable') : t('vars.addVariable')}
        open={!!variable}
        width={560}
        modalProps={{ destroyOnHidden: true, onCancel: () => setVariable(null) }}
        initialValues={
          variable?.v
            ? {
                name: variable.v.name,
                label: variable.v.label,
                type: variable.v.type,
                role: variable.v.role || undefined,
                core: variable.v.core || undefined,
                codelist: variable.v.codelist || undefined,
                codingKind: variable.v.codingKind ?? undefined,
              }
            : { type: 'Char' }
        }
        onFinish={async (f) => {
          const body = {
            name: f.name,
            label: f.label,
            type: f.type,
            role: (f.role ?? '') as (typeof DATA_MODEL_ROLES)[number],
            core: (f.core ?? '') as (typeof DATA_MODEL_CORES)[number],
            codelist: f.codelist ?? '',
            codingKind: f.codingKind ?? null,
          };
          return saveThen(
            message,
            () =>
              variable!.v
                ? api.editVariable(m!.id, variable!.v.id, body)
                : api.addVariable(m!.id, variable!.tableId, body),
            t('saved'),
            async () => {
              setVariable(null);
              q.refetch();
              await onChanged();
            },
          );
        }}
      >
        <ProFormText
          name="name"
          label={t('vars.name')}
          extra={t('vars.varNameRule')}
          rules={[{ required: true, message: t('required') }]}
        />
        <ProFormText
          name="label"
          label={t('vars.label')}
          rules={[{ required: true, message: t('required') }]}
        />
        <ProFormRadio.Group
          name="type"
          label={t('vars.type')}
          options={DATA_MODEL_VARIABLE_TYPES.map((v) => ({ value: v, label: word('dataModelType', v) }))}
        />
        <ProFormSelect
          name="role"
          label={t('vars.role')}
          options={roles.map((r) => ({ value: r, label: word('dataModelRole', r) }))}
        />
        <ProFormSelect
          name="core"
          label={t('vars.core')}
          options={cores.map((c) => ({ value: c, label: word('dataModelCore', c) }))}
        />
        <ProFormText name="codelist" label={t('vars.codelist')} extra={t('vars.codelistHelp')} />
        <ProFormSelect name="codingKind" label={t('vars.coding')} options={codingKinds} />
      </ModalForm>
    </Drawer>
  );
}

/** 模型维护 and 专病模型模板: the app's models of one kind, their versions and their tables. */
export function OwnModels({ kind }: { kind: DataModelKind }) {
  const { t } = useTranslation(DATA_MODELS_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const word = useLabel();
  const menu = MENUS[kind];
  const modelColumns = useModelColumns();
  const api = ownModelsApi(kind);
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const list = useQuery({ queryKey: ['data-models', kind], queryFn: api.list });
  const links = useQuery({ queryKey: ['data-model-links', kind], queryFn: api.links, enabled: adding });
  const all = useQuery({
    queryKey: ['data-models-all'],
    queryFn: () => dataModelsApi.all(),
    enabled: adding,
  });
  const std = useQuery({
    queryKey: ['data-model-standard', 'sdtmig'],
    queryFn: () => dataModelsApi.standard('sdtmig'),
    enabled: adding,
  });
  const named = (rows?: Array<{ id: number; name: string }>) =>
    (rows ?? []).map((r) => ({ value: r.id, label: r.name }));

  return (
    <DefinitionsCard<DataModelSummary>
      title={kind === 'hospital' ? t('own.hospitalTitle') : t('own.templateTitle')}
      testId={`data-models-${kind}`}
      addApiId={`${menu}.add`}
      actions={
        <Button type="primary" onClick={() => setAdding(true)}>
          {kind === 'hospital' ? t('own.add') : t('own.addTemplate')}
        </Button>
      }
      hint={kind === 'hospital' ? t('own.hospitalHint') : t('own.templateHint')}
      list={list}
      empty={kind === 'hospital' ? t('own.empty') : t('own.emptyTemplate')}
      columns={[
        ...modelColumns,
        {
          title: t('actions'),
          key: 'actions',
          render: (_, m) => (
            <Space size={0}>
              <Button
                type="link"
                size="small"
                onClick={() => setOpen(m.id)}
                data-testid={`open-model-${m.code}-${m.version}`}
              >
                {can(menu, 'edit') && m.latest ? t('edit') : t('open')}
              </Button>
              {can(menu, 'add') && m.latest && (
                <Button
                  type="link"
                  size="small"
                  onClick={async () => {
                    const next = await api.newVersion(m.id);
                    message.success(t('own.newVersionDone', { version: next.version }));
                    await list.refetch();
                  }}
                >
                  {t('own.newVersion')}
                </Button>
              )}
              {can(menu, 'delete') && (
                <DeleteLink
                  name={`${m.name} v${m.version}`}
                  onDelete={() => api.remove(m.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <ModalForm<ModelForm>
        title={kind === 'hospital' ? t('own.add') : t('own.addTemplate')}
        open={adding}
        width={640}
        modalProps={{ destroyOnHidden: true, onCancel: () => setAdding(false) }}
        initialValues={{ from: 'standard', standard: 'sdtmig' }}
        onFinish={async (v) => {
          const from =
            v.from === 'standard'
              ? { type: 'standard' as const, key: v.standard ?? ('sdtmig' as const), tables: v.tables ?? [] }
              : v.from === 'model' && v.modelId
                ? { type: 'model' as const, id: v.modelId }
                : { type: 'empty' as const };
          return saveThen(
            message,
            () =>
              api.add({
                code: v.code,
                name: v.name,
                description: v.description ?? '',
                from,
                diseaseId: v.diseaseId ?? null,
                libraryId: v.libraryId ?? null,
                subjectId: v.subjectId ?? null,
              }),
            t('saved'),
            () => {
              setAdding(false);
              return list.refetch();
            },
          );
        }}
      >
        <ProFormText
          name="code"
          label={t('own.code')}
          extra={t('own.codeRule')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
        <ProFormText
          name="name"
          label={t('own.name')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
        <ProFormTextArea name="description" label={t('own.description')} fieldProps={{ rows: 2 }} />
        <ProFormRadio.Group
          name="from"
          label={t('own.from')}
          options={[
            { value: 'standard', label: t('own.fromStandard') },
            { value: 'model', label: t('own.fromModel') },
            { value: 'empty', label: t('own.fromEmpty') },
          ]}
        />
        <ProFormDependency name={['from']}>
          {({ from }) =>
            from === 'standard' ? (
              <>
                <ProFormSelect
                  name="standard"
                  label={t('own.pickStandard')}
                  options={DATA_MODEL_STANDARDS.map((k) => ({
                    value: k,
                    label: word('dataModelStandard', k),
                  }))}
                />
                <ProFormSelect
                  name="tables"
                  label={t('own.pickTables')}
                  mode="multiple"
                  fieldProps={{ loading: std.isLoading }}
                  options={(std.data?.tables ?? []).map((x) => ({
                    value: x.name,
                    label: `${x.name} · ${x.label}`,
                  }))}
                />
              </>
            ) : from === 'model' ? (
              <ProFormSelect
                name="modelId"
                label={t('own.pickModel')}
                showSearch
                rules={[{ required: true, message: t('required') }]}
                fieldProps={{ loading: all.isLoading, optionFilterProp: 'label' }}
                options={(all.data?.items ?? []).map((x) => ({
                  value: x.id,
                  label: `${x.name} v${x.version} · ${word('dataModelKind', x.kind)}`,
                }))}
              />
            ) : null
          }
        </ProFormDependency>
        {links.isError && <Alert type="error" showIcon message={links.error.message} />}
        <ProFormSelect
          name="diseaseId"
          label={t('own.disease')}
          showSearch
          options={named(links.data?.diseases)}
        />
        <ProFormSelect
          name="libraryId"
          label={t('own.library')}
          showSearch
          options={named(links.data?.libraries)}
        />
        <ProFormSelect
          name="subjectId"
          label={t('own.subject')}
          showSearch
          options={named(links.data?.subjects)}
        />
      </ModalForm>
      <ModelDrawer kind={kind} id={open} onClose={() => setOpen(null)} onChanged={() => list.refetch()} />
    </DefinitionsCard>
  );
}
