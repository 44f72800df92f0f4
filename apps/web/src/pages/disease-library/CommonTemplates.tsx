import {
  type ActionType,
  ProFormDependency,
  ProFormText,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import { LIBRARY_DESCRIPTION_MAX, LIBRARY_NAME_MAX } from '@crdp/core';
import { Button, Popconfirm, Space, Typography } from 'antd';
import { type ReactElement, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CutText } from '../../components/CutText';
import { GuardedModalForm } from '../../components/form/GuardedModalForm';
import { useSaveAndClose } from '../../components/form/useSaveAndClose';
import { type CommonTemplate, libraryApi } from './api';
import { LIBRARY_NS } from './i18n';
import { PublishedFormSelect } from './PublishedFormSelect';
import { SourceRulesFormItem } from './RuleBuilder';

interface Values {
  name: string;
  description?: string;
  crfFormId: number;
  /** Item key -> template text, as saved. */
  rules?: Record<string, string>;
}

function TemplateForm({
  template,
  trigger,
  onDone,
}: {
  template?: CommonTemplate;
  trigger: ReactElement;
  onDone: () => void;
}) {
  const { t } = useTranslation(LIBRARY_NS);
  const saveAndClose = useSaveAndClose();
  return (
    <GuardedModalForm<Values>
      title={template ? t('templates.edit') : t('templates.create')}
      trigger={trigger}
      modalProps={{ destroyOnHidden: true }}
      width={860}
      initialValues={
        template
          ? {
              name: template.name,
              description: template.description,
              crfFormId: template.crfFormId,
              rules: { ...template.sourceRules },
            }
          : {}
      }
      onFinish={async (v) => {
        const data = {
          name: v.name,
          description: v.description ?? '',
          crfFormId: v.crfFormId,
          sourceRules: v.rules ?? {},
        };
        return saveAndClose(
          () => (template ? libraryApi.updateTemplate(template.id, data) : libraryApi.createTemplate(data)),
          t('templates.saved'),
          onDone,
        );
      }}
    >
      <ProFormText
        name="name"
        label={t('templates.name')}
        rules={[{ required: true, max: LIBRARY_NAME_MAX }]}
      />
      <PublishedFormSelect />
      <ProFormDependency name={['crfFormId']}>
        {({ crfFormId }) => (
          <SourceRulesFormItem
            name="rules"
            label={t('create.rules')}
            formId={crfFormId as number | undefined}
          />
        )}
      </ProFormDependency>
      <ProFormTextArea
        name="description"
        label={t('create.description')}
        rules={[{ max: LIBRARY_DESCRIPTION_MAX }]}
      />
    </GuardedModalForm>
  );
}

/** commonly-template: published CRFs with their source rules, to start new libraries from. */
export default function CommonTemplates() {
  const { t } = useTranslation(LIBRARY_NS);
  const table = useRef<ActionType>(null);
  const reload = () => table.current?.reload();
  return (
    <ProTable<CommonTemplate>
      rowKey="id"
      actionRef={table}
      headerTitle={t('templates.title')}
      search={false}
      pagination={false}
      request={async () => {
        const rows = await libraryApi.templates();
        return { data: rows, total: rows.length, success: true };
      }}
      toolBarRender={() => [
        <TemplateForm
          key="create"
          onDone={reload}
          trigger={<Button type="primary">{t('templates.create')}</Button>}
        />,
      ]}
      columns={[
        { title: t('templates.name'), dataIndex: 'name' },
        { title: t('list.crf'), dataIndex: 'crfFormName' },
        {
          title: t('templates.rules'),
          key: 'rules',
          render: (_, r) => (
            <Typography.Text type="secondary">
              {t('templates.ruleCount', { count: Object.keys(r.sourceRules).length })}
            </Typography.Text>
          ),
        },
        {
          title: t('create.description'),
          dataIndex: 'description',
          render: (_, r) => <CutText text={r.description} />,
        },
        { title: t('templates.created'), dataIndex: 'createdAt', valueType: 'dateTime' },
        {
          title: '',
          valueType: 'option',
          render: (_, r) => (
            <Space>
              <TemplateForm
                template={r}
                onDone={reload}
                trigger={
                  <Button size="small" type="link">
                    {t('templates.edit')}
                  </Button>
                }
              />
              <Popconfirm
                title={t('templates.confirmDelete', { name: r.name })}
                onConfirm={async () => {
                  await libraryApi.removeTemplate(r.id);
                  reload();
                }}
              >
                <Button size="small" type="link" danger>
                  {t('templates.delete')}
                </Button>
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}
