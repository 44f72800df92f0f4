import {
  ProFormDependency,
  ProFormDigit,
  ProFormList,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { TransferTransform, VariableTransferRule } from '@crdp/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLabel, useLabelOptions } from '../../app/labels';
import { useHasAction } from '../../components/Authorized';
import { DefinitionNameField, DefinitionsScreen, definitionTexts } from '../../components/DefinitionsScreen';
import { transfersApi, variablesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';

const MENU = 'VariableTransferRule';

type MappingForm = {
  sourceVariableId: number;
  targetCode: string;
  transform: TransferTransform;
  factor?: number;
  offset?: number;
  valueMap?: string;
};
/** A new mapping row; its source and target are required fields the person fills in. */
const NEW_MAPPING = { transform: 'copy', factor: 1, offset: 0 } as MappingForm;

type Form = { name: string; description?: string; targetModel?: string; mappings: MappingForm[] };

const mapText = (m: Array<{ from: string; to: string }>) => m.map((x) => `${x.from}=${x.to}`).join('\n');
const parseMap = (text = '') =>
  text
    .split(/\r?\n/)
    .filter((l) => l.includes('='))
    .map((l) => {
      const i = l.indexOf('=');
      return { from: l.slice(0, i).trim(), to: l.slice(i + 1).trim() };
    });

/** 转换规则 (`/variable-library/transfer-rule`): variables mapped to another model's codes. */
export default function TransferRules() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const word = useLabel();
  const transforms = useLabelOptions('transferTransform');
  const navigate = useNavigate();
  const [editing, setEditing] = useState<VariableTransferRule | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-transfer-rules'], queryFn: transfersApi.rules });
  const vars = useQuery({
    queryKey: ['variables', 'all'],
    queryFn: () => variablesApi.list({}),
    enabled: !!editing,
  });
  const toggle = useMutation({
    mutationFn: (r: { id: number; enabled: boolean }) => transfersApi.setEnabled(r.id, r.enabled),
    onSettled: () => list.refetch(),
  });
  const run = useMutation({
    mutationFn: (id: number) => transfersApi.run(id),
    onSuccess: () => {
      message.success(t('rules.started'));
      navigate('/variable-library/transfer-list');
    },
  });
  const canToggle = can(MENU, 'enable') || can(MENU, 'disable');
  return (
    <DefinitionsScreen<VariableTransferRule, Form, Parameters<typeof transfersApi.addRule>[0]>
      {...definitionTexts(t, 'rules')}
      testId="transfer-rules"
      menu={MENU}
      list={list}
      columns={[
        { title: t('name'), dataIndex: 'name' },
        { title: t('rules.targetModel'), dataIndex: 'targetModel' },
        {
          title: t('rules.mappings'),
          key: 'mappings',
          render: (_, r) => (
            <Space direction="vertical" size={0}>
              {r.mappings.map((m) => (
                <span key={m.targetCode}>
                  <Tag>{m.sourceCode || '—'}</Tag>→ <Tag color="blue">{m.targetCode}</Tag>
                  {word('transferTransform', m.transform)}
                  {m.transform === 'linear' && ` × ${m.factor} + ${m.offset}`}
                </span>
              ))}
            </Space>
          ),
        },
        {
          title: t('rules.enabled'),
          key: 'enabled',
          render: (_, r) => (
            <Switch
              checked={r.enabled}
              disabled={!canToggle}
              loading={toggle.isPending && toggle.variables?.id === r.id}
              onChange={(enabled) => toggle.mutate({ id: r.id, enabled })}
            />
          ),
        },
      ]}
      actionsTitle={t('actions')}
      editText={t('edit')}
      rowLinks={(r) =>
        can('VariableTransferList', 'add') && (
          <Button
            type="link"
            size="small"
            disabled={!r.enabled}
            loading={run.isPending && run.variables === r.id}
            onClick={() => run.mutate(r.id)}
          >
            {t('rules.run')}
          </Button>
        )
      }
      api={{ add: transfersApi.addRule, edit: transfersApi.editRule, remove: transfersApi.removeRule }}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('rules.edit'),
        width: 760,
        valuesOf: (existing) => ({
          targetModel: existing.targetModel,
          mappings: existing.mappings.map((m) => ({ ...m, valueMap: mapText(m.valueMap) })),
        }),
        newValues: { mappings: [NEW_MAPPING] },
        bodyOf: (v) => ({
          targetModel: v.targetModel ?? '',
          mappings: (v.mappings ?? []).map((m) => ({
            sourceVariableId: m.sourceVariableId,
            targetCode: m.targetCode,
            transform: m.transform,
            factor: m.factor ?? 1,
            offset: m.offset ?? 0,
            valueMap: m.transform === 'valueMap' ? parseMap(m.valueMap) : [],
          })),
        }),
        savedText: t('saved'),
      }}
      fields={
        <>
          <Space wrap align="start">
            <DefinitionNameField label={t('name')} requiredText={t('required')} />
            <ProFormText name="targetModel" label={t('rules.targetModel')} placeholder="SDTM LB" />
          </Space>
          <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
          {vars.isError && <Alert type="error" showIcon message={vars.error.message} />}
          <ProFormList
            name="mappings"
            label={t('rules.mappings')}
            creatorButtonProps={{ creatorButtonText: t('rules.addMapping') }}
            creatorRecord={NEW_MAPPING}
          >
            <Space wrap align="start">
              <ProFormSelect
                name="sourceVariableId"
                label={t('rules.source')}
                showSearch
                rules={[{ required: true, message: t('required') }]}
                fieldProps={{ loading: vars.isLoading, optionFilterProp: 'label', style: { width: 220 } }}
                options={(vars.data?.items ?? []).map((x) => ({
                  value: x.id,
                  label: `${x.code} · ${x.labelZh}`,
                }))}
              />
              <ProFormText
                name="targetCode"
                label={t('rules.targetCode')}
                rules={[{ required: true, whitespace: true, message: t('required') }]}
                fieldProps={{ style: { width: 150 } }}
              />
              <ProFormSelect
                name="transform"
                label={t('rules.transform')}
                allowClear={false}
                options={transforms}
                fieldProps={{ style: { width: 170 } }}
              />
              <ProFormDependency name={['transform']}>
                {({ transform }) =>
                  transform === 'linear' ? (
                    <Space align="start">
                      <ProFormDigit
                        name="factor"
                        label={t('rules.factor')}
                        fieldProps={{ step: 0.001, style: { width: 100 } }}
                      />
                      <ProFormDigit
                        name="offset"
                        label={t('rules.offset')}
                        min={-1e9}
                        fieldProps={{ style: { width: 90 } }}
                      />
                    </Space>
                  ) : transform === 'valueMap' ? (
                    <ProFormTextArea
                      name="valueMap"
                      label={t('rules.valueMap')}
                      extra={t('rules.valueMapHelp')}
                      fieldProps={{ rows: 3, style: { width: 200 } }}
                    />
                  ) : null
                }
              </ProFormDependency>
            </Space>
          </ProFormList>
        </>
      }
    />
  );
}
