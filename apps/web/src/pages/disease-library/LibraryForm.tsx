import {
  ProForm,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import {
  LIBRARY_DESCRIPTION_MAX,
  LIBRARY_NAME_MAX,
  LIBRARY_PUSH_EVERY_HOURS_MAX,
  type LibraryCreateBody,
  type LibraryFilingRule,
} from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import {
  ConditionBuilder,
  completeCriteria,
  type DraftCriteria,
  emptyDraft,
} from '../../components/cohort/ConditionBuilder';
import { RemoteSelect } from '../../components/RemoteSelect';
import { libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { PublishedFormSelect } from './PublishedFormSelect';
import { SourceRulesFormItem } from './RuleBuilder';

export interface LibraryFormValues {
  name: string;
  description?: string;
  diseaseId?: number;
  startFrom: 'form' | 'template';
  crfFormId?: number;
  templateId?: number;
  criteria: DraftCriteria;
  filingRule: LibraryFilingRule;
  /** Item key -> template text, as saved. */
  rules?: Record<string, string>;
  pushEveryHours?: number;
}

export const libraryFormDefaults = (): Partial<LibraryFormValues> => ({
  startFrom: 'form',
  filingRule: 'firstVisit',
  pushEveryHours: 0,
  criteria: emptyDraft(),
});

/** The create-library call from the form: complete conditions only, rules as built. */
export function toLibraryInput(v: LibraryFormValues): LibraryCreateBody {
  return {
    name: v.name,
    description: v.description ?? '',
    diseaseId: v.diseaseId ?? null,
    ...(v.startFrom === 'template' ? { templateId: v.templateId } : { crfFormId: v.crfFormId }),
    filingRule: v.filingRule,
    pushEveryHours: v.pushEveryHours ?? 0,
    criteria: completeCriteria(v.criteria ?? emptyDraft()),
    sourceRules: v.rules ?? {},
  };
}

/** The fields of create-library: name, disease, CRF or common template, criteria, filing rule, rules. */
export function LibraryFormFields() {
  const { t } = useTranslation(LIBRARY_NS);
  const can = useHasAction();
  const mayReadDiseases = can('SystemMaintainDisease', 'query');
  const form = Form.useFormInstance();
  return (
    <>
      <ProForm.Group>
        <ProFormText
          name="name"
          label={t('create.name')}
          width="md"
          rules={[{ required: true, max: LIBRARY_NAME_MAX }]}
        />
        <ProForm.Item name="diseaseId" label={t('create.disease')}>
          <RemoteSelect
            style={{ width: 328 }}
            queryKey={['disease-library', 'disease-picker']}
            disabled={!mayReadDiseases}
            placeholder={mayReadDiseases ? t('create.diseaseSearch') : t('create.noDiseaseAccess')}
            search={async (keyword) =>
              mayReadDiseases
                ? (await libraryApi.diseases(keyword)).items.map((d) => ({
                    value: d.id,
                    label: d.icd10 ? `${d.name} (${d.icd10})` : d.name,
                  }))
                : []
            }
          />
        </ProForm.Item>
      </ProForm.Group>
      <ProFormRadio.Group
        name="startFrom"
        label={t('create.startFrom')}
        radioType="button"
        options={[
          { value: 'form', label: t('create.fromForm') },
          { value: 'template', label: t('create.fromTemplate') },
        ]}
      />
      <ProFormDependency name={['startFrom']}>
        {({ startFrom }) =>
          startFrom === 'template' ? (
            <ProFormSelect
              name="templateId"
              label={t('create.template')}
              width="lg"
              rules={[{ required: true }]}
              fieldProps={{
                // The template's rules are the starting point: shown, and changed here if need be.
                onChange: async (id) => {
                  const picked = (await libraryApi.templates()).find((x) => x.id === id);
                  form.setFieldValue('rules', picked ? { ...picked.sourceRules } : {});
                },
              }}
              request={async () =>
                (await libraryApi.templates()).map((x) => ({
                  value: x.id,
                  label: `${x.name} · ${x.crfFormName ?? ''}`,
                }))
              }
            />
          ) : (
            <PublishedFormSelect width="lg" />
          )
        }
      </ProFormDependency>
      <ProForm.Item name="criteria" label={t('create.criteria')}>
        <ConditionBuilder
          count={async (c) => (await libraryApi.count(c)).count}
          countText={(n) => t('create.preview', { count: n })}
        />
      </ProForm.Item>
      <ProForm.Group>
        <ProFormSelect
          name="filingRule"
          label={t('create.filing')}
          width="sm"
          options={[
            { value: 'push', label: t('create.filingPush') },
            { value: 'firstVisit', label: t('create.filingFirstVisit') },
            { value: 'firstDiagnosis', label: t('create.filingFirstDiagnosis') },
          ]}
        />
        <ProFormDigit
          name="pushEveryHours"
          label={t('create.every')}
          width="sm"
          min={0}
          max={LIBRARY_PUSH_EVERY_HOURS_MAX}
        />
      </ProForm.Group>
      <LibraryRulesField />
      <ProFormTextArea
        name="description"
        label={t('create.description')}
        fieldProps={{ rows: 2 }}
        rules={[{ max: LIBRARY_DESCRIPTION_MAX }]}
      />
    </>
  );
}

/** The source rules of the chosen form's items (the template's form when starting from one). */
function LibraryRulesField() {
  const { t } = useTranslation(LIBRARY_NS);
  const form = Form.useFormInstance();
  const startFrom = Form.useWatch('startFrom', form);
  const crfFormId = Form.useWatch('crfFormId', form) as number | undefined;
  const templateId = Form.useWatch('templateId', form) as number | undefined;
  const templates = useQuery({
    queryKey: ['disease-library', 'templates'],
    queryFn: () => libraryApi.templates(),
    enabled: startFrom === 'template',
  });
  const formId =
    startFrom === 'template' ? templates.data?.find((x) => x.id === templateId)?.crfFormId : crfFormId;
  return (
    <SourceRulesFormItem name="rules" label={t('create.rules')} formId={formId} error={templates.error} />
  );
}
