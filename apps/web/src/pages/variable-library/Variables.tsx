import { ProFormDependency, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type {
  VARIABLE_AGGREGATES,
  VARIABLE_ANCHORS,
  Variable,
  VariableCreate,
  VariableDerivationBody,
  VariableType,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { useLabel, useLabelOptions } from '../../app/labels';
import { Authorized, useHasAction } from '../../components/Authorized';
import { DefinitionRowActions } from '../../components/DefinitionsScreen';
import { DefinitionForm } from '../../components/form/DefinitionForm';
import { crfApi } from '../crf/api';
import { t0Api } from '../data-lake/reference-api';
import { variablesApi } from './api';
import { DistributionDrawer } from './DistributionDrawer';
import { VARIABLES_NS } from './i18n';
import { LabWindowFields } from './LabWindowFields';

type FormValues = {
  code: string;
  labelZh: string;
  labelEn?: string;
  type: VariableType;
  unit?: string;
  valueSet?: string;
  description?: string;
  kind: VariableDerivationBody['kind'];
  rule?: string;
  itemCode?: string;
  aggregate?: (typeof VARIABLE_AGGREGATES)[number];
  anchor?: (typeof VARIABLE_ANCHORS)[number];
  t0EventId?: number;
  withinDays?: number;
  name?: string;
  formId?: number;
  item?: string;
};

/** `1=男=Male` lines to a value set, and back. */
const valueSetOf = (text = '') =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [code = '', labelZh = '', labelEn = ''] = l.split('=').map((x) => x.trim());
      return { code, labelZh, labelEn };
    });
const valueSetText = (v: Variable['valueSet']) =>
  v.map((x) => [x.code, x.labelZh, x.labelEn].join('=').replace(/=+$/, '')).join('\n');

function derivationOf(v: FormValues): VariableDerivationBody {
  switch (v.kind) {
    case 'field':
      return { kind: 'field', rule: v.rule ?? '' };
    case 'lab':
      return {
        kind: 'lab',
        itemCode: v.itemCode ?? '',
        aggregate: v.aggregate ?? 'first',
        anchor: v.anchor ?? 'first_visit',
        t0EventId: v.anchor === 't0' ? (v.t0EventId ?? null) : null,
        withinDays: Number(v.withinDays ?? 0),
      };
    case 'cleaned':
      return { kind: 'cleaned', name: v.name ?? '', aggregate: v.aggregate ?? 'last' };
    case 'crf':
      return { kind: 'crf', formId: Number(v.formId), item: v.item ?? '' };
  }
}

const initialOf = (v: Variable | null): Partial<FormValues> =>
  v
    ? {
        code: v.code,
        labelZh: v.labelZh,
        labelEn: v.labelEn,
        type: v.type,
        unit: v.unit,
        valueSet: valueSetText(v.valueSet),
        description: v.description,
        ...v.derivation,
        t0EventId: v.derivation.kind === 'lab' ? (v.derivation.t0EventId ?? undefined) : undefined,
      }
    : { type: 'number', kind: 'lab', aggregate: 'first', anchor: 'first_visit', withinDays: 30 };

/** The derivation's own fields, by kind; T0 events and CRF forms come from their areas. */
function DerivationFields({ kind, anchor }: { kind: FormValues['kind']; anchor?: FormValues['anchor'] }) {
  const { t } = useTranslation(VARIABLES_NS);
  const aggregates = useLabelOptions('variableAggregate');
  const t0 = useQuery({
    queryKey: ['t0-events'],
    queryFn: t0Api.list,
    enabled: kind === 'lab' && anchor === 't0',
  });
  const forms = useQuery({
    queryKey: ['crf-forms', 'variables'],
    queryFn: () => crfApi.forms({ page: 1, size: 200 }),
    enabled: kind === 'crf',
  });
  const required = [{ required: true, whitespace: true, message: t('required') }];
  if (kind === 'field')
    return <ProFormText name="rule" label={t('rule')} rules={required} extra={t('ruleHelp')} />;
  if (kind === 'cleaned')
    return (
      <Space wrap align="start">
        <ProFormText name="name" label={t('cleanedName')} rules={required} placeholder="收缩压" />
        <ProFormSelect name="aggregate" label={t('aggregate')} allowClear={false} options={aggregates} />
      </Space>
    );
  if (kind === 'crf')
    return (
      <Space wrap align="start">
        {forms.isError && <Alert type="error" showIcon message={forms.error.message} />}
        <ProFormSelect
          name="formId"
          label={t('crfForm')}
          rules={[{ required: true, message: t('required') }]}
          showSearch
          fieldProps={{ loading: forms.isLoading, style: { minWidth: 200 } }}
          options={(forms.data?.items ?? []).map((f) => ({ value: f.id, label: f.name }))}
        />
        <ProFormText name="item" label={t('crfItem')} rules={required} />
      </Space>
    );
  return (
    <>
      <Space wrap align="start">
        <ProFormText name="itemCode" label={t('itemCode')} rules={required} placeholder="ALT" />
        <ProFormSelect
          name="aggregate"
          label={t('aggregate')}
          allowClear={false}
          options={aggregates}
          fieldProps={{ style: { width: 120 } }}
        />
      </Space>
      <LabWindowFields anchor={anchor} t0={t0} />
      {t0.isError && <Alert type="error" showIcon message={t0.error.message} />}
    </>
  );
}

/**
 * The variable library's list (`manage` false: 变量列表, read and see distributions) and its
 * management screen (`manage` true: 变量管理, also add, edit and delete).
 */
