import { FORMULA_DESCRIPTION_MAX, FORMULA_NAME_MAX, type IndicatorTemplate } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsCard } from '../../components/DefinitionsCard';
import { DeleteLink } from '../../components/DeleteLink';
import { DefinitionForm } from '../../components/form/DefinitionForm';
import { NameDescriptionFields } from '../../components/form/NameDescriptionFields';
import { PickManyField } from '../../components/form/PickManyField';
import { formulaApi, indicatorTemplateApi } from './formulas-api';
import { FORMULAS_NS } from './formulas-i18n';

const MENU = 'DataLakeIndicatrixTemplate';

type TemplateForm = { name: string; description?: string; formulaIds?: number[] };

/**
 * 指标模板 (`/data-lake/indicatrixTemplate`): named, ordered groups of formulas that disease
 * libraries reuse; each row shows its formulas in order.
 */
export default function IndicatorTemplates() {
  const { t } = useTranslation(FORMULAS_NS);
  const can = useHasAction();
  const [editing, setEditing] = useState<IndicatorTemplate | 'new' | null>(null);
  const list = useQuery({ queryKey: ['indicator-templates'], queryFn: indicatorTemplateApi.list });
  const formulas = useQuery({ queryKey: ['formulas'], queryFn: formulaApi.list, enabled: !!editing });
  return (
    <DefinitionsCard<IndicatorTemplate>
      title={t('templates.title')}
      testId="indicator-templates"
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
        { title: t('common.name'), dataIndex: 'name' },
        { title: t('common.description'), dataIndex: 'description', render: (v: string) => v || '—' },
        {
          title: t('templates.formulas'),
          key: 'formulas',
          render: (_, r) =>
            r.formulas.length ? (
              <Space size={[0, 4]} wrap>
                {r.formulas.map((f, i) => (
                  <Tag key={f.id}>
                    {i + 1}. {f.name}
                    {f.unit ? ` (${f.unit})` : ''}
                  </Tag>
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('templates.noFormulas')}</Typography.Text>
            ),
        },
        {
          title: t('common.actions'),
          key: 'actions',
          render: (_, r) => (
            <Space size={0}>
              {can(MENU, 'edit') && (
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  {t('common.edit')}
                </Button>
              )}
              {can(MENU, 'delete') && (
                <DeleteLink
                  name={r.name}
                  onDelete={() => indicatorTemplateApi.remove(r.id)}
                  onDeleted={() => list.refetch()}
                />
              )}
            </Space>
          ),
        },
      ]}
    >
      <DefinitionForm<IndicatorTemplate, TemplateForm, Parameters<typeof indicatorTemplateApi.add>[0]>
        editing={editing}
        onClose={() => setEditing(null)}
        title={{ add: t('templates.add'), edit: t('templates.edit') }}
        initialValues={(existing) =>
          existing
            ? {
                name: existing.name,
                description: existing.description,
                formulaIds: existing.formulas.map((f) => f.id),
              }
            : { formulaIds: [] }
        }
        toBody={(v) => ({ name: v.name, description: v.description ?? '', formulaIds: v.formulaIds ?? [] })}
        add={indicatorTemplateApi.add}
        edit={indicatorTemplateApi.edit}
        savedText={t('common.saved')}
        onSaved={() => list.refetch()}
      >
        <NameDescriptionFields
          nameLabel={t('common.name')}
          nameRequired={t('templates.nameRequired')}
          nameMax={FORMULA_NAME_MAX}
          descriptionLabel={t('common.description')}
          descriptionMax={FORMULA_DESCRIPTION_MAX}
        />
        <PickManyField
          loading={formulas.isLoading}
          error={formulas.error}
          name="formulaIds"
          label={t('templates.formulas')}
          placeholder={t('templates.formulasPick')}
          options={(formulas.data?.items ?? []).map((f) => ({ value: f.id, label: f.name }))}
        />
      </DefinitionForm>
    </DefinitionsCard>
  );
}
