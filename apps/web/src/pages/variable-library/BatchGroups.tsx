import { ProForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import type { TemplateApplied } from '@crdp/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Card, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { saveOrShow } from '../../components/form/server-errors';
import { AppliedResult, ItemsField } from './ApplyItemsModal';
import { groupTemplatesApi } from './api';
import { VARIABLES_MORE_NS } from './i18n-more';
import { parseItems } from './items';

type Form = { groupTemplateId: number; namePrefix?: string; items: string };

/** 批量变量组 (`/variable-library/batch-variable-group`): a group template applied per item, one group each. */
export default function BatchGroups() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  const [done, setDone] = useState<TemplateApplied | null>(null);
  const templates = useQuery({
    queryKey: ['batch-group-templates'],
    queryFn: groupTemplatesApi.batchTemplates,
  });
  return (
    <Card title={t('batch.title')} data-testid="batch-groups">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('batch.hint')}</Typography.Text>
        {templates.isError && <Alert type="error" showIcon message={templates.error.message} />}
        {templates.data && !templates.data.items.length && (
          <Alert type="info" showIcon message={t('batch.noTemplates')} />
        )}
        <ProForm<Form>
          layout="vertical"
          disabled={!can('VariableBatchGroup', 'add')}
          submitter={{ searchConfig: { submitText: t('batch.run') }, resetButtonProps: false }}
          onFinish={async (v) => {
            const { items, bad } = parseItems(v.items ?? '');
            if (bad !== null) {
              message.error(t('itemsBad', { line: bad }));
              return false;
            }
            await saveOrShow(message, async () =>
              setDone(
                await groupTemplatesApi.batch({
                  groupTemplateId: v.groupTemplateId,
                  namePrefix: v.namePrefix ?? '',
                  items,
                }),
              ),
            );
            return true;
          }}
        >
          <Space wrap align="start">
            <ProFormSelect
              name="groupTemplateId"
              label={t('batch.template')}
              rules={[{ required: true, message: t('required') }]}
              fieldProps={{ loading: templates.isLoading, style: { minWidth: 220 } }}
              options={(templates.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
            />
            <ProFormText name="namePrefix" label={t('batch.namePrefix')} placeholder="肝功能-" />
          </Space>
          <ItemsField />
        </ProForm>
        {done && (
          <>
            <AppliedResult result={done} />
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              data-testid="batch-result"
              dataSource={done.groups}
              columns={[
                { title: t('batch.group'), dataIndex: 'name' },
                {
                  title: t('batch.variables'),
                  key: 'variables',
                  render: (_, g) => (
                    <Space size={[0, 4]} wrap>
                      {g.variables.map((v) => (
                        <Tag key={v.id}>{v.code}</Tag>
                      ))}
                    </Space>
                  ),
                },
              ]}
            />
          </>
        )}
      </Space>
    </Card>
  );
}
