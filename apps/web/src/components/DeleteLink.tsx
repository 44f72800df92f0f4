import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A row's 删除 link: asks first (确定删除“name”吗？), deletes, says so, then lets the list
 * refresh. A refusal is shown by the API client like every other error and leaves the row.
 */
export function DeleteLink({
  name,
  onDelete,
  onDeleted,
  testId,
}: {
  name: string;
  onDelete: () => Promise<unknown>;
  onDeleted?: () => unknown;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Popconfirm
      title={t('common.confirmDelete', { name })}
      onConfirm={async () => {
        await onDelete();
        message.success(t('common.deleted'));
        await onDeleted?.();
      }}
    >
      <Button type="link" size="small" danger data-testid={testId}>
        {t('common.delete')}
      </Button>
    </Popconfirm>
  );
}
