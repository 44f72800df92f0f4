import {
  ProFormDependency,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { VariableAggregate, VariableAnchor, VariableTemplate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLabel, useLabelOptions } from '../../app/labels';
import { DefinitionNameField, definitionTexts } from '../../components/DefinitionsScreen';
import { t0Api } from '../data-lake/reference-api';
import { variableTemplatesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';
import { LabWindowFields } from './LabWindowFields';
import { TemplatesScreen } from './TemplatesScreen';

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
  const word = useLabel();
  const aggregates = useLabelOptions('variableAggregate');
  const [editing, setEditing] = useState<VariableTemplate | 'new' | null>(null);
  const list = useQuery({ queryKey: ['variable-templates'], queryFn: variableTemplatesApi.list });
  const t0 = useQuery({ queryKey: ['t0-events'], queryFn: t0Api.list, enabled: !!editing });

  return (
    <TemplatesScreen<VariableTemplate, Form, Parameters<typeof variableTemplatesApi.add>[0]>
      {...definitionTexts(t, 'templates')}
      testId="variable-templates"
      menu={MENU}
      list={list}
      columns={[
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
      ]}
      applyText={t('apply')}
      applyTitle={(r) => t('templates.applyTitle', { name: r.name })}
      onApply={(r, items) => variableTemplatesApi.apply(r.id, { items })}
      api={variableTemplatesApi}
      editing={editing}
      onEditing={setEditing}
      form={{
        editTitle: t('templates.edit'),
        width: 640,
        valuesOf: (existing) => ({ ...existing.spec, t0EventId: existing.spec.t0EventId ?? undefined }),
        newValues: {
          source: 'lab',
          aggregates: ['first', 'max', 'mean'],
          anchor: 'first_visit',
          withinDays: 30,
        },
        bodyOf: (v) => ({
          spec: {
            source: v.source,
            codePrefix: v.codePrefix,
            aggregates: v.aggregates,
            anchor: v.anchor ?? 'first_visit',
            t0EventId: v.anchor === 't0' ? (v.t0EventId ?? null) : null,
            withinDays: v.withinDays ?? 30,
            unit: v.unit ?? '',
          },
        }),
        savedText: t('saved'),
      }}
      fields={
        <>
          <DefinitionNameField label={t('name')} requiredText={t('required')} />
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
            {({ source, anchor }) => source === 'lab' && <LabWindowFields anchor={anchor} t0={t0} />}
          </ProFormDependency>
          {t0.isError && <Alert type="error" showIcon message={t0.error.message} />}
          <ProFormTextArea name="description" label={t('description')} fieldProps={{ rows: 2 }} />
        </>
      }
    />
  );
}
