import { COLLECTION_NAME_MAX } from '@crdp/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Form, type FormInstance, Input, Modal, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../app/i18n';
import { textRule } from '../../../app/text-rule';
import { Authorized } from '../../../components/Authorized';
import { QueryTable } from '../../../components/table/QueryTable';
import { COLLECTION_NS } from './i18n';

/** The name of a source, template or task: required, plain text, at most COLLECTION_NAME_MAX. */
export function CollectionNameItem({ width }: { width?: number }) {
  const { t } = useTranslation(COLLECTION_NS);
  return (
    <Form.Item
      name="name"
      label={t('common.name')}
      rules={[
        { required: true, whitespace: true, message: t('common.nameRequired') },
        textRule(currentLocale()),
      ]}
    >
      <Input maxLength={COLLECTION_NAME_MAX} style={width ? { width } : undefined} />
    </Form.Item>
  );
}

/** The add/edit dialog of a source or a task: its form with the name first, then the page's fields. */
export function CollectionFormModal({
  open,
  title,
  onClose,
  onSave,
  form,
  formName,
  testId,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  onSave: () => unknown;
  form: FormInstance;
  formName: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Modal open={open} title={title} onCancel={onClose} onOk={onSave} destroyOnHidden forceRender>
      <Form form={form} name={formName} layout="vertical" data-testid={testId}>
        <CollectionNameItem />
        {children}
      </Form>
    </Modal>
  );
}

/**
 * A tab of 采集模板 (sources, templates): the add button for those allowed to add, the list,
 * then the tab's notices and dialogs.
 */
export function CollectionListTab<T extends { id: number }>({
  addApiId,
  addText,
  addTestId,
  onAdd,
  list,
  empty,
  testId,
  columns,
  children,
}: {
  /** The access that shows the add button (`Menu.add`). */
  addApiId: string;
  addText: string;
  addTestId?: string;
  onAdd: () => void;
  list: UseQueryResult<{ items: T[] }, Error>;
  empty: string;
  /** `data-testid` of the table. */
  testId: string;
  columns: ColumnsType<T>;
  children?: ReactNode;
}) {
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Authorized apiId={addApiId}>
        <Button type="primary" onClick={onAdd} data-testid={addTestId}>
          {addText}
        </Button>
      </Authorized>
      <QueryTable<T>
        query={list}
        empty={empty}
        rowKey="id"
        size="middle"
        dataSource={list.data?.items ?? []}
        pagination={false}
        data-testid={testId}
        columns={columns}
      />
      {children}
    </Space>
  );
}
