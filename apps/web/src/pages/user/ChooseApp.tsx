import type { AppSummary } from '@crdp/core';
import { Modal, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The app choice after a sign-in by a person who belongs to several apps. Its own chunk: the
 * login page loads it only when the sign-in answer lists more than one app.
 */
export default function ChooseApp({
  apps,
  selected,
  onSelect,
  onOk,
  onCancel,
  busy,
}: {
  apps: AppSummary[];
  selected: number;
  onSelect: (appId: number) => void;
  onOk: () => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('login.chooseApp')}
      open
      onOk={onOk}
      confirmLoading={busy}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onCancel={onCancel}
    >
      <Typography.Paragraph type="secondary">{t('login.chooseAppHint')}</Typography.Paragraph>
      <Radio.Group value={selected} onChange={(e) => onSelect(e.target.value)}>
        <Space direction="vertical">
          {apps.map((a) => (
            <Radio key={a.AppId} value={a.AppId}>
              {a.AppName || a.AppShortName}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Modal>
  );
}
