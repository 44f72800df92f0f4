import { type ActionType, ProFormText, ProTable } from '@ant-design/pro-components';
import { RESEARCH_TYPE_CODE_PATTERN, RESEARCH_TYPE_NAME_MAX } from '@crdp/core';
import { App, Button, Popconfirm, Tag } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { GuardedModalForm } from '../../components/form/GuardedModalForm';
import { researchApi, type ProjectType as Type } from './api';
import { RESEARCH_NS } from './i18n';

/** project-type: built-in designs plus the app's own, editable list. */
export default function ProjectType() {
  const { t } = useTranslation(RESEARCH_NS);
  const { message } = App.useApp();
  const table = useRef<ActionType>(null);
  return (
    <ProTable<Type>
      rowKey="code"
      actionRef={table}
      search={false}
      headerTitle={t('types.title')}
      request={async () => ({ data: await researchApi.types(), success: true })}
      toolBarRender={() => [
        <GuardedModalForm<{ code: string; name: string }>
          key="add"
          title={t('types.add')}
          trigger={<Button type="primary">{t('types.add')}</Button>}
          onFinish={async (v) => {
            try {
              await researchApi.addType(v);
              table.current?.reload();
              return true;
            } catch (e) {
              message.error((e as Error).message);
              return false;
            }
          }}
        >
          <ProFormText
            name="code"
            label={t('types.code')}
            tooltip={t('types.codeRule')}
            rules={[{ required: true, pattern: RESEARCH_TYPE_CODE_PATTERN, message: t('types.codeRule') }]}
          />
          <ProFormText
            name="name"
            label={t('list.name')}
            rules={[{ required: true, whitespace: true, max: RESEARCH_TYPE_NAME_MAX }]}
          />
        </GuardedModalForm>,
      ]}
      columns={[
        { title: t('types.code'), dataIndex: 'code' },
        { title: t('list.name'), dataIndex: 'name' },
        {
          title: '',
          render: (_, r) =>
            r.builtIn ? (
              <Tag>{t('types.builtIn')}</Tag>
            ) : (
              <Popconfirm
                title={t('types.confirmDelete')}
                onConfirm={async () => {
                  try {
                    await researchApi.deleteType(r.code);
                    table.current?.reload();
                  } catch (e) {
                    message.error((e as Error).message);
                  }
                }}
              >
                <Button type="link" size="small" danger>
                  {t('types.delete')}
                </Button>
              </Popconfirm>
            ),
        },
      ]}
    />
  );
}