export function Variables({ manage }: { manage: boolean }) {
  const { t } = useTranslation(VARIABLES_NS);
  const word = useLabel();
  const can = useHasAction();
  const typeOptions = useLabelOptions('variableType');
  const kindOptions = useLabelOptions('variableDerivation');
  const menu = manage ? 'VariableManagement' : 'VariableList';
  const [q, setQ] = useState('');
  const [type, setType] = useState<VariableType | undefined>();
  const [editing, setEditing] = useState<Variable | 'new' | null>(null);
  const [viewing, setViewing] = useState<Variable | null>(null);
  const list = useQuery({ queryKey: ['variables', q, type], queryFn: () => variablesApi.list({ q, type }) });
  const en = currentLocale() === 'en-US';

  return (
    <Card
      title={manage ? t('manageTitle') : t('listTitle')}
      data-testid="variables"
      extra={
        manage && (
          <Authorized apiId={`${menu}.add`}>
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </Authorized>
        )
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('hint')}</Typography.Text>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('search')}
            onSearch={(v) => setQ(v.trim())}
            style={{ width: 260 }}
            aria-label={t('search')}
          />
          <Select
            allowClear
            placeholder={t('allTypes')}
            value={type}
            onChange={setType}
            options={typeOptions}
            style={{ width: 140 }}
            aria-label={t('type')}
          />
        </Space>
        {list.isError ? (
          <Alert type="error" showIcon message={list.error.message} data-testid="variables-error" />
        ) : (
          <Table<Variable>
            rowKey="id"
            size="middle"
            loading={list.isLoading}
            dataSource={list.data?.items ?? []}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('empty') }}
            columns={[
              {
                title: t('code'),
                dataIndex: 'code',
                render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
              },
              {
                title: t('label'),
                key: 'label',
                render: (_, v) => (en ? v.labelEn || v.labelZh : v.labelZh),
              },
              {
                title: t('type'),
                dataIndex: 'type',
                render: (v: string) => <Tag>{word('variableType', v)}</Tag>,
              },
              { title: t('unit'), dataIndex: 'unit' },
              {
                title: t('derivation'),
                key: 'derivation',
                render: (_, v) => (
                  <Space direction="vertical" size={0}>
                    <span>{word('variableDerivation', v.derivation.kind)}</span>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {v.ruleText ||
                        (v.derivation.kind === 'crf' ? `#${v.derivation.formId} · ${v.derivation.item}` : '')}
                    </Typography.Text>
                  </Space>
                ),
              },
              {
                title: t('actions'),
                key: 'actions',
                render: (_, v) => {
                  const distribution = can(menu, 'get') && (
                    <Button type="link" size="small" onClick={() => setViewing(v)}>
                      {t('distribution')}
                    </Button>
                  );
                  return manage ? (
                    <DefinitionRowActions
                      menu={menu}
                      editText={t('editLink')}
                      onEdit={() => setEditing(v)}
                      name={v.code}
                      onDelete={() => variablesApi.remove(v.id)}
                      onDeleted={() => list.refetch()}
                      before={distribution}
                      wrap
                    />
                  ) : (
                    <Space size={0} wrap>
                      {distribution}
                    </Space>
                  );
                },
              },
            ]}
          />
        )}
      </Space>
      <DefinitionForm<Variable, FormValues, VariableCreate>
        editing={editing}
        onClose={() => setEditing(null)}
        title={{ add: t('add'), edit: t('edit') }}
        width={640}
        initialValues={initialOf}
        toBody={(v) => ({
          code: v.code,
          labelZh: v.labelZh,
          labelEn: v.labelEn ?? '',
          type: v.type,
          unit: v.unit ?? '',
          valueSet: v.type === 'category' ? valueSetOf(v.valueSet) : [],
          description: v.description ?? '',
          derivation: derivationOf(v),
        })}
        add={variablesApi.add}
        edit={variablesApi.edit}
        savedText={t('saved')}
        onSaved={() => list.refetch()}
      >
        <Space wrap align="start">
          <ProFormText
            name="code"
            label={t('code')}
            rules={[
              { required: true, whitespace: true, message: t('required') },
              { pattern: /^[A-Za-z][A-Za-z0-9_]*$/, message: t('codeRule') },
            ]}
          />
          <ProFormSelect
            name="type"
            label={t('type')}
            allowClear={false}
            options={typeOptions}
            fieldProps={{ style: { width: 120 } }}
          />
          <ProFormText name="unit" label={t('unit')} fieldProps={{ style: { width: 100 } }} />
        </Space>
        <Space wrap align="start">
          <ProFormText
            name="labelZh"
            label={t('labelZh')}
            rules={[{ required: true, whitespace: true, message: t('required') }]}
          />
          <ProFormText name="labelEn" label={t('labelEn')} />
        </Space>
        <ProFormDependency name={['type']}>
          {({ type: ty }) =>
            ty === 'category' && (
              <ProFormTextArea
                name="valueSet"
                label={t('valueSet')}
                extra={t('valueSetHelp')}
                fieldProps={{ rows: 3 }}
              />
            )
          }
        </ProFormDependency>
        <ProFormSelect name="kind" label={t('derivation')} allowClear={false} options={kindOptions} />
        <ProFormDependency name={['kind', 'anchor']}>
          {({ kind, anchor }) => <DerivationFields kind={kind} anchor={anchor} />}
        </ProFormDependency>
        <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
      </DefinitionForm>
      <DistributionDrawer variable={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
