import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { TemplateApplied } from '@crdp/core';
import { Alert, App, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveOrShow } from '../../components/form/server-errors';
import { VARIABLES_MORE_NS } from './i18n-more';
import { parseItems } from './items';

type ItemsForm = { items: string; groupName?: string; namePrefix?: string };

/**
 * The items a template is applied to, typed one a line, and what applying made: the new
 * variables, the codes reused, the groups. Shared by variable templates, group templates and
 * batch groups.
 */
export function ApplyItemsModal({
  title,
  open,
  onClose,
  withGroupName = false,
  onApply,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  withGroupName?: boolean;
  onApply: (items: ReturnType<typeof parseItems>['items'], form: ItemsForm) => Promise<TemplateApplied>;
}) {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const { message } = App.useApp();
  const [done, setDone] = useState<TemplateApplied | null>(null);
  return (
    <ModalForm<ItemsForm>
      title={title}
      open={open}
      width={640}
      modalProps={{
        destroyOnHidden: true,
        onCancel: () => {
          setDone(null);
          onClose();
        },
      }}
      submitter={{ searchConfig: { submitText: t('apply') } }}
      onFinish={async (v) => {
        const { items, bad } = parseItems(v.items ?? '');
        if (bad !== null) {
          message.error(t('itemsBad', { line: bad }));
          return false;
        }
        await saveOrShow(message, async () => setDone(await onApply(items, v)));
        return false;
      }}
    >
      {withGroupName && (
        <ProFormText
          name="groupName"
          label={t('groupTemplates.groupName')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        />
      )}
      <ItemsField />
      {done && <AppliedResult result={done} />}
    </ModalForm>
  );
}

/** The items a template is applied to, one a line (`code=label=lab item`). */
export function ItemsField() {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  return (
    <ProFormTextArea
      name="items"
      label={t('items')}
      extra={t('itemsHelp')}
      rules={[{ required: true, whitespace: true, message: t('required') }]}
      fieldProps={{ rows: 5, placeholder: 'ALT=丙氨酸氨基转移酶=ALT\nAST=天门冬氨酸氨基转移酶=AST' }}
    />
  );
}

export function AppliedResult({ result }: { result: TemplateApplied }) {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  return (
    <Alert
      type="success"
      showIcon
      data-testid="applied"
      message={t('created', { n: result.created.length })}
      description={
        <Space direction="vertical" size={4}>
          <Space size={[0, 4]} wrap>
            {result.created.map((v) => (
              <Tag key={v.id} color="blue">
                {v.code}
              </Tag>
            ))}
          </Space>
          {result.existing.length > 0 && <span>{t('existing', { n: result.existing.length })}</span>}
          {result.groups.length > 0 && (
            <span>{t('groupsMade', { names: result.groups.map((g) => g.name).join('、') })}</span>
          )}
        </Space>
      }
    />
  );
}
