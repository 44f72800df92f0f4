import { App, Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { ADMIN_NS } from './i18n';

/**
 * The 编辑 and 删除 links of a row of a system list, each shown only with its function of the
 * menu; delete asks first (naming the row), says so and reloads the list.
 */
export function useEditDeleteActions(menu: string) {
  const { t } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const can = useHasAction();
  return (row: {
    name: string;
    hint?: ReactNode;
    edit: () => void;
    remove: () => Promise<unknown>;
    onDone: () => void;
  }) => [
    can(menu, 'edit') && (
      <Button type="link" size="small" key="edit" onClick={row.edit}>
        {t('common.edit')}
      </Button>
    ),
    can(menu, 'delete') && (
      <Popconfirm
        key="delete"
        title={t('common.confirmDelete', { name: row.name })}
        description={row.hint}
        onConfirm={async () => {
          await row.remove();
          message.success(t('common.deleted'));
          row.onDone();
        }}
      >
        <Button type="link" size="small">
          {t('common.delete')}
        </Button>
      </Popconfirm>
    ),
  ];
}
