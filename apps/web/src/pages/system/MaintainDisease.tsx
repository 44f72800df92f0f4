import { type ActionType, ModalForm, ProFormSwitch, ProFormText, ProTable } from '@ant-design/pro-components';
import { DISEASE_CATEGORY_MAX, DISEASE_ICD10_PATTERN, DISEASE_NAME_MAX } from '@crdp/core';
import { App, Button, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { Authorized } from '../../components/Authorized';
import { saveThen } from '../../components/form/server-errors';
import { proPage } from '../../components/table/paging';
import { type AdminDisease, diseaseApi } from './api';
import { ADMIN_NS } from './i18n';
import { useEditDeleteActions } from './RowActions';

/** The server's ICD-10 rule; the server upper-cases the code, so either case may be typed. */
const ICD10_INPUT = new RegExp(`^$|${DISEASE_ICD10_PATTERN.source}`, 'i');

/** Disease maintenance: the app's disease dictionary used by disease libraries and research subjects. */
export default function MaintainDisease() {
  const { t } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const table = useRef<ActionType>(null);
  const rowActions = useEditDeleteActions('SystemMaintainDisease');
  const [editing, setEditing] = useState<AdminDisease | 'new' | null>(null);
  const existing = editing && editing !== 'new' ? editing : null;

  return (
    <>
      <ProTable<AdminDisease>
        rowKey="id"
        actionRef={table}
        headerTitle={t('disease.title')}
        search={{ labelWidth: 'auto' }}
        pagination={{ defaultPageSize: 10 }}
        request={async (p) => {
          const r = await diseaseApi.list({
            ...proPage(p, 10),
            keyword: (p.keyword as string | undefined) || undefined,
            category: (p.category as string | undefined) || undefined,
            enabled: p.enabled === undefined ? undefined : p.enabled === 'true',
          });
          return { data: r.items, total: r.total, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="add" apiId="SystemMaintainDisease.add">
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('disease.add')}
            </Button>
          </Authorized>,
        ]}
        columns={[
          { title: t('common.keyword'), dataIndex: 'keyword', hideInTable: true },
          { title: t('disease.name'), dataIndex: 'name', search: false },
          { title: t('disease.icd10'), dataIndex: 'icd10', search: false, width: 140 },
          { title: t('disease.category'), dataIndex: 'category' },
          {
            title: t('common.state'),
            dataIndex: 'enabled',
            valueType: 'select',
            valueEnum: { true: { text: t('common.enabled') }, false: { text: t('common.disabled') } },
            render: (_, d) =>
              d.enabled ? (
                <Tag color="success">{t('common.enabled')}</Tag>
              ) : (
                <Tag>{t('common.disabled')}</Tag>
              ),
          },
          {
            title: t('common.actions'),
            valueType: 'option',
            render: (_, d) =>
              rowActions({
                name: d.name,
                edit: () => setEditing(d),
                remove: () => diseaseApi.remove(d.id),
                onDone: () => table.current?.reload(),
              }),
          },
        ]}
      />
      <ModalForm<Pick<AdminDisease, 'name' | 'icd10' | 'category' | 'enabled'>>
        title={existing ? t('disease.edit') : t('disease.add')}
        open={!!editing}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={existing ?? { enabled: true }}
        onFinish={async (values) => {
          const body = { ...values, icd10: values.icd10 ?? '', category: values.category ?? '' };
          return saveThen(
            message,
            () => (existing ? diseaseApi.edit(existing.id, body) : diseaseApi.add(body)),
            t('common.saved'),
            () => {
              setEditing(null);
              table.current?.reload();
            },
          );
        }}
      >
        <ProFormText
          name="name"
          label={t('disease.name')}
          rules={[
            { required: true, whitespace: true, message: t('disease.nameRequired') },
            textRule(currentLocale()),
          ]}
          fieldProps={{ maxLength: DISEASE_NAME_MAX }}
        />
        <ProFormText
          name="icd10"
          label={t('disease.icd10')}
          rules={[{ pattern: ICD10_INPUT, message: t('disease.icd10Rule') }]}
        />
        <ProFormText
          name="category"
          label={t('disease.category')}
          rules={[textRule(currentLocale())]}
          fieldProps={{ maxLength: DISEASE_CATEGORY_MAX }}
        />
        <ProFormSwitch name="enabled" label={t('common.enabled')} />
      </ModalForm>
    </>
  );
}
