import { ProFormText } from '@ant-design/pro-components';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useHasAction } from './Authorized';
import { DefinitionsCard } from './DefinitionsCard';
import { DeleteLink } from './DeleteLink';
import { DefinitionForm } from './form/DefinitionForm';

/**
 * A row's links on a definitions page: the page's own first (运行, 应用…), then 编辑 and 删除 for
 * those whose menu allows them. The delete is asked first and its refusal shown by DeleteLink.
 */
export function DefinitionRowActions({
  menu,
  editText,
  onEdit,
  name,
  onDelete,
  onDeleted,
  before,
  wrap,
}: {
  /** The menu whose `edit` and `delete` show the links. */
  menu: string;
  editText: string;
  onEdit: () => void;
  /** The name the delete confirmation asks about. */
  name: string;
  onDelete: () => Promise<unknown>;
  onDeleted: () => unknown;
  before?: ReactNode;
  wrap?: boolean;
}) {
  const can = useHasAction();
  return (
    <Space size={0} wrap={wrap}>
      {before}
      {can(menu, 'edit') && (
        <Button type="link" size="small" onClick={onEdit}>
          {editText}
        </Button>
      )}
      {can(menu, 'delete') && <DeleteLink name={name} onDelete={onDelete} onDeleted={onDeleted} />}
    </Space>
  );
}

/** The name field a definition's dialog starts with: required, not blank. */
export function DefinitionNameField({ label, requiredText }: { label: string; requiredText: string }) {
  return (
    <ProFormText
      name="name"
      label={label}
      rules={[{ required: true, whitespace: true, message: requiredText }]}
    />
  );
}

/**
 * The texts of a definitions page from its i18n section (`groups`, `sets`…): the title, the
 * 新增 button's text, the hint and the empty list's sentence, to spread into DefinitionsScreen.
 */
export function definitionTexts(t: TFunction, section: string) {
  return {
    title: t(`${section}.title`),
    addText: t(`${section}.add`),
    hint: t(`${section}.hint`),
    empty: t(`${section}.empty`),
  };
}

/** What every definition has: its name and description. */
type Named = { name: string; description: string };

/**
 * A page of an app's definitions that are added, changed and deleted in place (variable sets,
 * groups, templates, transfer rules, indicator groups, transform tasks…): the card with its hint
 * and 新增 button, the list with the page's columns and a last column of row links, and the
 * add/edit dialog, which fills and saves the name and description itself and the page's own
 * fields through `form`. The page holds which definition is open (`editing`), so the queries its
 * form needs can wait until the dialog opens.
 */
export function DefinitionsScreen<
  T extends { id: number } & Named,
  V extends { name: string; description?: string },
  B extends { name: string; description?: string },
>({
  title,
  testId,
  menu,
  addText,
  hint,
  list,
  empty,
  columns,
  actionsTitle,
  editText,
  rowLinks,
  api,
  editing,
  onEditing,
  form,
  fields,
  children,
}: {
  title: string;
  testId: string;
  /** The menu of the page's access: `add` shows 新增, `edit` and `delete` the row links. */
  menu: string;
  /** The 新增 button's text, which is also the add dialog's title. */
  addText: string;
  hint: string;
  list: UseQueryResult<{ items: T[] }, Error>;
  empty: string;
  columns: ColumnsType<T>;
  actionsTitle: string;
  editText: string;
  /** The row's own links, before 编辑 and 删除. */
  rowLinks?: (row: T) => ReactNode;
  api: {
    add: (body: B) => Promise<unknown>;
    edit: (id: number, body: B) => Promise<unknown>;
    remove: (id: number) => Promise<unknown>;
  };
  editing: T | 'new' | null;
  onEditing: (next: T | 'new' | null) => void;
  form: {
    editTitle: string;
    width?: number;
    /** The dialog's own values (besides name and description) for the one being changed. */
    valuesOf?: (existing: T) => Partial<V>;
    /** The dialog's values for a new one. */
    newValues?: Partial<V>;
    /** The body's own fields, besides name and description. */
    bodyOf: (values: V) => Omit<B, keyof Named>;
    savedText: string;
  };
  /** The dialog's fields, the name and description among them where the page wants them. */
  fields: ReactNode;
  /** The page's other dialogs and drawers. */
  children?: ReactNode;
}) {
  const reload = () => list.refetch();
  return (
    <DefinitionsCard<T>
      title={title}
      testId={testId}
      addApiId={`${menu}.add`}
      actions={
        <Button type="primary" onClick={() => onEditing('new')}>
          {addText}
        </Button>
      }
      hint={hint}
      list={list}
      empty={empty}
      columns={[
        ...columns,
        {
          title: actionsTitle,
          key: 'actions',
          render: (_, row) => (
            <DefinitionRowActions
              menu={menu}
              editText={editText}
              onEdit={() => onEditing(row)}
              name={row.name}
              onDelete={() => api.remove(row.id)}
              onDeleted={reload}
              before={rowLinks?.(row)}
            />
          ),
        },
      ]}
    >
      <DefinitionForm<T, V, B>
        editing={editing}
        onClose={() => onEditing(null)}
        title={{ add: addText, edit: form.editTitle }}
        width={form.width}
        initialValues={(existing) =>
          existing
            ? ({
                name: existing.name,
                description: existing.description,
                ...form.valuesOf?.(existing),
              } as Partial<V>)
            : (form.newValues ?? {})
        }
        // The page's part of the body has every field but these two, so together they are a B.
        toBody={(v) => ({ name: v.name, description: v.description ?? '', ...form.bodyOf(v) }) as B}
        add={api.add}
        edit={api.edit}
        savedText={form.savedText}
        onSaved={reload}
      >
        {fields}
      </DefinitionForm>
      {children}
    </DefinitionsCard>
  );
}
