import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, List, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FORMULAS_NS } from './formulas-i18n';

/** A built-in definition as the formulas and scales calls list them. */
export interface Builtin {
  key: string;
  name: string;
  description: string;
  added: boolean;
}

/**
 * The built-in formulas or scales, each added to the app with one click; a refusal shows the
 * server's reason.
 */
export function BuiltinsModal<B extends Builtin>({
  open,
  onClose,
  onAdded,
  title,
  width,
  queryKey,
  list,
  add,
  describe = (b) => b.description,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: () => Promise<unknown>;
  title: string;
  width: number;
  queryKey: string;
  list: () => Promise<{ items: B[] }>;
  add: (key: string) => Promise<unknown>;
  describe?: (b: B) => string;
}) {
  const { t } = useTranslation(FORMULAS_NS);
  const { message } = App.useApp();
  const q = useQuery({ queryKey: [queryKey], queryFn: list, enabled: open });
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={title} width={width} destroyOnHidden>
      {q.isError ? (
        <Alert type="error" showIcon message={q.error.message} />
      ) : (
        <List
          loading={q.isLoading}
          dataSource={q.data?.items ?? []}
          renderItem={(b) => (
            <List.Item
              actions={[
                <Button
                  key="add"
                  type="link"
                  disabled={b.added}
                  onClick={async () => {
                    try {
                      await add(b.key);
                      message.success(t('common.added'));
                      await Promise.all([q.refetch(), onAdded()]);
                    } catch (e) {
                      message.error((e as Error).message);
                    }
                  }}
                >
                  {b.added ? t('common.builtinAdded') : t('common.addBuiltin')}
                </Button>,
              ]}
            >
              <List.Item.Meta title={b.name} description={describe(b)} />
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}
