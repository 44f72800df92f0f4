import {
  DrawerForm,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
} from '@ant-design/pro-components';
import { QC_PATTERN_MAX } from '@crdp/core';
import { Form, Space } from 'antd';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { type Catalogue, qcApi, type Rule, type RuleInput } from './api';
import { QcEnabledAndDescription, QcNameField, useSaveDrawer } from './forms';
import { QC_NS } from './i18n';

const EMPTY: Partial<RuleInput> = { kind: 'required', severity: 'error', enabled: true };

/** Only the settings of the chosen kind travel to the server. */
function toInput(v: RuleInput): RuleInput {
  const base: RuleInput = {
    name: v.name,
    description: v.description ?? '',
    table: v.table,
    kind: v.kind,
    column: v.column,
    severity: v.severity,
    enabled: v.enabled,
    filterColumn: v.filterColumn || null,
    filterValue: v.filterColumn ? (v.filterValue ?? '') : null,
  };
  if (v.kind === 'range') return { ...base, min: v.min ?? null, max: v.max ?? null };
  if (v.kind === 'pattern') return { ...base, pattern: v.pattern ?? '' };
  if (v.kind === 'allowed') return { ...base, values: v.values ?? [] };
  if (v.kind === 'date_order') return { ...base, otherColumn: v.otherColumn ?? null };
  return base;
}

/**
 * Create or edit a rule. The columns offered follow the table and the kind (a range checks
 * numbers, a date order two date columns...); they are picked from the server's whitelist, never
 * typed. A field the server refuses shows the server's message under it.
 */
export function RuleDrawer({
  catalogue,
  rule,
  trigger,
  onSaved,
}: {
  catalogue: Catalogue;
  rule?: Rule;
  trigger: ReactElement;
  onSaved: () => void;
}) {
  const { t } = useTranslation(QC_NS);
  const [form] = Form.useForm<RuleInput>();
  const saveWith = useSaveDrawer(form, onSaved);
  const tableOf = (key?: string) => catalogue.tables.find((x) => x.key === key);
  const typesOf = (kind?: string) => catalogue.kinds.find((k) => k.key === kind)?.types ?? [];
  const columnOptions = (table?: string, types?: string[]) =>
    (tableOf(table)?.columns ?? [])
      .filter((c) => !types || types.includes(c.type))
      .map((c) => ({ value: c.key, label: c.label }));

  return (
    <DrawerForm<RuleInput>
      form={form}
      title={rule ? t('rules.editTitle') : t('rules.create')}
      trigger={trigger}
      width={560}
      initialValues={rule ?? EMPTY}
      drawerProps={{ destroyOnHidden: true }}
      // The form outlives the drawer: each opening starts from the rule's (or an empty) values.
      onOpenChange={(open) => open && form.resetFields()}
      onValuesChange={(changed) => {
        // A column of the old table or kind would be refused: clear it.
        if ('table' in changed)
          form.setFieldsValue({ column: undefined, otherColumn: undefined, filterColumn: undefined });
        if ('kind' in changed) form.setFieldsValue({ column: undefined, otherColumn: undefined });
      }}
      onFinish={(v) =>
        saveWith(() => (rule ? qcApi.updateRule(rule.id, toInput(v)) : qcApi.createRule(toInput(v))))
      }
    >
      <QcNameField />
      <ProFormSelect
        name="table"
        label={t('rules.table')}
        rules={[{ required: true, message: t('rules.required') }]}
        options={catalogue.tables.map((x) => ({ value: x.key, label: x.label }))}
        fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
      />
      <ProFormRadio.Group
        name="kind"
        label={t('rules.kind')}
        radioType="button"
        options={catalogue.kinds.map((k) => ({ value: k.key, label: k.label }))}
      />
      <ProFormDependency name={['table', 'kind']}>
        {({ table, kind }) => {
          const options = columnOptions(table, typesOf(kind));
          return (
            <>
              <ProFormSelect
                name="column"
                label={t('rules.column')}
                rules={[{ required: true, message: t('rules.required') }]}
                options={options}
                placeholder={!table ? t('rules.pickTable') : options.length ? undefined : t('rules.noColumn')}
                disabled={!table}
              />
              {kind === 'range' && (
                <Space size="large">
                  <ProFormDigit
                    name="min"
                    label={t('rules.min')}
                    fieldProps={{ precision: undefined }}
                    min={-1e15}
                  />
                  <ProFormDigit
                    name="max"
                    label={t('rules.max')}
                    fieldProps={{ precision: undefined }}
                    min={-1e15}
                  />
                </Space>
              )}
              {kind === 'pattern' && (
                <ProFormText
                  name="pattern"
                  label={t('rules.pattern')}
                  extra={t('rules.patternHint')}
                  fieldProps={{ maxLength: QC_PATTERN_MAX, style: { fontFamily: 'monospace' } }}
                  rules={[{ required: true, message: t('rules.required') }]}
                />
              )}
              {kind === 'allowed' && (
                <ProFormSelect
                  name="values"
                  label={t('rules.values')}
                  extra={t('rules.valuesHint')}
                  mode="tags"
                  fieldProps={{ open: false, tokenSeparators: [','] }}
                  rules={[{ required: true, message: t('rules.required') }]}
                />
              )}
              {kind === 'date_order' && (
                <ProFormDependency name={['column']}>
                  {({ column }) => (
                    <ProFormSelect
                      name="otherColumn"
                      label={t('rules.otherColumn')}
                      rules={[{ required: true, message: t('rules.required') }]}
                      options={columnOptions(table, ['date', 'datetime']).filter((o) => o.value !== column)}
                      disabled={!table}
                    />
                  )}
                </ProFormDependency>
              )}
              <Space size="middle" align="start">
                <ProFormSelect
                  name="filterColumn"
                  label={t('rules.filter')}
                  tooltip={t('rules.filterHint')}
                  placeholder={t('rules.filterColumn')}
                  options={columnOptions(table, ['text'])}
                  allowClear
                  disabled={!table}
                  width={200}
                />
                <ProFormDependency name={['filterColumn']}>
                  {({ filterColumn }) => (
                    <ProFormText
                      name="filterValue"
                      label={t('rules.filterValue')}
                      disabled={!filterColumn}
                      width={200}
                      rules={filterColumn ? [{ required: true, message: t('rules.required') }] : []}
                    />
                  )}
                </ProFormDependency>
              </Space>
            </>
          );
        }}
      </ProFormDependency>
      <ProFormRadio.Group
        name="severity"
        label={t('severity.label')}
        options={[
          { value: 'error', label: t('severity.error') },
          { value: 'warning', label: t('severity.warning') },
        ]}
      />
      <QcEnabledAndDescription />
    </DrawerForm>
  );
}
