import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../components/Authorized';
import { DefinitionsScreen } from '../../components/DefinitionsScreen';
import { ApplyItemsModal } from './ApplyItemsModal';
import { VARIABLES_MORE_NS } from './i18n-more';

type Named = { id: number; name: string; description: string };
type Body = { name: string; description?: string };
type ScreenProps<T extends Named, V extends Body, B extends Body> = Parameters<
  typeof DefinitionsScreen<T, V, B>
>[0];
type Apply = Parameters<typeof ApplyItemsModal>[0]['onApply'];

/**
 * A page of templates (变量模板, 变量组模板): the definitions with the name first and the
 * description last, and an 应用 link for those allowed to add that applies the template to
 * items (patients or stays) in a dialog.
 */
export function TemplatesScreen<T extends Named, V extends Body, B extends Body>({
  columns,
  applyText,
  applyTitle,
  withGroupName,
  onApply,
  ...screen
}: Omit<ScreenProps<T, V, B>, 'actionsTitle' | 'editText' | 'rowLinks' | 'children'> & {
  applyText: string;
  /** The apply dialog's title for the template. */
  applyTitle: (template: T) => string;
  withGroupName?: boolean;
  onApply: (template: T, ...args: Parameters<Apply>) => ReturnType<Apply>;
}) {
  const { t } = useTranslation(VARIABLES_MORE_NS);
  const can = useHasAction();
  const [applying, setApplying] = useState<T | null>(null);
  return (
    <DefinitionsScreen<T, V, B>
      {...screen}
      columns={[
        { title: t('name'), dataIndex: 'name' },
        ...columns,
        { title: t('description'), dataIndex: 'description' },
      ]}
      actionsTitle={t('actions')}
      editText={t('edit')}
      rowLinks={(r) =>
        can(screen.menu, 'add') && (
          <Button type="link" size="small" onClick={() => setApplying(r)}>
            {applyText}
          </Button>
        )
      }
    >
      <ApplyItemsModal
        title={applying ? applyTitle(applying) : ''}
        open={!!applying}
        withGroupName={withGroupName}
        onClose={() => setApplying(null)}
        onApply={(items, f) => onApply(applying!, items, f)}
      />
    </DefinitionsScreen>
  );
}
