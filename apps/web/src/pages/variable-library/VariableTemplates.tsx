import {
  ModalForm,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { VariableAggregate, VariableAnchor, VariableTemplate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel, useLabelOptions } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { saveThen } from '../../components/form/server-errors';
import { t0Api } from '../data-lake/reference-api';
import { ApplyItemsModal } from './ApplyItemsModal';
import { variableTemplatesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableTemplate';

type Form = {
  name: string;
  description?: string;
  source: 'lab' | 'cleaned';
  codePrefix: string;
  aggregates: VariableAggregate[];
  anchor?: VariableAnchor;
  t0EventId?: number;
  withinDays?: number;
  unit?: string;
};

/** 变量模板 (`/variable-library/variable-tempalte`): many similar variables from one pattern. */
export default function VariableTemplates() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const word = useLabel();
  const aggregates = useLabelOptions('variableAggregate');
  const anchors = useLabelOptions('variableAnchor');
  const [editing, setEditing] = useState<VariableTemplate | 'new' | null>(null);
  const [applying, setApplying] = useState<VariableTemplate | null>(null);
  const list = useQuery({ queryKey: ['variable-templates'], queryFn: variableTemplatesApi.list });
  const t0 = useQuery({ queryKey: ['t0-events'], queryFn: t0Api.list, enabled: !!editing });
  const existing = editing && editing !== 'new' ? editing : null;

  return (
    <DefinitionsCard<VariableTemplate>
      title={t('templates.title')}
      testId="variable-templates"
      addApiId={`${MENU}.add`}
      actions={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('templates.add')}
        </Button>
      }
      hint={t('templates.hint')}
      list={list}
      empty={t('templates.empty')}
      columns={[
        { title: t('name'), dataIndex: 'name' },
        {
          title: t('templates.summary'),
          key: 'spec',
          render: (_, r) => (
            <Space size={[0, 4]} wrap>
              <Tag>{r.spec.source === 'lab' ? t('templates.sourceLab') : t('templates.sourceCleaned')}</Tag>
              <Tag color="geekblue">{r.spec.codePrefix}_*</Tag>
              {r.spec.aggregates.map((a) => (
                <Tag key={a}>{word('variableAggregate', a)}</Tag>
              ))}
              {r.spec.source === 'lab' && (
                <span>
                  {t('templates.window', {
                    anchor: word('variableAnchor', r.spec.anchor),
                    days: r.spec.withinDays,
                  })}
                </span>
              )}
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
                  {t('apply')}
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
                  onDelete={() => variableTemplatesApi.remove(r.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <ModalForm<Form>
        title={existing ? t('templates.edit') : t('templates.add')}
        open={!!editing}
        width={640}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          existing
            ? {
                name: existing.name,
                description: existing.description,
                ...existing.spec,
                t0EventId: existing.spec.t0EventId ?? undefined,
              }
            : { source: 'lab', aggregates: ['first', 'max', 'mean'], anchor: 'first_visit', withinDays: 30 }
        }
        onFinish={async (v) => {
          const body = {
            name: v.name,
            description: v.description ?? '',
            spec: {
              source: v.source,
              codePrefix: v.codePrefix,
              aggregates: v.aggregates,
              anchor: v.anchor ?? 'first_visit',
              t0EventId: v.anchor === 't0' ? (v.t0EventId ?? null) : null,
              withinDays: v.withinDays ?? 30,
              unit: v.unit ?? '',
            },
          };
          return saveThen(
            message,
            () => (existing ? variableTemplatesApi.edit(existing.id, body) : variableTemplatesApi.add(body)),
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
        <ProFormRadio.Group
          name="source"
          label={t('templates.source')}
          options={[
            { value: 'lab', label: t('templates.sourceLab') },
            { value: 'cleaned', label: t('templates.sourceCleaned') },
          ]}
        />
        <Space wrap align="start">
          <ProFormText
            name="codePrefix"
            label={t('templates.codePrefix')}
            placeholder="liver"
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          />
          <ProFormText name="unit" label={t('templates.unit')} placeholder="U/L" />
        </Space>
        <ProFormSelect
          name="aggregates"
          label={t('templates.aggregates')}
          mode="multiple"
          options={aggregates}
          rules={[{ required: true, message: t('required') }]}
        />
        <ProFormDependency name={['source', 'anchor']}>
          {({ source, anchor }) =>
            source === 'lab' && (
              <Space wrap align="start">
                <ProFormSelect
                  name="anchor"
                  label={t('templates.anchor')}
                  allowClear={false}
                  options={anchors}
                  fieldProps={{ style: { width: 160 } }}
                />
                {anchor === 't0' && (
                  <ProFormSelect
                    name="t0EventId"
                    label={t('templates.t0Event')}
                    rules={[{ required: true, message: t('required') }]}
                    fieldProps={{ loading: t0.isLoading, style: { minWidth: 180 } }}
                    options={(t0.data?.items ?? []).map((e) => ({ value: e.id, label: e.name }))}
                  />
                )}
                <ProFormDigit
                  name="withinDays"
                  label={t('templates.withinDays')}
                  min={0}
                  max={36500}
                  fieldProps={{ precision: 0 }}
                  rules={[{ required: true, message: t('required') }]}
                />
              </Space>
            )
          }
        </ProFormDependency>
        {t0.isError && <Alert type="error" showIcon message={t0.error.message} />}
        <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
      </ModalForm>
      <ApplyItemsModal
        title={applying ? t('templates.applyTitle', { name: applying.name }) : ''}
        open={!!applying}
        onClose={() => setApplying(null)}
        onApply={(items) => variableTemplatesApi.apply(applying!.id, { items })}
      />
    </DefinitionsCard>
  );
}
