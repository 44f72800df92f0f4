import { ProCard, ProForm, ProFormRadio, ProFormText } from '@ant-design/pro-components';
import { SITE_ENVIRONMENT_MAX, SITE_TITLE_MAX } from '@crdp/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../app/i18n';
import { textRule } from '../../app/text-rule';
import { useHasAction } from '../../components/Authorized';
import { fieldOf, type ModuleSettings, settingsApi } from './api';
import { ADMIN_NS } from './i18n';

/** System configuration: the module configuration read by `cdm/module_config_one`, per app. */
export default function SystemSet() {
  const { t } = useTranslation(ADMIN_NS);
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = useHasAction();
  const editable = can('SystemSet', 'edit');
  const settings = useQuery({ queryKey: ['admin', 'module-settings'], queryFn: settingsApi.get });
  if (!settings.data) return <Spin />;
  const text = (name: keyof ModuleSettings, required = true, max = SITE_TITLE_MAX) => (
    <ProFormText
      name={name}
      label={t(`settings.${name}`)}
      width="lg"
      rules={[
        ...(required
          ? [
              {
                required: true,
                whitespace: true,
                message: t('settings.required', { label: t(`settings.${name}`) }),
              },
            ]
          : []),
        { max },
        textRule(currentLocale()),
      ]}
    />
  );
  return (
    <ProCard title={t('settings.title')}>
      <ProForm<ModuleSettings>
        initialValues={settings.data}
        disabled={!editable}
        submitter={editable ? { resetButtonProps: false } : false}
        onFinish={async (values) => {
          try {
            await settingsApi.save({ ...settings.data, ...values });
          } catch (e) {
            message.error((e as Error).message);
            if (fieldOf(e)) return false;
            throw e;
          }
          message.success(t('common.saved'));
          void client.invalidateQueries({ queryKey: ['admin', 'module-settings'] });
          void client.invalidateQueries({ queryKey: ['site'] });
          return true;
        }}
      >
        {text('documentTitle')}
        {text('menuTitle')}
        {text('loginTitle')}
        <ProFormText
          name="loginLogo"
          label={t('settings.loginLogo')}
          width="lg"
          extra={t('settings.loginLogoHint')}
        />
        {text('environment', false, SITE_ENVIRONMENT_MAX)}
        {text('company')}
        <ProFormRadio.Group
          name="mode"
          label={t('settings.mode')}
          options={[
            { value: 'single-center', label: t('settings.single') },
            { value: 'multi-center', label: t('settings.multi') },
          ]}
        />
      </ProForm>
    </ProCard>
  );
}
