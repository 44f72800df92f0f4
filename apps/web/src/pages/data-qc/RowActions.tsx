import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from './api';
import { QC_NS } from './i18n';

/** Enable/disable and delete (with a confirmation) of a rule or plan row, each shown only with its function. */
export function ToggleDeleteActions(props: {
  area: 'DataQcRule' | 'DataQcPlan';
  name: string;
  enabled: boolean;
  setEnabled: (on: boolean) => Promise<unknown>;
  remove: () => Promise<unknown>;
  onDone: () => void;
}) {
  const { t } = useTranslation(QC_NS);
  const { message } = App.useApp();
  const can = useCan();
  return (
    <>
      {can(`${props.area}.${props.enabled ? 'disable' : 'enable'}`) && (
        <Button
          type="link"
          size="small"
          onClick={async () => {
            await props.setEnabled(!props.enabled);
            props.onDone();
          }}
        >
          {props.enabled ? t('common.disable') : t('common.enable')}
        </Button>
      )}
      {can(`${props.area}.delete`) && (
        <Popconfirm
          title={t('common.deleteConfirm', { name: props.name })}
          onConfirm={async () => {
            await props.remove();
            message.success(t('common.deleted'));
            props.onDone();
          }}
        >
          <Button type="link" size="small" danger>
            {t('common.delete')}
          </Button>
        </Popconfirm>
      )}
    </>
  );
}
